"""ropemath: the mathematics of Rotary Position Embedding (RoPE), derived and machine-checked.

The subpackages, in the order a reader meets them (each layer imports only the layers above it
in this list; ``tests/test_layers.py`` enforces it):

0. ``ropemath.core``       frequencies θ_i, rotations R^d_{Θ,m}, ``apply_rope`` and ``RopeCache``, the
                           numeric identity checks, input validation, precision and round-off.
1. ``ropemath.symbolic``   the proofs: sympy derivation of the 2D solution, identities, refutations.
2. ``ropemath.theory``     the theory of the score: encodings for comparison, long-term decay, Abel
                           summation, the plateau, Men et al.'s lower bound on the base.
3. ``ropemath.attention``  softmax and linear attention with RoPE.
4. ``ropemath.models``     models in practice: Meta / GPT-J / Hugging Face implementations and layouts,
                           context extension (PI, NTK, YaRN, Llama 3.1).
5. ``ropemath.claims``     the claims ledger: every mathematical claim of the source notes, checked.
6. ``ropemath.plots``      figure functions and the registry of committed figures.
7. ``ropemath.cli``        the ``ropemath`` command (check, derive, figures, claims, bench).

This module re-exports the names of layers 0, 2, 3 and 4 that users and notebooks use; ``symbolic``,
``claims``, ``plots`` and ``cli`` are imported on demand (importing ``ropemath`` does not import sympy).

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
