"""ropemath: the mathematics of Rotary Position Embedding (RoPE), derived and machine-checked.

Scope: the public API, re-exported from the modules that implement it.  The folder shows
the architecture: ``rotation`` (frequencies, dense matrices) → ``apply`` (fast elementwise
form, layouts) → ``checks`` (numeric identity checks); ``cli`` drives them from the shell.

Index convention: ``i`` runs from 0, θ_i = base^(-2i/d), i = 0..d/2-1 (the paper's θ_{i+1}).

References: Su et al., *RoFormer: Enhanced Transformer with Rotary Position Embedding*,
arXiv:2104.09864 v5 (2023).
"""

from .apply import apply_rope, to_half, to_interleaved
from .checks import (
    composition_error,
    determinant_error,
    elementwise_error,
    norm_error,
    orthogonality_error,
    relative_position_error,
    transpose_error,
)
from .rotation import angles, frequencies, half_permutation, rotation_2d, rotation_matrix

__version__ = "0.1.0"

__all__ = [
    "angles",
    "apply_rope",
    "composition_error",
    "determinant_error",
    "elementwise_error",
    "frequencies",
    "half_permutation",
    "norm_error",
    "orthogonality_error",
    "relative_position_error",
    "rotation_2d",
    "rotation_matrix",
    "to_half",
    "to_interleaved",
    "transpose_error",
]
