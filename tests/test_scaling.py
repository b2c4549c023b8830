"""Tests of ropemath.models.scaling and .yarn: PI, NTK, dynamic NTK, YaRN (paper and reference code), Llama 3.1,
the relative-position identity with scaled frequencies, unseen angles, and the numbers notebook 08 states.

Expected values come from plain Python loops over ``math`` written from the papers' formulas
(frequencies from the paper's 1-based index), or from closed forms derived by hand in the
comments; none of them calls the function under test.
"""

import math

import numpy as np
import pytest
from constructions import paper_theta

from ropemath import binned_bound, decay_bound, frequencies, relative_position_error, rotation_matrix
from ropemath.models.scaling import (
    angle_range_ratio,
    dynamic_ntk_frequencies,
    dynamic_ntk_scale,
    extension_frequencies,
    never_full_turn,
    ntk_base,
    ntk_frequencies,
    position_interpolation,
    unseen_angle_pairs,
)
from ropemath.models.yarn import (
    llama31_frequencies,
    yarn_attention_factor,
    yarn_correction_dim,
    yarn_correction_range,
    yarn_frequencies,
    yarn_ramp,
)

D, BASE, L, S = 128, 10000.0, 4096, 16.0  # the setting of notebook 08

# --- independent constructions (loops, from the papers) --------------------------------------


def loop_thetas(d, base):
    return [paper_theta(j, d, base) for j in range(1, d // 2 + 1)]


def loop_yarn_paper(d, base, s, length, alpha=1.0, beta=32.0):
    """YaRN eq. (18)-(19): r = L / λ, λ = 2π/θ; γ piecewise; θ' = (1-γ)θ/s + γθ."""
    out = []
    for t in loop_thetas(d, base):
        r = length / (2 * math.pi / t)
        if r < alpha:
            g = 0.0
        elif r > beta:
            g = 1.0
        else:
            g = (r - alpha) / (beta - alpha)
        out.append((1 - g) * t / s + g * t)
    return out


def loop_yarn_reference(d, base, s, length, fast=32.0, slow=1.0, truncate=True):
    """The reference code's documented behaviour, written as a loop over pair indices."""

    def dim_of(rotations):  # index j with L / λ_j = rotations, λ_j = 2π base^(2j/d)
        return d * math.log(length / (rotations * 2 * math.pi)) / (2 * math.log(base))

    low, high = dim_of(fast), dim_of(slow)
    if truncate:
        low, high = math.floor(low), math.ceil(high)
    low, high = max(low, 0), min(high, d - 1)
    if low == high:
        high += 0.001
    out = []
    for j, t in enumerate(loop_thetas(d, base)):
        ramp = min(1.0, max(0.0, (j - low) / (high - low)))
        mask = 1 - ramp
        out.append(t / s * (1 - mask) + t * mask)
    return out


def loop_llama31(d=128, base=500000.0, factor=8.0, lo=1.0, hi=4.0, length=8192):
    """Meta's apply_scaling as a loop: returns (frequencies, band names)."""
    out, bands = [], []
    for t in loop_thetas(d, base):
        wl = 2 * math.pi / t
        if wl < length / hi:
            out.append(t)
            bands.append("kept")
        elif wl > length / lo:
            out.append(t / factor)
            bands.append("divided")
        else:
            smooth = (length / wl - lo) / (hi - lo)
            out.append((1 - smooth) * t / factor + smooth * t)
            bands.append("blended")
    return out, bands


def loop_rotation(m, thetas):
    d = 2 * len(thetas)
    R = np.zeros((d, d))
    for i, t in enumerate(thetas):
        c, s = math.cos(m * t), math.sin(m * t)
        R[2 * i, 2 * i], R[2 * i, 2 * i + 1] = c, -s
        R[2 * i + 1, 2 * i], R[2 * i + 1, 2 * i + 1] = s, c
    return R


def close(a, b, rtol=1e-13):
    return np.allclose(np.asarray(a, float), np.asarray(b, float), rtol=rtol, atol=0)


# --- PI, NTK, dynamic NTK ------------------------------------------------------------------


@pytest.mark.parametrize("d, base, s", [(128, 1e4, 16.0), (64, 5e5, 8.0), (4, 100.0, 2.5), (8, 10.0, 1.0)])
def test_position_interpolation_divides_every_frequency(d, base, s):
    assert close(position_interpolation(d, base, scale=s), [t / s for t in loop_thetas(d, base)])


def test_position_interpolation_is_position_rescaling():
    """R'(m) built from θ/s equals the ordinary R(m/s) (Chen et al.: f'(x, m) = f(x, m L/L'))."""
    th = position_interpolation(D, BASE, scale=S)
    for m in (1.0, 4095.0, 50000.0, 65535.0):
        assert np.allclose(rotation_matrix(m, D, theta=th), rotation_matrix(m / S, D, BASE), atol=1e-12, rtol=0)


@pytest.mark.parametrize("d, base, s", [(128, 1e4, 16.0), (128, 1e4, 8.0), (64, 5e5, 3.0), (4, 100.0, 4.0)])
def test_ntk_base_and_frequencies_match_the_loop(d, base, s):
    b2 = base * s ** (d / (d - 2))
    assert ntk_base(d, base, scale=s) == pytest.approx(b2, rel=1e-15)
    # θ'_i = θ_i s^(-2i/(d-2)), written per element
    expected = [t * s ** (-2 * i / (d - 2)) for i, t in enumerate(loop_thetas(d, base))]
    assert close(ntk_frequencies(d, base, scale=s), expected, rtol=1e-12)


@pytest.mark.parametrize("d, base, s", [(128, 1e4, 16.0), (128, 1e4, 8.0), (64, 5e5, 3.0), (4, 100.0, 4.0)])
def test_ntk_endpoints_highest_unchanged_lowest_divided_by_s(d, base, s):
    th, new = frequencies(d, base), ntk_frequencies(d, base, scale=s)
    assert new[0] == 1.0 == th[0]
    assert new[-1] * s / th[-1] == pytest.approx(1.0, abs=1e-14)


def test_ntk_base_for_the_notebook_setting():
    # b' = 10000 * 16^(128/126) = 10000 * 2^(4 * 64/63), by hand 167198.74 (s = 16); 82684.62 (s = 8)
    assert ntk_base(128, 1e4, scale=16.0) == pytest.approx(1e4 * 2 ** (256 / 63), rel=1e-14)
    assert round(ntk_base(128, 1e4, scale=16.0), 2) == 167198.74
    assert round(ntk_base(128, 1e4, scale=8.0), 2) == 82684.62


@pytest.mark.parametrize("length, s", [(1, 1.0), (4095, 1.0), (4096, 1.0), (4097, 4097 / 4096), (65536, 16.0)])
def test_dynamic_ntk_scale(length, s):
    assert dynamic_ntk_scale(length, 4096) == s


def test_dynamic_ntk_is_recomputed_as_the_sequence_grows():
    lengths = [1000, 4096, 6000, 8192, 20000, 65536]
    lowest = [dynamic_ntk_frequencies(D, length=n, original_length=L)[-1] for n in lengths]
    assert lowest[0] == lowest[1] == frequencies(D)[-1]  # nothing changes up to L
    assert all(a > b for a, b in zip(lowest[1:], lowest[2:], strict=False))  # then it shrinks as ℓ grows
    for n in lengths:  # and it is NTK with s = max(1, ℓ/L), from the loop
        s = max(1.0, n / L)
        expected = [t * s ** (-2 * i / (D - 2)) for i, t in enumerate(loop_thetas(D, BASE))]
        assert close(dynamic_ntk_frequencies(D, length=n, original_length=L), expected, rtol=1e-12)


def test_dynamic_ntk_mixed_lengths_break_the_relative_identity():
    """Keys rotated (and cached) at ℓ1 = L, queries at ℓ2 = 4L: the score depends on absolute positions."""
    rng = np.random.default_rng(8)
    q, k = rng.standard_normal((2, D))
    t_q = dynamic_ntk_frequencies(D, length=4 * L, original_length=L)
    t_k = dynamic_ntk_frequencies(D, length=L, original_length=L)

    def score(m, n):
        return (loop_rotation(m, t_q) @ q) @ (loop_rotation(n, t_k) @ k)

    # the same distance m - n = 10 at two absolute positions: different scores
    assert abs(score(3010.0, 3000.0) - score(10.0, 0.0)) > 1.0
    # with one θ for both, the score depends on m - n only
    one = [(loop_rotation(m, t_q) @ q) @ (loop_rotation(n, t_q) @ k) for m, n in ((10.0, 0.0), (3010.0, 3000.0))]
    assert abs(one[0] - one[1]) < 1e-11 * np.linalg.norm(q) * np.linalg.norm(k)


# --- YaRN ------------------------------------------------------------------------------------


def test_yarn_ramp_piecewise():
    r = [0.0, 0.99, 1.0, 1.5, 16.5, 31.0, 32.0, 32.5, 1e6]
    expected = [0.0, 0.0, 0.0, 0.5 / 31, 0.5, 30 / 31, 1.0, 1.0, 1.0]
    assert close(yarn_ramp(r), expected, rtol=1e-15)
    assert close(yarn_ramp([2.0, 3.0], alpha=2.0, beta=4.0), [0.0, 0.5])


@pytest.mark.parametrize("d, base, s, length", [(128, 1e4, 16.0, 4096), (128, 1e4, 8.0, 4096), (64, 5e5, 4.0, 2048),
                                                (8, 100.0, 4.0, 64)])
def test_yarn_paper_matches_the_loop(d, base, s, length):
    paper = yarn_frequencies(d, base, scale=s, original_length=length, formula="paper")
    assert close(paper, loop_yarn_paper(d, base, s, length))


@pytest.mark.parametrize("truncate", [True, False])
@pytest.mark.parametrize("d, base, s, length", [(128, 1e4, 16.0, 4096), (128, 1e4, 8.0, 4096), (64, 5e5, 4.0, 2048),
                                                (8, 100.0, 4.0, 64), (16, 1e4, 2.0, 16)])
def test_yarn_reference_matches_the_loop(d, base, s, length, truncate):
    got = yarn_frequencies(d, base, scale=s, original_length=length, truncate=truncate)
    assert close(got, loop_yarn_reference(d, base, s, length, truncate=truncate))


def test_yarn_correction_range_for_the_notebook_setting():
    # i(ρ) = 128 ln(4096 / (2πρ)) / (2 ln 10^4): i(1) = 45.027, i(32) = 20.944 (by hand: ln 651.9 = 6.480)
    assert yarn_correction_dim(1.0, D, BASE, L) == pytest.approx(45.02688, abs=1e-5)
    assert yarn_correction_dim(32.0, D, BASE, L) == pytest.approx(20.94448, abs=1e-5)
    assert yarn_correction_range(D, BASE, L) == (20.0, 46.0)
    assert yarn_correction_range(D, BASE, L, truncate=False) == pytest.approx((20.94448, 45.02688), abs=1e-5)


def test_yarn_correction_dim_is_where_the_pair_turns_that_often():
    for rho in (1.0, 3.0, 32.0):
        i = yarn_correction_dim(rho, D, BASE, L)
        wavelength = 2 * math.pi * BASE ** (2 * i / D)
        assert L / wavelength == pytest.approx(rho, rel=1e-12)


def test_yarn_reference_upper_clamp_is_d_minus_1_not_d_over_2():
    # tiny base: i(1) = 16 ln(16/2π)/(2 ln 1.5) = 18.4 > d/2 - 1 = 7, so high = ceil -> 19 (clamp at d-1 = 15)
    assert yarn_correction_range(16, 1.5, 16) == (0.0, 15.0)


@pytest.mark.parametrize("s, worst_pair, worst_ratio", [(16.0, 38, 3.0414), (8.0, 36, 2.3048)])
def test_yarn_paper_vs_reference_difference_is_pinned(s, worst_pair, worst_ratio):
    """The two YaRN ramps agree outside pairs 21..45 and differ by up to a factor 3 inside (d=128, L=4096)."""
    paper = np.array(loop_yarn_paper(D, BASE, s, L))
    ref = np.array(loop_yarn_reference(D, BASE, s, L))
    ours_p = yarn_frequencies(D, BASE, scale=s, original_length=L, formula="paper")
    ours_r = yarn_frequencies(D, BASE, scale=s, original_length=L)
    differ = np.flatnonzero(np.abs(ours_r - ours_p) > 1e-12 * ours_p)
    assert differ.tolist() == list(range(21, 46))  # paper γ: pairs 21..45 are inside (20.94, 45.03)
    assert np.array_equal(ours_p[:21], frequencies(D)[:21]) and np.array_equal(ours_r[:21], frequencies(D)[:21])
    assert close(ours_p[46:], frequencies(D)[46:] / s) and close(ours_r[46:], frequencies(D)[46:] / s)
    ratio = ours_r / ours_p
    assert int(np.argmax(ratio)) == worst_pair
    assert ratio.max() == pytest.approx(worst_ratio, abs=5e-5)
    # the worst pair by hand: factor_ref / factor_paper with factor = 1/s + (1 - 1/s) * weight
    t = paper_theta(worst_pair + 1, D, BASE)
    gamma = (L * t / (2 * math.pi) - 1) / 31
    mask = 1 - (worst_pair - 20) / 26
    by_hand = (1 / s + (1 - 1 / s) * mask) / (1 / s + (1 - 1 / s) * gamma)
    assert ratio[worst_pair] == pytest.approx(by_hand, rel=1e-12)
    assert (ref / paper)[worst_pair] == pytest.approx(by_hand, rel=1e-12)
    assert ratio[21] < 1 < ratio[22]  # only at pair 21 is the reference below the paper
    assert round(float(ratio[21]), 4) == {16.0: 0.9714, 8.0: 0.9733}[s]


@pytest.mark.parametrize("s, shape, rounding", [(16.0, (37, 2.9235), (21, 0.9660, 45, 1.5510)),
                                               (8.0, (35, 2.2626), (21, 0.9683, 45, 1.2594))])
def test_yarn_difference_split_into_ramp_shape_and_rounding(s, shape, rounding):
    """Ramp in ln r instead of r (untruncated code vs paper), then floor/ceil (truncated vs untruncated)."""
    paper = np.array(loop_yarn_paper(D, BASE, s, L))
    untrunc = np.array(loop_yarn_reference(D, BASE, s, L, truncate=False))
    trunc = np.array(loop_yarn_reference(D, BASE, s, L, truncate=True))
    assert close(yarn_frequencies(D, BASE, scale=s, original_length=L, truncate=False), untrunc)
    by_shape, by_rounding = untrunc / paper, trunc / untrunc
    assert (int(np.argmax(by_shape)), round(float(by_shape.max()), 4)) == shape
    assert by_shape.min() == pytest.approx(1.0, abs=1e-15)  # the shape alone never lowers a frequency here
    low_pair, low, high_pair, high = rounding
    assert (int(np.argmin(by_rounding)), round(float(by_rounding.min()), 4)) == (low_pair, low)
    assert (int(np.argmax(by_rounding)), round(float(by_rounding.max()), 4)) == (high_pair, high)


def test_yarn_reference_ramp_is_linear_in_index_paper_ramp_linear_in_r():
    th = frequencies(D)
    w_ref = (yarn_frequencies(D, BASE, scale=S, original_length=L) / th - 1 / S) / (1 - 1 / S)
    w_paper = (yarn_frequencies(D, BASE, scale=S, original_length=L, formula="paper") / th - 1 / S) / (1 - 1 / S)
    i = np.arange(21, 46)
    assert np.allclose(np.diff(w_ref[i]), -1 / 26, atol=1e-12)  # linear in i, slope -1/(high - low)
    r = L * th[i] / (2 * np.pi)
    assert np.allclose(w_paper[i], (r - 1) / 31, atol=1e-12)  # linear in r


def test_yarn_attention_factor():
    assert yarn_attention_factor(16.0) == pytest.approx(0.1 * math.log(16) + 1, rel=1e-15)
    assert round(yarn_attention_factor(16.0), 4) == 1.2773
    assert round(yarn_attention_factor(16.0) ** 2, 4) == 1.6314  # the factor on the logits, 1/t
    assert yarn_attention_factor(1.0) == 1.0


# --- Llama 3.1 -------------------------------------------------------------------------------


def llama31_bands(d=128, base=500000.0, *, factor=8.0, **kw):
    """Each pair's branch of llama31_frequencies, read off the frequencies: kept, blended or divided."""
    new, old = llama31_frequencies(d, base, factor=factor, **kw), frequencies(d, base)
    return np.where(new == old, "kept", np.where(new == old / factor, "divided", "blended"))


def test_llama31_matches_the_loop_and_counts():
    expected, bands = loop_llama31()
    assert close(llama31_frequencies(), expected)
    assert llama31_bands().tolist() == bands
    counts = {name: bands.count(name) for name in ("kept", "blended", "divided")}
    assert counts == {"kept": 29, "blended": 6, "divided": 29}
    assert [i for i, b in enumerate(bands) if b == "blended"] == list(range(29, 35))
    # by hand: kept iff 2π 500000^(i/64) < 2048 iff i < 64 ln(2048/2π)/ln(500000) = 28.2;
    # divided iff i > 64 ln(8192/2π)/ln(500000) = 34.98
    assert 28 < 64 * math.log(2048 / (2 * math.pi)) / math.log(500000) < 29
    assert 34 < 64 * math.log(8192 / (2 * math.pi)) / math.log(500000) < 35


def test_llama31_is_the_yarn_paper_ramp_with_beta_4():
    """smooth = (L/λ - 1)/(4 - 1) is YaRN's γ(r) with r = L/λ, α = 1, β = 4 (no attention factor)."""
    yarn = yarn_frequencies(128, 500000.0, scale=8.0, original_length=8192, beta_slow=1.0, beta_fast=4.0,
                           formula="paper")
    assert close(llama31_frequencies(), yarn, rtol=1e-14)


def test_llama31_unseen_angles_and_bound():
    """Base 500000, L = 8192 -> 65536: the 29 never-turning pairs (i = 35..63) are the 29 divided ones."""
    th, th0 = llama31_frequencies(), frequencies(128, 500000.0)
    never = never_full_turn(th0, 8192)
    # by hand: λ_i > 8192 iff i > 64 ln(8192/2π)/ln(500000) = 34.98
    assert np.flatnonzero(never).tolist() == list(range(35, 64))
    assert np.array_equal(never, llama31_bands() == "divided")
    assert int(unseen_angle_pairs(th, th0, length=8192, new_length=65536).sum()) == 0
    edges = np.array([1.0, 16.0, 256.0, 4096.0, 65536.0])
    before, after = (binned_bound(edges, 128, theta=t, per_bin=256)[0] for t in (th0, th))
    assert before[0] == pytest.approx(after[0], rel=1e-3)  # the 29 fastest pairs are kept


def test_llama31_other_settings_match_the_loop():
    expected, bands = loop_llama31(64, 1e4, 4.0, 2.0, 8.0, 2048)
    got = llama31_frequencies(64, 1e4, factor=4.0, low_freq_factor=2.0, high_freq_factor=8.0, original_length=2048)
    assert close(got, expected)
    assert llama31_bands(64, 1e4, factor=4.0, low_freq_factor=2.0, high_freq_factor=8.0,
                         original_length=2048).tolist() == bands


# --- the identity with scaled frequencies ----------------------------------------------------


def test_rotation_matrix_with_theta_matches_the_loop():
    th = yarn_frequencies(16, 1e4, scale=4.0, original_length=64)
    for m in (0.0, 1.0, -7.5, 65535.0):
        assert np.allclose(rotation_matrix(m, 2 * len(th), theta=th), loop_rotation(m, th.tolist()), atol=1e-12, rtol=0)


@pytest.mark.parametrize("name", ["none", "PI", "NTK", "dynamic NTK at L'", "YaRN (paper)", "YaRN (reference code)"])
def test_relative_position_identity_exact_for_every_method(name):
    th = extension_frequencies(D, BASE, scale=S, original_length=L)[name]
    rng = np.random.default_rng(3)
    q, k = rng.standard_normal((2, D))
    for m, n in ((0.0, 0.0), (17.0, 5.0), (65535.0, 0.0), (40000.0, 39990.0)):
        assert relative_position_error(q, k, m, n, theta=th) < 1e-11
        # and the loop-built matrices: the score depends on m - n only
        lhs = (loop_rotation(m, th.tolist()) @ q) @ (loop_rotation(n, th.tolist()) @ k)
        shifted = (loop_rotation(m + 1234.0, th.tolist()) @ q) @ (loop_rotation(n + 1234.0, th.tolist()) @ k)
        assert abs(lhs - shifted) < 1e-10 * np.linalg.norm(q) * np.linalg.norm(k)


def test_extension_frequencies_keys_and_dynamic_equals_ntk_at_extended_length():
    ex = extension_frequencies(D, BASE, scale=S, original_length=L)
    assert list(ex) == ["none", "PI", "NTK", "dynamic NTK at L'", "YaRN (paper)", "YaRN (reference code)"]
    assert close(ex["dynamic NTK at L'"], ex["NTK"], rtol=1e-15)


# --- decay bound with scaled frequencies -----------------------------------------------------


def test_pi_decay_bound_is_the_original_at_r_over_s():
    r = np.array([0.0, 1.0, 16.0, 1000.0, 65535.0])
    assert np.allclose(decay_bound(r, D, theta=position_interpolation(D, scale=S)), decay_bound(r / S, D),
                       atol=1e-11, rtol=0)


def test_decay_bound_bins_stated_in_the_notebook():
    """PI's bin means are the original's moved one bin right; YaRN's first bin within 1%; NTK's about 10% higher."""
    edges = np.array([1.0, 16.0, 256.0, 4096.0, 65536.0])
    ex = extension_frequencies(D, BASE, scale=S, original_length=L)
    mean = {k: binned_bound(edges, D, theta=v, per_bin=256)[0] for k, v in ex.items()}
    assert np.allclose(mean["PI"][1:], mean["none"][:-1], rtol=1e-12, atol=0)
    for key in ("YaRN (paper)", "YaRN (reference code)"):
        assert abs(mean[key][0] / mean["none"][0] - 1) < 0.01
    assert 0.05 < mean["NTK"][0] / mean["none"][0] - 1 < 0.15
    # the first bin of the original, recomputed from the paper's partial sums by a loop (midpoints of [1, 16))
    thetas = loop_thetas(D, BASE)
    total = 0.0
    for t in range(256):
        r = 1.0 + (t + 0.5) * 15.0 / 256
        partial, acc = 0j, 0.0
        for th in thetas:
            partial += complex(math.cos(r * th), math.sin(r * th))
            acc += abs(partial)
        total += acc / (D // 2)
    assert mean["none"][0] == pytest.approx(total / 256, rel=1e-12)


# --- unseen angles ---------------------------------------------------------------------------


def test_never_full_turn_pairs():
    # λ_i = 2π 10^(4·2i/128) > 4096 iff i > 64 log_10000(4096/2π) = 45.03, so i = 46..63: 18 pairs
    mask = never_full_turn(frequencies(D), L)
    assert np.flatnonzero(mask).tolist() == list(range(46, 64))
    loop = [2 * math.pi / t > L for t in loop_thetas(D, BASE)]
    assert mask.tolist() == loop


def test_unseen_angle_counts_per_method():
    ex = extension_frequencies(D, BASE, scale=S, original_length=L)
    th = ex["none"]
    counts = {k: int(unseen_angle_pairs(v, th, length=L, new_length=65536).sum()) for k, v in ex.items()}
    assert counts == {"none": 18, "PI": 0, "NTK": 17, "dynamic NTK at L'": 17, "YaRN (paper)": 0,
                      "YaRN (reference code)": 0}
    # NTK by hand: ρ_i = s · s^(-2i/126) = 16^(1 - i/63) > 1 for i < 63; never-turn pairs 46..62 -> 17
    rho = angle_range_ratio(ex["NTK"], th, length=L, new_length=65536)
    assert close(rho, [16 ** (1 - i / 63) for i in range(64)], rtol=1e-12)
    assert round(float(rho[46]), 4) == round(16 ** (17 / 63), 4) == 2.1131
    assert np.allclose(angle_range_ratio(ex["PI"], th, length=L, new_length=65536), 1.0, rtol=0, atol=1e-15)


# --- bad input -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, exc, name",
    [
        (lambda: position_interpolation(128, scale=0.5), ValueError, "scale"),
        (lambda: position_interpolation(128, scale="2"), TypeError, "scale"),
        (lambda: position_interpolation(127, scale=2.0), ValueError, "d"),
        (lambda: position_interpolation(128, -1.0, scale=2.0), ValueError, "base"),
        (lambda: ntk_base(2, scale=2.0), ValueError, "d"),
        (lambda: ntk_frequencies(128, scale=float("nan")), ValueError, "scale"),
        (lambda: dynamic_ntk_scale(0, 4096), ValueError, "length"),
        (lambda: dynamic_ntk_scale(10, 4096.0), TypeError, "original_length"),
        (lambda: yarn_ramp([1.0], alpha=32.0, beta=1.0), ValueError, "alpha"),
        (lambda: yarn_ramp("r"), TypeError, "r"),
        (lambda: yarn_frequencies(128, scale=2.0, original_length=0), ValueError, "original_length"),
        (lambda: yarn_correction_dim(0.0, 128, 1e4, 4096), ValueError, "num_rotations"),
        (lambda: yarn_correction_dim(1.0, 128, 1.0, 4096), ValueError, "base"),
        (lambda: yarn_correction_range(128, 1e4, 4096, truncate="yes"), TypeError, "truncate"),
        (lambda: yarn_frequencies(128, scale=0.0, original_length=4096), ValueError, "scale"),
        (lambda: yarn_attention_factor(0.5), ValueError, "scale"),
        (lambda: llama31_frequencies(factor=0.5), ValueError, "factor"),
        (lambda: llama31_frequencies(low_freq_factor=4.0, high_freq_factor=1.0), ValueError, "low_freq_factor"),
        (lambda: llama31_frequencies(original_length=True), TypeError, "original_length"),
        (lambda: never_full_turn([1.0, -0.5], 10), ValueError, "theta"),
        (lambda: never_full_turn([1.0], 0), ValueError, "length"),
        (lambda: angle_range_ratio([1.0, 0.5], [1.0], length=4, new_length=8), ValueError, "theta_new"),
        (lambda: unseen_angle_pairs([1.0], [1.0], length=4, new_length=8, rtol="x"), TypeError, "rtol"),
        (lambda: rotation_matrix(1.0, 2, theta=[[1.0]]), ValueError, "theta"),
        (lambda: rotation_matrix("m", 2, theta=[1.0]), TypeError, "m"),
        (lambda: relative_position_error(np.ones(4), np.ones(2), 1.0, 0.0, theta=[1.0, 0.5]), ValueError, "k"),
        (lambda: relative_position_error(np.ones(4, int), np.ones(4), 1.0, 0.0, theta=[1.0, 0.5]), TypeError, "q"),
    ],
)
def test_bad_input_names_the_parameter(call, exc, name):
    with pytest.raises(exc, match=rf"\b{name}\b"):
        call()


# --- the registered figure -------------------------------------------------------------------


def test_unseen_angles_figure_is_registered_and_labelled():
    from matplotlib.figure import Figure

    from ropemath.plots import FIGURES, unseen_angles

    assert FIGURES["unseen_angles"] is unseen_angles
    fig = unseen_angles()
    assert isinstance(fig, Figure) and tuple(fig.get_size_inches()) == (8.0, 4.5)
    for ax in fig.axes:
        assert ax.get_xlabel() == "pair index i" and ax.get_ylabel() and ax.get_title()
    labels = [t.get_text() for t in fig.legends[0].get_texts()]
    assert any(label.startswith("no scaling") and ": 18 pairs" in label for label in labels)
    assert any(label.startswith("NTK") and ": 17 pairs" in label for label in labels)
    assert sum(": 0 pairs" in label for label in labels) == 3  # PI and both YaRN versions


def test_yarn_frequencies_default_is_the_reference_code_and_paper_is_explicit():
    code = yarn_frequencies(128, 1e4, scale=16.0, original_length=4096)
    assert close(code, loop_yarn_reference(128, 1e4, 16.0, 4096))  # the reference code, written as a loop
    paper = yarn_frequencies(128, 1e4, scale=16.0, original_length=4096, formula="paper")
    assert not np.allclose(code, paper)  # the two ramps differ: the default is not the paper's
    with pytest.raises(ValueError, match="formula must be 'code' or 'paper'"):
        yarn_frequencies(128, scale=2.0, original_length=64, formula="hf")
    with pytest.raises(ValueError, match="truncate must be True for formula='paper'"):
        yarn_frequencies(128, scale=2.0, original_length=64, formula="paper", truncate=False)
