"""The core: frequencies and rotations, ``apply_rope`` and ``RopeCache``, the numeric identity checks, the
spectrum (wavelengths, turns), input validation, and the precision and round-off of the angles.

Layer 0: imports numpy only.  References: Su et al., *RoFormer*, arXiv:2104.09864 v5 (2023); the modules'
docstrings give the rest.
"""

from ropemath.core import apply as _apply
from ropemath.core import blocks as _blocks
from ropemath.core import checks as _checks
from ropemath.core import error_bounds as _error_bounds
from ropemath.core import precision as _precision
from ropemath.core import rotation as _rotation
from ropemath.core import roundoff as _roundoff
from ropemath.core import spectrum as _spectrum
from ropemath.core.apply import *  # noqa: F403
from ropemath.core.blocks import *  # noqa: F403
from ropemath.core.checks import *  # noqa: F403

# the survey of the checks (appendix 11), importable from ropemath.core outside the top-level API
from ropemath.core.checks import survey as survey
from ropemath.core.error_bounds import *  # noqa: F403

# Importable from the subpackage for the notebooks, outside the top-level API (not covered by the input contract)
from ropemath.core.error_bounds import determinant_error_bound as determinant_error_bound
from ropemath.core.error_bounds import elementwise_error_bound as elementwise_error_bound
from ropemath.core.error_bounds import norm_error_bound as norm_error_bound
from ropemath.core.error_bounds import orthogonality_error_bound as orthogonality_error_bound
from ropemath.core.error_bounds import survey_bounds as survey_bounds
from ropemath.core.precision import *  # noqa: F403
from ropemath.core.rotation import *  # noqa: F403
from ropemath.core.roundoff import *  # noqa: F403
from ropemath.core.spectrum import *  # noqa: F403

__all__ = [
    *_rotation.__all__,
    *_apply.__all__,
    *_blocks.__all__,
    *_checks.__all__,
    *_spectrum.__all__,
    *_roundoff.__all__,
    *_precision.__all__,
    *_error_bounds.__all__,
]
