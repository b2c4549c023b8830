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
from ropemath.theory.angle_error import *  # noqa: F403
from ropemath.theory.base_bound import *  # noqa: F403
from ropemath.theory.decay import *  # noqa: F403
from ropemath.theory.encodings import *  # noqa: F403
from ropemath.theory.plateau import *  # noqa: F403
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
from ropemath.theory.abel import sharp_pair_products  # noqa: F401, E402
from ropemath.theory.plateau import (  # noqa: F401, E402
    continuum_cosine_sum,
    dependent_phase_level,
    exact_decay_bound,
    log_regime,
    return_distance,
)
from ropemath.theory.similar_key import (  # noqa: F401, E402
    normalised_plateau,
    similar_key_expected_score,
    similar_key_scores,
)
