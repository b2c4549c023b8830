r"""Checks of the notes read literally: where a note's text says something other than what it means.

>>> complex_score_frequency_index().verdict, complex_score_frequency_index(shift=1).verdict
('fails', 'holds')
>>> modulus_initial_condition().verdict, elementwise_display().verdict, t5_bias_literal().verdict
('holds-if', 'fails', 'fails')

References: the notes of :data:`ropemath.claims.ledger.NOTES`; Su et al., *RoFormer*, arXiv:2104.09864 v5,
eq. (2), (12)-(16), (34), (35); Vaswani et al. (2017) §3.5; Raffel et al. (T5, 2020) §2.1; Katharopoulos et
al. (2020); Su Jianlin, kexue.fm/archives/8265.
"""

from __future__ import annotations

import cmath
import math
from collections.abc import Callable

import numpy as np
import sympy as sp

from ropemath.attention.linear import elu_plus_one
from ropemath.attention.softmax import rope_attention_weights, rope_softmax_attention
from ropemath.claims._verdict import GAP, TOL, conditional, identity, num, refuted, res, shift_change, within_tol
from ropemath.claims.checks_rotation import POSITIONS
from ropemath.claims.ledger import NOTES_ROPE, Outcome
from ropemath.core.apply import apply_rope
from ropemath.core.blocks import block_diagonal
from ropemath.core.checks import elementwise_error, norm_error, orthogonality_error, relative_position_error
from ropemath.core.rotation import frequencies, rotation_2d, rotation_matrix
from ropemath.symbolic.common import is_zero, rotation
from ropemath.symbolic.derivation import derivation_steps
from ropemath.theory.encodings import additive_scores, relative_bias, sinusoidal_encoding, sinusoidal_scores


def _theta(k: int, d: int) -> float:
    r""":math:`\theta_k = 10000^{-2k/d}` written out (note 002 §3); note 000's 1-based θ_j is ``_theta(j - 1, d)``."""
    return 10000.0 ** (-2 * k / d)


# --- note 000 ----------------------------------------------------------------------------------------------------


def sinusoidal_position_variable(*, variable: str = "k") -> Outcome:
    r"""Refutes :math:`p_{i,2t} = \sin(k/10000^{2t/d})` as written: its right side is the same for every position i.

    .. math:: p_{1,0} - p_{0,0} = \sin(k) - \sin(k) = 0 \quad\text{but}\quad \sin(1) - \sin(0) \approx 0.8415

    ``variable="i"`` judges the corrected formula (with its cosine half) against the sinusoidal encoding.
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
        max(abs(math.sin(i / 10000.0 ** (2 * t / d)) - float(sinusoidal_encoding(float(i), d)[2 * t])),
            abs(math.cos(i / 10000.0 ** (2 * t / d)) - float(sinusoidal_encoding(float(i), d)[2 * t + 1])))
        for i in range(-5, 20) for t in range(d // 2)
    )
    inputs = {"d": d, "t": 0, "positions i": [0, 1], "k": "any fixed number (5 used)"}
    return refuted(
        stated, actual, inputs, correction,
        f"p_(1,0) - p_(0,0) with the argument {variable}/10000^(2t/d)"
        + (" (0 for every fixed k: all positions get the same encoding)" if variable == "k" else "")
        + " vs the sinusoidal encoding (Vaswani et al.)",
    )


def _complex_form(q: np.ndarray, k: np.ndarray, r: float, shift: int) -> float:
    """Re[sum_{i=0}^{d/2-1} q_[2i:2i+1] k*_[2i:2i+1] e^{i r theta_(i+shift)}] with the note's theta, written out."""
    d, h = len(q), [complex(q[2 * i], q[2 * i + 1]) * complex(k[2 * i], -k[2 * i + 1]) for i in range(len(q) // 2)]
    return sum(
        h[i].real * math.cos(r * _theta(i + shift - 1, d)) - h[i].imag * math.sin(r * _theta(i + shift - 1, d))
        for i in range(d // 2)
    )


def complex_score_frequency_index(*, shift: int = 0) -> Outcome:
    r"""Refutes the complex form of the score as note 000 writes it: sum from i = 0 with the note's 1-based θ_i.

    .. math:: (R^d_{\Theta,m} q)^\top (R^d_{\Theta,n} k) \overset{?}{=} \mathrm{Re}\Big[\sum_{i=0}^{d/2-1}
        q_{[2i:2i+1]} k^*_{[2i:2i+1]} e^{i(m-n)\theta_{i+s}}\Big], \quad \theta_j = 10000^{-2(j-1)/d}

    As written (s = 0) pair i turns with :math:`\theta_i`, not its own :math:`\theta_{i+1}`, and
    :math:`\theta_0 = 10000^{2/d}` is not in the note's :math:`\Theta`. ``shift=1`` judges the corrected form.
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
    rng, worst = np.random.default_rng(51), 0.0  # seed 51
    for d, m in ((d, m) for d in (2, 8, 64) for m in POSITIONS):
        qr, kr = rng.standard_normal((2, d))
        n = float(rng.integers(-1000, 1000))
        dense = float((rotation_matrix(m, d) @ qr) @ (rotation_matrix(n, d) @ kr))
        worst = max(worst, abs(_complex_form(qr, kr, m - n, 1) - dense) / (np.linalg.norm(qr) * np.linalg.norm(kr)))
    inputs = {"d": 2, "q = k": [1.0, 0.0], "m": 1, "n": 0, "frequency used": num(_theta(shift - 1, 2))}
    return refuted(
        stated, actual, inputs, worst,
        f"Re[sum_(i=0)^(d/2-1) q_i k_i* e^(i(m-n) theta_(i+{shift}))] with the note's theta_j = 10000^(-2(j-1)/d) "
        "vs the dense score (R_m q)^T (R_n k)",
        tol=1e-9,  # relative; angles up to 1.2e5 rad are rounded to about 1e-11 rad
    )


def elementwise_as_kronecker(*, product: str = "kronecker") -> Outcome:
    r"""Refutes the elementwise form of :math:`R^d_{\Theta,m} x` with :math:`\otimes` read as the Kronecker product.

    .. math:: R^d_{\Theta,m} x \overset{?}{=} x \otimes (\cos m\theta_1, \cos m\theta_1, \dots)
        + (-x_2, x_1, \dots) \otimes (\sin m\theta_1, \sin m\theta_1, \dots)

    A Kronecker product of two d-vectors has :math:`d^2` entries. ``product="elementwise"`` judges eq. (34).
    Source: note 000, section 效能優化 (RoFormer eq. 34).

    >>> o = elementwise_as_kronecker()
    >>> o.verdict, o.counterexample["stated right side"], o.correction_holds
    ('fails', [0.5403, 0.5403, 0.8415, 0.8415], True)
    """
    if product not in ("kronecker", "elementwise"):
        raise ValueError(f"product must be 'kronecker' or 'elementwise', got {product!r}")

    def right_side(x: np.ndarray, m: float, op: str) -> np.ndarray:
        d = len(x)
        angles = np.repeat([m * _theta(i, d) for i in range(d // 2)], 2)  # theta_1, theta_1, theta_2, ...
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
        example, ok,
    )


def absolute_breaks_linear(*, encoding: str = "absolute") -> Outcome:
    r"""Refutes "additive absolute encodings, like relative ones, are unsuitable for linear attention".

    .. math:: \frac{\phi(q_m)^\top \sum_n \phi(k_n) v_n^\top}{\phi(q_m)^\top \sum_n \phi(k_n)}, \quad
        k_n = W_k(x_n + p_n)\ \text{(absolute)} \quad\text{or}\quad \phi(W_k x_n + r_{m-n})\ \text{(relative)}

    The key sums, formed once with the features query 0 sees, must reproduce every per-pair output: they do for
    absolute :math:`p_n`, not for a relative :math:`r_{m-n}` inside :math:`\phi` (``encoding="relative"``).
    Source: note 000, section Basics ("一樣不適用線性注意力架構", alternative reading).

    >>> absolute_breaks_linear().verdict, absolute_breaks_linear(encoding="relative").verdict
    ('fails', 'holds')
    """
    if encoding not in ("absolute", "relative"):
        raise ValueError(f"encoding must be 'absolute' or 'relative', got {encoding!r}")
    rng, N, d = np.random.default_rng(53), 8, 8  # seed 53
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
        f"the shared sums is a relative term inside the key features, phi(W_k x_n + r_(m-n)) (Transformer-XL): "
        f"there the shared sums miss by {relative:.2f}.",
        example, relative > GAP,
    )


# --- note 001 ----------------------------------------------------------------------------------------------------


Encoding = Callable[[complex, float], complex]


def _steps(*keys: str) -> tuple[bool, str]:
    """Whether the named steps of the sympy derivation (which assumes f(x, 0) = x) are verified."""
    steps = {s.key: s for s in derivation_steps()}
    ok = all(steps[key].verified for key in keys)
    return ok, f"sympy derivation steps {', '.join(repr(k) for k in keys)} {'verified' if ok else 'NOT verified'}"


def _relative_residual(f: Encoding, seed: int) -> float:
    r"""Largest :math:`|f(q,m+s)\overline{f(k,n+s)} - f(q,m)\overline{f(k,n)}|` / |q||k| over 20 random cases."""
    rng, worst = np.random.default_rng(seed), 0.0
    for _ in range(20):
        q, k = complex(*rng.standard_normal(2)), complex(*rng.standard_normal(2))
        m, n, s = map(float, rng.integers(-50, 50, 3))
        a, b = f(q, m) * f(k, n).conjugate(), f(q, m + s) * f(k, n + s).conjugate()
        worst = max(worst, abs(a - b) / (abs(q) * abs(k)))
    return worst


def negative_angle(*, sin_parity: int = -1) -> Outcome:
    r"""§1.5 step 4: :math:`\cos(-\theta) = \cos\theta`, :math:`\sin(-\theta) = -\sin\theta`, hence
    :math:`R_{-\theta} = \begin{pmatrix}\cos\theta & \sin\theta\\ -\sin\theta & \cos\theta\end{pmatrix}`."""
    t = sp.Symbol("theta", real=True)
    c, s = sp.cos(t), sin_parity * sp.sin(t)  # the parity rule as applied: cos(-t) -> c, sin(-t) -> s
    rule = is_zero(sp.cos(-t) - c) and is_zero(sp.sin(-t) - s)
    derived = sp.Matrix([[c, -s], [s, c]])  # the note's R_{-theta} after the rule
    stated = sp.Matrix([[sp.cos(t), sp.sin(t)], [-sp.sin(t), sp.cos(t)]])  # the note's last matrix
    ok = rule and is_zero(derived - rotation(-t)) and is_zero(stated - rotation(-t))
    at = sp.pi / 2
    example = None if ok else {"theta": "pi/2", "sin(-theta)": int(sp.sin(-at)), "rule gives": int(s.subs(t, at))}
    return Outcome(
        "holds" if ok else "fails",
        f"sympy: parity rule with sin(-t) = {sin_parity:+d} sin t {'proved' if rule else 'NOT proved'}; the matrix "
        f"it gives {'equals' if ok else 'does NOT equal'} R(-theta) and the note's [[cos, sin], [-sin, cos]].",
        example,
    )


def polar_split_literal(*, complex_g: bool = False) -> Outcome:
    r"""§2.4 as written: :math:`g = \mathrm{Re}(f(q,m)f^*(k,n))` is real, :math:`R_g = |g|`; the note
    claims :math:`R_f(q,m)R_f(k,n) = R_g(q,k,m-n)` (and arguments subtract)."""
    theta = 1.0

    def f(x: complex, pos: float) -> complex:  # the note's own solution (§2.8): f(x, m) = x e^{i m theta}
        return x * cmath.exp(1j * pos * theta)

    q, k, m = 1 + 0j, 1j, 0.0
    g = f(q, m) * f(k, m).conjugate() if complex_g else (f(q, m) * f(k, m).conjugate()).real
    stated, actual = abs(f(q, m)) * abs(f(k, m)), abs(g)
    ok, text = _steps("polar_product", "radial_equation", "angular_equation")
    rng, worst = np.random.default_rng(50), 0.0  # seed 50: the corrected (complex) relations on random inputs
    for _ in range(20):  # pragma: no mutate (number of random cases: the residual is shown only against the tolerance)
        a, b = complex(*rng.standard_normal(2)), complex(*rng.standard_normal(2))
        p, r = map(float, rng.integers(-50, 50, 2))
        z = f(a, p) * f(b, r).conjugate()
        turn = cmath.exp(1j * (cmath.phase(f(a, p)) - cmath.phase(f(b, r))))
        worst = max(worst, abs(abs(z) - abs(f(a, p)) * abs(f(b, r))), abs(z / abs(z) - turn))
    inputs = {"f(x, m)": "x e^(i m theta)", "theta": theta, "q": "1", "k": "i", "m = n": 0, "g": _show(g)}
    return refuted(
        stated, actual, inputs, worst if ok else float("inf"),
        f"R_f(q,m) R_f(k,n) (stated) vs R_g = |g| with g = {'f f*' if complex_g else 'Re(f f*)'}; {text}",
    )


def _initial_condition(
    statement: Callable[[Encoding, complex, complex], tuple[complex, complex]], outside: Encoding, inside: Encoding,
    seed: int, keys: tuple[str, ...], example: dict,
) -> Outcome:
    """``holds-if`` f(x, 0) = x: ``statement(f, q, k)`` (stated, actual) breaks for ``outside``, holds for ``inside``
    (20 random q, k) and in the sympy steps ``keys``; both encodings must be relative (20 random cases each)."""
    stated, actual = statement(outside, 1 + 0j, 1j)
    met = max(_relative_residual(outside, seed), _relative_residual(inside, seed))
    rng = np.random.default_rng(seed)
    gap = max(
        abs(a - b) for a, b in (statement(inside, *(complex(*rng.standard_normal(2)) for _ in "qk")) for _ in range(20))
    )
    proved, text = _steps(*keys)
    example = {**example, "q": "1", "k": "i", "stated": _show(stated), "actual": _show(actual)}
    return conditional(
        met <= 1e-12 and abs(stated - actual) > GAP, proved and gap <= 1e-12, example,
        f"Both encodings make f(q,m) f*(k,n) depend on m - n only (residual {within_tol(met)}, seed {seed}). "
        f"Outside f(x, 0) = x, {example['f(x, m)']} at q = 1, k = i: stated {_show(stated)}, actual {_show(actual)}. "
        f"Inside, {example['inside']} on 20 random q, k: largest gap {within_tol(gap)}; {text}.",
    )


def _show(z: complex | float) -> float | list[float]:
    """A real number rounded, or a complex one as [real, imaginary] rounded (stable evidence)."""
    return num(z) if not isinstance(z, complex) else num([z.real, z.imag])


def _scaled(scale: float, conjugate: bool = False, offset: float = 0.0) -> Encoding:
    """f(x, m) = scale (conj x or x) e^(i(m + offset)): relative for every choice, f(x, 0) = x only for 1, x, 0."""
    return lambda x, pos: scale * (x.conjugate() if conjugate else x) * cmath.exp(1j * (pos + offset))


def modulus_initial_condition(*, scale: float = 2.0, inside_scale: float = 1.0) -> Outcome:
    r"""§2.5: :math:`R_f(q,0)R_f(k,0) = \|q\|\|k\|` needs :math:`f(x, 0) = x` (outside: f = scale x e^{im})."""

    def statement(f: Encoding, q: complex, k: complex) -> tuple[complex, complex]:
        return abs(q) * abs(k), abs(f(q, 0)) * abs(f(k, 0))

    example = {"f(x, m)": f"{scale:g} x e^(i m)", "inside": f"f = {inside_scale:g} x e^(i m)", "m = n": 0}
    return _initial_condition(statement, _scaled(scale), _scaled(inside_scale), 51, ("radial_solution",), example)


def angle_initial_condition(*, conjugate: bool = True, inside_conjugate: bool = False) -> Outcome:
    r"""§2.6: :math:`\Theta_f(q,0) - \Theta_f(k,0) = \Theta(q) - \Theta(k)` needs :math:`f(x, 0) = x` (mod 2π)."""

    def statement(f: Encoding, q: complex, k: complex) -> tuple[complex, complex]:
        turn = cmath.phase(f(q, 0)) - cmath.phase(f(k, 0))
        return cmath.exp(1j * (cmath.phase(q) - cmath.phase(k))), cmath.exp(1j * turn)

    name = {True: "conj(x) e^(i m)", False: "x e^(i m)"}
    example = {"f(x, m)": name[conjugate], "inside": f"f = {name[inside_conjugate]}", "m = n": 0}
    inside = _scaled(1.0, inside_conjugate)
    return _initial_condition(statement, _scaled(1.0, conjugate), inside, 52, ("angle_split",), example)


def phase_initial_condition(*, offset: float = 0.5, inside_offset: float = 0.0) -> Outcome:
    r"""§2.7: :math:`\varphi(m) = m\theta` needs :math:`e^{i\varphi(0)} = 1`, i.e. :math:`f(x, 0) = x`."""

    def statement(f: Encoding, q: complex, k: complex) -> tuple[complex, complex]:
        return 1 + 0j, f(q, 0) / q

    example = {"f(x, m)": f"x e^(i(m + {offset:g}))", "inside": f"f = x e^(i(m + {inside_offset:g}))", "m": 0,
               "theta": 1.0}
    outside, inside = _scaled(1.0, offset=offset), _scaled(1.0, offset=inside_offset)
    return _initial_condition(statement, outside, inside, 53, ("phase_solution", "initial_phase"), example)


def cos_theta_some_case(*, offsets: tuple[int, ...] = (1, -1)) -> Outcome:
    r"""§2.8.1 as an existence claim: some q, k, m, n give :math:`R_mq\cdot R_nk = (q\cdot k)\cos\theta`."""
    q, theta = np.array([1.0, 0.0]), 1.0
    found = [r for r in offsets if abs((rotation_2d(r * theta) @ q) @ q - (q @ q) * np.cos(theta)) <= 1e-12]
    return Outcome(
        "holds" if found else "fails",
        f"q = k = (1, 0), theta = 1: the score equals (q.k) cos(theta) at m - n in {found} (searched {list(offsets)}).",
    )


def sinusoidal_rotated(*, multiplied: str = "p_m") -> Outcome:
    r"""§2.9 as written: RoPE is the sinusoidal :math:`p_m = x + yi` times :math:`\cos m\theta + i\sin m\theta`."""
    q, m = np.array([1.0, 0.0]), 1.0
    p = sinusoidal_encoding(m, 2)  # (sin m, cos m), the sinusoidal pair at d = 2 (omega_0 = theta_0 = 1)
    stated, actual = rotation_2d(m) @ (p if multiplied == "p_m" else q), apply_rope(q, m, **NOTES_ROPE)
    rotated_p = [rotation_2d(float(r)) @ sinusoidal_encoding(float(r), 2) for r in range(6)]
    constant = max(float(np.max(np.abs(v - rotated_p[0]))) for v in rotated_p)
    rng, worst = np.random.default_rng(54), 0.0  # seed 54: the correction f(q, m) = e^{i m theta} q on random q, m
    for _ in range(20):
        x, r = rng.standard_normal(2), float(rng.integers(-1000, 1000))
        z = complex(*x) * cmath.exp(1j * r)
        worst = max(worst, float(np.max(np.abs(apply_rope(x, r, **NOTES_ROPE) - [z.real, z.imag]))))
    gap = float(np.max(np.abs(stated - actual)))
    ok = worst <= 1e-9  # |m| up to 1000 rad, both sides form the same angle m theta = m
    return Outcome(
        "fails" if gap > GAP else "holds",
        f"d = 2, theta = 1, q = (1, 0), m = 1: RoPE gives {num(actual)}, e^(i m theta) times "
        f"{'p_m = ' + str(num(p)) if multiplied == 'p_m' else 'q'} gives {num(stated)}. Rotating p_m by m theta "
        f"gives the same vector for m = 0..5 (spread {res(constant)}): all position information cancels. "
        f"Correction f(q, m) = e^(i m theta) q (q the query, not p_m) vs apply_rope, 20 random cases (seed 54): "
        f"residual {within_tol(worst, 1e-9)} ({'holds' if ok else 'does NOT hold'}).",
        {"q": [1.0, 0.0], "m": 1, "theta": 1.0, "p_m": num(p), "e^(i m theta) p_m": num(stated), "RoPE": num(actual)},
        ok,
    )


def attention_relative(*, rotate_keys: bool = True) -> Outcome:
    r"""§2.10: with :math:`R_m q_m`, :math:`R_n k_n` the attention weights depend on positions only through
    :math:`m - n` — and they do depend on it."""
    q, k = np.random.default_rng(55).standard_normal((2, 6, 8))  # seed 55

    def weights(p: np.ndarray) -> np.ndarray:
        keys = apply_rope(k, p, **NOTES_ROPE) if rotate_keys else k
        s = apply_rope(q, p, **NOTES_ROPE) @ keys.T / np.sqrt(8.0)
        e = np.exp(s - s.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)

    pos = np.array([0.0, 1.0, 2.0, 5.0, 9.0, 10.0])
    shifted, spread = shift_change(weights, pos, 7.0), float(np.max(np.abs(weights(pos) - weights(2 * pos))))
    ok = shifted <= 1e-12 and spread > GAP
    return Outcome(
        "holds" if ok else "fails",
        f"N = 6, d = 8 (seed 55), {'q and k' if rotate_keys else 'q only'} rotated: moving every position by 7 "
        f"changes the weights by {within_tol(shifted)} (relative); doubling the offsets changes them by {spread:.2f}.",
    )


def pair_index_one_based(*, base: int = 1) -> Outcome:
    r"""§2.10 with "第 j 个维度" counted from 1: coordinate j uses :math:`\theta_{\lfloor j/2\rfloor}`."""
    d, R, theta = 8, rotation_matrix(1.0, 8), frequencies(8)

    def stated(j: int) -> float:  # cos(theta_floor(j/2)); j = d (1-based) has no theta_(d/2): nan
        return float(np.cos(theta[j // 2])) if j // 2 < d // 2 else float("nan")

    bad = [j for j in range(base, d + base) if not abs(R[j - base, j - base] - stated(j)) <= GAP]
    j = bad[0] if bad else base
    fixed = max(abs(R[r, r] - np.cos(theta[r // 2])) for r in range(d))  # row r = j - base
    return refuted(
        stated(j), float(R[j - base, j - base]), {"d": d, "m": 1, "j": j, "row": j - base, "floor(j/2)": j // 2}, fixed,
        f"cos(theta_floor(j/2)) (stated) vs diagonal entry of R^8_(Theta,1) for coordinate j counted from {base}; "
        "correction i = floor((j - base)/2)",
    )


def distinct_pair_frequencies(*, base: float = 10000.0) -> Outcome:
    r"""Each coordinate pair :math:`(2i, 2i+1)` has its own frequency: the d/2 values :math:`\theta_i` are distinct."""
    counts = {d: len(set(frequencies(d, base).tolist())) for d in (2, 8, 128)}
    ok = all(n == d // 2 for d, n in counts.items())
    return Outcome("holds" if ok else "fails", f"base {base:g}: distinct theta_i per d: {counts} (d/2 needed).")


# --- note 002 ----------------------------------------------------------------------------------------------------


def doubled_goal_formula(*, doubled: bool = True) -> Outcome:
    r"""The goal line as scraped, :math:`A = g\,A = g` (a chain), for RoPE's :math:`A = g = q^\top R_{n-m} k`."""
    q = k = np.array([2.0, 0.0])  # m = n = 0: A = g = |q|^2 = 4
    a, g = float(apply_rope(q, 0.0, **NOTES_ROPE) @ apply_rope(k, 0.0, **NOTES_ROPE)), float(q @ k)
    chain = abs(a - g * a) if doubled else abs(a - g)
    return Outcome(
        "fails" if chain > GAP else "holds",
        f"q = k = (2, 0), m = n = 0: <f_q, f_k> = {num(a)} and g = {num(g)}; "
        + (f"the chain needs <f_q, f_k> = g <f_q, f_k>, i.e. {num(a)} = {num(g * a)}." if doubled else "A = g."),
        {"q = k": [2.0, 0.0], "m = n": 0, "<f_q, f_k>": num(a), "g <f_q, f_k>": num(g * a)},
    )


def kn_named_query(*, symbol: str = "k_n") -> Outcome:
    r""":math:`k_n` named "the query at position m": :math:`\langle R_m k_n, R_n k_n\rangle` vs the true score."""
    q_m, k_n, m, n = np.array([1.0, 0.0]), np.array([0.0, 1.0]), 1.0, 0.0  # W_q = W_k = I, d = 2, theta_0 = 1
    query = k_n if symbol == "k_n" else q_m

    def score(a: np.ndarray, b: np.ndarray, m: float, n: float) -> float:
        return float(apply_rope(a, m, **NOTES_ROPE) @ apply_rope(b, n, **NOTES_ROPE))

    stated, actual = score(query, k_n, m, n), score(q_m, k_n, m, n)
    corr = max(abs(score(q_m, k_n, m + s, n + s) - actual) for s in (-5.0, 3.0, 1000.0))  # relative in m - n
    inputs = {"q_m": [1.0, 0.0], "k_n": [0.0, 1.0], "m": 1, "n": 0, "theta": 1.0}
    return refuted(stated, actual, inputs, corr, f"score with {symbol} as the query at m")


def position_term_absolute(*, structured: bool = False) -> Outcome:
    r""":math:`\langle p_i W_Q, p_j W_K\rangle` is not a function of i - j (learned p; sinusoidal p, generic W)."""
    rng, zero = np.random.default_rng(60), np.zeros((12, 8))  # seed 60
    wq, wk = (np.eye(8), np.eye(8)) if structured else tuple(rng.standard_normal((2, 8, 8)))
    learned = additive_scores(zero, rng.standard_normal((12, 8)), wq, wk)
    sinus = sinusoidal_scores(zero, np.arange(12.0), wq, wk)
    gaps = [abs(S[1, 0] - S[6, 5]) for S in ((sinus,) if structured else (learned, sinus))]
    return Outcome(
        "holds" if min(gaps) > GAP else "fails",
        f"Position-only term (no content, {'W = I' if structured else 'random W_Q, W_K'}, seed 60): term(1, 0) vs "
        f"term(6, 5), same i - j = 1, differ by {', '.join(res(g) for g in gaps)} "
        f"({'learned p, sinusoidal p' if not structured else 'sinusoidal p'}).",
    )


def embedding_rotated_before_projection(*, project: bool = True) -> Outcome:
    r"""Rotating the word embedding x and then projecting: :math:`(W_q R_m x_m)^\top (W_k R_n x_n)` is not relative."""
    rng = np.random.default_rng(61)  # seed 61
    x, wq, wk = rng.standard_normal((6, 8)), *rng.standard_normal((2, 8, 8))

    def scores(p: np.ndarray) -> np.ndarray:
        if project:
            return (apply_rope(x, p, **NOTES_ROPE) @ wq.T) @ (apply_rope(x, p, **NOTES_ROPE) @ wk.T).T
        return apply_rope(x @ wq.T, p, **NOTES_ROPE) @ apply_rope(x @ wk.T, p, **NOTES_ROPE).T

    change = shift_change(scores, np.arange(6.0), 5.0)
    return Outcome(
        "fails" if change > GAP else "holds",
        f"Every position moved by 5 (random x, W_q, W_k, seed 61): the scores change by {res(change)} (relative) "
        f"when {'the embedding is rotated before W_q, W_k' if project else 'q, k are rotated after W_q, W_k'}.",
        {"d": 8, "N": 6, "shift": 5, "relative score change": num(change)} if change > GAP else None,
    )


def score_varies_with_distance(*, speed: float = 1.0) -> Outcome:
    r"""For generic q, k the score :math:`q^\top R_{r} k` takes a different value at each distance r = -10..10."""
    q, k = np.random.default_rng(62).standard_normal((2, 8))  # seed 62
    s = np.array([q @ rotation_matrix(speed * r, 8) @ k for r in range(-10, 11)])
    gap = float(np.min(np.abs(s[:, None] - s[None, :]) + np.eye(21) * 1e9))
    return Outcome(
        "holds" if gap > GAP else "fails",
        f"Random q, k in R^8 (seed 62): the 21 scores at r = -10..10 are pairwise "
        f"{'distinct' if gap > GAP else 'NOT distinct'} (smallest gap {'above' if gap > 1e-3 else 'below'} 1e-3).",
    )


def direction_rotation_unique(*, dim: int = 2) -> Outcome:
    r"""In 2D one rotation takes u to v: no skew :math:`A \ne 0` has :math:`A u = 0` (it does in 3D)."""
    u = np.random.default_rng(67).standard_normal(dim)  # seed 67
    eye = np.eye(dim)  # skew-symmetric E_ij - E_ji, i < j: the directions in which a rotation can move
    basis = [(np.outer(eye[i], eye[j]) - np.outer(eye[j], eye[i])) @ u for i in range(dim) for j in range(i + 1, dim)]
    free = len(basis) - int(np.linalg.matrix_rank(np.array(basis)))
    if dim == 2:  # globally too: R(c) u = u only at c = 0 on a grid of 359 non-zero angles
        moved = min(float(np.linalg.norm(rotation_2d(c) @ u - u)) for c in np.linspace(0, 2 * np.pi, 361)[1:-1])
        free += 0 if moved > GAP else 1
    return Outcome(
        "holds" if free == 0 else "fails",
        f"Rotations R of R^{dim} with R u = v for a given unit pair (random u, seed 67): {free} free "
        f"parameter(s) (dim SO({dim}) = {len(basis)} minus the rank of A -> A u over skew A"
        + (", and R(c) u = u at no grid angle c in (0, 2 pi))." if dim == 2 else ").")
        + (" So R(a), a the angle from u to v, is the only one." if free == 0 else " Not unique."),
        None if free == 0 else {"dim": dim, "free parameters": free},
    )


def matrix_sparse(*, dims: tuple[int, ...] = (64, 128, 512)) -> Outcome:
    r""":math:`R^d_{\Theta,m}` has 2d non-zero entries of :math:`d^2`: sparse (at most 1/16 filled) for d >= 32."""
    filled = {d: int(np.count_nonzero(rotation_matrix(1.0, d))) for d in dims}
    ok = all(n == 2 * d and n / d**2 <= 1 / 16 for d, n in filled.items())
    return Outcome(
        "holds" if ok else "fails",
        "Non-zero entries of R^d_(Theta,1): "
        + ", ".join(f"{n} of {d * d} at d = {d}" for d, n in filled.items())
        + " (bound: at most 1/16 filled).",
    )


def _display_matrix(m: float, d: int, first: int) -> np.ndarray:
    """§4's block matrix written out, blocks R(m theta_first), ..., with theta_k = 10000^(-2k/d)."""
    return block_diagonal([rotation_2d(m * _theta(first + b, d)) for b in range(d // 2)])


def index_shift(*, matrix_first: int = 1) -> Outcome:
    r"""§4 (:math:`\theta_1..\theta_{d/2}`) and §4.1 (:math:`\theta_0..\theta_{d/2-1}`) with §3's :math:`\theta_k`."""
    d, m, q = 8, 1.0, np.eye(8)[0]  # theta_k = 10^-k at d = 8
    matrix = _display_matrix(m, d, matrix_first) @ q
    fast = apply_rope(q, m, **NOTES_ROPE)  # eq. (34), theta_0..theta_(d/2-1)
    corr = max(float(np.max(np.abs(_display_matrix(p, d, 0) - rotation_matrix(p, d)))) for p in POSITIONS)
    inputs = {"d": 8, "theta_k": "10^-k", "m": 1, "q": "e_0", "coordinate": 1}
    return refuted(
        float(matrix[1]), float(fast[1]), inputs, corr,
        f"§4 matrix (blocks from theta_{matrix_first}) vs the §4.1 formula",
    )


def elementwise_display(*, fifth_sine: int = 1) -> Outcome:
    r"""§4.1 as written (d = 8), every entry of R_m: sine entry 4 is :math:`\sin m\theta_1`, not :math:`\theta_2`'s."""
    d, m, q = 8, 1.0, np.eye(8)  # the display applied to every q = e_j at once: column j is the result for e_j
    sines = [0, 0, 1, 1, fifth_sine, 2, 3, 3]  # as displayed; the vertical dots stand for the one entry left
    cosines = [0, 0, 1, 1, 2, 2, 3, 3]
    turned = np.array([-q[1], q[0], -q[3], q[2], -q[5], q[4], -q[7], q[6]])
    stated = q * np.cos([[m * _theta(i, d)] for i in cosines]) + turned * np.sin([[m * _theta(i, d)] for i in sines])
    actual = rotation_matrix(m, d) @ q
    x = np.random.default_rng(63).standard_normal(8)  # seed 63: eq. (34), each sin m theta_i twice
    corr = max(elementwise_error(x, p) for p in POSITIONS)
    i, j = (int(t) for t in np.unravel_index(np.argmax(np.abs(stated - actual)), (d, d)))  # the worst entry
    inputs = {"d": 8, "theta_i": "10^-i", "m": 1, "q": f"e_{j}", "coordinate": i}
    return refuted(float(stated[i, j]), float(actual[i, j]), inputs, corr, f"(R_m q)_{i} from the displayed vectors")


def _angle(u: np.ndarray, v: np.ndarray) -> np.ndarray:
    """The angle between u and v (along the last axis)."""
    return np.arccos(np.clip(np.sum(u * v, -1) / np.linalg.norm(u, axis=-1) / np.linalg.norm(v, axis=-1), -1, 1))


def lengths_and_same_angle(*, stretch: float = 1.0) -> Outcome:
    r""":math:`\|R_m x\| = \|x\|` and :math:`\angle(R_m a, R_m b) = \angle(a, b)`: :math:`R_m` is orthogonal."""
    a, b = np.random.default_rng(65).standard_normal((2, 16, 16))  # seed 65
    worst = 0.0
    for m in POSITIONS:
        ra, rb = stretch * apply_rope(a, m, **NOTES_ROPE), stretch * apply_rope(b, m, **NOTES_ROPE)
        lengths = float(np.max(np.abs(np.linalg.norm(ra, axis=-1) / np.linalg.norm(a, axis=-1) - 1)))
        worst = max(worst, lengths, float(np.max(np.abs(_angle(ra, rb) - _angle(a, b)))))
    worst = max(worst, norm_error(a, 3.0) if stretch == 1.0 else 0.0, orthogonality_error(3.0, 16))
    what = "R_m" if stretch == 1.0 else f"{stretch:g} R_m"
    return identity(
        worst, f"{what}: relative length change and angle change, 16 pairs in R^16 (seed 65), 6 positions; R^T R = I",
        tol=1e-9,
    )


def angle_under_different_rotations(*, n_offset: float = -1.0) -> Outcome:
    r"""Refutes :math:`\angle(R_m q, R_n k) = \angle(q, k)` for :math:`m \ne n`; it is :math:`\angle(q, R_{n-m} k)`."""
    q = k = np.array([1.0, 0.0])
    m, n = 1.0, 1.0 + n_offset
    actual = float(_angle(rotation_2d(m) @ q, rotation_2d(n) @ k))
    rng = np.random.default_rng(66)  # seed 66: the correction in d = 8 with the RoPE frequencies
    corr = max(
        relative_position_error(a, b, mm, nn) for a, b in rng.standard_normal((5, 2, 8))
        for mm, nn in ((3.0, -4.0), (1000.0, 5.0))
    )
    inputs = {"q = k": [1.0, 0.0], "theta": 1.0, "m": 1, "n": num(n)}
    return refuted(float(_angle(q, k)), actual, inputs, corr, "angle before vs after rotating by m theta and n theta")


def flash_shape_comment(*, stated: tuple[str, ...] = ("batch_size", "seq_length", "head_dim", "hidden_dim")) -> Outcome:
    r"""The comment's [batch_size x seq_length x head_dim x hidden_dim] vs the tensor the code's ``view`` makes."""
    size = {"batch_size": 1, "seq_length": 3, "num_heads": 2, "head_dim": 4, "hidden_dim": 8}
    hidden = np.arange(24.0).reshape(1, 3, 8)  # bsz x q_len x hidden_dim, as q_proj returns it
    viewed = hidden.reshape(1, 3, 2, 4)  # .view(bsz, q_len, num_heads, head_dim)
    claimed = tuple(size[s] for s in stated)
    back = float(np.max(np.abs(viewed.transpose(0, 2, 1, 3).transpose(0, 2, 1, 3).reshape(1, 3, 8) - hidden)))
    inputs = {**size, "stated shape": list(claimed), "shape after view": list(viewed.shape)}
    return Outcome(
        "holds" if claimed == viewed.shape else "fails",
        f"hidden_states of shape (1, 3, 8) viewed as (bsz, q_len, num_heads, head_dim) = {viewed.shape}; the "
        f"comment's shape is {claimed} ({int(np.prod(claimed))} entries for {viewed.size} numbers). Correction "
        f"[batch_size x seq_length x num_heads x head_dim], then transpose(1, 2): the round trip back to "
        f"(1, 3, 8) has residual {within_tol(back)}.",
        inputs, back <= TOL,
    )


# --- note 004 ----------------------------------------------------------------------------------------------------


def parity_literal(*, count_from: int = 0) -> Outcome:
    r"""Refutes ":math:`p_{i,2t}, p_{i,2t+1}` are the odd and even dimensions", dimensions numbered by subscript.

    The subscripts start at 0, so the sines sit at odd-numbered dimensions only when counting from 1."""
    d, p = 8, sinusoidal_encoding(1.0, 8)
    omega = [10000.0 ** (-2 * t / d) for t in range(d // 2)]
    # locate each sin(omega_t) and cos(omega_t) in p by value (0-based array index), without assuming where they are
    sines = sorted(int(np.argmin(np.abs(p - np.sin(w)))) for w in omega)
    cosines = sorted(int(np.argmin(np.abs(p - np.cos(w)))) for w in omega)
    numbered = [s + count_from for s in sines]
    ok = all(n % 2 == 1 for n in numbered) and all((c + count_from) % 2 == 0 for c in cosines)
    corrected = all(s % 2 == 0 for s in sines) and all((s + 1) % 2 == 1 for s in sines)
    example = {"d": d, "subscripts 2t of the sines": sines, "dimension numbers (from 0)": sines, "stated parity": "odd"}
    return Outcome(
        "holds" if ok else "fails",
        f"At position 1 (d = 8) the sines sin(omega_t) sit at subscripts {sines} and the cosines at {cosines}; "
        f"numbered from {count_from} the sine dimensions are {numbered}. Correction: the sines p_(i,2t) are the "
        f"even subscripts 2t, i.e. the odd-numbered dimensions only when counting from 1 "
        f"({'checked' if corrected else 'NOT so'}).",
        None if ok else example, bool(corrected),
    )


def t5_bias_literal(*, indexed_by: str = "absolute") -> Outcome:
    r"""Refutes ":math:`q_m^\top k_n = x_m^\top W_q^\top W_k x_n + b_{i,j}` is relative", b a table over (i, j).

    The plug-in table is :math:`b_{i,j} = (i + 2j)/10`; the correction is a bias of the distance, :math:`b_{i-j}`."""
    rng, N, d = np.random.default_rng(60), 8, 4  # seed 60
    x, wq, wk = np.tile(rng.standard_normal(d), (N + 3, 1)), *rng.standard_normal((2, d, d))  # one token everywhere
    table = rng.standard_normal(2 * N + 1)  # b_r for r = -N..N

    def score(pos: np.ndarray, by: str = indexed_by) -> np.ndarray:
        idx = pos.astype(int)
        content = (x[idx] @ wq.T) @ (x[idx] @ wk.T).T
        return content + ((idx[:, None] + 2 * idx[None, :]) / 10 if by == "absolute" else relative_bias(pos, table))

    S = score(np.arange(5.0))
    gap = float(S[1, 0] - S[4, 3])
    corr = shift_change(lambda pos: score(pos, "distance"), np.arange(N, dtype=float), 3.0)
    example = {
        "b_(i,j)": "(i + 2 j) / 10", "x_i": "the same token at every position (seed 60)", "i - j": 1,
        "score(1, 0) - score(4, 3)": num(gap),
    }
    broken = abs(gap) > GAP
    return Outcome(
        "fails" if broken else "holds",
        f"Bias indexed by {indexed_by}: with the same token everywhere, score(1, 0) - score(4, 3) = {num(gap)}, "
        f"and i - j = 1 in both. Correction b_(i-j) (ropemath.theory.encodings.relative_bias): shifting all 8 "
        f"positions by 3 changes the scores by {within_tol(corr)} (relative).",
        example if broken else None, bool(corr <= TOL),
    )


def initial_projection_literal(*, token: str = "n") -> Outcome:
    r"""Refutes :math:`q = f_q(x_m, 0) = W_q x_n` (the note's line); :math:`f_q(x_m, 0) = W_q x_m`.

    :math:`f_q(x_m, 0)` is the note's own final form :math:`(W_q x_m)e^{i0\theta}`: RoPE at position 0."""
    wq, x = np.array([[2.0, 1.0], [0.0, 1.0]]), {"m": np.array([1.0, 0.0]), "n": np.array([0.0, 1.0])}
    f_q0, stated = apply_rope(wq @ x["m"], 0.0, **NOTES_ROPE), wq @ x[token]
    rng, corr = np.random.default_rng(61), 0.0  # seed 61: the correction for random W_q, x_m
    for _ in range(10):
        w, xm = rng.standard_normal((2, 2)), rng.standard_normal(2)
        corr = max(corr, float(np.max(np.abs(apply_rope(w @ xm, 0.0, **NOTES_ROPE) - w @ xm))))
    out = refuted(
        float(stated[0]), float(f_q0[0]),
        {"W_q": [[2.0, 1.0], [0.0, 1.0]], "x_m": [1.0, 0.0], "x_n": [0.0, 1.0], "coordinate": 0}, corr,
        f"first coordinate of W_q x_{token} vs f_q(x_m, 0) = (W_q x_m) e^(i 0 theta)",
    )
    return Outcome(
        out.verdict,
        f"{out.evidence} (W_q x_{token} = {num(stated)}, f_q(x_m, 0) = {num(f_q0)}; the correction "
        "W_q x_m = f_q(x_m, 0) is checked for 10 random W_q, x_m, seed 61.)",
        out.counterexample, out.correction_holds,
    )


def angle_represents_position(*, per_position: float = 1.0) -> Outcome:
    r"""For d = 2, RoPE turns a vector through :math:`m\theta` (θ = 1): the angle tells the position apart.

    For m = -50..50 the angle from x to :math:`R(m\theta)x` is :math:`m\theta` (mod 2π), all at least 1e-3 apart."""
    x, ms = np.array([0.6, -0.8]), np.arange(-50.0, 51.0)
    y = apply_rope(np.broadcast_to(x, (ms.size, 2)), per_position * ms, **NOTES_ROPE)
    turned = np.arctan2(x[0] * y[:, 1] - x[1] * y[:, 0], y @ x)  # signed angle from x to y
    err = float(np.max(np.abs(np.exp(1j * turned) - np.exp(1j * per_position * ms))))
    diff = np.angle(np.exp(1j * (turned[:, None] - turned[None, :])))
    np.fill_diagonal(diff, np.inf)
    closest = float(np.min(np.abs(diff)))
    ok = err <= TOL and closest > 1e-3
    return Outcome(
        "holds" if ok else "fails",
        f"d = 2, theta = 1, x = (0.6, -0.8), m = -50..50 rotated by {per_position} m: the turned angle vs m theta "
        f"(mod 2 pi) residual {within_tol(err)}; the closest two positions are {closest:.4f} rad apart "
        f"({'distinct' if closest > 1e-3 else 'NOT distinct'}).",
    )


def sdpa_is_inner_product(*, part: str = "output") -> Outcome:
    r"""Refutes "SDPA is the inner product of two vectors": its output :math:`o_m = \sum_n a_{m,n} v_n` is a vector.

    What is an inner product is its score :math:`q_m^\top k_n/\sqrt d = (q_m/\sqrt d)^\top k_n`."""
    q, k, v = np.random.default_rng(62).standard_normal((3, 5, 4))  # seed 62
    pos = np.zeros(5)  # all positions equal: plain SDPA
    out = rope_softmax_attention(q, k, v, pos, **NOTES_ROPE)
    w = rope_attention_weights(q, k, pos, **NOTES_ROPE)
    logits = np.array([[(q[a] / 2.0) @ k[b] for b in range(5)] for a in range(5)])  # sqrt(4) = 2
    soft = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    corr = float(np.max(np.abs(w - soft)))
    if part == "score":
        inner = identity(corr, "SDPA weights vs softmax of (q_m / sqrt d)^T k_n (N = 5, d = 4, seed 62)")
        return Outcome(inner.verdict, inner.evidence)
    example = {"N": 5, "d": 4, "shape of o_0": list(out[0].shape), "shape of an inner product": []}
    return Outcome(
        "fails" if out[0].shape != () else "holds",
        f"SDPA maps (Q, K, V) to N = 5 vectors o_m of shape {list(out[0].shape)} (seed 62); an inner product of two "
        f"vectors is one number. Correction: its scores are inner products, softmax((q_m / sqrt d)^T k_n) equals "
        f"its weights (residual {within_tol(corr)}).",
        example, bool(corr <= TOL),
    )


def sparse_is_inefficient(*, storage: str = "sparse") -> Outcome:
    r"""Refutes "R^d_{Θ,m} is sparse, so it computes inefficiently": stored sparse, :math:`R x` costs 2d products.

    Multiplications for :math:`R^d_{\Theta,m} x`: dense :math:`d^2`, sparse (its non-zeros), eq. (34) :math:`2d`."""
    nonzero = {d: int(np.count_nonzero(rotation_matrix(1.0, d))) for d in (8, 128)}
    costs = {d: {"dense": d * d, "sparse": nonzero[d], "eq. (34)": 2 * d} for d in (8, 128)}
    stated_slow = all(c[storage] > c["eq. (34)"] for c in costs.values())  # the claim: R's product is the slow way
    dense_slow = all(c["dense"] > c["eq. (34)"] for c in costs.values())
    example = {"d": 8, "multiplications dense": 64, "sparse (non-zeros of R)": costs[8]["sparse"], "eq. (34)": 16}
    return Outcome(
        "holds" if stated_slow else "fails",
        f"Multiplications for R x: {costs}. With R stored {storage}, its product costs "
        f"{'more than' if stated_slow else 'the same as'} eq. (34). Correction: the dense product "
        f"({costs[128]['dense']} at d = 128) is what wastes work ({'checked' if dense_slow else 'NOT so'}); "
        "sparsity is what eq. (34) exploits.",
        None if stated_slow else example, bool(dense_slow),
    )
