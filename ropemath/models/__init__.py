"""Models in practice: the reference implementations (Meta, GPT-J, GPT-NeoX / Hugging Face) and their layouts,
partial rotary, the W_q/W_k permutation, and context extension (PI, NTK, dynamic NTK, YaRN, Llama 3.1).

Layer 4: may import: ``ropemath.core``, ``ropemath.theory``, ``ropemath.attention``.

References: Su et al., *RoFormer: Enhanced Transformer with Rotary Position Embedding*,
arXiv:2104.09864 v5 (2023); the modules' own docstrings give the rest.
"""

from ropemath.models import agreement as _agreement
from ropemath.models import config as _config
from ropemath.models import context_length as _context_length
from ropemath.models import deployment as _deployment
from ropemath.models import implementations as _implementations
from ropemath.models import pitfalls as _pitfalls
from ropemath.models import scaling as _scaling
from ropemath.models import yarn as _yarn
from ropemath.models.agreement import *  # noqa: F403
from ropemath.models.config import *  # noqa: F403
from ropemath.models.context_length import *  # noqa: F403
from ropemath.models.deployment import *  # noqa: F403

# Importable from the subpackage for the notebooks, outside the top-level API (not covered by the input contract)
from ropemath.models.deployment import dynamic_ntk_decode_scores as dynamic_ntk_decode_scores
from ropemath.models.deployment import dynamic_ntk_kept_theta as dynamic_ntk_kept_theta
from ropemath.models.deployment import left_padded_positions as left_padded_positions
from ropemath.models.deployment import rope_pipeline as rope_pipeline
from ropemath.models.deployment import to_tf32 as to_tf32
from ropemath.models.implementations import *  # noqa: F403
from ropemath.models.pitfalls import *  # noqa: F403
from ropemath.models.scaling import *  # noqa: F403
from ropemath.models.yarn import *  # noqa: F403

__all__ = [
    *_implementations.__all__,
    *_agreement.__all__,
    *_config.__all__,
    *_scaling.__all__,
    *_yarn.__all__,
    *_context_length.__all__,
    *_pitfalls.__all__,
    *_deployment.__all__,
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
