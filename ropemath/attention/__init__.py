"""Attention with RoPE: softmax attention (``softmax``) and linear attention (``linear``, RoFormer eq. 19).

Layer 3: may import ``ropemath.core``, ``ropemath.theory``.  References: Su et al., *RoFormer*,
arXiv:2104.09864 v5 (2023); the modules' docstrings give the rest.
"""

from ropemath.attention import linear as _linear
from ropemath.attention import softmax as _softmax
from ropemath.attention.linear import *  # noqa: F403
from ropemath.attention.softmax import *  # noqa: F403

__all__ = [*_softmax.__all__, *_linear.__all__]
