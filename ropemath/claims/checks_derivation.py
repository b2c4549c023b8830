r"""Checks of the notes' complex-number derivation of 2D RoPE and of their 2D score formulas.

Scope: zero-argument check functions for Euler's formula, complex products and conjugates,
"multiplying by :math:`e^{i\theta}` is the rotation :math:`R(\theta)`", each step of the
derivation :math:`\langle f(q,m), f(k,n)\rangle = g(q,k,m-n) \Rightarrow f(q,m) = q e^{im\theta}`
(the steps are proved by :func:`ropemath.symbolic.derivation.derivation_steps`; the checks
here add what the notes assume silently and the conventions they use), and the notes'
formulas for the 2D score.

Example:

>>> matrix_step_slip().counterexample["stated line"], polar_split().verdict
('[[1, 2*I]]', 'holds-if')

References: Su et al., *RoFormer*, arXiv:2104.09864 v5, §3.2.1, §3.4.1, eq. (12)-(13);
Su Jianlin, kexue.fm/archives/8265; notes 001 (kler.cn) and 004 (DaNing).
"""

from __future__ import annotations

import cmath

import numpy as np
import sympy as sp

from ropemath.claims._verdict import GAP, conditional, from_refutation, identity, num, res
from ropemath.claims.ledger import Outcome
from ropemath.core.rotation import rotation_2d
from ropemath.symbolic import refutations
from ropemath.symbolic.common import is_zero
from ropemath.symbolic.derivation import derivation_steps

_x, _y, _t, _t2 = sp.symbols("x y theta theta_2", real=True)
_r, _r2 = sp.symbols("r r_2", positive=True)


def _steps(*keys: str) -> tuple[bool, str]:
    """Whether the named steps of the sympy derivation are verified, and a text naming them."""
    steps = {s.key: s for s in derivation_steps()}
    chosen = [steps[key] for key in keys]
    ok = all(s.verified for s in chosen)
    text = "; ".join(
        f"step {s.number} '{s.key}' ({s.title}) {'verified' if s.verified else 'NOT verified'}" for s in chosen
    )
    return ok, f"sympy derivation: {text}."


def _symbolic(ok: bool, what: str) -> Outcome:
    return Outcome(
        "holds" if ok else "fails",
        f"{what}: {'proved' if ok else 'NOT proved'} by sympy (difference simplifies to 0).",
    )


def euler() -> Outcome:
    r""":math:`r e^{i\theta} = r(\cos\theta + i\sin\theta)`."""
    return _symbolic(
        is_zero(_r * sp.exp(sp.I * _t) - _r * (sp.cos(_t) + sp.I * sp.sin(_t))), "r e^(i theta) = r(cos + i sin)"
    )


def complex_product() -> Outcome:
    r""":math:`r_1 e^{i\theta_1} r_2 e^{i\theta_2} = r_1 r_2 e^{i(\theta_1+\theta_2)}`."""
    lhs = _r * sp.exp(sp.I * _t) * _r2 * sp.exp(sp.I * _t2)
    return _symbolic(is_zero(lhs - _r * _r2 * sp.exp(sp.I * (_t + _t2))), "product of polar forms")


def complex_conjugate() -> Outcome:
    r""":math:`\overline{r e^{i\theta}} = r e^{-i\theta}` (r, θ real)."""
    return _symbolic(
        is_zero(sp.conjugate(_r * sp.exp(sp.I * _t)) - _r * sp.exp(-sp.I * _t)), "conjugate of a polar form"
    )


def complex_times_is_rotation() -> Outcome:
    r""":math:`(\cos\theta + i\sin\theta)(x + iy) = (1, i)\,R(\theta)(x, y)^\top`, with the notes' middle lines."""
    c, s, i = sp.cos(_t), sp.sin(_t), sp.I
    z = (c + i * s) * (_x + i * _y)
    lines = [
        c * _x + c * _y * i + s * _x * i - s * _y,
        (c + s * i) * _x + (-s + c * i) * _y,
        (sp.Matrix([[1, i]]) * sp.Matrix([[c, -s], [s, c]]) * sp.Matrix([_x, _y]))[0, 0],
    ]
    return _symbolic(
        all(is_zero(z - line) for line in lines),
        "(cos t + i sin t)(x + i y) equals each line of the derivation and (1, i) R(t) (x, y)^T",
    )


def matrix_step_slip() -> Outcome:
    r"""Refutes the line :math:`z = (1, i)\,[[\cos\theta\,x, -\sin\theta\,y], [\sin\theta\,x, \cos\theta\,y]]`."""
    c, s = sp.cos(_t), sp.sin(_t)
    z = (c + sp.I * s) * (_x + sp.I * _y)
    stated = sp.Matrix([[1, sp.I]]) * sp.Matrix([[c * _x, -s * _y], [s * _x, c * _y]])
    at = {_t: 0, _x: 1, _y: 2}
    corrected = (sp.Matrix([[1, sp.I]]) * sp.Matrix([c * _x - s * _y, s * _x + c * _y]))[0, 0]
    ok = is_zero(z - corrected)
    example = {"theta": 0, "x": 1, "y": 2, "z": str(z.subs(at)), "stated line": str(stated.subs(at).tolist())}
    return Outcome(
        "fails" if stated.shape != (1, 1) else "holds",
        f"(1, i) times a 2x2 matrix is a 1x2 row, not the number z: at theta = 0, x = 1, y = 2 it is "
        f"{stated.subs(at).tolist()} while z = {z.subs(at)} (its entries only sum to z). Correction "
        f"(1, i)(cos t x - sin t y, sin t x + cos t y)^T = z: {'proved' if ok else 'NOT proved'} by sympy.",
        example,
        ok,
    )


def complex_inner_product() -> Outcome:
    r""":math:`a\cdot b = \mathrm{Re}(z_a \bar z_b)`, :math:`z_a\bar z_b = a_1b_1 + a_2b_2 + i(a_2b_1 - a_1b_2)`."""
    a1, a2, b1, b2 = sp.symbols("a_1 a_2 b_1 b_2", real=True)
    expansion = (a1 + sp.I * a2) * (b1 - sp.I * b2) - (a1 * b1 + a2 * b2 + sp.I * (a2 * b1 - a1 * b2))
    ok, text = _steps("inner_product")
    return _symbolic(ok and is_zero(expansion), f"{text} Product expansion")


def _parity_conj(z: complex, m: int) -> complex:
    """A non-RoPE encoding: identity at even positions, complex conjugation at odd ones."""
    return z if m % 2 == 0 else z.conjugate()


def polar_split() -> Outcome:
    r"""Moduli multiply and arguments subtract — if the complex product (not only its real part) is fixed."""
    rng = np.random.default_rng(20)  # seed 20
    worst = 0.0  # Re-only relativity of the parity-conjugation encoding
    for _ in range(20):
        q, k = complex(*rng.standard_normal(2)), complex(*rng.standard_normal(2))
        m, n, s = map(int, rng.integers(-50, 50, 3))
        g = (_parity_conj(q, m) * _parity_conj(k, n).conjugate()).real
        worst = max(worst, abs(g - (_parity_conj(q, m + s) * _parity_conj(k, n + s).conjugate()).real))
    q, k = 1 + 0j, 1j
    left = cmath.phase(_parity_conj(q, 1)) - cmath.phase(_parity_conj(k, 1))
    right = cmath.phase(q * k.conjugate())
    broken = worst < 1e-12 and abs(cmath.exp(1j * left) - cmath.exp(1j * right)) > GAP
    inside, text = _steps("polar_product", "radial_equation", "angular_equation")
    example = {
        "f(z, m)": "z for even m, conj(z) for odd m",
        "q": "1",
        "k": "i",
        "m = n": 1,
        "Theta_f(q,1) - Theta_f(k,1)": num(left),
        "Theta_g(q,k,0)": num(right),
    }
    evidence = (
        f"Only the real part fixed: f(z, m) = z (m even), conj(z) (m odd) has f(z, 0) = z and "
        f"Re[f(q,m) f*(k,n)] unchanged by shifting m, n together (residual {res(worst)}, 20 random cases, seed 20), "
        f"yet at q = 1, k = i, m = n = 1 the argument relation gives {num(left)} vs Theta_g(q,k,0) = {num(right)}. "
        f"With the complex product fixed (as RoFormer §3.4.1 does) the split is an identity: {text}"
    )
    return conditional(broken, inside, example, evidence)


def radial_forced() -> Outcome:
    r"""With one f for queries and keys, :math:`R_f(q,m)^2 = |q|^2` forces :math:`R_f(q,m) = |q|`."""
    ok, text = _steps("radial_solution")
    return Outcome("holds" if ok else "fails", text)


def radial_choice() -> Outcome:
    r""":math:`R_q = \|q\|`, :math:`R_k = \|k\|` is a solution (with separate :math:`f_q, f_k` not the only one)."""
    ok, text = _steps("radial_solution")
    rng = np.random.default_rng(21)  # seed 21: another solution, f_q = 2^m q e^{im t}, f_k = 2^-n k e^{in t}
    worst = 0.0
    for _ in range(10):
        q, k = complex(*rng.standard_normal(2)), complex(*rng.standard_normal(2))
        m, n, s = map(float, rng.integers(-20, 20, 3))

        def prod(a: float, b: float, q: complex = q, k: complex = k) -> complex:
            return 2**a * q * cmath.exp(1j * a) * (2**-b * k * cmath.exp(1j * b)).conjugate()

        worst = max(worst, abs(prod(m + s, n + s) - prod(m, n)) / abs(prod(m, n)))
    return Outcome(
        "holds" if ok else "fails",
        f"{text} Not unique: f_q = 2^m q e^(i m theta), f_k = 2^-n k e^(i n theta) "
        f"also gives a product that depends on m - n only (residual {res(worst)}, seed 21) with f(x, 0) = x.",
    )


def angle_split() -> Outcome:
    r""":math:`\Theta_f(q,m) - \Theta(q)` is the same for every q: :math:`\Theta_f(q,m) = \Theta(q) + \varphi(m)`."""
    ok, text = _steps("angle_split")
    return Outcome("holds" if ok else "fails", text)


def recurrence() -> Outcome:
    r""":math:`\varphi(m) - \varphi(m-1) = \Theta_g(q,k,1) + \Theta(k) - \Theta(q)` (note 001's n = m - 1)."""
    ok, text = _steps("angular_recurrence")
    return Outcome("holds" if ok else "fails", text)


def recurrence_next() -> Outcome:
    r""":math:`\phi(m+1) - \phi(m) = \Theta_g(1) + \theta_q - \theta_k` (note 004)."""
    rng = np.random.default_rng(22)  # seed 22
    worst = 0.0
    for _ in range(20):
        q, k = complex(*rng.standard_normal(2)), complex(*rng.standard_normal(2))
        t, m = float(rng.uniform(0.1, 3)), float(rng.integers(-50, 50))
        f_q, f_k = q * cmath.exp(1j * m * t), k * cmath.exp(1j * (m + 1) * t)  # the solution, phi(m) = m t
        theta_g1 = cmath.phase(f_q.conjugate() * f_k)  # Theta_k(n) - Theta_q(m) at n = m + 1
        rhs = theta_g1 + cmath.phase(q) - cmath.phase(k)
        worst = max(worst, abs(cmath.exp(1j * rhs) - cmath.exp(1j * t)))  # equal modulo 2 pi
    return identity(
        worst,
        "on the solution f = x e^(i m theta), e^(i(Theta_g(1) + theta_q - theta_k)) vs e^(i theta), "
        "20 random cases (seed 22)",
    )


def arithmetic_solution() -> Outcome:
    r""":math:`\varphi(m) = m\theta + \gamma`, and :math:`f(x, 0) = x` gives :math:`\gamma = 0`."""
    ok, text = _steps("phase_solution", "initial_phase")
    return Outcome("holds" if ok else "fails", text)


def gamma_zero() -> Outcome:
    r"""Setting :math:`\gamma = 0` is consistent with (indeed forced by) :math:`f_q(x_q, 0) = q`."""
    ok, text = _steps("initial_phase")
    off = abs(cmath.exp(0.5j) - 1)
    return Outcome(
        "holds" if ok else "fails",
        f"{text} With gamma = 0.5 instead, f(q, 0) = q e^(0.5 i) misses q by "
        f"{off:.4f}|q|, so gamma = 0 is required, not only convenient.",
    )


def solution_2d() -> Outcome:
    r""":math:`f(q,m) = q e^{im\theta} = R(m\theta) q`, :math:`g = \mathrm{Re}[(W_qx_m)(W_kx_n)^* e^{i(m-n)\theta}]`."""
    ok, text = _steps("solution", "rotation_form", "relative_score")
    rng = np.random.default_rng(23)  # seed 23
    worst = 0.0
    for _ in range(20):
        wq, wk = rng.standard_normal((2, 2, 2))
        xm, xn = rng.standard_normal((2, 2))
        t, m, n = float(rng.uniform(0.01, 3)), float(rng.integers(-100, 100)), float(rng.integers(-100, 100))
        a, b = wq @ xm, wk @ xn
        g = (complex(*a) * complex(*b).conjugate() * cmath.exp(1j * (m - n) * t)).real
        worst = max(
            worst,
            abs(g - (rotation_2d(m * t) @ a) @ (rotation_2d(n * t) @ b)) / (np.linalg.norm(a) * np.linalg.norm(b)),
        )
    out = identity(
        worst if ok else float("inf"),
        f"{text} Numerically, Re[(W_q x_m)(W_k x_n)* e^(i(m-n)theta)] vs "
        "(R(m theta) W_q x_m)^T (R(n theta) W_k x_n), 20 random cases (seed 23)",
        tol=1e-12,
    )
    return out


def norms_times_cos() -> Outcome:
    r"""Refutes :math:`(R_m q)\cdot(R_n k) = |q||k|\cos((m-n)\theta)`."""
    return from_refutation("norms_times_cos")


def missing_cross_term() -> Outcome:
    r"""Refutes :math:`(R_m q)\cdot(R_n k) = (q\cdot k)\cos((m-n)\theta)`."""
    return from_refutation("missing_cross_term")


def _score(q: np.ndarray, k: np.ndarray, m: float, n: float, t: float = 1.0) -> float:
    return float((rotation_2d(m * t) @ q) @ (rotation_2d(n * t) @ k))


def cos_theta_case() -> Outcome:
    r""":math:`(R_m q)\cdot(R_n k) = (q\cdot k)\cos\theta` "in some cases": when q ∥ k and m − n = ±1."""
    q = np.array([1.0, 0.0])
    actual, stated = _score(q, q, 2, 0), float(q @ q) * np.cos(1.0)
    rng = np.random.default_rng(24)  # seed 24: parallel q, k = c q, m - n = +-1
    worst = 0.0
    for _ in range(20):
        v, c = rng.standard_normal(2), float(rng.standard_normal())
        m, sign, t = float(rng.integers(-50, 50)), float(rng.choice([-1, 1])), float(rng.uniform(0.1, 3))
        worst = max(worst, abs(_score(v, c * v, m, m - sign, t) - (v @ (c * v)) * np.cos(t)) / (abs(c) * v @ v))
    example = {
        "q": [1.0, 0.0],
        "k": [1.0, 0.0],
        "theta": 1.0,
        "m": 2,
        "n": 0,
        "true side": num(actual),
        "stated": num(stated),
    }
    return conditional(
        abs(actual - stated) > GAP,
        worst < 1e-12,
        example,
        f"At q = k = (1, 0), theta = 1, m - n = 2: true {num(actual)}, stated {num(stated)}. For parallel "
        f"q, k and m - n = +-1 it holds (residual {res(worst)}, 20 random cases, seed 24).",
    )


def not_a_function_of_similarity() -> Outcome:
    r"""Refutes "the rotated score is a function of :math:`q\cdot k` and m − n"."""
    q, k1, k2 = np.array([1.0, 0.0]), np.array([0.0, 1.0]), np.array([0.0, -1.0])
    s1, s2 = _score(q, k1, 1, 0), _score(q, k2, 1, 0)
    corr = refutations.get_refutation("relative_sign").correct
    example = {
        "theta": 1.0,
        "m": 1,
        "n": 0,
        "q": [1.0, 0.0],
        "k": [0.0, 1.0],
        "k'": [0.0, -1.0],
        "q.k = q.k'": 0.0,
        "score(q, k)": num(s1),
        "score(q, k')": num(s2),
    }
    return Outcome(
        "fails" if abs(s1 - s2) > GAP else "holds",
        f"q.k = q.k' = 0 and the same m - n = 1, but the scores are {num(s1)} and {num(s2)}. Correction: the "
        f"score is q^T R_(n-m) k, a function of q, k and m - n (sympy proof '{corr.name}' "
        f"{'holds' if corr.holds else 'FAILS'}).",
        example,
        bool(corr.holds),
    )


def converse() -> Outcome:
    r"""Refutes "if the relative position changes, the score changes"."""
    q = np.array([1.0, 0.0])
    s_plus, s_minus = _score(q, q, 1, 0), _score(q, q, 0, 1)
    corr = refutations.get_refutation("relative_sign").correct
    example = {"theta": 1.0, "q = k": [1.0, 0.0], "m - n = 1": num(s_plus), "m - n = -1": num(s_minus)}
    return Outcome(
        "fails" if abs(s_plus - s_minus) < 1e-12 else "holds",
        f"For q = k = (1, 0) the scores at m - n = 1 and m - n = -1 are both {num(s_plus)} (cos is even). "
        f"What holds is the other direction: the score depends on m, n only through n - m (sympy proof "
        f"'{corr.name}' {'holds' if corr.holds else 'FAILS'}).",
        example,
        bool(corr.holds),
    )


def common_difference() -> Outcome:
    r"""Refutes "m is the common difference" of :math:`\phi(m) = m\theta + \gamma`; it is :math:`\theta`."""
    t, g = 0.5, 0.0
    phi = [m * t + g for m in range(6)]
    steps = [phi[m + 1] - phi[m] for m in range(5)]
    broken = any(abs(step - m) > GAP for m, step in enumerate(steps))  # the claim: step number m equals m
    example = {"theta": t, "gamma": g, "phi(0..5)": num(phi), "m": 2, "phi(3) - phi(2)": num(phi[3] - phi[2])}
    return Outcome(
        "fails" if broken else "holds",
        f"With theta = {t}, gamma = {g}: phi(m) = {num(phi)}; the steps phi(m+1) - phi(m) are {num(steps)} for "
        f"m = 0..4, not m. Correction: theta is the common difference (every step equals theta: "
        f"{'checked' if all(step == t for step in steps) else 'NOT so'}), gamma = phi(0) the first term, m the index.",
        example,
        all(step == t for step in steps),
    )
