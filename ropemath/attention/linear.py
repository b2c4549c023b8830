r"""Linear attention with RoPE in the numerator only (RoFormer eq. 19), and what it gives up.

Scope: the elu+1 feature map; RoPE linear attention in its quadratic O(N²) form and its O(N)
prefix-sum form; and two measurements of the price of the unrotated denominator — how far the
weights :math:`A_{mn}/D_m` are from summing to one (:func:`weight_sum_deviation`) and how
negative a numerator :math:`A_{mn}` gets (:func:`smallest_numerator`).

Shapes and conventions are those of :mod:`ropemath.attention.softmax` (``q``, ``k`` of shape (N, d),
``v`` of shape (N, d_v), ``positions`` of shape (N,), causal mask by row order); the feature
map must return an (N, D) array with D even, and every denominator
:math:`D_m = \sum_n \phi(q_m)^\top\phi(k_n)` must be positive (as it is for a positive map).

References: Su et al., *RoFormer*, arXiv:2104.09864 v5, §3.3 eq. (17)–(19);
Katharopoulos et al., *Transformers are RNNs* (2020) (elu+1 feature map, causal prefix
sums); note 000 "RoPE: Rotray Position Embedding" (Ethan Lai); note 004 "RoPE / RoFormer" (DaNing).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from ropemath.core._validate import (
    _describe,
    as_array,
    check_bool,
    check_finite,
    check_qk,
    check_v,
    check_x,
    finite_result,
)
from ropemath.core.apply import apply_rope

__all__ = [
    "elu_plus_one",
    "rope_linear_terms",
    "rope_linear_attention",
    "rope_linear_attention_prefix",
    "weight_sum_deviation",
    "smallest_numerator",
]

FeatureMap = Callable[[np.ndarray], np.ndarray]


# --- input checks ------------------------------------------------------------------------


def _features(feature_map: object, x: np.ndarray, name: str) -> np.ndarray:
    """Apply the feature map and check the result is a finite (N, D) array with D even."""
    if not callable(feature_map):
        raise TypeError(f"feature_map must be callable, got {_describe(feature_map)}")
    out = check_x(np.asarray(feature_map(x)), f"feature_map({name})")
    if out.ndim != 2 or out.shape[0] != x.shape[0]:
        raise ValueError(f"feature_map({name}) must have shape ({x.shape[0]}, D), got shape {out.shape}")
    check_finite(out, f"feature_map({name})")
    return out.astype(np.float64)


def _check_denominators(denominators: np.ndarray) -> None:
    """Raise unless every denominator sum_n phi(q_m)^T phi(k_n) is positive."""
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
    return finite_result(np.where(x > 0, x + 1.0, np.exp(np.minimum(x, 0.0))), "elu_plus_one", x=x)


def rope_linear_terms(
    q: npt.ArrayLike,
    k: npt.ArrayLike,
    positions: npt.ArrayLike,
    *,
    layout: str,
    base: float | None = None,
    theta: npt.ArrayLike | None = None,
    causal: bool = False,
    feature_map: FeatureMap = elu_plus_one,
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
    q, k, positions = check_qk(q, k, positions)
    causal = check_bool(causal, "causal")
    fq, fk = _features(feature_map, q, "q"), _features(feature_map, k, "k")
    if fk.shape != fq.shape:
        raise ValueError(f"feature_map(k) must have the shape of feature_map(q) {fq.shape}, got {fk.shape}")
    numerators = (
        apply_rope(fq, positions, layout=layout, base=base, theta=theta)
        @ apply_rope(fk, positions, layout=layout, base=base, theta=theta).T
    )
    plain = fq @ fk.T
    if causal:
        mask = np.tril(np.ones(plain.shape, dtype=bool))
        numerators, plain = np.where(mask, numerators, 0.0), np.where(mask, plain, 0.0)
    denominators = plain.sum(axis=1)
    _check_denominators(denominators)
    return finite_result(
        (numerators, denominators),
        "rope_linear_terms", q=q, k=k, positions=positions, base=base, theta=theta,
    )


def rope_linear_attention(
    q: npt.ArrayLike,
    k: npt.ArrayLike,
    v: npt.ArrayLike,
    positions: npt.ArrayLike,
    *,
    layout: str,
    base: float | None = None,
    theta: npt.ArrayLike | None = None,
    causal: bool = False,
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
    numerators, denominators = rope_linear_terms(
        q, k, positions, layout=layout, base=base, theta=theta, causal=causal, feature_map=feature_map
    )
    return finite_result(
        (numerators @ check_v(v, numerators.shape[0])) / denominators[:, None],
        "rope_linear_attention", q=q, k=k, v=v, positions=positions, base=base, theta=theta,
    )


def rope_linear_attention_prefix(
    q: npt.ArrayLike,
    k: npt.ArrayLike,
    v: npt.ArrayLike,
    positions: npt.ArrayLike,
    *,
    layout: str,
    base: float | None = None,
    theta: npt.ArrayLike | None = None,
    causal: bool = False,
    feature_map: FeatureMap = elu_plus_one,
) -> np.ndarray:
    r"""Return the same outputs as :func:`rope_linear_attention` in O(N) time, by prefix sums.

    .. math::
        U_m = \sum_{n \le m} R_{p_n}\phi(k_n)\, v_n^\top, \quad z_m = \sum_{n \le m} \phi(k_n), \quad
        o_m = \frac{\big(R_{p_m}\phi(q_m)\big)^\top U_m}{\phi(q_m)^\top z_m}

    (without ``causal`` the sums run over all n and are shared by every m).  The state
    :math:`(U_m, z_m)` has a fixed size D×d_v + D and is updated once per token (a loop over
    the tokens): O(N D d_v) time and O(D d_v) memory, against O(N²(D + d_v)) for the quadratic form.
    Source: RoFormer eq. (19); Katharopoulos et al. (2020) §3.3 (causal running sums).

    >>> rng = np.random.default_rng(0)
    >>> q, k, v = rng.standard_normal((3, 5, 4))
    >>> pos = np.arange(5)
    >>> fast = rope_linear_attention_prefix(q, k, v, pos, causal=True, layout="interleaved", base=1e4)
    >>> slow = rope_linear_attention(q, k, v, pos, causal=True, layout="interleaved", base=1e4)
    >>> bool(np.allclose(fast, slow, atol=1e-12))
    True
    """
    q, k, positions = check_qk(q, k, positions)
    v = check_v(v, q.shape[0])
    causal = check_bool(causal, "causal")
    fq, fk = _features(feature_map, q, "q"), _features(feature_map, k, "k")
    if fk.shape != fq.shape:
        raise ValueError(f"feature_map(k) must have the shape of feature_map(q) {fq.shape}, got {fk.shape}")
    rq, rk = (
        apply_rope(fq, positions, layout=layout, base=base, theta=theta),
        apply_rope(fk, positions, layout=layout, base=base, theta=theta),
    )
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
    return finite_result(
        numerators / denominators[:, None],
        "rope_linear_attention_prefix", q=q, k=k, v=v, positions=positions, base=base, theta=theta,
    )


# --- measurements ---------------------------------------------------------------------


def weight_sum_deviation(
    q: npt.ArrayLike,
    k: npt.ArrayLike,
    positions: npt.ArrayLike,
    *,
    layout: str,
    base: float | None = None,
    theta: npt.ArrayLike | None = None,
    causal: bool = False,
    feature_map: FeatureMap = elu_plus_one,
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
    numerators, denominators = rope_linear_terms(
        q, k, positions, layout=layout, base=base, theta=theta, causal=causal, feature_map=feature_map
    )
    return finite_result(
        float(np.max(np.abs(numerators.sum(axis=1) / denominators - 1.0))),
        "weight_sum_deviation", q=q, k=k, positions=positions, base=base, theta=theta,
    )


def smallest_numerator(
    q: npt.ArrayLike,
    k: npt.ArrayLike,
    positions: npt.ArrayLike,
    *,
    layout: str,
    base: float | None = None,
    theta: npt.ArrayLike | None = None,
    causal: bool = False,
    feature_map: FeatureMap = elu_plus_one,
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
    numerators, _ = rope_linear_terms(
        q, k, positions, layout=layout, base=base, theta=theta, causal=causal, feature_map=feature_map
    )
    if causal:
        numerators = numerators[np.tril(np.ones(numerators.shape, dtype=bool))]
    return finite_result(
        float(np.min(numerators)),
        "smallest_numerator", q=q, k=k, positions=positions, base=base, theta=theta,
    )
