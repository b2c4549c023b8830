r"""Linear attention with RoPE in the numerator only (RoFormer eq. 19), and what it gives up.

Scope: the elu+1 feature map; RoPE linear attention in its quadratic O(N²) form and its O(N) prefix-sum form;
the price of the unrotated denominator (:func:`weight_sum_deviation`, :func:`smallest_numerator`).
Shapes as in :mod:`ropemath.attention.softmax`
(``q``, ``k``: (N, d); ``v``: (N, d_v); ``positions``: (N,); causal mask by row order).  The feature map
must return an (N, D) array with D even, and every denominator :math:`D_m = \sum_n \phi(q_m)^\top\phi(k_n)`
must be positive (as it is for a positive map).

References: Su et al., *RoFormer*, arXiv:2104.09864 v5, §3.3 eq. (17)–(19); Katharopoulos et al.,
*Transformers are RNNs* (ICML 2020) (elu+1 feature map, associativity, causal prefix sums).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from ropemath.core._validate import _describe, as_array, check_finite, check_real_array, check_x
from ropemath.core.apply import apply_rope

__all__ = ["elu_plus_one", "rope_linear_terms", "rope_linear_attention", "rope_linear_attention_prefix",
           "weight_sum_deviation", "smallest_numerator"]

FeatureMap = Callable[[np.ndarray], np.ndarray]


# --- input checks shared with ropemath.attention.softmax -------------------------------------


def _inputs(q: object, k: object, positions: object, causal: object) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """q, k of shape (N, d) as float64, positions of shape (N,); ``causal`` must be a bool."""
    q = check_x(q, "q")
    if q.ndim != 2 or q.shape[0] == 0:
        raise ValueError(f"q must have shape (N, d) with N >= 1, got shape {q.shape}")
    k = check_x(k, "k", d=q.shape[1])
    if k.shape != q.shape:
        raise ValueError(f"k must have the shape of q {q.shape}, got shape {k.shape}")
    positions = check_real_array(positions, "positions")
    if positions.shape != (q.shape[0],):
        raise ValueError(f"positions must have shape ({q.shape[0]},), got shape {positions.shape}")
    if not isinstance(causal, (bool, np.bool_)):
        raise TypeError(f"causal must be a bool, got {_describe(causal)}")
    return q.astype(np.float64), k.astype(np.float64), positions


def _values(v: object, n: int) -> np.ndarray:
    """v of shape (N, d_v), d_v >= 1, as float64."""
    arr = check_x(as_array(v, "v"), "v", pairs=False)
    if arr.ndim != 2 or arr.shape[0] != n:
        raise ValueError(f"v must have shape ({n}, d_v) with d_v >= 1, got shape {arr.shape}")
    return arr.astype(np.float64)


def _features(feature_map: object, x: np.ndarray, name: str) -> np.ndarray:
    """The feature map applied to ``x``: a finite (N, D) array with D even."""
    if not callable(feature_map):
        raise TypeError(f"feature_map must be callable, got {_describe(feature_map)}")
    out = check_x(np.asarray(feature_map(x)), f"feature_map({name})")
    if out.ndim != 2 or out.shape[0] != x.shape[0]:
        raise ValueError(f"feature_map({name}) must have shape ({x.shape[0]}, D), got shape {out.shape}")
    return out.astype(np.float64)


def _check_denominators(denominators: np.ndarray) -> None:
    if not np.all(denominators > 0):
        raise ValueError(
            "feature_map must give positive denominators sum_n phi(q_m)^T phi(k_n) (use a positive map), "
            f"got a smallest denominator of {float(np.min(denominators)):.3g}"
        )


# --- linear attention ---------------------------------------------------------------------


def elu_plus_one(x: npt.ArrayLike) -> np.ndarray:
    r"""Return :math:`\mathrm{elu}(x) + 1`, a positive feature map (the default for linear attention).

    .. math:: \phi(x) = \begin{cases} x + 1 & x > 0 \\ e^{x} & x \le 0 \end{cases}

    Source: Katharopoulos et al. (2020) §3.2.1; note 004 "RoPE / RoFormer" (DaNing) names it as a choice of φ.

    >>> elu_plus_one(np.array([-1.0, 0.0, 2.0])).round(4).tolist()
    [0.3679, 1.0, 3.0]
    """
    x = as_array(x, "x")
    if x.dtype.kind != "f":
        raise TypeError(f"x must be a real floating-point array, got {_describe(x)}")
    check_finite(x, "x")
    return np.where(x > 0, x + 1.0, np.exp(np.minimum(x, 0.0)))


def rope_linear_terms(
    q: npt.ArrayLike, k: npt.ArrayLike, positions: npt.ArrayLike, *, layout: str, base: float | None = None,
    theta: npt.ArrayLike | None = None, causal: bool = False, feature_map: FeatureMap = elu_plus_one,
) -> tuple[np.ndarray, np.ndarray]:
    r"""Return ``(numerators, denominators)`` of RoPE linear attention: shapes (N, N) and (N,).

    .. math::
        A_{mn} = \big(R_{p_m}\phi(q_m)\big)^\top \big(R_{p_n}\phi(k_n)\big), \qquad
        D_m = \sum_n \phi(q_m)^\top \phi(k_n)

    Masked entries (``causal`` and :math:`n > m`) of ``numerators`` are 0 and are left out
    of :math:`D_m`.  The denominator is *not* rotated.  Source: RoFormer eq. (19).

    >>> A, D = rope_linear_terms(np.zeros((2, 2)), np.zeros((2, 2)), [0, 0], layout="interleaved", base=1e4)
    >>> A.tolist(), D.tolist()
    ([[2.0, 2.0], [2.0, 2.0]], [4.0, 4.0])
    """
    q, k, positions = _inputs(q, k, positions, causal)
    fq, fk = _features(feature_map, q, "q"), _features(feature_map, k, "k")
    if fk.shape != fq.shape:
        raise ValueError(f"feature_map(k) must have the shape of feature_map(q) {fq.shape}, got {fk.shape}")
    rope = {"layout": layout, "base": base, "theta": theta}
    numerators = apply_rope(fq, positions, **rope) @ apply_rope(fk, positions, **rope).T
    plain = fq @ fk.T
    if causal:
        mask = np.tril(np.ones(plain.shape, dtype=bool))
        numerators, plain = np.where(mask, numerators, 0.0), np.where(mask, plain, 0.0)
    denominators = plain.sum(axis=1)
    _check_denominators(denominators)
    return numerators, denominators


def rope_linear_attention(
    q: npt.ArrayLike, k: npt.ArrayLike, v: npt.ArrayLike, positions: npt.ArrayLike, *, layout: str,
    base: float | None = None, theta: npt.ArrayLike | None = None, causal: bool = False,
    feature_map: FeatureMap = elu_plus_one,
) -> np.ndarray:
    r"""Return linear attention with RoPE in the numerator, quadratic O(N²) form, shape (N, d_v).

    .. math::
        o_m = \frac{\sum_n \big(R_{p_m}\phi(q_m)\big)^\top \big(R_{p_n}\phi(k_n)\big)\, v_n}
                   {\sum_n \phi(q_m)^\top \phi(k_n)}

    Source: RoFormer eq. (19) (the paper leaves the denominator unrotated "to avoid the risk
    of dividing zero").

    >>> v = np.array([[1.0], [3.0]])
    >>> o = rope_linear_attention(np.zeros((2, 2)), np.zeros((2, 2)), v, [0, 0], layout="interleaved", base=1e4)
    >>> o.tolist()
    [[2.0], [2.0]]
    """
    A, D = rope_linear_terms(q, k, positions, layout=layout, base=base, theta=theta, causal=causal,
                             feature_map=feature_map)
    return (A @ _values(v, A.shape[0])) / D[:, None]


def rope_linear_attention_prefix(
    q: npt.ArrayLike, k: npt.ArrayLike, v: npt.ArrayLike, positions: npt.ArrayLike, *, layout: str,
    base: float | None = None, theta: npt.ArrayLike | None = None, causal: bool = False,
    feature_map: FeatureMap = elu_plus_one,
) -> np.ndarray:
    r"""Return the same outputs as :func:`rope_linear_attention` in O(N) time, by prefix sums.

    .. math::
        U_m = \sum_{n \le m} R_{p_n}\phi(k_n)\, v_n^\top, \quad z_m = \sum_{n \le m} \phi(k_n), \quad
        o_m = \frac{\big(R_{p_m}\phi(q_m)\big)^\top U_m}{\phi(q_m)^\top z_m}

    (without ``causal`` the sums run over all n and are shared by every m).  The state
    :math:`(U_m, z_m)` has a fixed size D×d_v + D and is updated once per token:
    O(N D d_v) time and O(D d_v) memory, against O(N²(D + d_v)) for the quadratic form.
    Source: RoFormer eq. (19); Katharopoulos et al. (2020) §3.3 (causal running sums).

    >>> rng = np.random.default_rng(0)
    >>> q, k, v = rng.standard_normal((3, 5, 4))
    >>> fast = rope_linear_attention_prefix(q, k, v, np.arange(5), causal=True, layout="interleaved", base=1e4)
    >>> slow = rope_linear_attention(q, k, v, np.arange(5), causal=True, layout="interleaved", base=1e4)
    >>> bool(np.allclose(fast, slow, atol=1e-12))
    True
    """
    q, k, positions = _inputs(q, k, positions, causal)
    v = _values(v, q.shape[0])
    fq, fk = _features(feature_map, q, "q"), _features(feature_map, k, "k")
    if fk.shape != fq.shape:
        raise ValueError(f"feature_map(k) must have the shape of feature_map(q) {fq.shape}, got {fk.shape}")
    rq = apply_rope(fq, positions, layout=layout, base=base, theta=theta)
    rk = apply_rope(fk, positions, layout=layout, base=base, theta=theta)
    if causal:  # one pass over the tokens; the state (U, z) has a fixed size
        U, z = np.zeros((fq.shape[1], v.shape[1])), np.zeros(fq.shape[1])
        numerators, denominators = np.empty_like(v), np.empty(q.shape[0])
        for m in range(q.shape[0]):
            U += np.outer(rk[m], v[m])
            z += fk[m]
            numerators[m], denominators[m] = rq[m] @ U, fq[m] @ z
    else:  # the sums are shared by every query
        numerators, denominators = rq @ (rk.T @ v), fq @ fk.sum(axis=0)
    _check_denominators(denominators)
    return numerators / denominators[:, None]


# --- what the unrotated denominator gives up ------------------------------------------------


def weight_sum_deviation(
    q: npt.ArrayLike, k: npt.ArrayLike, positions: npt.ArrayLike, *, layout: str, base: float | None = None,
    theta: npt.ArrayLike | None = None, causal: bool = False, feature_map: FeatureMap = elu_plus_one,
) -> float:
    r"""Largest :math:`|\sum_n A_{mn}/D_m - 1|` over queries m: how far RoPE linear weights are from summing to 1.

    .. math::
        \sum_n \frac{\big(R_{p_m}\phi(q_m)\big)^\top \big(R_{p_n}\phi(k_n)\big)}
                    {\sum_{n'} \phi(q_m)^\top\phi(k_{n'})} \ne 1 \ \text{in general}

    It is 0 when all positions are equal (then every rotation cancels).  Source: RoFormer
    eq. (19) (numerator rotated, denominator not).

    >>> weight_sum_deviation(np.ones((3, 2)), np.ones((3, 2)), [4, 4, 4], layout="interleaved", base=1e4) < 1e-15
    True
    """
    A, D = rope_linear_terms(q, k, positions, layout=layout, base=base, theta=theta, causal=causal,
                             feature_map=feature_map)
    return float(np.max(np.abs(A.sum(axis=1) / D - 1.0)))


def smallest_numerator(
    q: npt.ArrayLike, k: npt.ArrayLike, positions: npt.ArrayLike, *, layout: str, base: float | None = None,
    theta: npt.ArrayLike | None = None, causal: bool = False, feature_map: FeatureMap = elu_plus_one,
) -> float:
    r"""Return the smallest numerator weight :math:`A_{mn}` over visible pairs (negative if any is).

    .. math:: \min_{n \text{ visible to } m} \big(R_{p_m}\phi(q_m)\big)^\top \big(R_{p_n}\phi(k_n)\big)

    With a positive φ the unrotated product :math:`\phi(q)^\top\phi(k)` is positive, but the
    rotated vectors have entries of both signs, so the product can be negative.  Example
    (d = 2, base 10000, so θ_0 = 1): q = k = 0 gives φ = (1, 1) and, at distance 3,
    :math:`\phi^\top R(-3)\phi = 2\cos 3 \approx -1.98`.  Source: RoFormer eq. (19).

    >>> round(smallest_numerator(np.zeros((2, 2)), np.zeros((2, 2)), [3, 0], layout="interleaved", base=1e4), 6)
    -1.979985
    """
    A, _ = rope_linear_terms(q, k, positions, layout=layout, base=base, theta=theta, causal=causal,
                             feature_map=feature_map)
    return float(np.min(A[np.tril(np.ones(A.shape, dtype=bool))] if causal else A))


