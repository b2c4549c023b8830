r"""RoPE's two-dimensional solution, derived by sympy one step at a time (RoFormer §3.2.1; kexue.fm/archives/8265).

We ask :math:`f(q, m)\,\overline{f(k, n)} = g(q, k, m - n)`, :math:`f(x, 0) = x`, one f, :math:`q, k \neq 0`.
Each :class:`Step` is produced by sympy and checked by a second route; its ``method`` says what the check
establishes (for a form it introduces: that the form *satisfies* the equation; necessity is the text's argument).

Unknown functions, shown as :math:`\rho_f, \psi_f, \rho_g, \psi_g, \psi` (RoFormer's :math:`R_f, \Theta_f`;
here R is a rotation and :math:`\Theta` the set of frequencies): ``R_f`` (modulus of f), ``Theta_f``
(argument of f), ``R_g``, ``Theta_g`` (of g), ``Theta(x)`` = :math:`\arg x`, ``varphi(m)``; constant ``gamma``.

References: Su et al., *RoFormer*, arXiv:2104.09864 v5, §3.2.1 eq. (12)-(13), §3.4.1.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable

import sympy as sp

from ropemath.symbolic.common import is_zero, k, k0, k1, m, n, plain, q, q0, q1, render, rotation, theta

__all__ = [
    "R_f",
    "R_g",
    "Step",
    "Theta",
    "Theta_f",
    "Theta_g",
    "derivation_steps",
    "gamma",
    "rope_2d_solution",
    "varphi",
    "verify_step",
]

R_f = sp.Function("rho_f", positive=True)
Theta_f = sp.Function("psi_f", real=True)
R_g = sp.Function("rho_g", positive=True)
Theta_g = sp.Function("psi_g", real=True)
Theta = sp.Function("psi", real=True)
varphi = sp.Function("varphi", real=True)
gamma = sp.Symbol("gamma", real=True)
_R = sp.Symbol("R", positive=True)  # the unknown of the radial solve
_s = sp.Symbol("s", real=True)  # a common shift of both positions


@dataclasses.dataclass(frozen=True)
class Step:
    """One step of the derivation: the equation ``lhs = rhs`` and whether sympy verified it.

    ``given`` (or None) is the equation the step starts from, e.g. the one handed to
    ``solve``; ``method`` says how ``rhs`` was obtained and checked; ``verified`` is the
    result of running ``check(lhs, rhs)`` when the step was built.  ``title_template`` and
    ``reason_template`` are prose with ``{lhs}``, ``{rhs}``, ``{equation}``, ``{given}`` or ``{name}`` (a ``terms``
    entry) wherever a formula appears: the formulas are rendered from the expressions, never typed.
    """

    number: int
    key: str
    title_template: str
    reason_template: str
    lhs: sp.Basic
    rhs: sp.Basic
    method: str
    verified: bool
    given: sp.Basic | None = None
    check: Callable[[sp.Basic, sp.Basic], bool] = dataclasses.field(default=None, repr=False, compare=False)
    terms: tuple[tuple[str, sp.Basic], ...] = ()

    def _fill(self, template: str, latex: bool) -> str:
        """``template`` with ``{lhs}``, ``{rhs}``, ``{given}`` and the named ``terms`` rendered by sympy."""
        exprs = {"lhs": self.lhs, "rhs": self.rhs, "equation": self.equation, "given": self.given, **dict(self.terms)}
        return template.format_map({name: f"${render(e)}$" if latex else plain(e) for name, e in exprs.items()
                                    if e is not None})

    def heading(self, latex: bool = False) -> str:
        """The step's title; every formula in it is rendered from the step's expressions (``$...$`` if ``latex``)."""
        return self._fill(self.title_template, latex)

    def explain(self, latex: bool = False) -> str:
        """Why the step holds, in prose; every formula in it is rendered from the step's expressions."""
        return self._fill(self.reason_template, latex)

    @property
    def title(self) -> str:
        """Plain-text title (:meth:`heading`)."""
        return self.heading()

    @property
    def reason(self) -> str:
        """Plain-text explanation (:meth:`explain`)."""
        return self.explain()

    @property
    def equation(self) -> sp.Eq:
        """``sp.Eq(lhs, rhs)``, unevaluated."""
        return sp.Eq(self.lhs, self.rhs, evaluate=False)

    @property
    def latex(self) -> str:
        r"""LaTeX of the step, ``given \Longrightarrow lhs = rhs`` when there is a given."""
        text = sp.latex(self.equation)
        return text if self.given is None else sp.latex(self.given) + r" \;\Longrightarrow\; " + text

    @property
    def text(self) -> str:
        """Plain-text form of the step on one line (sympy ``sstr``)."""
        eq = f"{_plain(self.lhs)} = {_plain(self.rhs)}"
        return eq if self.given is None else f"from {_plain(self.given)}:  {eq}"


def _plain(expr: sp.Basic) -> str:
    """One-line ``sstr`` (matrices as nested lists)."""
    if isinstance(expr, sp.MatrixBase):
        return f"Matrix({sp.sstr(expr.tolist())})"
    if isinstance(expr, sp.MatMul):
        return "*".join(_plain(arg) for arg in expr.args)
    return sp.sstr(expr)


_f_name = sp.Function("f")
_x = sp.Symbol("x")


def verify_step(step: Step) -> bool:
    r"""Re-run the check of ``step`` on its (possibly altered) ``lhs`` and ``rhs``.

    .. math:: \mathrm{verified} = \mathrm{check}(\mathrm{lhs}, \mathrm{rhs})

    >>> s = derivation_steps()[0]
    >>> verify_step(s), verify_step(dataclasses.replace(s, rhs=s.rhs + 1))
    (True, False)
    """
    return bool(step.check(step.lhs, step.rhs))


def _identity(lhs: sp.Basic, rhs: sp.Basic) -> bool:
    return is_zero(lhs - rhs)


def _cartesian_identity(lhs: sp.Basic, rhs: sp.Basic) -> bool:
    """lhs = rhs after writing every e^{i t} as cos t + i sin t and expanding (no simplify: fails fast)."""
    return sp.expand(sp.expand_trig(sp.expand_complex(lhs.doit() - rhs))) == 0


def _f(x: sp.Expr, pos: sp.Expr) -> sp.Expr:
    """f(x, pos) in polar form R_f(x, pos) e^{i Θ_f(x, pos)}."""
    return R_f(x, pos) * sp.exp(sp.I * Theta_f(x, pos))


def _solves(given: sp.Eq, unknown: sp.Basic, rhs: sp.Basic) -> bool:
    """True if sympy's solve of ``given`` for ``unknown`` has exactly one solution, equal to rhs."""
    solutions = sp.solve(given, unknown)
    return len(solutions) == 1 and is_zero(solutions[0] - rhs)


def _build() -> tuple[Step, ...]:
    steps: list[Step] = []

    def add(key, title, reason, lhs, rhs, method, check, given=None, **terms):
        steps.append(Step(len(steps) + 1, key, title, reason, lhs, rhs, method, bool(check(lhs, rhs)), given, check,
                          tuple(terms.items())))
        return steps[-1]

    initial = {R_f(q, 0): sp.Abs(q), R_f(k, 0): sp.Abs(k), Theta_f(q, 0): Theta(q), Theta_f(k, 0): Theta(k)}

    add("inner_product", "The 2D dot product is the real part of a complex product",
        "Read a vector {vector} as the complex number {number}. The dot product is then the real part of one "
        "number times the conjugate of the other, so the requirement on inner products becomes a requirement on "
        "the real part of f(q, m) times the conjugate of f(k, n).",
        q0 * k0 + q1 * k1, sp.re((q0 + sp.I * q1) * sp.conjugate(k0 + sp.I * k1), evaluate=False),
        "identity: simplify(lhs - rhs) == 0", _identity, vector=sp.Tuple(q0, q1), number=q0 + sp.I * q1)

    written = sp.Mul(_f(q, m), sp.conjugate(_f(k, n), evaluate=False), evaluate=False)
    product = sp.powsimp(written.doit())  # sympy evaluates the conjugate and combines the exponentials
    add("polar_product", "Polar forms multiply moduli and subtract arguments",
        "Write f in polar form, {polar}, with rho_f > 0 and psi_f real; sympy evaluates the conjugate and "
        "combines the exponentials.",
        written, product, "conjugate evaluated + powsimp; checked in Cartesian form (cos + i sin)", _cartesian_identity,
        polar=sp.Eq(_f_name(_x, m), _f(_x, m)))

    requirement = sp.Eq(product, R_g(q, k, m - n) * sp.exp(sp.I * Theta_g(q, k, m - n)))  # f conj f = g, polar

    def modulus_check(lhs, rhs):
        # |z| without Abs: each side must be positive and its square must equal z * conj(z)
        pairs = ((lhs, requirement.lhs), (rhs, requirement.rhs))
        return all(bool(side.is_positive) and is_zero(z * sp.conjugate(z) - side**2) for side, z in pairs)

    radial = add("radial_equation", "Equal complex numbers have equal moduli: the radial equation",
                 "Require the product to equal g(q, k, m - n) in polar form, {given}. Equal complex numbers have "
                 "equal moduli: sympy's Abs of both sides gives the radial equation {equation}.",
                 sp.Abs(requirement.lhs), sp.Abs(requirement.rhs),
                 "Abs of both sides; checked without Abs: side > 0 and side^2 = z conj(z)", modulus_check,
                 given=requirement)

    radial_eq = sp.Eq(radial.lhs, radial.rhs)  # R_f(q,m) R_f(k,n) = R_g(q,k,m-n)
    at_zero = radial_eq.lhs.subs({m: 0, n: 0}).subs(initial)  # R_g(q,k,0) = R_f(q,0) R_f(k,0) = |q||k|
    same_vector = sp.Eq(radial_eq.lhs.subs(n, m), at_zero).subs(k, q)  # R_f(q,m)^2 = |q|^2

    def radial_check(lhs, rhs):
        # the substitutions: m = n = 0 with f(x, 0) = x gives |q||k|, and n = m, k = q gives R_f(q, m)^2
        substituted = is_zero(at_zero - sp.Abs(q) * sp.Abs(k)) and is_zero(same_vector.lhs - R_f(q, m) ** 2)
        ok = substituted and lhs == R_f(q, m) and _solves(same_vector.subs(R_f(q, m), _R), _R, rhs)
        back = radial_eq.lhs.replace(R_f, lambda x, p: rhs.subs(q, x))  # substitute R_f(x, .) = rhs(x)
        return ok and is_zero(back - at_zero) and not back.has(m, n)

    rad = add("radial_solution", "The modulus does not depend on the position: {equation}",
              "Set n = m: the right side becomes the same equation at m = n = 0, where the initial condition "
              "f(x, 0) = x gives {at_zero}; so {same_position} for all q, k. With k = q this is {given}; sympy "
              "solves it for a positive unknown.",
              R_f(q, m), sp.solve(same_vector.subs(R_f(q, m), _R), _R)[0],
              "substitutions n = m, m = n = 0 checked; solve (positive unknown), then substituted back",
              radial_check, given=same_vector,
              at_zero=sp.Eq(radial_eq.rhs.subs({m: 0, n: 0}), at_zero),
              same_position=sp.Eq(radial_eq.lhs.subs(n, m), at_zero))

    unit = sp.Eq(requirement.lhs / radial.lhs, requirement.rhs / radial.rhs)  # divided by the equal moduli

    def argument_check(lhs, rhs):
        # each side must be real and e^{i side} must rebuild the unit-modulus number it came from
        pairs = ((lhs, unit.lhs), (rhs, unit.rhs))
        return all(bool(side.is_real) and is_zero(z - sp.exp(sp.I * side)) for side, z in pairs)

    phase = add("angular_equation", "Equal unit complex numbers have equal arguments: the angular equation",
                "Dividing both sides by the equal moduli leaves {given}; equal unit complex numbers have arguments "
                "equal modulo 2 pi, and sympy's log of both sides gives {equation}.",
                *(sp.expand(sp.expand_log(sp.log(side), force=True) / sp.I) for side in (unit.lhs, unit.rhs)),
                "log of both sides; checked: sides real and e^{i side} rebuilds each side (mod 2 pi)",
                argument_check, given=unit)

    angle = phase.lhs  # Theta_f(q,m) - Theta_f(k,n)
    split = sp.Eq(angle.subs(n, m), angle.subs({m: 0, n: 0}).subs(initial))  # n = m, f(x,0) = x

    def ansatz(rhs):
        return lambda x, p: rhs.subs({q: x, m: p}, simultaneous=True)

    def split_check(lhs, rhs):
        # the substitution n = m (left) and m = n = 0 with f(x, 0) = x (right), against forms written out here
        substituted = (is_zero(split.lhs - (Theta_f(q, m) - Theta_f(k, m)))
                       and is_zero(split.rhs - (Theta(q) - Theta(k))))
        return substituted and lhs == Theta_f(q, m) and is_zero((split.lhs - split.rhs).replace(Theta_f, ansatz(rhs)))

    sep = add("angle_split", "The argument splits: {equation}",
              "Set n = m and use f(x, 0) = x at m = n = 0: {given} for all q, k. Moving the terms in q to one side "
              "and those in k to the other separates the variables, so psi_f(q, m) minus the argument of q is "
              "one function of m alone, varphi(m). sympy checks that this form satisfies the n = m equation.",
              Theta_f(q, m), Theta(q) + varphi(m),
              "substitutions checked; this candidate satisfies the equation (necessity: the separation argument)",
              split_check,
              given=split)

    step_eq = sp.Eq(angle.subs(n, m - 1).replace(Theta_f, ansatz(sep.rhs)), phase.rhs.subs(n, m - 1))

    q2, k2 = sp.symbols("q' k'")  # a second, unrelated pair of vectors

    def recurrence_check(lhs, rhs):
        # solved correctly; the left side is the same for (q, k) and (q', k') -- it contains neither -- so the
        # right side, equal to it for all q, k, is one number; and the right side does not contain m
        solved = _solves(step_eq, varphi(m), rhs + varphi(m - 1))
        free_of_q_and_k = not lhs.has(q, k) and lhs.subs({q: q2, k: k2}) == lhs
        return solved and free_of_q_and_k and not rhs.has(m) and lhs.has(varphi(m))

    increment = add("angular_recurrence", "Neighbouring positions differ by a constant angle",
                    "Set n = m - 1 in the angular equation, {given}, and solve for varphi(m): the increment {lhs} "
                    "comes out as {rhs}. The left side contains neither q nor k, so the right side is one and the "
                    "same number for all q and k; it does not contain m either. Call that constant theta.",
                    varphi(m) - varphi(m - 1), sp.solve(step_eq, varphi(m))[0] - varphi(m - 1),
                    "solve; checked: left side free of q and k (so the right is one number), right side free of m",
                    recurrence_check, given=step_eq)

    recurrence = sp.Eq(increment.lhs, theta)  # the step's own increment, its constant named theta

    def rsolve_check(lhs, rhs):
        solved = sp.rsolve(recurrence.lhs - recurrence.rhs, varphi(m), {varphi(0): gamma})
        return (lhs == varphi(m) and is_zero(solved - rhs) and is_zero(rhs - rhs.subs(m, m - 1) - theta)
                and rhs.subs(m, 0) == gamma)

    arith = add("phase_solution", "An arithmetic progression: {equation}",
                "sympy's recurrence solver rsolve solves {given} with the free constant {start}.",
                varphi(m), sp.rsolve(recurrence.lhs - recurrence.rhs, varphi(m), {varphi(0): gamma}),
                "rsolve, then substituted back", rsolve_check, given=recurrence, start=sp.Eq(varphi(0), gamma))

    initial_phase = sp.Eq(sep.rhs.subs(m, 0).subs(varphi(0), arith.rhs.subs(m, 0)), Theta(q))
    gam = add("initial_phase", "The initial condition f(x, 0) = x gives {equation}",
              "f(q, 0) = q means {condition}, i.e. {given}.",
              gamma, sp.solve(initial_phase, gamma)[0], "solve",
              lambda lhs, rhs: lhs == gamma and _solves(initial_phase, gamma, rhs), given=initial_phase,
              condition=sp.Eq(Theta_f(q, 0), initial[Theta_f(q, 0)]))

    phi_m = arith.rhs.subs(gamma, gam.rhs)
    f_qm = _f(q, m).subs(R_f(q, m), rad.rhs).subs(Theta_f(q, m), sep.rhs).subs(varphi(m), phi_m)
    solution = sp.expand(f_qm).subs(sp.Abs(q) * sp.exp(sp.I * Theta(q)), q)  # polar form of q

    def solution_check(lhs, rhs):
        diff = (lhs - rhs).replace(Theta, sp.arg).subs(q, q0 + sp.I * q1)  # q = q0 + i q1, Theta = arg
        return is_zero(sp.expand_complex(diff).rewrite(sp.atan2))

    sol = add("solution", "The solution: {result}",
              "Put the modulus {modulus} and the argument {argument} together: {equation}, checked with "
              "q = q_0 + i q_1 and psi(q) = arg q (q != 0).",
              f_qm, solution, "identity with q = q0 + i q1, psi = arg", solution_check,
              modulus=sp.Eq(rad.lhs, rad.rhs), argument=sp.Eq(Theta_f(q, m), sep.rhs.subs(varphi(m), phi_m)),
              result=sp.Eq(_f_name(q, m), solution))

    vector = sp.ImmutableMatrix([q0, q1])
    cart = sp.expand_complex(sol.rhs.subs(q, q0 + sp.I * q1))
    parts = sp.ImmutableMatrix([sp.re(cart), sp.im(cart)])

    def matrix_check(lhs, rhs):
        return is_zero(lhs - rhs.doit()) and is_zero(lhs.jacobian(vector) - rotation(m * theta))

    rot = add("rotation_form", "Real and imaginary parts: a rotation matrix times (q0, q1)",
              "Substitute q = q_0 + i q_1 into the solution and take real and imaginary parts; the matrix is the "
              "Jacobian of the parts with respect to (q_0, q_1), and sympy checks it is R(m theta) of RoFormer "
              "eq. (13), {rotation}.",
              parts, sp.MatMul(parts.jacobian(vector), vector, evaluate=False),
              "identity; matrix = Jacobian, compared with R(m theta)", matrix_check, rotation=rotation(m * theta))

    inner = sp.expand((rot.lhs.T * rot.lhs.subs({q0: k0, q1: k1, m: n}))[0])
    score = sp.re(q * sp.conjugate(k) * sp.exp(sp.I * (m - n) * theta), evaluate=False)

    def score_check(lhs, rhs):
        cartesian = rhs.subs({q: q0 + sp.I * q1, k: k0 + sp.I * k1})
        shift = sp.diff(inner.subs({m: m + _s, n: n + _s}), _s)  # d/ds of g(m + s, n + s)
        return is_zero(lhs - inner) and is_zero(lhs - cartesian) and is_zero(shift)

    add("relative_score", "The requirement is met: the score is {rhs}",
        "The inner product of the two rotated vectors (shown after trigsimp) equals {rhs}, and it is unchanged "
        "when both positions move by the same s: it depends on m - n only.",
        sp.trigsimp(inner), score, "identity + shift invariance: d/ds g(m + s, n + s) == 0", score_check)
    return tuple(steps)


@functools.cache
def derivation_steps() -> tuple[Step, ...]:
    r"""Return the ordered steps of the 2D derivation, each with a computed ``verified`` flag.

    .. math::
        \langle f(q,m), f(k,n)\rangle = g(q,k,m-n),\ f(x,0) = x
        \;\Longrightarrow\; f(q,m) = q e^{im\theta}

    Source: RoFormer §3.2.1 / §3.4.1; Su, kexue.fm/archives/8265.

    >>> steps = derivation_steps()
    >>> [s.key for s in steps][:4]
    ['inner_product', 'polar_product', 'radial_equation', 'radial_solution']
    >>> len(steps), all(s.verified for s in steps)
    (12, True)
    """
    return _build()


def rope_2d_solution() -> sp.Expr:
    r"""Return the derived 2D RoPE solution ``q*exp(I*m*theta)`` (symbols ``q``, ``m``, ``theta``).

    .. math:: f(q, m) = q\, e^{i m \theta}

    ``q`` is the complex symbol standing for the vector (q_0, q_1), ``m`` the position and
    ``theta`` the angle per position (all from :mod:`ropemath.symbolic.common`).  The
    expression is the right-hand side of the ``solution`` step of :func:`derivation_steps`.
    Source: RoFormer eq. (12)-(13).

    >>> rope_2d_solution()
    q*exp(I*m*theta)
    """
    return next(s.rhs for s in derivation_steps() if s.key == "solution")
