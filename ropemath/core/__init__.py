"""The core: frequencies and rotations, the elementwise apply and its cache, the numeric identity checks,
input validation, and precision / round-off of the angles.

Layer 0: may import: numpy only (and other modules of ``ropemath.core``).
Modules: ``rotation``, ``blocks``, ``tables``, ``kernels``, ``outputs``, ``apply``, ``cache``, ``checks``,
``spectrum``, ``roundoff``, ``precision``, ``verdict`` (how a check is reported: a bound and a yes, never
rounding noise).

References: Su et al., *RoFormer: Enhanced Transformer with Rotary Position Embedding*,
arXiv:2104.09864 v5 (2023); the modules' own docstrings give the rest.
"""

from ropemath.core.apply import (
    apply_rope,
    to_half,
    to_interleaved,
)
from ropemath.core.blocks import (
    block_diagonal,
)
from ropemath.core.cache import (
    RopeCache,
)
from ropemath.core.checks import (
    composition_error,
    determinant_error,
    elementwise_error,
    norm_error,
    orthogonality_error,
    relative_position_error,
    transpose_error,
)
from ropemath.core.exercises import WrongAnswer as WrongAnswer  # notebook helpers, outside the numeric API
from ropemath.core.exercises import check_answer as check_answer
from ropemath.core.precision import (
    angles_in_format,
    largest_distinct_integer,
    phase_error,
    round_to_format,
    shift_error_in_format,
    to_bfloat16,
)
from ropemath.core.rotation import (
    angles,
    frequencies,
    half_permutation,
    rotation_2d,
    rotation_matrix,
)
from ropemath.core.roundoff import (
    angle_error_bound,
    angle_rounding_error,
    error_vs_position,
    loglog_slope,
)
from ropemath.core.spectrum import (
    full_turn_count,
    turns,
    wavelengths,
)
from ropemath.core.verdict import (
    verdict,
    verdict_above,
)

__all__ = [
    "verdict",
    "verdict_above",
    "RopeCache",
    "angle_error_bound",
    "angle_rounding_error",
    "angles",
    "angles_in_format",
    "apply_rope",
    "block_diagonal",
    "composition_error",
    "determinant_error",
    "elementwise_error",
    "error_vs_position",
    "frequencies",
    "full_turn_count",
    "half_permutation",
    "largest_distinct_integer",
    "loglog_slope",
    "norm_error",
    "orthogonality_error",
    "phase_error",
    "relative_position_error",
    "rotation_2d",
    "rotation_matrix",
    "round_to_format",
    "shift_error_in_format",
    "to_bfloat16",
    "to_half",
    "to_interleaved",
    "transpose_error",
    "turns",
    "wavelengths",
]
