r"""Checks of the notes' claims about the frequencies :math:`\theta_i` and the long-term decay (Abel summation).

>>> theta_range().counterexample["ratio"], shared_frequencies().verdict
(10.0, 'fails')

References: Su et al., *RoFormer*, arXiv:2104.09864 v5, eq. (15), §3.4.3 eq. (35)-(37), Figure 2.
"""

from __future__ import annotations

import functools

import numpy as np

from ropemath.claims._verdict import GAP, conditional, identity, max_diff, num
from ropemath.claims.ledger import NOTES_ROPE, Outcome
from ropemath.core.apply import apply_rope
from ropemath.core.rotation import frequencies, rotation_matrix
from ropemath.core.spectrum import turns, wavelengths
from ropemath.symbolic import proofs
from ropemath.symbolic.common import is_zero
from ropemath.theory.abel import abel_bound, abel_identity_error, complex_score
from ropemath.theory.decay import decay_bound
from ropemath.theory.encodings import sinusoidal_encoding
from ropemath.theory.plateau import random_phase_level

DIMS = (2, 4, 8, 64, 128, 4096)


@functools.cache  # each (sign, scale) is measured once
def _abel(sign: int = 1, scale: float = 1.0) -> dict[str, float]:
    """Eq. (35)-(37) on 3 random q, k (d = 32, seed 0) at 3073 distances r: errors, violations of ``scale`` x bound."""
    rng = np.random.default_rng(0)  # seed 0
    r = np.concatenate([np.arange(-1024, 1025), rng.integers(-(10**6), 10**6 + 1, size=1024)]).astype(float)
    out = {"max_ratio": 0.0, "violations": 0.0, "abel_error": 0.0, "rope_error": 0.0}
    for _ in range(3):
        q, k = rng.standard_normal((2, 32))
        n = float(rng.integers(-(10**6), 10**6 + 1))
        score = complex_score(q, k, sign * r, layout="interleaved")
        rotated = apply_rope(np.broadcast_to(q, (r.size, 32)), n + r, **NOTES_ROPE) @ apply_rope(k, n, **NOTES_ROPE)
        bound = scale * abel_bound(q, k, r, layout="interleaved")
        out["max_ratio"] = max(out["max_ratio"], float(np.max(np.abs(score) / bound)))
        out["violations"] += float(np.count_nonzero(np.abs(score) > bound * (1 + 1e-12)))
        out["abel_error"] = max(out["abel_error"], abel_identity_error(q, k, r, layout="interleaved"))
        scale_qk = float(np.linalg.norm(q) * np.linalg.norm(k))
        out["rope_error"] = max(out["rope_error"], max_diff(score, rotated) / scale_qk)
    return out


def theta_one_based(*, shift: int = 1) -> Outcome:
    r""":math:`\theta_j = 10000^{-2(j-1)/d}`, j = 1..d/2 (the paper) — our :math:`\theta_{j-1}`."""
    err = max(
        abs(10000.0 ** (-2 * (j - shift) / d) - float(frequencies(d)[j - 1]))
        for d in DIMS for j in range(1, d // 2 + 1)
    )
    return identity(err, "10000^(-2(j-1)/d) written out for j = 1..d/2 vs ropemath.frequencies(d)[j-1], d up to 4096")


def theta_zero_based(*, factor: int = 2) -> Outcome:
    r""":math:`\theta_i = 10000^{-2i/d}`, i = 0..d/2−1."""
    err = max(abs(10000.0 ** (-factor * i / d) - float(frequencies(d)[i])) for d in DIMS for i in range(d // 2))
    return identity(err, "10000^(-2i/d) written out for i = 0..d/2-1 vs ropemath.frequencies(d)[i], d up to 4096")


def theta_decreasing(*, base: float = 10000.0) -> Outcome:
    r""":math:`1 = \theta_0 > \theta_1 > \dots`: larger index, lower frequency, slower rotation (base > 1)."""
    ok = all(frequencies(d, base)[0] == 1.0 and np.all(np.diff(frequencies(d, base)) < 0) for d in DIMS)
    lam = wavelengths(128, base)
    return Outcome(
        "holds" if ok else "fails",
        f"theta_0 = 1 and strictly decreasing for every d in {DIMS} (base 10000); "
        f"d = 128: wavelengths 2 pi / theta_i grow from {lam[0]:.2f} to {lam[-1]:.0f} positions.",
    )


def theta_range(*, d: int = 8, inside: tuple[int, int] = (128, 4096)) -> Outcome:
    r""":math:`\theta_{d/2} \approx 1/10000` (paper\'s index) for large d only (``inside``)."""
    ratio = {dim: float(frequencies(dim)[-1] * 10000.0) for dim in (d, 128, 4096, *inside)}
    mid, large = inside  # the dimensions where the approximation must be good (within 20 % and 1 %)
    example = {"d": d, "theta_(d/2)": num(frequencies(d)[-1], 6), "1/10000": 1e-4, "ratio": num(ratio[d])}
    return conditional(
        ratio[d] > 2.0, ratio[large] < 1.01 and ratio[mid] < 1.2, example,
        f"theta_(d/2) * 10000 = 10000^(2/d): {num(ratio[d])} at d = {d}, {num(ratio[128])} at d = 128, "
        f"{num(ratio[4096])} at d = 4096.",
    )


def fast_near_slow_far(*, base: float = 10000.0) -> Outcome:
    r"""High-frequency pairs resolve nearby positions, low-frequency pairs distant ones."""
    d, lam, theta = 128, wavelengths(128, base), frequencies(128, base)
    t0 = turns(np.array([44.0, 10000.0]), d, base)
    ok = bool(np.all(np.diff(lam) > 0) and lam[0] < 7 and lam[-1] > 10000)
    return Outcome(
        "holds" if ok else "fails",
        f"d = 128, base 10000: pair 0 turns {theta[0]:.0f} rad per position (wavelength {lam[0]:.2f}): "
        f"neighbours differ by a large angle, but it comes back near its start (position 44 is "
        f"{t0[0, 0] % 1:.4f} turns past a full turn); pair 63 turns {theta[-1]:.2e} rad per position "
        f"(wavelength {lam[-1]:.0f}): neighbours look alike, and 10000 positions are {t0[1, -1]:.3f} of a turn apart.",
    )


def pair_index(*, offset: int = 0) -> Outcome:
    r"""Coordinate j (0-based) rotates with :math:`\theta_{\lfloor j/2 \rfloor}`."""
    d, m = 8, 1.0
    R, theta = rotation_matrix(m, d), frequencies(d)
    err = max(abs(R[j, j] - np.cos(m * theta[min((j + offset) // 2, d // 2 - 1)])) for j in range(d))
    return identity(err, "diagonal entry j of R^8_(Theta,1) vs cos(theta_floor(j/2))")


def shared_frequencies(*, other: int = 1) -> Outcome:
    r"""Refutes "each dimension has its own frequency": coordinates 2i and 2i+1 share :math:`\theta_i`."""
    R, theta = rotation_matrix(1.0, 4), frequencies(4)
    same = R[0, 0] == R[other, other]
    distinct = len(set(frequencies(128).tolist())) == 64
    example = {
        "d": 4, "m": 1, "R[0,0]": num(R[0, 0]), f"R[{other},{other}]": num(R[other, other]),
        "theta of coordinates 0 and 1": num(theta[0]),
    }
    return Outcome(
        "fails" if same else "holds",
        f"Coordinates 0 and 1 both rotate with theta_0 = {num(theta[0])} (d = 4): "
        f"d coordinates, d/2 frequencies. Correction: one frequency per pair, the d/2 values distinct "
        f"(d = 128: {'64 distinct' if distinct else 'NOT distinct'}).",
        example, bool(distinct),
    )


def clock_hands(*, b: float = 710.0) -> Outcome:
    r"""Like clock hands, pairs of different speed together pin down a position one pair alone nearly confuses."""
    d, a = 128, 0.0
    fast = float(abs(np.angle(np.exp(1j * (b - a) * frequencies(d)[0]))))
    q = np.ones(d) / np.sqrt(d)
    together = float(np.linalg.norm(rotation_matrix(b, d) @ q - rotation_matrix(a, d) @ q))
    ok = fast < 1e-3 and together > 0.1
    return Outcome(
        "holds" if ok else "fails",
        f"d = 128: positions 0 and {b:.0f} differ by only {fast:.1e} rad on the "
        f"fastest pair (710 is almost 113 full turns), but the whole rotated unit vector moves by {together:.3f}.",
    )


def complex_score_form(*, sign: int = 1) -> Outcome:
    r"""Eq. (35): :math:`(R_m q)^\top(R_n k) = \mathrm{Re}[\sum_i h_i e^{i(m-n)\theta_i}]`."""
    out = _abel(sign)
    what = "ropemath.theory.abel.complex_score vs apply_rope scores (d = 32, 3 draws, seed 0, |m|, |n| up to 1e6), "
    return identity(out["rope_error"], what + "relative", tol=1e-9)


def abel_summation(*, sign: int = 1) -> Outcome:
    r"""Eq. (36): :math:`\sum h_i(S_{i+1}-S_i) = -\sum S_{i+1}(h_{i+1}-h_i)` (the sympy proof is re-run)."""
    p = proofs.get_proof("abel_summation_d8")
    proved = is_zero(p.lhs - sign * p.rhs)
    return identity(
        _abel()["abel_error"] if proved else float("inf"),
        f"sympy proof '{p.name}' {'holds' if proved else 'FAILS'}; "
        "numeric Abel identity (ropemath.theory.abel.abel_identity_error, d = 32, 3 draws, seed 0)",
    )


def abel_inequality(*, scale: float = 1.0) -> Outcome:
    r"""Eq. (37): :math:`|\sum h_i e^{ir\theta_i}| \le (\max_i |h_{i+1}-h_i|)\sum_j |S_j|`."""
    out = _abel(1, scale)
    ok = out["violations"] == 0 and out["max_ratio"] <= 1
    return Outcome(
        "holds" if ok else "fails",
        f"ropemath.theory.abel.abel_bound (d = 32, 3 draws, seed 0): {int(out['violations'])} "
        f"scores above the bound; largest score/bound ratio {out['max_ratio']:.3f}.",
    )


def _bound_trend(start: float = 0.0) -> tuple[bool, str]:
    """Means of B(r) over 8 windows of 32 positions on [start, start + 256) decrease (d = 128)."""
    means = decay_bound(start + np.arange(256.0), 128).reshape(8, 32).mean(axis=1)
    window = f"[{start:.0f}, {start + 256:.0f})"
    return bool(np.all(np.diff(means) < 0)), f"window means of the bound over {window} in steps of 32: {num(means, 2)}"


def score_decays(*, slowest_only: bool = False) -> Outcome:
    r"""Refutes "the inner product decays as the relative distance grows" (it is the bound that decays)."""
    q = np.r_[np.zeros(126), 1.0, 1.0] if slowest_only else np.ones(128)
    s = complex_score(q, q, np.arange(0.0, 257.0), layout="interleaved")
    rises = np.nonzero(np.diff(s) > GAP)[0]
    r1 = int(rises[0]) if rises.size else 255  # no rise: the last step is shown
    qr, kr = np.random.default_rng(0).standard_normal((2, 128))  # seed 0
    sr = complex_score(qr, kr, np.arange(0.0, 1001.0), layout="interleaved")
    far = int(np.argmax(np.abs(sr)))
    trend, text = _bound_trend()
    bound_ok = _abel()["violations"] == 0
    example = {
        "d": 128, "base": 10000, "q = k": "(0, ..., 0, 1, 1)" if slowest_only else "(1, ..., 1)",
        f"score(r={r1})": num(s[r1]), f"score(r={r1 + 1})": num(s[r1 + 1]),
        "random q, k (seed 0)": {"score(r=0)": num(sr[0]), f"score(r={far})": num(sr[far])},
    }
    return Outcome(
        "fails" if rises.size else "holds",
        f"Even for q = k = (1, ..., 1) the score rises from r = {r1} to {r1 + 1} ({num(s[r1])} -> {num(s[r1 + 1])}); "
        f"for random q, k (seed 0) |score| is {num(abs(sr[0]))} at r = 0 and {num(abs(sr[far]))} at r = {far}. "
        f"Correction: the Abel upper bound decays as a trend ({text}) and bounds every score "
        f"({'no' if bound_ok else 'SOME'} violations).",
        example, bool(trend and bound_ok),
    )


def bound_decreases(*, start: float = 0.0) -> Outcome:
    r"""The bound :math:`\frac{1}{d/2}\sum_j|S_j|` decreases with distance — as a trend, on the plotted range."""
    b = decay_bound(np.arange(0.0, 4097.0), 128)
    r1 = int(np.nonzero(np.diff(b[:257]) > 0)[0][0])
    trend, text = _bound_trend(start)
    level = random_phase_level(128)
    example = {
        "d": 128, "base": 10000, f"B({r1})": num(b[r1]), f"B({r1 + 1})": num(b[r1 + 1]), "B(1024)": num(b[1024]),
        "B(4096)": num(b[4096]),
    }
    return conditional(
        bool(b[r1 + 1] > b[r1]), trend, example,
        f"Not monotone: B({r1}) = {num(b[r1])} < B({r1 + 1}) = {num(b[r1 + 1])}; and far out it stops "
        f"decreasing: B(1024) = {num(b[1024])}, B(4096) = {num(b[4096])} (random-phase level {level:.2f}). "
        f"As a trend over the range of RoFormer Figure 2 it decreases: {text}.",
    )


def larger_base_slower(*, bases: tuple[float, ...] = (100.0, 1000.0, 10000.0, 100000.0, 500000.0)) -> Outcome:
    """A larger base makes the bound take longer to fall (not pointwise smaller); ``bases`` in claimed order."""
    r = np.arange(0.0, 1025.0)
    curves = {base: decay_bound(r, 128, base) for base in bases}
    reach = [int(np.nonzero(curves[base] < 0.25 * curves[base][0])[0][0]) for base in bases]
    below = np.nonzero(curves[100000.0] < curves[10000.0] - GAP)[0]
    at = int(below[0])
    b10k, b100k = num(curves[10000.0][at]), num(curves[100000.0][at])
    example = {"d": 128, "r": at, "B at base 10000": b10k, "B at base 100000": b100k}
    return conditional(
        below.size > 0, bool(np.all(np.diff(reach) > 0)), example,
        f"Pointwise it fails: at r = {at} the base-100000 bound {b100k} is below the "
        f"base-10000 bound {b10k}. Read as 'takes longer to fall': the first r with "
        f"B(r) < B(0)/4 is {reach} for bases {[int(b) for b in bases]} (d = 128), increasing with the base.",
    )


def _large_d_limit(r: float) -> float:
    r"""The large-d limit of :math:`\frac2d\sum_i\cos(r\theta_i) \approx \int_0^1 \cos(r b^{-t})\,dt`, b = 10^4."""
    import mpmath  # a sympy dependency, imported only here

    return float((mpmath.ci(r) - mpmath.ci(r / 10000.0)) / mpmath.log(10000))


def decay_with_dimension(
    *, distances: tuple[float, ...] = (10.0, 100.0, 1000.0, 10000.0), claimed: str = "zero"
) -> Outcome:
    r"""Refutes "as the dimension grows, far-apart inner products tend to 0" at fixed distances.

    For q = k = (1, ..., 1), :math:`\frac2d\sum_i\cos(r\theta_i) \to L(r) = (\mathrm{Ci}(r) - \mathrm{Ci}(r/10^4))/\ln
    10^4`. The ``claimed`` limit (0, or L(r)) is refuted at r when it is 10 times farther from L(r) than d = 2^22."""
    dims = tuple(2**e for e in (6, 10, 14, 18, 22))
    rows = {}
    for r in distances:
        sums = [float(np.mean(np.cos(r * 10000.0 ** (-2 * np.arange(d // 2) / d)))) for d in dims]  # theta_i
        limit = _large_d_limit(r)
        target = 0.0 if claimed == "zero" else limit
        rows[r] = (sums, limit, abs(sums[-1] - limit), abs(limit - target))
    refuted = [r for r, (_, _, gap, miss) in rows.items() if miss > 10 * gap]
    converged = all(gap < 1e-4 and gap < abs(sums[0] - limit) for sums, limit, gap, _ in rows.values())
    shown = "; ".join(f"r = {r:g}: {num(v[0])} -> L = {num(v[1])}" for r, v in rows.items())
    example = {"q = k": "(1, ..., 1)", "d": list(dims)} | {
        f"r = {r:g}": {"sums": num(v[0]), "L(r)": num(v[1])} for r, v in rows.items()
    }
    return Outcome(
        "fails" if refuted else "holds",
        f"(2/d) sum_i cos(r theta_i) for d = 2^6, 2^10, 2^14, 2^18, 2^22: {shown}. Claimed limit {claimed}: refuted at "
        f"r in {[f'{r:g}' for r in refuted]} (the claimed value is more than 10 times farther from L(r) than the sum "
        f"at d = 2^22). Correction: the sums converge to L(r) (gap at d = 2^22 below 1e-4 and smaller than at d = 2^6: "
        f"{'checked' if converged else 'NOT so'}); L(r) tends to 0 only as r grows too (the iterated limit).",
        example if refuted else None, converged,
    )


def decay_iterated_limit(*, distances: tuple[float, ...] = (1e6, 1e8, 1e10)) -> Outcome:
    r"""The iterated limit: :math:`d \to \infty` first, then :math:`r \to \infty`, the normalised score tends to 0.

    L(r) of :func:`decay_with_dimension` must be below 1e-3 at every r in ``distances`` (Riemann–Lebesgue)."""
    limits = [_large_d_limit(r) for r in distances]
    verdict = "holds" if all(abs(v) < 1e-3 for v in limits) else "fails"
    example = {"r": [int(r) for r in distances], "limit as d grows": [float(f"{v:.2g}") for v in limits]}
    return Outcome(
        verdict,
        f"For q = k = (1, ..., 1) the d -> infinity limit of (2/d) sum_i cos(r theta_i) is (Ci(r) - Ci(r/10^4)) / "
        f"ln 10^4: {example['limit as d grows']} at r = {example['r']} "
        f"({'all' if verdict == 'holds' else 'not all'} below 1e-3); it tends to 0 as r grows (Riemann-Lebesgue).",
        None if verdict == "holds" else example,
    )


def extrapolation() -> Outcome:
    r"""Extrapolation to longer sequences is an empirical property of trained models."""
    d, L = 128, 2048
    seen = float(turns(L - 1, d)[-1])
    return Outcome(
        "not-checkable",
        f"Measured: with d = 128, base 10000 and training length {L}, the slowest pair has turned only "
        f"{seen:.3f} of a full turn by position {L - 1}; beyond it, it reaches angles never seen in "
        f"training (the reason for Position Interpolation, NTK scaling and YaRN)."
    )


def same_frequencies_as_sinusoidal(*, component: int = 0) -> Outcome:
    r"""RoPE's :math:`\theta_t` are the frequencies :math:`10000^{-2t/d}` of the sinusoidal encoding (written out)."""
    err = 0.0
    for d in (8, 64, 512):
        t = np.arange(d // 2)
        pe = sinusoidal_encoding(1.0, d)[component::2]
        err = max(err, max_diff(pe, np.sin(1.0 / 10000.0 ** (2 * t / d))))
        err = max(err, max_diff(frequencies(d), 10000.0 ** (-2 * t / d)))
    return identity(err, "sin components of the sinusoidal encoding at position 1 vs sin(1/10000^(2t/d)), and "
                    "RoPE's theta_t vs 10000^(-2t/d), d in {8, 64, 512}")


def theta_is_not_the_base(*, stated: float = 10000.0) -> Outcome:
    r"""Refutes "θ is often set to 10000": 10000 is the base; :math:`\theta_i = 10000^{-2i/d} \in (10^{-4}, 1]`."""
    two = float(frequencies(2)[0])
    inside = all(frequencies(d)[0] == 1.0 and frequencies(d)[-1] > 1e-4 for d in DIMS)
    example = {"d": 2, "theta from RoFormer eq. (15)": two, "stated theta": stated}
    return Outcome(
        "fails" if abs(two - stated) > GAP else "holds",
        f"In the 2D case RoFormer's formula gives theta = 10000^0 = {two}; for every d in {DIMS} the "
        f"theta_i lie in (1e-4, 1] ({'checked' if inside else 'NOT so'}). 10000 is the base of the "
        f"geometric sequence (a turn of 2 pi 10000 positions bounds the wavelengths), not theta.",
        example, bool(inside),
    )
