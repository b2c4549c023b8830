r"""Checks of the notes' complex-number derivation of 2D RoPE (each step proved by
:func:`ropemath.symbolic.derivation.derivation_steps`; wrong variants alter a step's right side) and 2D scores.

>>> matrix_step_slip().counterexample["stated line"], polar_split().verdict
('[[1, 2*I]]', 'holds-if')

References: Su et al., *RoFormer*, arXiv:2104.09864 v5, §3.2.1, §3.4.1, eq. (12)-(13); Su Jianlin,
kexue.fm/archives/8265.
"""

from __future__ import annotations

import cmath
import dataclasses

import numpy as np
import sympy as sp

from ropemath.claims import checks_rotation as R
from ropemath.claims._verdict import GAP, conditional, identity, num, refutation_outcome, within_tol
from ropemath.claims.ledger import Outcome
from ropemath.core.rotation import rotation_2d
from ropemath.symbolic import common as sym
from ropemath.symbolic import refutations
from ropemath.symbolic.common import is_zero
from ropemath.symbolic.derivation import derivation_steps, verify_step
from ropemath.symbolic.proofs import alpha_k, alpha_q, r_k, r_q

_x, _y, _t, _t2 = sp.symbols("x y theta theta_2", real=True)
_r, _r2 = sp.symbols("r r_2", positive=True)


def _steps(*keys: str, factor: int = 1, shift: sp.Expr | int = 0) -> tuple[bool, str]:
    """Whether the named derivation steps are verified (with right sides ``factor * rhs + shift``), and a text."""
    steps = {s.key: s for s in derivation_steps()}
    chosen = [steps[key] for key in keys]
    if factor != 1 or shift != 0:
        chosen = [dataclasses.replace(s, rhs=factor * s.rhs + shift) for s in chosen]
        flags = [verify_step(s) for s in chosen]
    else:
        flags = [s.verified for s in chosen]
    text = "; ".join(f"step {s.number} '{s.key}' ({s.title}) {'verified' if ok else 'NOT verified'}"
                     for s, ok in zip(chosen, flags, strict=True))
    return all(flags), f"sympy derivation: {text}."


def _symbolic(ok: bool, what: str) -> Outcome:
    return Outcome("holds" if ok else "fails", f"{what}: {'proved' if ok else 'NOT proved'} by sympy (difference "
                   "simplifies to 0).")


def euler(*, sign: int = 1) -> Outcome:
    r""":math:`r e^{i\theta} = r(\cos\theta + i\sin\theta)` (``sign=-1``: :math:`e^{-i\theta}`, wrong)."""
    euler_form = _r * (sp.cos(_t) + sp.I * sp.sin(_t))
    return _symbolic(is_zero(_r * sp.exp(sign * sp.I * _t) - euler_form), "r e^(i theta) = r(cos + i sin)")


def complex_product(*, sign: int = 1) -> Outcome:
    r""":math:`r_1 e^{i\theta_1} r_2 e^{i\theta_2} = r_1 r_2 e^{i(\theta_1+\theta_2)}`."""
    lhs = _r * sp.exp(sp.I * _t) * _r2 * sp.exp(sp.I * _t2)
    return _symbolic(is_zero(lhs - _r * _r2 * sp.exp(sp.I * (_t + sign * _t2))), "product of polar forms")


def complex_conjugate(*, sign: int = -1) -> Outcome:
    r""":math:`\overline{r e^{i\theta}} = r e^{-i\theta}` (r, θ real)."""
    conjugate = sp.conjugate(_r * sp.exp(sp.I * _t))
    return _symbolic(is_zero(conjugate - _r * sp.exp(sign * sp.I * _t)), "conjugate of a polar form")


def complex_times_is_rotation(*, sign: int = 1) -> Outcome:
    r""":math:`(\cos\theta + i\sin\theta)(x + iy) = (1, i)\,R(\theta)(x, y)^\top`, with the notes' middle lines."""
    c, i = sp.cos(_t), sp.I
    z = (c + i * sp.sin(_t)) * (_x + i * _y)
    s = sign * sp.sin(_t)
    lines = [
        c * _x + c * _y * i + s * _x * i - s * _y, (c + s * i) * _x + (-s + c * i) * _y,
        (sp.Matrix([[1, i]]) * sp.Matrix([[c, -s], [s, c]]) * sp.Matrix([_x, _y]))[0, 0],
    ]
    what = "(cos t + i sin t)(x + i y) equals each line of the derivation and (1, i) R(t) (x, y)^T"
    return _symbolic(all(is_zero(z - line) for line in lines), what)


def matrix_step_slip(*, rows_summed: bool = False) -> Outcome:
    r"""Refutes the line :math:`z = (1, i)\,[[\cos\theta\,x, -\sin\theta\,y], [\sin\theta\,x, \cos\theta\,y]]`."""
    c, s = sp.cos(_t), sp.sin(_t)
    z = (c + sp.I * s) * (_x + sp.I * _y)
    matrix = sp.Matrix([[c * _x, -s * _y], [s * _x, c * _y]])
    stated = sp.Matrix([[1, sp.I]]) * (matrix * sp.Matrix([1, 1]) if rows_summed else matrix)
    at = {_t: 0, _x: 1, _y: 2}
    corrected = (sp.Matrix([[1, sp.I]]) * sp.Matrix([c * _x - s * _y, s * _x + c * _y]))[0, 0]
    ok = is_zero(z - corrected)
    equal = stated.shape == (1, 1) and is_zero(z - stated[0, 0])
    example = {"theta": 0, "x": 1, "y": 2, "z": str(z.subs(at)), "stated line": str(stated.subs(at).tolist())}
    return Outcome(
        "holds" if equal else "fails",
        f"(1, i) times a 2x2 matrix is a 1x2 row, not the number z: at theta = 0, x = 1, y = 2 it is "
        f"{stated.subs(at).tolist()} while z = {z.subs(at)} (its entries only sum to z). Correction "
        f"(1, i)(cos t x - sin t y, sin t x + cos t y)^T = z: {'proved' if ok else 'NOT proved'} by sympy.",
        example, ok,
    )


def complex_inner_product(*, sign: int = -1) -> Outcome:
    r""":math:`a\cdot b = \mathrm{Re}(z_a \bar z_b)`, :math:`z_a\bar z_b = a_1b_1 + a_2b_2 + i(a_2b_1 - a_1b_2)`."""
    a1, a2, b1, b2 = sp.symbols("a_1 a_2 b_1 b_2", real=True)
    expansion = (a1 + sp.I * a2) * (b1 + sign * sp.I * b2) - (a1 * b1 + a2 * b2 + sp.I * (a2 * b1 - a1 * b2))
    ok, text = _steps("inner_product")
    return _symbolic(ok and is_zero(expansion), f"{text} Product expansion")


def _encode(z: complex, m: int, encoding: str) -> complex:
    """A non-RoPE encoding ("parity": identity at even positions, conjugation at odd ones), or RoPE ("rope")."""
    if encoding == "rope":
        return z * cmath.exp(1j * m)
    return z if m % 2 == 0 else z.conjugate()


def _split_gap(encoding: str, q: complex, k: complex, m: int) -> float:
    """|e^(i(Theta_f(q,m) - Theta_f(k,m))) - e^(i Theta_g(q,k,0))|: the argument relation at m = n."""
    left = cmath.phase(_encode(q, m, encoding)) - cmath.phase(_encode(k, m, encoding))
    return abs(cmath.exp(1j * left) - cmath.exp(1j * cmath.phase(q * k.conjugate())))


def polar_split(*, encoding: str = "parity", inside: str = "rope") -> Outcome:
    r"""Moduli multiply and arguments subtract — if the complex product (not only its real part) is fixed.

    ``encoding`` is the case outside the condition ("parity": only the real part fixed); ``inside`` the encoding
    of the inside sample ("rope": the complex product fixed), on which the argument relation must hold."""
    rng = np.random.default_rng(20)  # seed 20
    worst = inside_gap = 0.0  # Re-only relativity of the outside encoding; the relation on the inside one
    for _ in range(20):
        q, k = complex(*rng.standard_normal(2)), complex(*rng.standard_normal(2))
        m, n, s = map(int, rng.integers(-50, 50, 3))
        g = (_encode(q, m, encoding) * _encode(k, n, encoding).conjugate()).real
        worst = max(worst, abs(g - (_encode(q, m + s, encoding) * _encode(k, n + s, encoding).conjugate()).real))
        inside_gap = max(inside_gap, _split_gap(inside, q, k, m))
    gap = _split_gap(encoding, 1 + 0j, 1j, 1)  # pragma: no mutate (phases only: k = i or 2i, q = 1 or 2)
    proved, text = _steps("polar_product", "radial_equation", "angular_equation")
    name = {"parity": "z for even m, conj(z) for odd m", "rope": "z e^(i m)"}
    example = {"f(z, m)": name[encoding], "q": "1", "k": "i", "m = n": 1, "|gap| of the argument relation": num(gap)}
    return conditional(
        worst < 1e-12 and gap > GAP, proved and inside_gap <= 1e-12, example,
        f"Only the real part fixed: f(z, m) = {name[encoding]} has f(z, 0) = z and Re[f(q,m) f*(k,n)] unchanged by "
        f"shifting m, n together (residual {within_tol(worst)}, 20 random cases, seed 20), yet at q = 1, k = i, m = n "
        f"= 1 e^(i(Theta_f(q,1) - Theta_f(k,1))) misses e^(i Theta_g(q,k,0)) by {num(gap)}. With the complex product "
        f"fixed (f = {name[inside]}, as RoFormer §3.4.1) the relation holds on the same 20 cases (largest gap "
        f"{within_tol(inside_gap)}) and is an identity: {text}",
    )


def radial_choice(*, factor: int = 1, key_exponent: int = -1) -> Outcome:
    r""":math:`R_q = \|q\|`, :math:`R_k = \|k\|` is a solution, not the only one (``key_exponent=1``: no other)."""
    ok, text = _steps("radial_solution", factor=factor)
    rng, worst = np.random.default_rng(21), 0.0  # seed 21: f_q = 2^m q e^{im t}, f_k = 2^-n k e^{in t}
    for _ in range(10):
        q, k = complex(*rng.standard_normal(2)), complex(*rng.standard_normal(2))
        m, n, s = map(float, rng.integers(-20, 20, 3))

        def prod(a: float, b: float, q: complex = q, k: complex = k) -> complex:
            return 2**a * q * cmath.exp(1j * a) * (2 ** (key_exponent * b) * k * cmath.exp(1j * b)).conjugate()

        worst = max(worst, abs(prod(m + s, n + s) - prod(m, n)) / abs(prod(m, n)), abs(prod(0, 0) - q * k.conjugate()))
    return Outcome(
        "holds" if ok and worst <= 1e-12 else "fails",
        f"{text} Not unique: f_q = 2^m q e^(i m theta), f_k = 2^-n k e^(i n theta) "
        f"also gives a product that depends on m - n only (residual {within_tol(worst)}, seed 21) with f(x, 0) = x.",
    )


def _stepped(*keys: str, factor: int) -> Outcome:
    ok, text = _steps(*keys, factor=factor)
    return Outcome("holds" if ok else "fails", text)


def angle_split(*, factor: int = 1) -> Outcome:
    r""":math:`\Theta_f(q,m) - \Theta(q)` is the same for every q: :math:`\Theta_f(q,m) = \Theta(q) + \varphi(m)`."""
    return _stepped("angle_split", factor=factor)


def recurrence(*, factor: int = 1) -> Outcome:
    r""":math:`\varphi(m) - \varphi(m-1) = \Theta_g(q,k,1) + \Theta(k) - \Theta(q)` (note 001's n = m - 1)."""
    return _stepped("angular_recurrence", factor=factor)


def recurrence_next(*, step: int = 1) -> Outcome:
    r""":math:`\phi(m+1) - \phi(m) = \Theta_g(1) + \theta_q - \theta_k` (note 004)."""
    rng, worst = np.random.default_rng(22), 0.0  # seed 22
    for _ in range(20):
        q, k = complex(*rng.standard_normal(2)), complex(*rng.standard_normal(2))
        t, m = float(rng.uniform(0.1, 3)), float(rng.integers(-50, 50))
        f_q, f_k = q * cmath.exp(1j * m * t), k * cmath.exp(1j * (m + step) * t)  # the solution, phi(m) = m t
        theta_g1 = cmath.phase(f_q.conjugate() * f_k)  # Theta_k(n) - Theta_q(m) at n = m + 1
        rhs = theta_g1 + cmath.phase(q) - cmath.phase(k)
        worst = max(worst, abs(cmath.exp(1j * rhs) - cmath.exp(1j * t)))  # equal modulo 2 pi
    return identity(
        worst,
        "on the solution f = x e^(i m theta), e^(i(Theta_g(1) + theta_q - theta_k)) vs e^(i theta), "
        "20 random cases (seed 22)",
    )


def arithmetic_solution(*, factor: int = 1) -> Outcome:
    r""":math:`\varphi(m) = m\theta + \gamma`, and :math:`f(x, 0) = x` gives :math:`\gamma = 0`."""
    return _stepped("phase_solution", "initial_phase", factor=factor)


def gamma_zero(*, gamma: sp.Expr | int = 0) -> Outcome:
    r"""Setting :math:`\gamma = 0` is consistent with (indeed forced by) :math:`f_q(x_q, 0) = q`."""
    ok, text = _steps("initial_phase", shift=gamma)
    off = abs(cmath.exp(0.5j) - 1)
    return Outcome("holds" if ok else "fails", f"{text} With gamma = 0.5 instead, f(q, 0) = q e^(0.5 i) misses q by "
                   f"{off:.4f}|q|, so gamma = 0 is required, not only convenient.")


def solution_2d(*, sign: int = 1) -> Outcome:
    r""":math:`f(q,m) = q e^{im\theta} = R(m\theta) q`, :math:`g = \mathrm{Re}[(W_qx_m)(W_kx_n)^* e^{i(m-n)\theta}]`."""
    ok, text = _steps("solution", "rotation_form", "relative_score")
    rng, worst = np.random.default_rng(23), 0.0  # seed 23
    for _ in range(20):
        wq, wk = rng.standard_normal((2, 2, 2))
        xm, xn = rng.standard_normal((2, 2))
        t, m, n = float(rng.uniform(0.01, 3)), float(rng.integers(-100, 100)), float(rng.integers(-100, 100))
        a, b = wq @ xm, wk @ xn
        g = (complex(*a) * complex(*b).conjugate() * cmath.exp(1j * sign * (m - n) * t)).real
        score = (rotation_2d(m * t) @ a) @ (rotation_2d(n * t) @ b)
        worst = max(worst, abs(g - score) / (np.linalg.norm(a) * np.linalg.norm(b)))
    return identity(
        worst if ok else float("inf"),
        f"{text} Numerically, Re[(W_q x_m)(W_k x_n)* e^(i(m-n)theta)] vs "
        "(R(m theta) W_q x_m)^T (R(n theta) W_k x_n), 20 random cases (seed 23)",
    )


def _refuted(name: str, restored: sp.Expr) -> Outcome:
    """Refutation ``name`` judged for its claim plus ``restored``; ``holds`` needs sympy's proof of the claim."""
    r = refutations.get_refutation(name)
    if restored != 0:
        r = R._refute(name, r.claim + restored, r.gap.rhs - restored)
    return refutation_outcome(r, proof=True)


def norms_times_cos(*, with_angle: bool = False) -> Outcome:
    r"""Refutes :math:`(R_m q)\cdot(R_n k) = |q||k|\cos((m-n)\theta)`."""
    phi = (sym.m - sym.n) * sym.theta
    angle = r_q * r_k * (sp.cos(alpha_q - alpha_k + phi) - sp.cos(phi))
    return _refuted("norms_times_cos", angle if with_angle else sp.Integer(0))


def missing_cross_term(*, with_cross_term: bool = False) -> Outcome:
    r"""Refutes :math:`(R_m q)\cdot(R_n k) = (q\cdot k)\cos((m-n)\theta)`."""
    cross = (sym.q0 * sym.k1 - sym.q1 * sym.k0) * sp.sin((sym.m - sym.n) * sym.theta)
    return _refuted("missing_cross_term", cross if with_cross_term else sp.Integer(0))


def _score(q: np.ndarray, k: np.ndarray, m: float, n: float, t: float = 1.0) -> float:
    return float((rotation_2d(m * t) @ q) @ (rotation_2d(n * t) @ k))


def cos_theta_case(*, parallel: bool = True, distance: int = 2) -> Outcome:
    r""":math:`(R_m q)\cdot(R_n k) = (q\cdot k)\cos\theta` "in some cases": when q ∥ k and m − n = ±1.

    ``distance`` is m − n of the counterexample (2: outside the condition)."""
    q = np.array([1.0, 0.0])
    actual, stated = _score(q, q, distance, 0), float(q @ q) * np.cos(1.0)
    rng, worst = np.random.default_rng(24), 0.0  # seed 24: parallel q, k = c q, m - n = +-1
    for _ in range(20):
        v, c = rng.standard_normal(2), float(rng.standard_normal())
        m, sign, t = float(rng.integers(-50, 50)), float(rng.choice([-1, 1])), float(rng.uniform(0.1, 3))
        w = c * v if parallel else c * np.array([-v[1], v[0]])
        worst = max(worst, abs(_score(v, w, m, m - sign, t) - (v @ w) * np.cos(t)) / (abs(c) * v @ v))
    example = {
        "q": [1.0, 0.0], "k": [1.0, 0.0], "theta": 1.0, "m": distance, "n": 0, "true side": num(actual),
        "stated": num(stated),
    }
    return conditional(
        abs(actual - stated) > GAP, worst < 1e-12, example,
        f"At q = k = (1, 0), theta = 1, m - n = {distance}: true {num(actual)}, stated {num(stated)}. For parallel "
        f"q, k and m - n = +-1 it holds (residual {within_tol(worst)}, 20 random cases, seed 24).",
    )


def cos_theta_generic(*, corrected: bool = False) -> Outcome:
    r"""Refutes :math:`(R_m q)\cdot(R_n k) = (q\cdot k)\cos\theta`: only for q ∥ k, m − n = ±1 (measure 0)."""

    def stated(q: np.ndarray, k: np.ndarray, r: float, t: float) -> float:
        cross = (q[0] * k[1] - q[1] * k[0]) * np.sin(r * t) if corrected else 0.0
        return float(q @ k) * (np.cos(r * t) if corrected else np.cos(t)) + cross

    def correct(q: np.ndarray, k: np.ndarray, r: float, t: float) -> float:
        return float(q @ k) * np.cos(r * t) + (q[0] * k[1] - q[1] * k[0]) * np.sin(r * t)

    rng = np.random.default_rng(25)  # seed 25: general q, k at m - n = +-1
    worst = worst_correction = 0.0
    for _ in range(20):
        q, k = rng.standard_normal(2), rng.standard_normal(2)
        m, sign, t = float(rng.integers(-50, 50)), float(rng.choice([-1, 1])), float(rng.uniform(0.1, 3))
        score = _score(q, k, m, m - sign, t)
        scale = float(np.linalg.norm(q) * np.linalg.norm(k))
        worst = max(worst, abs(score - stated(q, k, sign, t)) / scale)
        worst_correction = max(worst_correction, abs(score - correct(q, k, sign, t)) / scale)
    q = np.array([1.0, 0.0])
    example = {
        "q": [1.0, 0.0], "k": [1.0, 0.0], "theta": 1.0, "m": 2, "n": 0, "true side": num(_score(q, q, 2, 0)),
        "stated": num(stated(q, q, 2.0, 1.0)),
        "q, k = (1, 0), (0, 1) at m - n = 1: true side": num(_score(q, np.array([0.0, 1.0]), 1, 0)),
    }
    verdict = "fails" if worst > 1e-9 else "holds"
    return Outcome(
        verdict,
        f"At q = k = (1, 0), theta = 1, m - n = 2: true {example['true side']}, stated {example['stated']}; even at "
        f"m - n = 1 it fails for q = (1, 0), k = (0, 1): true "
        f"{example['q, k = (1, 0), (0, 1) at m - n = 1: true side']}, stated 0. Over 20 random cases at "
        f"m - n = +-1 (seed 25) the largest relative gap is {num(worst)}; it "
        f"vanishes only for parallel q, k, a set of measure zero. The correction holds (gap "
        f"{within_tol(worst_correction)}).",
        example if verdict == "fails" else None, bool(worst_correction < 1e-12),
    )


def not_a_function_of_similarity(*, theta: float = 1.0) -> Outcome:
    r"""Refutes "the rotated score is a function of :math:`q\cdot k` and m − n"."""
    q, k1, k2 = np.array([1.0, 0.0]), np.array([0.0, 1.0]), np.array([0.0, -1.0])
    s1, s2 = _score(q, k1, 1, 0, theta), _score(q, k2, 1, 0, theta)
    corr = refutations.get_refutation("relative_sign").correct
    example = {
        "theta": theta, "m": 1, "n": 0, "q": [1.0, 0.0], "k": [0.0, 1.0], "k'": [0.0, -1.0], "q.k = q.k'": 0.0,
        "score(q, k)": num(s1), "score(q, k')": num(s2),
    }
    return Outcome(
        "fails" if abs(s1 - s2) > GAP else "holds",
        f"q.k = q.k' = 0 and the same m - n = 1, but the scores are {num(s1)} and {num(s2)}. Correction: the "
        f"score is q^T R_(n-m) k, a function of q, k and m - n (sympy proof '{corr.name}' "
        f"{'holds' if corr.holds else 'FAILS'}).",
        example, bool(corr.holds),
    )


def converse(*, k: tuple[float, float] = (1.0, 0.0)) -> Outcome:
    r"""Refutes "if the relative position changes, the score changes" (``k``: the key; the query is (1, 0))."""
    q, key = np.array([1.0, 0.0]), np.array(k)
    s_plus, s_minus = _score(q, key, 1, 0), _score(q, key, 0, 1)
    corr = refutations.get_refutation("relative_sign").correct
    same = bool(np.array_equal(q, key))
    who = {"q = k": [1.0, 0.0]} if same else {"q": [1.0, 0.0], "k": num(key)}
    example = {"theta": 1.0, **who, "m - n = 1": num(s_plus), "m - n = -1": num(s_minus)}
    scores = f"both {num(s_plus)} (cos is even)" if same else f"{num(s_plus)} and {num(s_minus)}"
    return Outcome(
        "fails" if abs(s_plus - s_minus) < 1e-12 else "holds",
        f"For {'q = k = (1, 0)' if same else f'q = (1, 0), k = {num(key)}'} the scores at m - n = 1 and m - n = -1 are "
        f"{scores}. What holds is the other direction: the score depends on m, n only through n - m (sympy proof "
        f"'{corr.name}' {'holds' if corr.holds else 'FAILS'}).",
        example, bool(corr.holds),
    )


def common_difference(*, claimed: str = "m") -> Outcome:
    r"""Refutes "m is the common difference" of :math:`\phi(m) = m\theta + \gamma`; it is :math:`\theta`."""
    t, g = 0.5, 0.0
    phi = [m * t + g for m in range(6)]
    steps = [phi[m + 1] - phi[m] for m in range(5)]
    # the claim: step number m equals m ("m"), or theta ("theta")
    broken = any(abs(step - (m if claimed == "m" else t)) > GAP for m, step in enumerate(steps))
    example = {"theta": t, "gamma": g, "phi(0..5)": num(phi), "m": 2, "phi(3) - phi(2)": num(phi[3] - phi[2])}
    return Outcome(
        "fails" if broken else "holds",
        f"With theta = {t}, gamma = {g}: phi(m) = {num(phi)}; the steps phi(m+1) - phi(m) are {num(steps)} for "
        f"m = 0..4, not m. Correction: theta is the common difference (every step equals theta: "
        f"{'checked' if all(step == t for step in steps) else 'NOT so'}), gamma = phi(0) the first term, m the index.",
        example, all(step == t for step in steps),
    )
