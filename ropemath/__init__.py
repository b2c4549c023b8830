"""ropemath: the mathematics of Rotary Position Embedding (RoPE), derived and machine-checked.

Subpackages in reading order; each imports only those before it (``tests/test_layers.py``):
0. ``ropemath.core``: frequencies θ_i, rotations R^d_{Θ,m}, ``apply_rope``/``RopeCache``, identity checks, precision;
1. ``ropemath.symbolic``: sympy derivation of the 2D solution, proofs, refutations;
2. ``ropemath.theory``: encodings for comparison, long-term decay, Abel summation, the plateau, Men et al.'s base bound;
3. ``ropemath.attention``: softmax and linear attention with RoPE;
4. ``ropemath.models``: Meta / GPT-J / Hugging Face implementations and layouts, context extension (PI, NTK, YaRN);
5. ``ropemath.claims``: every claim of the source notes, checked;
6. ``ropemath.plots``: figures; 7. ``ropemath.cli``: the ``ropemath`` command.
This module re-exports layers 0, 2, 3 and 4 (importing ``ropemath`` does not import sympy).
Index convention: ``i`` runs from 0, θ_i = base^(-2i/d), i = 0..d/2-1 (the paper's θ_{i+1}).

References: Su et al., *RoFormer: Enhanced Transformer with Rotary Position Embedding*,
arXiv:2104.09864 v5 (2023).
"""

from ropemath import attention, core, models, teaching, theory
from ropemath.attention import *  # noqa: F403
from ropemath.core import *  # noqa: F403
from ropemath.models import *  # noqa: F403
from ropemath.teaching import *  # noqa: F403
from ropemath.theory import *  # noqa: F403

__version__ = "0.1.0"

SUBPACKAGES = ("core", "symbolic", "theory", "attention", "models", "claims", "plots", "cli")

__all__ = [*core.__all__, *theory.__all__, *attention.__all__, *models.__all__, *teaching.__all__]
