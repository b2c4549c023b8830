"""Notebook 08's added computations: critical pair, two readings of YaRN, YaRN paper vs code, published bases."""

import math

import numpy as np
import pytest

from ropemath import base_lower_bound, cosine_sum_minimum, frequencies, ntk_base, yarn_frequencies
from ropemath.models.context_length import (
    MEN_ET_AL_BASES,
    check_published_bases,
    critical_pair,
    round_up,
    yarn_bands,
    yarn_bprime_frequencies,
)

D, B, L, S = 128, 10000.0, 4096, 16.0


def test_critical_pair_by_loop_and_closed_form():
    for d, base, length in ((128, 1e4, 4096), (128, 5e5, 8192), (64, 1e4, 2048), (128, 1e4, 1024)):
        loop = max(i for i in range(d // 2) if 2 * math.pi * base ** (2 * i / d) <= length)
        assert critical_pair(d, base, length) == loop
        assert loop == math.ceil(d / 2 * math.log(length / (2 * math.pi), base)) - 1
    assert critical_pair(128, 1e4, 6) == -1  # no wavelength fits in 6 positions (lambda_0 = 2 pi)
    assert critical_pair(128, 1e4, 4096) != critical_pair(128, 1e4, 4097 * 2)  # says no to another L


def test_two_readings_of_yarn_bands():
    th = frequencies(D, B)
    paper_b = yarn_bands(yarn_frequencies(D, B, scale=S, original_length=L, formula="paper"), th, S)
    paper_bp = yarn_bands(yarn_bprime_frequencies(D, B, scale=S, original_length=L), th, S)
    assert (paper_b["kept"][[0, -1]].tolist(), paper_b["interpolated"][[0, -1]].tolist()) == ([0, 20], [46, 63])
    assert (paper_bp["kept"][[0, -1]].tolist(), paper_bp["interpolated"][[0, -1]].tolist()) == ([0, 16], [35, 63])
    # by hand: r'_i = 32 and 1 at i = d ln(L / (2 pi rho)) / (2 ln b')
    bp = ntk_base(D, B, scale=S)
    i32, i1 = (D * math.log(L / (2 * math.pi * rho)) / (2 * math.log(bp)) for rho in (32.0, 1.0))
    assert math.floor(i32) == 16 and math.ceil(i1) == 35


def test_yarn_bands_says_no():
    th = frequencies(8)
    assert yarn_bands(th, th, 4.0)["kept"].size == 4
    assert yarn_bands(th * (1 + 1e-9), th, 4.0)["kept"].size == 0
    with pytest.raises(ValueError):
        yarn_bands(th[:3], th, 4.0)


def test_yarn_paper_vs_code_values_stated_in_notebook_08():
    """Notebook 08: the reference code's YaRN differs from the paper's on pairs 21-45, by up to 3.04x (pair 38),
    mostly from the ramp's shape (untruncated / paper up to 2.92x at pair 37), partly from floor/ceil (1.55x)."""
    def ratios(scale):
        kw = {"scale": scale, "original_length": L}
        paper = yarn_frequencies(D, B, formula="paper", **kw)
        code, untrunc = yarn_frequencies(D, B, **kw), yarn_frequencies(D, B, truncate=False, **kw)
        return code / paper, untrunc / paper, code / untrunc

    cp, up, cu = ratios(S)
    differ = np.flatnonzero(np.abs(cp - 1) > 1e-12)
    assert (differ[0], differ[-1], differ.size) == (21, 45, 25)
    assert np.argmax(cp) == 38 and round(cp.max(), 2) == 3.04
    assert np.argmin(cp) == 21 and round(cp.min(), 4) == 0.9714
    assert np.argmax(up) == 37 and round(up.max(), 2) == 2.92
    assert np.argmax(cu) == 45 and round(cu.max(), 2) == 1.55
    cp8 = ratios(8.0)[0]
    assert np.argmax(cp8) == 36 and round(cp8.max(), 2) == 2.30
    assert np.flatnonzero(np.abs(ratios(1.0)[0] - 1) > 1e-12).size == 0  # says no: scale 1 changes nothing


def test_round_up_never_below_and_printed_b_star_satisfies_condition():
    for x in (4293.4376, 1.05, 2.0, 0.1 + 0.2):
        y = round_up(x, 1)
        assert y >= x and y - x < 0.1 + 1e-12
    assert round(4293.4376, 1) < 4293.4376 <= round_up(4293.4376, 1)  # ordinary rounding goes below
    res = base_lower_bound(1024, D)
    assert cosine_sum_minimum(1024, D, round_up(res.base, 1)) >= 0
    assert cosine_sum_minimum(1024, D, math.floor(res.base * 10) / 10) < 0  # rounded down: fails


def test_published_bases_of_men_et_al():
    assert list(MEN_ET_AL_BASES) == [1024, 2048, 4096, 8192, 16384, 32768, 65536]
    assert float(cosine_sum_minimum(65536, D, MEN_ET_AL_BASES[65536])) > 0  # 64k holds (b* is checked in notebook 13)
    assert float(cosine_sum_minimum(8192, D, MEN_ET_AL_BASES[8192])) > 0
    assert float(cosine_sum_minimum(4096, D, MEN_ET_AL_BASES[4096])) < 0 <= float(cosine_sum_minimum(4096, D, 26952.4))
    rows = {r.length: r for r in check_published_bases({n: MEN_ET_AL_BASES[n] for n in (1024, 2048, 16384, 32768)}, D)}
    assert rows[1024].margin >= 0 and rows[1024].window is None and float(f"{rows[1024].b_star:.1e}") == 4.3e3  # = Su's
    assert rows[2048].margin >= 0 and rows[2048].window is None
    for n in (16384, 32768):
        r = rows[n]
        assert -2.0 < r.margin < -1.8 and r.window is not None and not r.clipped  # 'by about 1.9' (notebook 13)
        assert r.window[0] <= r.published <= r.window[1]
        assert float(cosine_sum_minimum(n, D, r.published)) == pytest.approx(r.margin, abs=1e-9)
    assert rows[16384].b_star < 3.1e5 and rows[32768].b_star < 6.4e5
    assert float(f"{rows[16384].b_star:.1e}") == 2.3e5 and float(f"{rows[32768].b_star:.1e}") == 6.3e5
    assert np.all([r.b_star > 0 for r in rows.values()])
    for n, lo, hi in ((16384, 3.05e5, 3.15e5), (32768, 6.35e5, 6.45e5)):  # every base rounding to the published value
        assert (cosine_sum_minimum(n, D, np.linspace(lo, hi, 41)) < 0).all()  # fails on the grid (notebook 13 §4)
    # 4k: a narrow band from b* passes; 2.7e4 as written, and the bases just below it, fail
    assert float(cosine_sum_minimum(4096, D, 26973.0)) >= 0 > float(cosine_sum_minimum(4096, D, 26973.5))


def test_men_et_al_appendix_scan_float64():
    """Appendix E of Men et al. (NeurIPS 2024): a forward scan of two-figure bases; notebook 13 §7."""
    grid = [(i + j / 10) * 10**x for x in range(3, 10) for i in range(1, 10) for j in range(10)]

    def first(n, d=D, bases=grid):
        return next(float(f"{b:.2g}") for b in bases if cosine_sum_minimum(n, d, b) >= 0)

    assert first(1024) == MEN_ET_AL_BASES[1024] and first(2048) == MEN_ET_AL_BASES[2048]  # 4.3e3, 1.6e4: reproduced
    assert first(4000) == MEN_ET_AL_BASES[4096] != first(4096) == 2.9e4  # 4k only with L = 4000
    # wrong variants do not reproduce 2k: a one-figure grid, or d = 64
    assert first(2048, bases=[i * 10**x for x in range(3, 10) for i in range(1, 10)]) == 2e4 != MEN_ET_AL_BASES[2048]
    assert first(2048, 64) == 3.7e4
