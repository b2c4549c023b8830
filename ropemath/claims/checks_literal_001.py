r"""Checks of note 001 read literally: :math:`R_{-\theta}` (§1.5), the polar split of a *real* g (§2.4), the
three steps that need the unstated :math:`f(x, 0) = x` (§2.5-§2.7), §2.8.1 as an existence claim, §2.9, §2.10.

>>> polar_split_literal().verdict, modulus_initial_condition().verdict, attention_relative().verdict
('fails', 'holds-if', 'holds')

References: kler.cn/a/538912.html; Su Jianlin, kexue.fm/archives/8265; Su et al., *RoFormer*,
arXiv:2104.09864 v5, §3.2.1, §3.4.1.
"""

from __future__ import annotations

import cmath
from collections.abc import Callable

import numpy as np
import sympy as sp

from ropemath.claims._verdict import GAP, conditional, num, refuted, res, shift_change, within_tol
from ropemath.claims.ledger import Outcome
from ropemath.core.apply import apply_rope
from ropemath.core.rotation import frequencies, rotation_2d, rotation_matrix
from ropemath.symbolic.common import is_zero, rotation
from ropemath.symbolic.derivation import derivation_steps
from ropemath.theory.encodings import sinusoidal_encoding

Encoding = Callable[[complex, float], complex]


def _steps(*keys: str) -> tuple[bool, str]:
    """Whether the named steps of the sympy derivation (which assumes f(x, 0) = x) are verified."""
    steps = {s.key: s for s in derivation_steps()}
    ok = all(steps[key].verified for key in keys)
    return ok, f"sympy derivation steps {', '.join(repr(k) for k in keys)} {'verified' if ok else 'NOT verified'}"


def _relative_residual(f: Encoding, seed: int) -> float:
    r"""Largest :math:`|f(q,m+s)\overline{f(k,n+s)} - f(q,m)\overline{f(k,n)}|` / |q||k| over 20 random cases."""
    rng = np.random.default_rng(seed)
    worst = 0.0
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
    product = f(q, m) * f(k, m).conjugate()
    g = product if complex_g else product.real
    stated, actual = abs(f(q, m)) * abs(f(k, m)), abs(g)
    ok, text = _steps("polar_product", "radial_equation", "angular_equation")
    rng = np.random.default_rng(50)  # seed 50: the corrected (complex) relations on random inputs
    worst = 0.0
    for _ in range(20):
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


Statement = Callable[[Encoding, complex, complex], tuple[complex, complex]]  # (stated, actual) at q, k


def _initial_condition(
    statement: Statement, outside: Encoding, inside: Encoding, seed: int, keys: tuple[str, ...], example: dict
) -> Outcome:
    """``holds-if`` f(x, 0) = x: the statement breaks for ``outside`` (relative, f(x, 0) != x), holds for ``inside``.

    Both encodings must meet the relative requirement (20 random cases each); the inside sample compares the
    statement's two sides on 20 random q, k, and the sympy steps ``keys`` (which assume f(x, 0) = x) must be verified.
    """
    stated, actual = statement(outside, 1 + 0j, 1j)
    met = max(_relative_residual(outside, seed), _relative_residual(inside, seed))
    rng = np.random.default_rng(seed)
    gap = max(
        abs(a - b) for a, b in (statement(inside, *(complex(*rng.standard_normal(2)) for _ in "qk")) for _ in range(20))
    )
    proved, text = _steps(*keys)
    example = {**example, "q": "1", "k": "i", "stated": _show(stated), "actual": _show(actual)}
    return conditional(
        met <= 1e-12 and abs(stated - actual) > GAP,
        proved and gap <= 1e-12,
        example,
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
    r"""§2.5: :math:`R_f(q,0)R_f(k,0) = \|q\|\|k\|` needs :math:`f(x, 0) = x`, which the note never states.

    Outside: :math:`f = \mathrm{scale}\cdot x e^{im}`; inside: ``inside_scale`` (1: f(x, 0) = x).
    """

    def statement(f: Encoding, q: complex, k: complex) -> tuple[complex, complex]:
        return abs(q) * abs(k), abs(f(q, 0)) * abs(f(k, 0))

    example = {"f(x, m)": f"{scale:g} x e^(i m)", "inside": f"f = {inside_scale:g} x e^(i m)", "m = n": 0}
    return _initial_condition(statement, _scaled(scale), _scaled(inside_scale), 51, ("radial_solution",), example)


def angle_initial_condition(*, conjugate: bool = True, inside_conjugate: bool = False) -> Outcome:
    r"""§2.6: :math:`\Theta_f(q,0) - \Theta_f(k,0) = \Theta(q) - \Theta(k)` needs :math:`f(x, 0) = x`.

    Outside: :math:`f = \bar x e^{im}` (``conjugate``); inside: ``inside_conjugate`` (False: f(x, 0) = x).
    Arguments are compared as unit numbers (mod 2π).
    """

    def statement(f: Encoding, q: complex, k: complex) -> tuple[complex, complex]:
        return cmath.exp(1j * (cmath.phase(q) - cmath.phase(k))), cmath.exp(
            1j * (cmath.phase(f(q, 0)) - cmath.phase(f(k, 0)))
        )

    name = {True: "conj(x) e^(i m)", False: "x e^(i m)"}
    example = {"f(x, m)": name[conjugate], "inside": f"f = {name[inside_conjugate]}", "m = n": 0}
    return _initial_condition(
        statement, _scaled(1.0, conjugate), _scaled(1.0, inside_conjugate), 52, ("angle_split",), example
    )


def phase_initial_condition(*, offset: float = 0.5, inside_offset: float = 0.0) -> Outcome:
    r"""§2.7: :math:`\varphi(m) = m\theta` needs :math:`\varphi(0) = 0`, i.e. :math:`f(x, 0) = x`.

    Outside: :math:`f = x e^{i(m + \mathrm{offset})}`; inside: ``inside_offset`` (0: f(x, 0) = x).  The statement
    compares :math:`e^{i\varphi(0)}` (with :math:`\varphi(m) = \Theta_f(q,m) - \Theta(q)`) with 1.
    """

    def statement(f: Encoding, q: complex, k: complex) -> tuple[complex, complex]:
        return 1 + 0j, f(q, 0) / q

    example = {"f(x, m)": f"x e^(i(m + {offset:g}))", "inside": f"f = x e^(i(m + {inside_offset:g}))", "m": 0}
    return _initial_condition(
        statement, _scaled(1.0, offset=offset), _scaled(1.0, offset=inside_offset), 53,
        ("phase_solution", "initial_phase"), example,
    )


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
    stated = rotation_2d(m) @ (p if multiplied == "p_m" else q)
    actual = apply_rope(q, m, layout="interleaved", base=1e4)
    rotated_p = [rotation_2d(float(r)) @ sinusoidal_encoding(float(r), 2) for r in range(6)]
    constant = max(float(np.max(np.abs(v - rotated_p[0]))) for v in rotated_p)
    rng = np.random.default_rng(54)  # seed 54: the correction f(q, m) = e^{i m theta} q on random q, m
    worst = 0.0
    for _ in range(20):
        x, r = rng.standard_normal(2), float(rng.integers(-1000, 1000))
        z = complex(*x) * cmath.exp(1j * r)
        worst = max(worst, float(np.max(np.abs(apply_rope(x, r, layout="interleaved", base=1e4) - [z.real, z.imag]))))
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
        keys = apply_rope(k, p, layout="interleaved", base=1e4) if rotate_keys else k
        s = apply_rope(q, p, layout="interleaved", base=1e4) @ keys.T / np.sqrt(8.0)
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
    d = 8
    R, theta = rotation_matrix(1.0, d), frequencies(d)

    def stated(j: int) -> float:  # cos(theta_floor(j/2)); j = d (1-based) has no theta_(d/2): nan
        return float(np.cos(theta[j // 2])) if j // 2 < d // 2 else float("nan")

    bad = [j for j in range(base, d + base) if not abs(R[j - base, j - base] - stated(j)) <= GAP]
    j = bad[0] if bad else base
    fixed = max(abs(R[r, r] - np.cos(theta[r // 2])) for r in range(d))  # row r = j - base
    return refuted(
        stated(j),
        float(R[j - base, j - base]),
        {"d": d, "m": 1, "j": j, "row": j - base, "floor(j/2)": j // 2},
        fixed,
        f"cos(theta_floor(j/2)) (stated) vs diagonal entry of R^8_(Theta,1) for coordinate j counted from {base}; "
        "correction i = floor((j - base)/2)",
    )


def distinct_pair_frequencies(*, base: float = 10000.0) -> Outcome:
    r"""Each coordinate pair :math:`(2i, 2i+1)` has its own frequency: the d/2 values :math:`\theta_i` are distinct."""
    counts = {d: len(set(frequencies(d, base).tolist())) for d in (2, 8, 128)}
    ok = all(n == d // 2 for d, n in counts.items())
    return Outcome("holds" if ok else "fails", f"base {base:g}: distinct theta_i per d: {counts} (d/2 needed).")
