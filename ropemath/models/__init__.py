"""Models in practice: the reference implementations (Meta, GPT-J, GPT-NeoX / Hugging Face) and their layouts,
partial rotary, the W_q/W_k permutation, and context extension (PI, NTK, dynamic NTK, YaRN, Llama 3.1).

Layer 4: may import: ``ropemath.core``, ``ropemath.theory``, ``ropemath.attention``.
Modules: ``implementations``, ``yarn``, ``scaling``, ``config`` (a Hugging Face config to θ_i),
``agreement`` (which pairing each implementation uses, offline and against the real packages).

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
