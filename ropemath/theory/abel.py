r"""One RoPE attention score as a complex sum, and its Abel-summation bound (RoFormer eq. 35-37).

Scope: the pair products :math:`h_i = q_{[2i:2i+1]} k^*_{[2i:2i+1]}`, the score
:math:`\operatorname{Re}\sum_i h_i e^{\mathrm{i}(m-n)\theta_i}` (eq. 35), the Abel
summation (eq. 36) with :math:`h_{d/2} = 0`, the bound
:math:`(\max_i |h_{i+1}-h_i|)\sum_j |S_j(r)|` (eq. 37), and :func:`abel_check`, a seeded
check of all three against the real RoPE score of :func:`ropemath.apply_rope`.  The
partial sums :math:`S_j` and the "relative upper bound" come from :mod:`ropemath.theory.decay`.

Conventions: index ``i`` from 0, :math:`\theta_i = \mathrm{base}^{-2i/d}` (the paper's
:math:`\theta_{i+1}`); relative distance :math:`r = m - n` (query position minus key
position); pairs in the interleaved layout, :math:`q_i = q_{2i} + \mathrm{i}\,q_{2i+1}`.
``theta=`` overrides the frequencies as in :mod:`ropemath.theory.decay`.

References: Su et al., *RoFormer*, arXiv:2104.09864 v5, §3.4.3 eq. (35)-(37).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ropemath.core._validate import (
    check_base,
    check_d,
    check_int,
    check_layout,
    check_positions,
    check_x,
    finite_result,
)
from ropemath.core.apply import apply_rope
from ropemath.theory.decay import DEFAULT_CHUNK, _chunked, _theta, decay_bound, partial_sums

__all__ = [
    "pair_products",
    "complex_score",
    "abel_constant",
    "abel_bound",
    "abel_identity_error",
    "abel_check",
]


def pair_products(q: npt.ArrayLike, k: npt.ArrayLike, *, layout: str) -> np.ndarray:
    r"""Return :math:`h_i = q_{[2i:2i+1]}\, k^*_{[2i:2i+1]}`, complex of shape ``(..., d/2)``.

    .. math:: h_i = (q_{2i} + \mathrm{i}\,q_{2i+1})\,\overline{(k_{2i} + \mathrm{i}\,k_{2i+1})}

    (``layout="interleaved"``, RoFormer's pairs; with ``layout="half"`` pair i is
    :math:`(q_i, q_{i+d/2})`).  Source: RoFormer eq. (35)-(36).

    >>> pair_products(np.array([1.0, 2.0]), np.array([3.0, 4.0]), layout="interleaved").tolist()
    [(11+2j)]
    """
    q = check_x(q, "q").astype(np.float64)
    k = check_x(k, "k", d=q.shape[-1]).astype(np.float64)
    if k.shape != q.shape:
        raise ValueError(f"k must have the shape of q {q.shape}, got shape {k.shape}")
    if check_layout(layout) == "half":
        half = q.shape[-1] // 2
        return finite_result(
            (q[..., :half] + 1j * q[..., half:]) * (k[..., :half] - 1j * k[..., half:]),
            "pair_products", q=q, k=k,
        )
    return finite_result(
        (q[..., 0::2] + 1j * q[..., 1::2]) * (k[..., 0::2] - 1j * k[..., 1::2]),
        "pair_products", q=q, k=k,
    )


def _vectors(q: npt.ArrayLike, k: npt.ArrayLike, layout: str) -> np.ndarray:
    h = pair_products(q, k, layout=layout)
    if h.ndim != 1:
        raise ValueError(f"q and k must be vectors of shape (d,), got a batch of shape {h.shape[:-1]}")
    return h


def complex_score(
    q: npt.ArrayLike,
    k: npt.ArrayLike,
    r: npt.ArrayLike,
    base: float = 10000.0,
    *,
    layout: str,
    theta: npt.ArrayLike | None = None,
    chunk: int = DEFAULT_CHUNK,
) -> np.ndarray:
    r"""Return the RoPE attention score at relative distance ``r`` from the complex form (shape ``r.shape``).

    .. math::
        (R^d_{\Theta,m} q)^\top (R^d_{\Theta,n} k)
        = \operatorname{Re}\Big[\sum_{i=0}^{d/2-1} h_i\, e^{\mathrm{i}(m-n)\theta_i}\Big]

    Source: RoFormer eq. (35).  Checked against :func:`ropemath.apply_rope` by :func:`abel_check`.

    >>> q = np.array([1.0, 0.0, 1.0, 0.0])
    >>> round(float(complex_score(q, q, 0.0, layout="interleaved")), 12)
    2.0
    """
    h = _vectors(q, k, layout)
    th = _theta(h.size * 2, base, theta)
    r = check_positions(r, "r")
    chunk = check_int(chunk, "chunk", minimum=1)

    def block(rb: np.ndarray) -> np.ndarray:
        phase = np.multiply.outer(rb, th)
        return np.cos(phase) @ h.real - np.sin(phase) @ h.imag

    return finite_result(_chunked(r, chunk, block), "complex_score", q=q, k=k, r=r, base=base, theta=theta, chunk=chunk)


def abel_constant(q: npt.ArrayLike, k: npt.ArrayLike, *, layout: str) -> float:
    r"""Return the constant of RoFormer eq. (37), :math:`\max_i |h_{i+1} - h_i|` with :math:`h_{d/2} = 0`.

    .. math:: C(q, k) = \max_{0 \le i < d/2} |h_{i+1} - h_i|, \qquad h_{d/2} = 0

    Source: RoFormer eq. (37).

    >>> q = np.array([1.0, 0.0, 1.0, 0.0])
    >>> abel_constant(q, q, layout="interleaved")  # h = (1, 1, 0)
    1.0
    """
    h = _vectors(q, k, layout)
    return finite_result(float(np.max(np.abs(np.diff(np.append(h, 0.0))))), "abel_constant", q=q, k=k)


def abel_bound(
    q: npt.ArrayLike,
    k: npt.ArrayLike,
    r: npt.ArrayLike,
    base: float = 10000.0,
    *,
    layout: str,
    theta: npt.ArrayLike | None = None,
    chunk: int = DEFAULT_CHUNK,
) -> np.ndarray:
    r"""Return the right side of RoFormer eq. (37) for each distance (shape ``r.shape``).

    .. math::
        \Big|\sum_{i=0}^{d/2-1} h_i e^{\mathrm{i} r\theta_i}\Big|
        \le \Big(\max_i |h_{i+1} - h_i|\Big) \sum_{j=1}^{d/2} |S_j(r)|, \qquad h_{d/2} = 0

    i.e. ``abel_constant(q, k) * (d/2) * decay_bound(r)``.  Source: RoFormer eq. (37).

    >>> q = np.array([1.0, 0.0, 1.0, 0.0])
    >>> float(abel_bound(q, q, 0.0, layout="interleaved"))  # h = (1, 1, 0): max|Δh| = 1; |S_1(0)| + |S_2(0)| = 1 + 2
    3.0
    """
    c = abel_constant(q, k, layout=layout)
    half = np.shape(q)[-1] // 2
    return finite_result(
        c * half * decay_bound(r, 2 * half, base, theta=theta, chunk=chunk),
        "abel_bound", q=q, k=k, r=r, base=base, theta=theta, chunk=chunk,
    )


def abel_identity_error(
    q: npt.ArrayLike,
    k: npt.ArrayLike,
    r: npt.ArrayLike,
    base: float = 10000.0,
    *,
    layout: str,
    theta: npt.ArrayLike | None = None,
) -> float:
    r"""Largest relative gap between the two sides of the Abel summation (RoFormer eq. 36).

    .. math::
        \sum_{i=0}^{d/2-1} h_i e^{\mathrm{i} r\theta_i}
        = -\sum_{i=0}^{d/2-1} S_{i+1}(r)\,(h_{i+1} - h_i), \qquad h_{d/2} = 0

    The left side is summed directly, the right from :func:`partial_sums`; the gap is divided
    by :math:`\sum_i |h_i|` (which bounds the left side).  Source: RoFormer eq. (36).

    >>> rng = np.random.default_rng(0)
    >>> q, k = rng.standard_normal(16), rng.standard_normal(16)
    >>> abel_identity_error(q, k, np.arange(100.0), layout="interleaved") < 1e-14
    True
    """
    h = _vectors(q, k, layout)
    th = _theta(h.size * 2, base, theta)
    r = check_positions(r, "r")
    lhs = np.exp(1j * (r[..., None] * th)) @ h
    rhs = -(partial_sums(r, h.size * 2, theta=th) @ np.diff(np.append(h, 0.0)))
    scale = float(np.sum(np.abs(h)))
    if scale == 0:
        return finite_result(
            float(np.max(np.abs(lhs - rhs), initial=0.0)),
            "abel_identity_error", q=q, k=k, r=r, base=base, theta=theta,
        )
    return finite_result(
        float(np.max(np.abs(lhs - rhs), initial=0.0) / scale),
        "abel_identity_error", q=q, k=k, r=r, base=base, theta=theta,
    )


def abel_check(
    d: int = 128,
    base: float = 10000.0,
    *,
    trials: int = 20,
    distances: npt.ArrayLike | None = None,
    aligned: bool = False,
    seed: int = 0,
) -> dict[str, float]:
    r"""Check eq. (35)-(37) on seeded random vectors; return the largest errors and score/bound ratio.

    .. math::
        \rho = \max_{q,k,r} \frac{|(R_m q)^\top (R_n k)|}
        {(\max_i |h_{i+1}-h_i|)\sum_{j=1}^{d/2}|S_j(r)|} \le 1, \qquad r = m - n

    For each of ``trials`` draws, ``q`` and ``k`` are standard normal (``k = q`` if
    ``aligned``) from ``np.random.default_rng(seed)``; ``n`` is a random integer in
    [-1e6, 1e6] and ``m = n + r`` for every ``r`` in ``distances`` (default: every integer
    in [-1024, 1024] and 1024 random integers in [-1e6, 1e6]).  The score is computed twice:
    by :func:`complex_score` and, independently, as ``apply_rope(q, m) @ apply_rope(k, n)``.

    Returns ``max_ratio`` (ρ), ``violations`` (count of scores above their bound by more than
    1e-12 relative), ``abel_error`` (largest :func:`abel_identity_error`) and ``rope_error``
    (largest ``|complex_score - rope score| / (|q||k|)``).  Source: RoFormer eq. (35)-(37).

    >>> out = abel_check(16, trials=2)
    >>> out["violations"], out["max_ratio"] < 1, out["abel_error"] < 1e-13, out["rope_error"] < 1e-9
    (0.0, True, True, True)
    """
    d = check_d(d)
    base = check_base(base)
    trials = check_int(trials, "trials", minimum=1)
    seed = check_int(seed, "seed", minimum=0)
    if not isinstance(aligned, (bool, np.bool_)):
        raise TypeError(f"aligned must be a bool, got {type(aligned).__name__}")
    rng = np.random.default_rng(seed)
    if distances is None:
        r = np.concatenate([np.arange(-1024, 1025), rng.integers(-(10**6), 10**6 + 1, size=1024)]).astype(float)
    else:
        r = check_positions(distances, "distances").reshape(-1)
        if r.size == 0:
            raise ValueError("distances must contain at least one distance, got an empty array")
    worst = {"max_ratio": 0.0, "violations": 0.0, "abel_error": 0.0, "rope_error": 0.0}
    for _ in range(trials):
        q = rng.standard_normal(d)
        k = q.copy() if aligned else rng.standard_normal(d)
        n = float(rng.integers(-(10**6), 10**6 + 1))
        m = n + r
        score = complex_score(q, k, r, base, layout="interleaved")
        rope = np.sum(
            apply_rope(np.broadcast_to(q, (r.size, d)), m, base=base, layout="interleaved")
            * apply_rope(k, n, base=base, layout="interleaved"),
            axis=-1,
        )
        bound = abel_bound(q, k, r, base, layout="interleaved")
        ratio = np.abs(score) / bound
        worst["max_ratio"] = max(worst["max_ratio"], float(ratio.max()))
        worst["violations"] += float(np.count_nonzero(np.abs(score) > bound * (1 + 1e-12)))
        worst["abel_error"] = max(worst["abel_error"], abel_identity_error(q, k, r, base, layout="interleaved"))
        scale = float(np.linalg.norm(q) * np.linalg.norm(k))
        worst["rope_error"] = max(worst["rope_error"], float(np.max(np.abs(score - rope))) / scale)
    return finite_result(worst, "abel_check", d=d, base=base, trials=trials, distances=distances)


def sharp_pair_products(r: float, d: int, base: float = 10000.0) -> np.ndarray:
    r"""Return pair products :math:`h_0, \dots, h_{d/2-1}` for which eq. (37) is an equality at distance ``r``.

    .. math::
        h_{d/2} = 0, \qquad h_{i+1} - h_i = -\frac{\overline{S_{i+1}(r)}}{|S_{i+1}(r)|}
        \quad\Longrightarrow\quad \sum_i h_i e^{\mathrm{i} r\theta_i} = \sum_{j=1}^{d/2} |S_j(r)|

    Every step of Abel summation then has :math:`|h_{i+1} - h_i| = 1` and
    :math:`S_{i+1}(h_{i+1} - h_i) = -|S_{i+1}|`, so both inequalities of eq. (37) are equalities:
    :math:`(d/2)\,B(r) = \sup\{|\sum_i h_i e^{\mathrm{i} r\theta_i}| : \max_i|h_{i+1} - h_i| \le 1\}`.
    With :math:`k_i = 1` (key pairs :math:`(1, 0)`) and :math:`q_i = h_i` the RoPE score attains the bound.
    Requires every :math:`S_j(r) \ne 0`.  Source: RoFormer eq. (36)-(37); the construction is the
    equality case of the triangle inequality.

    >>> h = sharp_pair_products(0.0, 4)  # S_1 = 1, S_2 = 2: h_1 = 0 + 1, h_0 = h_1 + 1
    >>> h.real.tolist()
    [2.0, 1.0]
    """
    r = check_positions(r, "r")
    if r.ndim != 0:
        raise ValueError(f"r must be one distance (a scalar), got shape {r.shape}")
    s = partial_sums(float(r), d, base)
    size = np.abs(s)
    if np.any(size == 0.0):
        raise ValueError(f"r gives a partial sum S_j(r) = 0; choose another r, got r={float(r)}")
    steps = -np.conj(s) / size  # h_{i+1} - h_i for i = 0..d/2-1
    h = np.zeros(d // 2 + 1, dtype=complex)
    for i in range(d // 2 - 1, -1, -1):
        h[i] = h[i + 1] - steps[i]
    return finite_result(h[:-1], "sharp_pair_products", r=r, d=d, base=base)
