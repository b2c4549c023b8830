"""Models in practice: the reference implementations (Meta, GPT-J, GPT-NeoX / Hugging Face) and their layouts,
partial rotary, the W_q/W_k permutation, and context extension (PI, NTK, dynamic NTK, YaRN, Llama 3.1).

Layer 4: may import: ``ropemath.core``, ``ropemath.theory``, ``ropemath.attention``.
Modules: ``implementations``, ``yarn``, ``scaling``, ``config`` (a Hugging Face config to θ_i),
``agreement`` (which pairing each implementation uses, offline and against the real packages),
``llama`` (a Llama model's forward pass in numpy) and ``gguf_file`` (loading SmolLM2-135M from its GGUF file).

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

# A trained model read in numpy (SmolLM2-135M, notebook 12): available as ``ropemath.models.<name>``, kept out of
# ``__all__`` and so out of the top-level ``ropemath`` namespace (the redundant aliases mark the re-exports).
from ropemath.models.gguf_file import MODEL_FETCH_COMMAND as MODEL_FETCH_COMMAND  # noqa: E402
from ropemath.models.gguf_file import load_llama as load_llama  # noqa: E402
from ropemath.models.gguf_file import model_path as model_path  # noqa: E402
from ropemath.models.gguf_file import reading_text as reading_text  # noqa: E402
from ropemath.models.llama import LlamaConfig as LlamaConfig  # noqa: E402
from ropemath.models.llama import LlamaLayer as LlamaLayer  # noqa: E402
from ropemath.models.llama import LlamaModel as LlamaModel  # noqa: E402
from ropemath.models.llama import attention_entropy as attention_entropy  # noqa: E402
from ropemath.models.llama import llama_forward as llama_forward  # noqa: E402
from ropemath.models.llama import low_precision_rope as low_precision_rope  # noqa: E402
from ropemath.models.llama import mean_by_distance as mean_by_distance  # noqa: E402
from ropemath.models.llama import pair_norms as pair_norms  # noqa: E402
from ropemath.models.llama import pairs_removed_rope as pairs_removed_rope  # noqa: E402
from ropemath.models.llama import perplexity as perplexity  # noqa: E402
from ropemath.models.llama import round_to_bfloat16 as round_to_bfloat16  # noqa: E402
