"""ropemath: the mathematics of Rotary Position Embedding (RoPE), derived and machine-checked.

Scope: the public API, re-exported from the modules that implement it.  The folder shows
the architecture: ``rotation`` (frequencies, dense matrices) → ``apply`` (fast elementwise
form, layouts) → ``checks`` (numeric identity checks); ``cli`` drives them from the shell.

Index convention: ``i`` runs from 0, θ_i = base^(-2i/d), i = 0..d/2-1 (the paper's θ_{i+1}).

References: Su et al., *RoFormer: Enhanced Transformer with Rotary Position Embedding*,
arXiv:2104.09864 v5 (2023).
"""

from .apply import apply_rope, to_half, to_interleaved
from .attention import (
    elu_plus_one,
    rope_attention_weights,
    rope_linear_attention,
    rope_linear_attention_prefix,
    rope_linear_terms,
    rope_scores,
    rope_softmax_attention,
    shift_invariance_error,
    smallest_numerator,
    weight_sum_deviation,
)
from .checks import (
    composition_error,
    determinant_error,
    elementwise_error,
    norm_error,
    orthogonality_error,
    relative_position_error,
    transpose_error,
)
from .encodings import (
    additive_score_expansion,
    additive_scores,
    relative_bias,
    sinusoidal_dot_closed_form,
    sinusoidal_dot_identity,
    sinusoidal_encoding,
    sinusoidal_pair_decomposition,
    sinusoidal_scores,
)
from .rotation import angles, frequencies, half_permutation, rotation_2d, rotation_matrix

__version__ = "0.1.0"

__all__ = [
    "additive_score_expansion",
    "additive_scores",
    "angles",
    "apply_rope",
    "composition_error",
    "determinant_error",
    "elementwise_error",
    "elu_plus_one",
    "frequencies",
    "half_permutation",
    "norm_error",
    "orthogonality_error",
    "relative_bias",
    "relative_position_error",
    "rope_attention_weights",
    "rope_linear_attention",
    "rope_linear_attention_prefix",
    "rope_linear_terms",
    "rope_scores",
    "rope_softmax_attention",
    "rotation_2d",
    "rotation_matrix",
    "shift_invariance_error",
    "sinusoidal_dot_closed_form",
    "sinusoidal_dot_identity",
    "sinusoidal_encoding",
    "sinusoidal_pair_decomposition",
    "sinusoidal_scores",
    "smallest_numerator",
    "to_half",
    "to_interleaved",
    "transpose_error",
    "weight_sum_deviation",
]
