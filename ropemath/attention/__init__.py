"""Attention with RoPE: softmax attention (``softmax``) and linear attention (``linear``, RoFormer eq. 19).

Layer 3: may import: ``ropemath.core``, ``ropemath.theory``.  Modules: ``linear``, ``softmax``.

References: Su et al., *RoFormer: Enhanced Transformer with Rotary Position Embedding*,
arXiv:2104.09864 v5 (2023); the modules' own docstrings give the rest.
"""

from ropemath.attention.linear import (
    elu_plus_one,
    rope_linear_attention,
    rope_linear_attention_prefix,
    rope_linear_terms,
    smallest_numerator,
    weight_sum_deviation,
)
from ropemath.attention.softmax import (
    rope_attention_weights,
    rope_scores,
    rope_softmax_attention,
    shift_invariance_error,
)

__all__ = [
    "elu_plus_one",
    "rope_attention_weights",
    "rope_linear_attention",
    "rope_linear_attention_prefix",
    "rope_linear_terms",
    "rope_scores",
    "rope_softmax_attention",
    "shift_invariance_error",
    "smallest_numerator",
    "weight_sum_deviation",
]
