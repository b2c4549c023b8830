r"""Checks of note 000 read literally: a wrong variable, a shifted frequency index, :math:`\otimes` as a
Kronecker product, and "absolute encodings are unsuitable for linear attention too" (alternative readings).

>>> complex_score_frequency_index().verdict, complex_score_frequency_index(shift=1).verdict
('fails', 'holds')

References: note 000 (blog.cyberangel.work/posts/ml-rope); Su et al., *RoFormer*, arXiv:2104.09864 v5,
eq. (15), (34), (35); Vaswani et al. (2017) §3.5; Katharopoulos et al. (2020).
"""

from __future__ import annotations

import math

import numpy as np

from ropemath.attention.linear import elu_plus_one
from ropemath.claims._verdict import GAP, TOL, num, refuted, within_tol
from ropemath.claims.ledger import Outcome
from ropemath.core.rotation import rotation_matrix
from ropemath.theory.encodings import sinusoidal_encoding

__all__ = [
    "absolute_breaks_linear", "complex_score_frequency_index", "elementwise_as_kronecker",
    "sinusoidal_position_variable",
]

POSITIONS = (-7.0, 0.0, 1.0, 3.0, 1000.0, 123456.0)


def sinusoidal_position_variable(*, variable: str = "k") -> Outcome:
    r"""Refutes :math:`p_{i,2t} = \sin(k/10000^{2t/d})` as written: its right side is the same for every position i.

    .. math:: p_{1,0} - p_{0,0} = \sin(k) - \sin(k) = 0 \quad\text{but}\quad \sin(1) - \sin(0) \approx 0.8415

    ``variable="i"`` judges the corrected formula :math:`\sin(i/10000^{2t/d})` instead. The correction (both
    halves, :math:`p_{i,2t+1} = \cos(i/10000^{2t/d})` too) is compared with
    :func:`ropemath.theory.encodings.sinusoidal_encoding` at positions -5..19, d = 8.

    Source: note 000, section Basics ("絕對位置編碼").

    >>> o = sinusoidal_position_variable()
    >>> o.verdict, o.counterexample["stated"], o.counterexample["actual"], o.correction_holds
    ('fails', 0.0, 0.8415, True)
    """
    if variable not in ("k", "i"):
        raise ValueError(f"variable must be 'k' (as written) or 'i' (corrected), got {variable!r}")
    d, k = 8, 5.0  # k: any fixed number; nothing in the note ties it to the position i

    def written(i: float, t: int) -> float:
        return math.sin((k if variable == "k" else i) / 10000.0 ** (2 * t / d))

    p = sinusoidal_encoding(np.array([0.0, 1.0]), d)
    stated, actual = written(1.0, 0) - written(0.0, 0), float(p[1, 0] - p[0, 0])
    correction = max(
        max(
            abs(math.sin(i / 10000.0 ** (2 * t / d)) - float(sinusoidal_encoding(float(i), d)[2 * t])),
            abs(math.cos(i / 10000.0 ** (2 * t / d)) - float(sinusoidal_encoding(float(i), d)[2 * t + 1])),
        ) for i in range(-5, 20) for t in range(d // 2)
    )
    inputs = {"d": d, "t": 0, "positions i": [0, 1], "k": "any fixed number (5 used)"}
    return refuted(
        stated,
        actual,
        inputs,
        correction,
        f"p_(1,0) - p_(0,0) with the argument {variable}/10000^(2t/d)"
        + (" (0 for every fixed k: all positions get the same encoding)" if variable == "k" else "")
        + " vs the sinusoidal encoding (Vaswani et al.)",
    )


def _note_theta(j: int, d: int) -> float:
    """Note 000's frequency, 一般化: theta_j = 10000^(-2(j-1)/d), defined for j = 1..d/2."""
    return 10000.0 ** (-2 * (j - 1) / d)


def _complex_form(q: np.ndarray, k: np.ndarray, r: float, shift: int) -> float:
    """Re[sum_{i=0}^{d/2-1} q_[2i:2i+1] k*_[2i:2i+1] e^{i r theta_(i+shift)}] with the note's theta, written out."""
    d = len(q)
    return sum(
        (complex(q[2 * i], q[2 * i + 1]) * complex(k[2 * i], -k[2 * i + 1])).real
        * math.cos(r * _note_theta(i + shift, d))
        - (complex(q[2 * i], q[2 * i + 1]) * complex(k[2 * i], -k[2 * i + 1])).imag
        * math.sin(r * _note_theta(i + shift, d)) for i in range(d // 2)
    )


def complex_score_frequency_index(*, shift: int = 0) -> Outcome:
    r"""Refutes the complex form of the score as note 000 writes it: sum from i = 0 with the note's 1-based θ_i.

    .. math:: (R^d_{\Theta,m} q)^\top (R^d_{\Theta,n} k) \overset{?}{=} \mathrm{Re}\Big[\sum_{i=0}^{d/2-1}
        q_{[2i:2i+1]} k^*_{[2i:2i+1]} e^{i(m-n)\theta_{i+s}}\Big], \quad \theta_j = 10000^{-2(j-1)/d}

    As written (s = 0) pair i turns with :math:`\theta_i`, one slot before its own frequency
    :math:`\theta_{i+1}`, and the sum starts at :math:`\theta_0 = 10000^{2/d}`, which the note's
    :math:`\Theta` (i = 1..d/2) does not contain. ``shift=1`` judges the corrected form. The correction is
    compared with dense :func:`ropemath.core.rotation.rotation_matrix` scores, d in {2, 8, 64}.

    Source: note 000, section Long-term Decay (RoFormer eq. 35 with the 1-based θ of eq. 15).

    >>> o = complex_score_frequency_index()
    >>> o.verdict, o.counterexample["stated"], o.counterexample["actual"]
    ('fails', -0.9522, 0.5403)
    """
    if shift not in (0, 1):
        raise ValueError(f"shift must be 0 (as written) or 1 (corrected), got {shift!r}")
    q = k = np.array([1.0, 0.0])  # d = 2: the only frequency is theta_1 = 1; the note's sum uses theta_0 = 10^4
    actual = float((rotation_matrix(1.0, 2) @ q) @ (rotation_matrix(0.0, 2) @ k))
    stated = _complex_form(q, k, 1.0, shift)
    rng = np.random.default_rng(51)  # seed 51
    worst = 0.0
    for d in (2, 8, 64):
        for m in POSITIONS:
            qr, kr = rng.standard_normal((2, d))
            n = float(rng.integers(-1000, 1000))
            dense = float((rotation_matrix(m, d) @ qr) @ (rotation_matrix(n, d) @ kr))
            worst = max(worst, abs(_complex_form(qr, kr, m - n, 1) - dense) / (np.linalg.norm(qr) * np.linalg.norm(kr)))
    inputs = {"d": 2, "q = k": [1.0, 0.0], "m": 1, "n": 0, "frequency used": num(_note_theta(shift, 2))}
    return refuted(
        stated,
        actual,
        inputs,
        worst,
        f"Re[sum_(i=0)^(d/2-1) q_i k_i* e^(i(m-n) theta_(i+{shift}))] with the note's theta_j = 10000^(-2(j-1)/d) "
        "vs the dense score (R_m q)^T (R_n k)",
        tol=1e-9,  # relative; angles up to 1.2e5 rad are rounded to about 1e-11 rad
    )


def elementwise_as_kronecker(*, product: str = "kronecker") -> Outcome:
    r"""Refutes the elementwise form of :math:`R^d_{\Theta,m} x` with :math:`\otimes` read as the Kronecker product.

    .. math:: R^d_{\Theta,m} x \overset{?}{=} x \otimes (\cos m\theta_1, \cos m\theta_1, \dots)
        + (-x_2, x_1, \dots) \otimes (\sin m\theta_1, \sin m\theta_1, \dots)

    Kronecker products of two d-vectors have :math:`d^2` entries, so the right side is not even a
    d-vector. ``product="elementwise"`` judges the reading of RoFormer eq. (34). The correction is checked
    against dense :func:`ropemath.core.rotation.rotation_matrix` products, d in {2, 8, 64}.

    Source: note 000, section 效能優化 (RoFormer eq. 34).

    >>> o = elementwise_as_kronecker()
    >>> o.verdict, o.counterexample["stated right side"], o.correction_holds
    ('fails', [0.5403, 0.5403, 0.8415, 0.8415], True)
    """
    if product not in ("kronecker", "elementwise"):
        raise ValueError(f"product must be 'kronecker' or 'elementwise', got {product!r}")

    def right_side(x: np.ndarray, m: float, op: str) -> np.ndarray:
        d = len(x)
        angles = np.repeat([m * _note_theta(j, d) for j in range(1, d // 2 + 1)], 2)  # theta_1, theta_1, theta_2, ...
        swapped = np.empty(d)
        swapped[0::2], swapped[1::2] = -x[1::2], x[0::2]  # (-x_2, x_1, -x_4, x_3, ...) in 1-based numbering
        mul = np.kron if op == "kronecker" else np.multiply
        return mul(x, np.cos(angles)) + mul(swapped, np.sin(angles))

    x, m = np.array([1.0, 0.0]), 1.0
    stated, actual = right_side(x, m, product), rotation_matrix(m, 2) @ x
    differs = stated.shape != actual.shape or float(np.max(np.abs(stated - actual))) > GAP
    xr = np.random.default_rng(52).standard_normal(64)  # seed 52
    worst = max(
        float(np.max(np.abs(right_side(xr[:d], p, "elementwise") - rotation_matrix(p, d) @ xr[:d]))) for p in POSITIONS
        for d in (2, 8, 64)
    )
    ok = worst <= 1e-9
    example = {"d": 2, "m": 1, "x": [1.0, 0.0], "R x": num(actual), "stated right side": num(stated)}
    return Outcome(
        "fails" if differs else "holds",
        f"d = 2, m = 1, x = (1, 0): R x = {num(actual)}, the right side with the {product} product is "
        f"{num(stated)} ({stated.size} entries). Correction (elementwise product, RoFormer eq. 34) vs dense R x, "
        f"d in {{2, 8, 64}}, 6 positions (seed 52): residual {within_tol(worst, 1e-9)} "
        f"({'holds' if ok else 'does NOT hold'}).",
        example,
        ok,
    )


def absolute_breaks_linear(*, encoding: str = "absolute") -> Outcome:
    r"""Refutes "additive absolute encodings, like relative ones, are unsuitable for linear attention".

    .. math:: \frac{\phi(q_m)^\top \sum_n \phi(k_n) v_n^\top}{\phi(q_m)^\top \sum_n \phi(k_n)}, \quad
        k_n = W_k(x_n + p_n)\ \text{(absolute)} \quad\text{or}\quad \phi(W_k x_n + r_{m-n})\ \text{(relative)}

    Linear attention is O(N) when the key sums :math:`\sum_n \phi(k_n) v_n^\top` can be formed once and shared
    by every query. The check forms them once (with the features query m = 0 sees) and compares every
    output with the per-pair O(N²) computation: equal for absolute :math:`p_n`, not for a relative
    :math:`r_{m-n}` inside :math:`\phi` (``encoding="relative"``, the note's Transformer-XL case).

    Source: note 000, section Basics ("一樣不適用線性注意力架構", alternative reading).

    >>> absolute_breaks_linear().verdict, absolute_breaks_linear(encoding="relative").verdict
    ('fails', 'holds')
    """
    if encoding not in ("absolute", "relative"):
        raise ValueError(f"encoding must be 'absolute' or 'relative', got {encoding!r}")
    rng = np.random.default_rng(53)  # seed 53
    N, d = 8, 8
    x, p, v = rng.standard_normal((3, N, d))
    wq, wk = rng.standard_normal((2, d, d))
    table = rng.standard_normal((2 * N - 1, d))  # r_(m-n) at row m - n + N - 1

    def gap(kind: str) -> float:
        phi_q = elu_plus_one((x + p) @ wq.T if kind == "absolute" else x @ wq.T)
        if kind == "absolute":  # feats[m, n]: the key features query m sees
            feats = np.array([[elu_plus_one(wk @ (x[n] + p[n])) for n in range(N)] for m in range(N)])
        else:
            feats = np.array([[elu_plus_one(wk @ x[n] + table[m - n + N - 1]) for n in range(N)] for m in range(N)])
        shared = (phi_q @ (feats[0].T @ v)) / (phi_q @ feats[0].sum(axis=0))[:, None]
        pairs = np.array([(phi_q[m] @ feats[m].T) @ v / (phi_q[m] @ feats[m].sum(axis=0)) for m in range(N)])
        return float(np.max(np.abs(shared - pairs)) / np.max(np.abs(pairs)))

    chosen, relative = gap(encoding), gap("relative")
    example = {"N": N, "d": d, "seed": 53, "encoding": encoding, "shared-sum vs per-pair outputs": within_tol(chosen)}
    return Outcome(
        "fails" if chosen <= TOL else "holds",
        f"N = 8, d = 8, elu + 1 features (seed 53): key sums formed once and shared by every query reproduce the "
        f"per-pair outputs with the {encoding} encoding to {within_tol(chosen)} (relative). Correction: what breaks "
        f"the "
        f"shared sums is a relative term inside the key features, phi(W_k x_n + r_(m-n)) (Transformer-XL): "
        f"there the shared sums miss by {relative:.2f}.",
        example,
        relative > GAP,
    )
