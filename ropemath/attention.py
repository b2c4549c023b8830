r"""Softmax and linear attention with RoPE, and measurements of what each one guarantees.

Scope: RoPE scores :math:`(R_m q_m)^\top (R_n k_n)`; softmax attention built on them
(numerically stable, optional causal mask); linear attention with RoPE in the numerator
only (RoFormer eq. 19), in its quadratic form and its O(N) prefix-sum form; and helpers that
measure shift invariance, how far the linear-attention weights are from summing to one, and
how negative a numerator gets.

Shapes: ``q``, ``k`` are (N, d) with d even, ``v`` is (N, d_v), ``positions`` is (N,);
row ``m`` of ``q`` sits at position ``positions[m]``.  The causal mask follows the row
order (key row ``n`` is visible to query row ``m`` iff ``n <= m``), not the position
values.  Computation is in float64; results are float64.

References: Su et al., *RoFormer*, arXiv:2104.09864 v5, §2.1 eq. (2), §3.3 eq. (17)–(19);
Katharopoulos et al., *Transformers are RNNs* (2020) (elu+1 feature map, causal prefix
sums); note 000 "RoPE: Rotray Position Embedding" (Ethan Lai).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from ._validate import _describe, check_base, check_positions, check_real, check_x
from .apply import apply_rope

__all__ = [
    "rope_scores",
    "rope_attention_weights",
    "rope_softmax_attention",
    "elu_plus_one",
    "rope_linear_terms",
    "rope_linear_attention",
    "rope_linear_attention_prefix",
    "shift_invariance_error",
    "weight_sum_deviation",
    "smallest_numerator",
]

FeatureMap = Callable[[np.ndarray], np.ndarray]


# --- validation ---------------------------------------------------------------------------


def _finite(arr: np.ndarray, name: str) -> None:
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must contain only finite values, got non-finite entries")


def _check_qk(q: object, k: object, positions: object) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Validate q, k of shape (N, d) and positions of shape (N,); return float64 copies."""
    q = check_x(q, "q")
    if q.ndim != 2:
        raise ValueError(f"q must have shape (N, d), got shape {q.shape}")
    k = check_x(k, "k", d=q.shape[1])
    if k.shape != q.shape:
        raise ValueError(f"k must have the shape of q {q.shape}, got shape {k.shape}")
    positions = check_positions(positions, "positions")
    if positions.shape != (q.shape[0],):
        raise ValueError(f"positions must have shape ({q.shape[0]},), got shape {positions.shape}")
    _finite(q, "q")
    _finite(k, "k")
    return q.astype(np.float64), k.astype(np.float64), positions


def _check_v(v: object, n: int) -> np.ndarray:
    """Validate v of shape (N, d_v) with d_v >= 1; return a float64 copy."""
    arr = np.asarray(v)
    if arr.dtype.kind != "f":
        raise TypeError(f"v must be a real floating-point array of shape (N, d_v), got {_describe(arr)}")
    if arr.ndim != 2 or arr.shape[0] != n or arr.shape[1] == 0:
        raise ValueError(f"v must have shape ({n}, d_v) with d_v >= 1, got shape {arr.shape}")
    _finite(arr, "v")
    return arr.astype(np.float64)


def _check_bool(value: object, name: str) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be a bool, got {_describe(value)}")
    return bool(value)


def _features(feature_map: object, x: np.ndarray, name: str) -> np.ndarray:
    """Apply the feature map and check the result is a finite (N, D) array with D even."""
    if not callable(feature_map):
        raise TypeError(f"feature_map must be callable, got {_describe(feature_map)}")
    out = check_x(np.asarray(feature_map(x)), f"feature_map({name})")
    if out.ndim != 2 or out.shape[0] != x.shape[0]:
        raise ValueError(f"feature_map({name}) must have shape ({x.shape[0]}, D), got shape {out.shape}")
    _finite(out, f"feature_map({name})")
    return out.astype(np.float64)


# --- softmax attention --------------------------------------------------------------------


def rope_scores(q: npt.ArrayLike, k: npt.ArrayLike, positions: npt.ArrayLike, *, base: float = 10000.0) -> np.ndarray:
    r"""Return the (N, N) matrix of RoPE scores (unscaled), entry (m, n) for query m and key n.

    .. math:: S_{mn} = (R^d_{\Theta,p_m} q_m)^\top (R^d_{\Theta,p_n} k_n) = q_m^\top R^d_{\Theta,p_n-p_m} k_n

    with :math:`p_m` = ``positions[m]``.  Source: RoFormer eq. (16).

    >>> q = np.array([[1.0, 0.0]]); k = np.array([[1.0, 0.0]])
    >>> rope_scores(q, k, [0]).tolist()
    [[1.0]]
    """
    q, k, positions = _check_qk(q, k, positions)
    base = check_base(base)
    return apply_rope(q, positions, base=base) @ apply_rope(k, positions, base=base).T


def rope_attention_weights(
    q: npt.ArrayLike, k: npt.ArrayLike, positions: npt.ArrayLike, *, base: float = 10000.0, causal: bool = False
) -> np.ndarray:
    r"""Return the (N, N) softmax attention weights on RoPE scores scaled by :math:`1/\sqrt{d}`.

    .. math:: a_{mn} = \frac{\exp(S_{mn}/\sqrt{d})}{\sum_{j} \exp(S_{mj}/\sqrt{d})}

    (sums over visible keys; :math:`j \le m` when ``causal``).  Computed stably: the row
    maximum is subtracted before exponentiating.  Source: RoFormer eq. (2) with eq. (16).

    >>> w = rope_attention_weights(np.ones((3, 2)), np.ones((3, 2)), [0, 1, 2], causal=True)
    >>> [round(float(s), 12) for s in w.sum(axis=1)], float(w[0, 1])
    ([1.0, 1.0, 1.0], 0.0)
    """
    causal = _check_bool(causal, "causal")
    scores = rope_scores(q, k, positions, base=base) / np.sqrt(np.shape(q)[1])
    if causal:
        n = scores.shape[0]
        scores = np.where(np.tril(np.ones((n, n), dtype=bool)), scores, -np.inf)
    scores = scores - scores.max(axis=1, keepdims=True)
    weights = np.exp(scores)
    return weights / weights.sum(axis=1, keepdims=True)


def rope_softmax_attention(
    q: npt.ArrayLike,
    k: npt.ArrayLike,
    v: npt.ArrayLike,
    positions: npt.ArrayLike,
    *,
    base: float = 10000.0,
    causal: bool = False,
) -> np.ndarray:
    r"""Return softmax attention outputs with RoPE, shape (N, d_v).

    .. math:: o_m = \sum_n a_{mn} v_n, \quad
              a_{mn} = \operatorname{softmax}_n\big((R_{p_m} q_m)^\top (R_{p_n} k_n)/\sqrt{d}\big)

    The scores depend on positions only through :math:`p_n - p_m`, so shifting every
    position by the same amount leaves the output unchanged (up to rounding).
    Source: RoFormer eq. (2), (16).

    >>> o = rope_softmax_attention(np.ones((2, 2)), np.ones((2, 2)), np.array([[1.0], [3.0]]), [5, 5])
    >>> o.tolist()
    [[2.0], [2.0]]
    """
    weights = rope_attention_weights(q, k, positions, base=base, causal=causal)
    return weights @ _check_v(v, weights.shape[0])


# --- linear attention ---------------------------------------------------------------------


def elu_plus_one(x: npt.ArrayLike) -> np.ndarray:
    r"""Return :math:`\mathrm{elu}(x) + 1`, a positive feature map (the default for linear attention).

    .. math:: \phi(x) = \begin{cases} x + 1 & x > 0 \\ e^{x} & x \le 0 \end{cases}

    Source: Katharopoulos et al. (2020) §3.2.1; note 004 "RoPE / RoFormer" (DaNing) names it as a choice of φ.

    >>> elu_plus_one(np.array([-1.0, 0.0, 2.0])).round(4).tolist()
    [0.3679, 1.0, 3.0]
    """
    x = np.asarray(x)
    if x.dtype.kind != "f":
        raise TypeError(f"x must be a real floating-point array, got {_describe(x)}")
    return np.where(x > 0, x + 1.0, np.exp(np.minimum(x, 0.0)))


def rope_linear_terms(
    q: npt.ArrayLike,
    k: npt.ArrayLike,
    positions: npt.ArrayLike,
    *,
    base: float = 10000.0,
    causal: bool = False,
    feature_map: FeatureMap = elu_plus_one,
) -> tuple[np.ndarray, np.ndarray]:
    r"""Return ``(numerators, denominators)`` of RoPE linear attention: shapes (N, N) and (N,).

    .. math::
        A_{mn} = \big(R_{p_m}\phi(q_m)\big)^\top \big(R_{p_n}\phi(k_n)\big), \qquad
        D_m = \sum_n \phi(q_m)^\top \phi(k_n)

    Masked entries (``causal`` and :math:`n > m`) of ``numerators`` are 0 and are left out
    of :math:`D_m`.  The denominator is *not* rotated.  Source: RoFormer eq. (19).

    >>> A, D = rope_linear_terms(np.zeros((2, 2)), np.zeros((2, 2)), [0, 0])
    >>> A.tolist(), D.tolist()
    ([[2.0, 2.0], [2.0, 2.0]], [4.0, 4.0])
    """
    q, k, positions = _check_qk(q, k, positions)
    base = check_base(base)
    causal = _check_bool(causal, "causal")
    fq, fk = _features(feature_map, q, "q"), _features(feature_map, k, "k")
    if fk.shape != fq.shape:
        raise ValueError(f"feature_map(k) must have the shape of feature_map(q) {fq.shape}, got {fk.shape}")
    numerators = apply_rope(fq, positions, base=base) @ apply_rope(fk, positions, base=base).T
    plain = fq @ fk.T
    if causal:
        mask = np.tril(np.ones(plain.shape, dtype=bool))
        numerators, plain = np.where(mask, numerators, 0.0), np.where(mask, plain, 0.0)
    denominators = plain.sum(axis=1)
    if np.any(denominators == 0):
        raise ValueError("feature_map gives a zero denominator sum_n phi(q_m)^T phi(k_n); use a positive map")
    return numerators, denominators


def rope_linear_attention(
    q: npt.ArrayLike,
    k: npt.ArrayLike,
    v: npt.ArrayLike,
    positions: npt.ArrayLike,
    *,
    base: float = 10000.0,
    causal: bool = False,
    feature_map: FeatureMap = elu_plus_one,
) -> np.ndarray:
    r"""Return linear attention with RoPE in the numerator, quadratic O(N²) form, shape (N, d_v).

    .. math::
        o_m = \frac{\sum_n \big(R_{p_m}\phi(q_m)\big)^\top \big(R_{p_n}\phi(k_n)\big)\, v_n}
                   {\sum_n \phi(q_m)^\top \phi(k_n)}

    Source: RoFormer eq. (19) (the paper leaves the denominator unrotated "to avoid the risk
    of dividing zero").

    >>> o = rope_linear_attention(np.zeros((2, 2)), np.zeros((2, 2)), np.array([[1.0], [3.0]]), [0, 0])
    >>> o.tolist()
    [[2.0], [2.0]]
    """
    numerators, denominators = rope_linear_terms(
        q, k, positions, base=base, causal=causal, feature_map=feature_map
    )
    return (numerators @ _check_v(v, numerators.shape[0])) / denominators[:, None]


def rope_linear_attention_prefix(
    q: npt.ArrayLike,
    k: npt.ArrayLike,
    v: npt.ArrayLike,
    positions: npt.ArrayLike,
    *,
    base: float = 10000.0,
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
    >>> fast = rope_linear_attention_prefix(q, k, v, pos, causal=True)
    >>> bool(np.allclose(fast, rope_linear_attention(q, k, v, pos, causal=True), atol=1e-12))
    True
    """
    q, k, positions = _check_qk(q, k, positions)
    v = _check_v(v, q.shape[0])
    base = check_base(base)
    causal = _check_bool(causal, "causal")
    fq, fk = _features(feature_map, q, "q"), _features(feature_map, k, "k")
    if fk.shape != fq.shape:
        raise ValueError(f"feature_map(k) must have the shape of feature_map(q) {fq.shape}, got {fk.shape}")
    rq, rk = apply_rope(fq, positions, base=base), apply_rope(fk, positions, base=base)
    if causal:  # one pass over the tokens; the state (U, z) has a fixed size
        U, z = np.zeros((fq.shape[1], v.shape[1])), np.zeros(fq.shape[1])
        numerators, denominators = np.empty_like(v), np.empty(q.shape[0])
        for m in range(q.shape[0]):
            U += np.outer(rk[m], v[m])
            z += fk[m]
            numerators[m], denominators[m] = rq[m] @ U, fq[m] @ z
    else:  # the sums are shared by every query
        numerators, denominators = rq @ (rk.T @ v), fq @ fk.sum(axis=0)
    if np.any(denominators == 0):
        raise ValueError("feature_map gives a zero denominator sum_n phi(q_m)^T phi(k_n); use a positive map")
    return numerators / denominators[:, None]


# --- measurements -------------------------------------------------------------------------


def shift_invariance_error(
    q: npt.ArrayLike,
    k: npt.ArrayLike,
    v: npt.ArrayLike,
    positions: npt.ArrayLike,
    shift: float,
    *,
    base: float = 10000.0,
    causal: bool = False,
    kind: str = "softmax",
) -> float:
    r"""Largest change of the attention output when every position moves by ``shift``, relative to max |o|.

    .. math:: \max_{m,e} |o_{m,e}(p + s) - o_{m,e}(p)| \,/\, \max_{m,e} |o_{m,e}(p)|

    ``kind`` is ``"softmax"`` (:func:`rope_softmax_attention`) or ``"linear"``
    (:func:`rope_linear_attention`).  Zero up to rounding because the scores depend on
    :math:`p_n - p_m` only.  Source: RoFormer eq. (16).

    >>> rng = np.random.default_rng(1)
    >>> q, k, v = rng.standard_normal((3, 6, 8))
    >>> shift_invariance_error(q, k, v, np.arange(6), 1000.0) < 1e-12
    True
    """
    shift = check_real(shift, "shift")
    if kind not in ("softmax", "linear"):
        raise ValueError(f"kind must be one of ('softmax', 'linear'), got {kind!r}")
    positions = check_positions(positions, "positions")
    attend = rope_softmax_attention if kind == "softmax" else rope_linear_attention
    before = attend(q, k, v, positions, base=base, causal=causal)
    after = attend(q, k, v, positions + shift, base=base, causal=causal)
    scale = float(np.max(np.abs(before)))
    return float(np.max(np.abs(after - before)) / (scale if scale > 0 else 1.0))


def weight_sum_deviation(
    q: npt.ArrayLike,
    k: npt.ArrayLike,
    positions: npt.ArrayLike,
    *,
    base: float = 10000.0,
    causal: bool = False,
    feature_map: FeatureMap = elu_plus_one,
) -> float:
    r"""Largest :math:`|\sum_n A_{mn}/D_m - 1|` over queries m: how far RoPE linear weights are from summing to 1.

    .. math::
        \sum_n \frac{\big(R_{p_m}\phi(q_m)\big)^\top \big(R_{p_n}\phi(k_n)\big)}
                    {\sum_{n'} \phi(q_m)^\top\phi(k_{n'})} \ne 1 \ \text{in general}

    It is 0 when all positions are equal (then every rotation cancels).  Source: RoFormer
    eq. (19) (numerator rotated, denominator not).

    >>> weight_sum_deviation(np.ones((3, 2)), np.ones((3, 2)), [4, 4, 4]) < 1e-15
    True
    """
    numerators, denominators = rope_linear_terms(
        q, k, positions, base=base, causal=causal, feature_map=feature_map
    )
    return float(np.max(np.abs(numerators.sum(axis=1) / denominators - 1.0)))


def smallest_numerator(
    q: npt.ArrayLike,
    k: npt.ArrayLike,
    positions: npt.ArrayLike,
    *,
    base: float = 10000.0,
    causal: bool = False,
    feature_map: FeatureMap = elu_plus_one,
) -> float:
    r"""Return the smallest numerator weight :math:`A_{mn}` over visible pairs (negative if any is).

    .. math:: \min_{n \text{ visible to } m} \big(R_{p_m}\phi(q_m)\big)^\top \big(R_{p_n}\phi(k_n)\big)

    With a positive φ the unrotated product :math:`\phi(q)^\top\phi(k)` is positive, but the
    rotated vectors have entries of both signs, so the product can be negative.  Example
    (d = 2, base 10000, so θ_0 = 1): q = k = 0 gives φ = (1, 1) and, at distance 3,
    :math:`\phi^\top R(-3)\phi = 2\cos 3 \approx -1.98`.  Source: RoFormer eq. (19).

    >>> round(smallest_numerator(np.zeros((2, 2)), np.zeros((2, 2)), [3, 0]), 6)
    -1.979985
    """
    numerators, _ = rope_linear_terms(q, k, positions, base=base, causal=causal, feature_map=feature_map)
    if causal:
        numerators = numerators[np.tril(np.ones(numerators.shape, dtype=bool))]
    return float(np.min(numerators))
