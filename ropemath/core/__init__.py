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

# Importable from ropemath.core for the notebooks, outside the top-level API (``x as x`` re-exports):
# the survey of the checks and their derived rounding bounds (appendix 11), the exercise checker.
from ropemath.core.checks import survey as survey
from ropemath.core.error_bounds import complex_rotation_bound as complex_rotation_bound
from ropemath.core.error_bounds import composition_error_bound as composition_error_bound
from ropemath.core.error_bounds import determinant_error_bound as determinant_error_bound
from ropemath.core.error_bounds import elementwise_error_bound as elementwise_error_bound
from ropemath.core.error_bounds import norm_error_bound as norm_error_bound
from ropemath.core.error_bounds import orthogonality_error_bound as orthogonality_error_bound
from ropemath.core.error_bounds import pair_relative_error as pair_relative_error
from ropemath.core.error_bounds import relative_position_error_bound as relative_position_error_bound
from ropemath.core.error_bounds import survey_bounds as survey_bounds
from ropemath.core.error_bounds import two_product_rope as two_product_rope
from ropemath.core.error_bounds import two_product_ulp_bound as two_product_ulp_bound
from ropemath.core.error_bounds import ulp_errors as ulp_errors
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
