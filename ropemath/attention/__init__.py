"""Attention with RoPE: softmax attention (``softmax``) and linear attention (``linear``, RoFormer eq. 19).

Layer 3: may import: ``ropemath.core``, ``ropemath.theory``.  Modules: ``linear``, ``softmax``.

References: Su et al., *RoFormer: Enhanced Transformer with Rotary Position Embedding*,
arXiv:2104.09864 v5 (2023); the modules' own docstrings give the rest.
"""

from ropemath.attention import linear as _linear
from ropemath.attention import linear_cost as _linear_cost
from ropemath.attention import softmax as _softmax
from ropemath.attention.linear import *  # noqa: F403
from ropemath.attention.linear_cost import *  # noqa: F403
from ropemath.attention.softmax import *  # noqa: F403

__all__ = [
    *_softmax.__all__,
    *_linear.__all__,
    *_linear_cost.__all__,
]
