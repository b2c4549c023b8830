"""Models in practice: the reference implementations (Meta, GPT-J, GPT-NeoX / Hugging Face) and their layouts,
partial rotary, the W_q/W_k permutation, and context extension (PI, NTK, dynamic NTK, YaRN, Llama 3.1).

Layer 4: may import: ``ropemath.core``, ``ropemath.theory``, ``ropemath.attention``.
Modules: ``implementations``, ``yarn``, ``scaling``, ``config`` (a Hugging Face config to θ_i),
``agreement`` (which pairing each implementation uses, offline and against the real packages).

References: Su et al., *RoFormer: Enhanced Transformer with Rotary Position Embedding*,
arXiv:2104.09864 v5 (2023); the modules' own docstrings give the rest.
"""

from ropemath.models.agreement import (
    layout_verdicts,
    real_layout_verdicts,
)
from ropemath.models.config import (
    ROPE_TYPES,
    RopeFrequencies,
    frequencies_from_config,
)
from ropemath.models.context_length import (
    MEN_ET_AL_BASES as MEN_ET_AL_BASES,
)
from ropemath.models.context_length import (
    check_published_bases as check_published_bases,
)
from ropemath.models.context_length import (
    critical_pair as critical_pair,
)
from ropemath.models.context_length import (
    round_up as round_up,
)
from ropemath.models.context_length import (
    yarn_bands as yarn_bands,
)
from ropemath.models.context_length import (
    yarn_bprime_frequencies as yarn_bprime_frequencies,
)
from ropemath.models.context_length import (
    yarn_paper_vs_code as yarn_paper_vs_code,
)
from ropemath.models.implementation_errors import (
    bfloat16_distances as bfloat16_distances,
)
from ropemath.models.implementation_errors import (
    distance_band_errors as distance_band_errors,
)
from ropemath.models.implementation_errors import (
    layout_pairs as layout_pairs,
)
from ropemath.models.implementation_errors import (
    max_phase_error as max_phase_error,
)
from ropemath.models.implementation_errors import (
    relative_error as relative_error,
)
from ropemath.models.implementation_errors import (
    rope_float32_angles as rope_float32_angles,
)
from ropemath.models.implementations import (
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
from ropemath.models.questions import (
    aliased_frequency as aliased_frequency,
)
from ropemath.models.questions import (
    attention_outputs as attention_outputs,
)
from ropemath.models.questions import (
    cached_key_scores as cached_key_scores,
)
from ropemath.models.questions import (
    dynamic_ntk_decode_scores as dynamic_ntk_decode_scores,
)
from ropemath.models.questions import (
    hf_cos_sin_error as hf_cos_sin_error,
)
from ropemath.models.questions import (
    left_padded_positions as left_padded_positions,
)
from ropemath.models.questions import (
    rope_pipeline as rope_pipeline,
)
from ropemath.models.questions import (
    to_tf32 as to_tf32,
)
from ropemath.models.scaling import (
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
from ropemath.models.yarn import (
    llama31_bands,
    llama31_frequencies,
    yarn_attention_factor,
    yarn_correction_dim,
    yarn_correction_range,
    yarn_frequencies,
    yarn_ramp,
    yarn_reference_frequencies,
)

# Importable from ropemath.models for the notebooks, not part of the top-level API (notebook helpers):
# bfloat16_distances, distance_band_errors, layout_pairs, max_phase_error, relative_error, rope_float32_angles,
# dynamic_ntk_decode_scores, left_padded_positions, rope_pipeline, to_tf32, and notebooks 08/10's
# context_length and questions helpers.
__all__ = [
    "layout_verdicts",
    "real_layout_verdicts",
    "ROPE_TYPES",
    "RopeFrequencies",
    "frequencies_from_config",
    "angle_range_ratio",
    "dynamic_ntk_frequencies",
    "dynamic_ntk_scale",
    "extension_frequencies",
    "gptj_rope",
    "llama31_bands",
    "llama31_frequencies",
    "meta_freqs_cis",
    "meta_llama_rope",
    "multihead_rope_attention",
    "neox_rope",
    "never_full_turn",
    "ntk_base",
    "ntk_frequencies",
    "partial_rotary",
    "permute_for_half",
    "permute_for_interleaved",
    "position_interpolation",
    "rotate_every_two",
    "rotate_half",
    "theta_relative_position_error",
    "theta_rotation_matrix",
    "unseen_angle_pairs",
    "yarn_attention_factor",
    "yarn_correction_dim",
    "yarn_correction_range",
    "yarn_frequencies",
    "yarn_ramp",
    "yarn_reference_frequencies",
]
