"""ropemath: the mathematics of Rotary Position Embedding (RoPE), derived and machine-checked.

Scope: the public API, re-exported from the modules that implement it.  The folder shows
the architecture: ``rotation`` (frequencies, dense matrices) → ``apply`` (fast elementwise
form, layouts) → ``checks`` (numeric identity checks); ``cli`` drives them from the shell.

Index convention: ``i`` runs from 0, θ_i = base^(-2i/d), i = 0..d/2-1 (the paper's θ_{i+1}).

References: Su et al., *RoFormer: Enhanced Transformer with Rotary Position Embedding*,
arXiv:2104.09864 v5 (2023).
"""

from .abel import (
    abel_bound,
    abel_check,
    abel_constant,
    abel_identity_error,
    complex_score,
    pair_products,
)
from .apply import apply_rope, to_half, to_interleaved
from .attention import (
    rope_attention_weights,
    rope_scores,
    rope_softmax_attention,
    shift_invariance_error,
)
from .base_bound import (
    BaseBound,
    base_lower_bound,
    cosine_sum,
    cosine_sum_minimum,
    failing_intervals,
)
from .blocks import block_diagonal
from .cache import RopeCache
from .checks import (
    composition_error,
    determinant_error,
    elementwise_error,
    norm_error,
    orthogonality_error,
    relative_position_error,
    transpose_error,
)
from .decay import (
    binned_bound,
    decay_bound,
    decay_bound_slope,
    partial_sums,
    rising_intervals,
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
from .implementations import (
    gptj_rope,
    meta_freqs_cis,
    meta_llama_rope,
    multihead_rope_attention,
    neox_rope,
    partial_rotary,
    permute_for_half,
    permute_for_interleaved,
    rotate_every_two,
    rotate_half,
)
from .linear_attention import (
    elu_plus_one,
    rope_linear_attention,
    rope_linear_attention_prefix,
    rope_linear_terms,
    smallest_numerator,
    weight_sum_deviation,
)
from .plateau import random_phase_level
from .precision import (
    angles_in_format,
    largest_distinct_integer,
    phase_error,
    round_to_format,
    shift_error_in_format,
    to_bfloat16,
)
from .rotation import angles, frequencies, half_permutation, rotation_2d, rotation_matrix
from .roundoff import angle_error_bound, angle_rounding_error, error_vs_position, loglog_slope
from .scaling import (
    angle_range_ratio,
    dynamic_ntk_frequencies,
    dynamic_ntk_scale,
    extension_frequencies,
    never_full_turn,
    ntk_base,
    ntk_frequencies,
    position_interpolation,
    theta_relative_position_error,
    theta_rotation_matrix,
    unseen_angle_pairs,
)
from .spectrum import full_turn_count, turns, wavelengths
from .yarn import (
    llama31_bands,
    llama31_frequencies,
    yarn_attention_factor,
    yarn_correction_dim,
    yarn_correction_range,
    yarn_frequencies,
    yarn_ramp,
    yarn_reference_frequencies,
)

__version__ = "0.1.0"

__all__ = [
    "BaseBound",
    "RopeCache",
    "abel_bound",
    "abel_check",
    "abel_constant",
    "abel_identity_error",
    "additive_score_expansion",
    "additive_scores",
    "angle_error_bound",
    "angle_range_ratio",
    "angle_rounding_error",
    "angles",
    "angles_in_format",
    "apply_rope",
    "base_lower_bound",
    "binned_bound",
    "block_diagonal",
    "complex_score",
    "composition_error",
    "cosine_sum",
    "cosine_sum_minimum",
    "decay_bound",
    "decay_bound_slope",
    "determinant_error",
    "dynamic_ntk_frequencies",
    "dynamic_ntk_scale",
    "elementwise_error",
    "elu_plus_one",
    "error_vs_position",
    "extension_frequencies",
    "failing_intervals",
    "frequencies",
    "full_turn_count",
    "gptj_rope",
    "half_permutation",
    "largest_distinct_integer",
    "llama31_bands",
    "llama31_frequencies",
    "loglog_slope",
    "meta_freqs_cis",
    "meta_llama_rope",
    "multihead_rope_attention",
    "neox_rope",
    "never_full_turn",
    "norm_error",
    "ntk_base",
    "ntk_frequencies",
    "orthogonality_error",
    "pair_products",
    "partial_rotary",
    "partial_sums",
    "permute_for_half",
    "permute_for_interleaved",
    "phase_error",
    "position_interpolation",
    "random_phase_level",
    "relative_bias",
    "relative_position_error",
    "rising_intervals",
    "rope_attention_weights",
    "rope_linear_attention",
    "rope_linear_attention_prefix",
    "rope_linear_terms",
    "rope_scores",
    "rope_softmax_attention",
    "rotate_every_two",
    "rotate_half",
    "rotation_2d",
    "rotation_matrix",
    "round_to_format",
    "shift_error_in_format",
    "shift_invariance_error",
    "sinusoidal_dot_closed_form",
    "sinusoidal_dot_identity",
    "sinusoidal_encoding",
    "sinusoidal_pair_decomposition",
    "sinusoidal_scores",
    "smallest_numerator",
    "theta_relative_position_error",
    "theta_rotation_matrix",
    "to_bfloat16",
    "to_half",
    "to_interleaved",
    "transpose_error",
    "turns",
    "unseen_angle_pairs",
    "wavelengths",
    "weight_sum_deviation",
    "yarn_attention_factor",
    "yarn_correction_dim",
    "yarn_correction_range",
    "yarn_frequencies",
    "yarn_ramp",
    "yarn_reference_frequencies",
]
