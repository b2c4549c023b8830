"""The theory of the score: sinusoidal and additive encodings for comparison, the partial sums and the
long-term decay bound (RoFormer §3.4.3), Abel summation, the far-out plateau, and Su's lower bound on the base.

Layer 2: may import: ``ropemath.core``.  Modules: ``encodings``, ``decay``, ``abel``, ``plateau``, ``base_bound``.

References: Su et al., *RoFormer: Enhanced Transformer with Rotary Position Embedding*,
arXiv:2104.09864 v5 (2023); the modules' own docstrings give the rest.
"""

from ropemath.theory.abel import (
    abel_bound,
    abel_check,
    abel_constant,
    abel_identity_error,
    complex_score,
    pair_products,
)
from ropemath.theory.angle_error import exact_angle_error, two_step_angle_bound
from ropemath.theory.base_bound import (
    BaseBound,
    base_lower_bound,
    cosine_sum,
    cosine_sum_minimum,
    failing_intervals,
)
from ropemath.theory.decay import (
    binned_bound,
    decay_bound,
    decay_bound_slope,
    partial_sums,
    rising_intervals,
)
from ropemath.theory.encodings import (
    additive_score_expansion,
    additive_scores,
    relative_bias,
    sinusoidal_dot_closed_form,
    sinusoidal_dot_identity,
    sinusoidal_encoding,
    sinusoidal_pair_decomposition,
    sinusoidal_scores,
)
from ropemath.theory.plateau import (
    random_phase_level,
)

__all__ = [
    "BaseBound",
    "abel_bound",
    "abel_check",
    "abel_constant",
    "abel_identity_error",
    "additive_score_expansion",
    "additive_scores",
    "base_lower_bound",
    "binned_bound",
    "complex_score",
    "cosine_sum",
    "cosine_sum_minimum",
    "decay_bound",
    "decay_bound_slope",
    "exact_angle_error",
    "failing_intervals",
    "pair_products",
    "partial_sums",
    "random_phase_level",
    "relative_bias",
    "rising_intervals",
    "sinusoidal_dot_closed_form",
    "sinusoidal_dot_identity",
    "sinusoidal_encoding",
    "sinusoidal_pair_decomposition",
    "sinusoidal_scores",
    "two_step_angle_bound",
]
