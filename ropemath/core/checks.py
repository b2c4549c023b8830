r"""Numeric checks of RoPE's identities, each returning the measured error (numpy).

Scope: every function builds both sides of one identity independently and returns
the largest discrepancy as a float, scaled as its docstring says, so notebooks can
show it and tests can bound it.  The dense side always comes from
:func:`ropemath.rotation_matrix` (the definition); the fast side, where there is one,
from :func:`ropemath.apply_rope`.

References: Su et al., *RoFormer*, arXiv:2104.09864 v5, §3.2.2 eq. (16), §3.4.2 eq. (34);
"R^d_Θ is an orthogonal matrix" (§3.2.2).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ropemath.core._validate import check_base, check_d, check_layout, check_real, check_x, finite_result
from ropemath.core.apply import apply_rope
from ropemath.core.rotation import rotation_matrix

__all__ = [
    "relative_position_error",
    "orthogonality_error",
    "determinant_error",
    "norm_error",
    "composition_error",
    "transpose_error",
    "elementwise_error",
]


def _pair(q: npt.ArrayLike, k: npt.ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    q = check_x(q, "q", min_norm=1e-100).astype(np.float64)
    k = check_x(k, "k", d=q.shape[-1], min_norm=1e-100).astype(np.float64)
    if q.ndim != 1 or k.ndim != 1:
        raise ValueError(f"q and k must be vectors of shape (d,), got {q.shape} and {k.shape}")
    return q, k


def relative_position_error(
    q: npt.ArrayLike, k: npt.ArrayLike, m: float, n: float, base: float = 10000.0, *, theta: npt.ArrayLike | None = None
) -> float:
    r"""Relative error of the relative-position identity.

    .. math:: (R^d_{\Theta,m} q)^\top (R^d_{\Theta,n} k) = q^\top R^d_{\Theta,n-m} k

    Returns :math:`|\mathrm{lhs} - \mathrm{rhs}| / (\|q\|\|k\|)`, both sides built from
    dense matrices.  ``theta`` replaces the frequencies :math:`\mathrm{base}^{-2i/d}`: the identity
    uses only that the blocks are rotations.  Source: RoFormer eq. (16).

    >>> q, k = np.array([1.0, 2.0, 3.0, 4.0]), np.array([0.5, -1.0, 2.0, 1.0])
    >>> relative_position_error(q, k, 7, 3) < 1e-15, relative_position_error(q, k, 7, 3, theta=[0.3, 0.01]) < 1e-15
    (True, True)
    """
    q, k = _pair(q, k)
    m, n = check_real(m, "m"), check_real(n, "n")
    d = q.shape[-1]
    rope = {"base": base, "theta": theta}
    lhs = (rotation_matrix(m, d, **rope) @ q) @ (rotation_matrix(n, d, **rope) @ k)
    rhs = q @ (rotation_matrix(n - m, d, **rope) @ k)
    return finite_result(
        float(abs(lhs - rhs) / (np.linalg.norm(q) * np.linalg.norm(k))),
        "relative_position_error", q=q, k=k, m=m, n=n, base=base, theta=theta,
    )


def orthogonality_error(m: float, d: int, base: float = 10000.0) -> float:
    r"""Largest entry of :math:`|R^\top R - I|` for :math:`R = R^d_{\Theta,m}`.

    .. math:: (R^d_{\Theta,m})^\top R^d_{\Theta,m} = I

    Source: RoFormer §3.2.2 ("an orthogonal matrix").

    >>> orthogonality_error(123.0, 8) < 1e-15
    True
    """
    R = rotation_matrix(check_real(m, "m"), check_d(d), base)
    return finite_result(float(np.max(np.abs(R.T @ R - np.eye(d)))), "orthogonality_error", m=m, d=d, base=base)


def determinant_error(m: float, d: int, base: float = 10000.0) -> float:
    r"""Return :math:`|\det R^d_{\Theta,m} - 1|` computed by LU factorisation of the dense matrix.

    .. math:: \det R^d_{\Theta,m} = \prod_i (\cos^2 m\theta_i + \sin^2 m\theta_i) = 1

    Source: follows from eq. (15) (each block is a rotation).

    >>> determinant_error(5.0, 6) < 1e-14
    True
    """
    R = rotation_matrix(check_real(m, "m"), check_d(d), base)
    return finite_result(float(abs(np.linalg.det(R) - 1.0)), "determinant_error", m=m, d=d, base=base)


def norm_error(x: npt.ArrayLike, m: npt.ArrayLike, base: float = 10000.0) -> float:
    r"""Largest relative change of the norm, :math:`|\,\|R x\| - \|x\|\,| / \|x\|`, over a batch.

    .. math:: \|R^d_{\Theta,m} x\| = \|x\|

    Uses the elementwise :func:`~ropemath.apply_rope` in float64.  Source: RoFormer §3.3
    ("RoPE ... keeps the norm of vectors unchanged").

    >>> norm_error(np.ones(8), 1e6) < 1e-15
    True
    """
    base = check_base(base)
    x = check_x(x).astype(np.float64)
    if x.size == 0:
        raise ValueError(f"x must hold at least one vector, got shape {x.shape}")
    nx = np.linalg.norm(x, axis=-1)
    if np.any(nx == 0):
        raise ValueError("x must have no zero vectors (the relative error is undefined)")
    ny = np.linalg.norm(apply_rope(x, m, base=base, layout="interleaved"), axis=-1)
    return finite_result(float(np.max(np.abs(ny - nx) / nx)), "norm_error", x=x, m=m, base=base)


def composition_error(m: float, n: float, d: int, base: float = 10000.0) -> float:
    r"""Largest entry of :math:`|R_m R_n - R_{m+n}|`.

    .. math:: R^d_{\Theta,m} R^d_{\Theta,n} = R^d_{\Theta,m+n}

    Source: RoFormer eq. (16) relies on it; angles add under composition.

    >>> composition_error(3.0, -10.0, 4) < 1e-15
    True
    """
    m, n, d = check_real(m, "m"), check_real(n, "n"), check_d(d)
    lhs = rotation_matrix(m, d, base) @ rotation_matrix(n, d, base)
    return finite_result(
        float(np.max(np.abs(lhs - rotation_matrix(m + n, d, base)))),
        "composition_error", m=m, n=n, d=d, base=base,
    )


def transpose_error(m: float, d: int, base: float = 10000.0) -> float:
    r"""Largest entry of :math:`|R_m^\top - R_{-m}|`.

    .. math:: (R^d_{\Theta,m})^\top = R^d_{\Theta,-m}

    Source: RoFormer eq. (16), :math:`R_{n-m} = R_m^\top R_n`.

    >>> transpose_error(42.0, 4)
    0.0
    """
    m, d = check_real(m, "m"), check_d(d)
    return finite_result(
        float(np.max(np.abs(rotation_matrix(m, d, base).T - rotation_matrix(-m, d, base)))),
        "transpose_error", m=m, d=d, base=base,
    )


def elementwise_error(
    x: npt.ArrayLike, m: float, base: float = 10000.0, layout: str = "interleaved"
) -> float:
    r"""Largest relative difference between :func:`apply_rope` and the dense matrix product.

    .. math:: \mathrm{apply\_rope}(x, m) = R^d_{\Theta,m}\, x

    In the half layout the dense matrix is :math:`P R P^\top`.  Returns
    :math:`\max |\mathrm{fast} - \mathrm{dense}| / \|x\|`.  Source: RoFormer eq. (34).

    >>> elementwise_error(np.arange(1.0, 9.0), 1e5, layout="half") < 1e-15
    True
    """
    x = check_x(x).astype(np.float64)
    if x.size == 0:
        raise ValueError(f"x must contain at least one vector, got shape {x.shape}")
    m = check_real(m, "m")
    layout = check_layout(layout)
    base = check_base(base)
    dense = x @ rotation_matrix(m, x.shape[-1], base, layout=layout).T
    fast = apply_rope(x, m, base=base, layout=layout)
    scale = np.linalg.norm(x, axis=-1, keepdims=True)
    return finite_result(
        float(np.max(np.abs(fast - dense) / np.where(scale == 0, 1.0, scale))),
        "elementwise_error", x=x, m=m, base=base,
    )


SURVEY_DIMS = (2, 4, 8, 64, 128, 4096)


def survey(
    dims: tuple[int, ...] = SURVEY_DIMS,
    *,
    trials: int = 3,
    max_position: float = 1e6,
    base: float = 10000.0,
    seed: int = 0,
) -> list[dict[str, float]]:
    r"""Run every check for each ``d`` in ``dims`` and return the largest error per check.

    Positions are drawn uniformly from :math:`[-\mathrm{max\_position}, \mathrm{max\_position}]`
    (integers, so :math:`n-m` is exact), vectors from a standard normal, all from
    ``np.random.default_rng(seed)``.  One row per ``d``: ``{"d": d, "<check>": error, ...}``.

    >>> row = survey((4,), trials=1)[0]
    >>> sorted(row)[:3]
    ['composition', 'd', 'determinant']
    >>> max(v for key, v in row.items() if key != "d") < 1e-9
    True
    """
    rng = np.random.default_rng(seed)
    bound = int(max_position)
    rows = []
    for d in dims:
        d = check_d(d)
        row: dict[str, float] = {"d": d}
        for _ in range(trials):
            q, k = rng.standard_normal(d), rng.standard_normal(d)
            m, n = (float(v) for v in rng.integers(-bound, bound + 1, size=2))
            errors = {
                "relative_position": relative_position_error(q, k, m, n, base),
                "orthogonality": orthogonality_error(m, d, base),
                "determinant": determinant_error(m, d, base),
                "norm": norm_error(q, m, base),
                "composition": composition_error(m, n, d, base),
                "transpose": transpose_error(m, d, base),
                "elementwise_interleaved": elementwise_error(q, m, base, "interleaved"),
                "elementwise_half": elementwise_error(q, m, base, "half"),
            }
            for key, value in errors.items():
                row[key] = max(row.get(key, 0.0), value)
        rows.append(row)
    return rows
