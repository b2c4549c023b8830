"""The theory of the score: sinusoidal and additive encodings for comparison, the partial sums and the
long-term decay bound (RoFormer §3.4.3), Abel summation, the far-out plateau, and the base bound of Men et al.

Layer 2: may import: ``ropemath.core``.  Modules: ``encodings``, ``decay``, ``abel``, ``plateau``, ``base_bound``.

References: Su et al., *RoFormer: Enhanced Transformer with Rotary Position Embedding*,
arXiv:2104.09864 v5 (2023); the modules' own docstrings give the rest.
"""

from ropemath.theory import abel as _abel
from ropemath.theory import angle_error as _angle_error
from ropemath.theory import base_bound as _base_bound
from ropemath.theory import decay as _decay
from ropemath.theory import encodings as _encodings
from ropemath.theory import plateau as _plateau
from ropemath.theory import relative_position as _relative_position
from ropemath.theory import similar_key as _similar_key
from ropemath.theory.abel import *  # noqa: F403
from ropemath.theory.abel import sharp_pair_products as sharp_pair_products
from ropemath.theory.angle_error import *  # noqa: F403
from ropemath.theory.base_bound import *  # noqa: F403
from ropemath.theory.decay import *  # noqa: F403
from ropemath.theory.encodings import *  # noqa: F403
from ropemath.theory.plateau import *  # noqa: F403

# Importable from the subpackage for the notebooks, outside the top-level API (not covered by the input contract)
from ropemath.theory.plateau import continuum_cosine_sum as continuum_cosine_sum
from ropemath.theory.plateau import dependent_phase_level as dependent_phase_level
from ropemath.theory.plateau import exact_decay_bound as exact_decay_bound
from ropemath.theory.plateau import log_regime as log_regime
from ropemath.theory.plateau import return_distance as return_distance
from ropemath.theory.relative_position import *  # noqa: F403
from ropemath.theory.similar_key import *  # noqa: F403

__all__ = [
    *_encodings.__all__,
    *_decay.__all__,
    *_abel.__all__,
    *_plateau.__all__,
    *_base_bound.__all__,
    *_angle_error.__all__,
    *_similar_key.__all__,
    *_relative_position.__all__,
]

# Long-term decay beyond Figure 2 (notebook 05): importable here, outside the numeric API of ``__all__``.
from ropemath.theory.similar_key import (  # noqa: F401, E402
    normalised_plateau,
    similar_key_expected_score,
    similar_key_scores,
)
