r"""Softmax attention with RoPE, and the measurement of its shift invariance.

Scope: RoPE scores :math:`(R_m q_m)^\top (R_n k_n)`; softmax attention built on them
(numerically stable, optional causal mask); :func:`shift_invariance_error`, which measures
how much an attention output (softmax, or the linear attention of
:mod:`ropemath.linear_attention`) moves when every position is shifted; and the input
checks both attention modules share.

Shapes: ``q``, ``k`` are (N, d) with N >= 1 and d even, ``v`` is (N, d_v), ``positions`` is
(N,); row ``m`` of ``q`` sits at position ``positions[m]``.  The causal mask follows the row
order (key row ``n`` is visible to query row ``m`` iff ``n <= m``), not the position
values.  Computation is in float64; results are float64.

References: Su et al., *RoFormer*, arXiv:2104.09864 v5, §2.1 eq. (2), §3.2 eq. (16);
note 000 "RoPE: Rotray Position Embedding" (Ethan Lai).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ._validate import _describe, check_base, check_positions, check_real, check_x
from .apply import apply_rope

__all__ = [
    "rope_scores",
    "rope_attention_weights",
    "rope_softmax_attention",
    "shift_invariance_error",
]


# --- validation ---------------------------------------------------------------------------


def _finite(arr: np.ndarray, name: str) -> None:
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must contain only finite values, got non-finite entries")


def _check_qk(q: object, k: object, positions: object) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Validate q, k of shape (N, d) and positions of shape (N,); return float64 copies."""
    q = check_x(q, "q")
    if q.ndim != 2 or q.shape[0] == 0:
        raise ValueError(f"q must have shape (N, d) with N >= 1, got shape {q.shape}")
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


# --- shift invariance ---------------------------------------------------------------------


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
    (:func:`ropemath.linear_attention.rope_linear_attention`).  Zero up to rounding because the scores depend on
    :math:`p_n - p_m` only.  Source: RoFormer eq. (16).

    >>> rng = np.random.default_rng(1)
    >>> q, k, v = rng.standard_normal((3, 6, 8))
    >>> shift_invariance_error(q, k, v, np.arange(6), 1000.0) < 1e-12
    True
    """
    shift = check_real(shift, "shift")
    if not isinstance(kind, str):
        raise TypeError(f"kind must be one of ('softmax', 'linear'), got {_describe(kind)}")
    if kind not in ("softmax", "linear"):
        raise ValueError(f"kind must be one of ('softmax', 'linear'), got {kind!r}")
    positions = check_positions(positions, "positions")
    if kind == "softmax":
        attend = rope_softmax_attention
    else:  # imported here: ropemath.linear_attention imports this module's input checks
        from .linear_attention import rope_linear_attention as attend
    before = attend(q, k, v, positions, base=base, causal=causal)
    after = attend(q, k, v, positions + shift, base=base, causal=causal)
    scale = float(np.max(np.abs(before)))
    return float(np.max(np.abs(after - before)) / (scale if scale > 0 else 1.0))
