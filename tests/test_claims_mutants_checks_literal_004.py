"""Tests that tell mutants of ropemath.claims.checks_literal_004 from the original.

What they pin, and why (every expected number is recomputed here with plain math, not the code under test):

* sinusoidal_literal: the reported distance between p_0 and p_1 is 0 when k is in the numerator (the same
  vector everywhere) and sin(1) = 0.84 with i in the numerator (the control); the counterexample's stated and
  true values follow from its reported d, k, i, t;
* parity_literal: the cosines sit at the odd subscripts 1, 3, 5, 7 (Vaswani et al.'s PE(pos, 2t + 1) = cos);
* t5_bias_literal: both pairs of the counterexample, (1, 0) and (4, 3), have the reported distance i - j;
* initial_projection_literal: the reported W_q x_n and f_q(x_m, 0) = W_q x_m follow from the reported W_q, x_m,
  x_n, and the counterexample's stated / true values are the reported coordinate of those;
* angle_represents_position: the rate the evidence rotates by is the theta = 1 it states;
* sdpa_is_inner_product: the counterexample's N and d are the sizes of the output it reports;
* sparse_is_inefficient: the cost table reports 2d products for eq. (34) and 2d non-zeros of R at d = 8, 128,
  and the counterexample's d gives its dense (d^2) and eq. (34) (2d) counts.
"""

import math
import re

import numpy as np

from ropemath.claims import checks_literal_004 as L
from ropemath.claims.controls import CONTROLS


def _vaswani(i, d):
    """Vaswani et al. §3.5 written out: PE(i, 2t) = sin(i / 10000^(2t/d)), PE(i, 2t + 1) = cos(...)."""
    return [(math.sin if j % 2 == 0 else math.cos)(i / 10000 ** (2 * (j // 2) / d)) for j in range(d)]


def test_sinusoidal_same_vector_with_k_distinct_with_i():
    assert "(the same vector at every position: no position is encoded)" in L.sinusoidal_literal().evidence
    # with i: p_0 = (0, 1, 0, 1, ...), p_1 = (sin 1, cos 1, ...); the largest difference is sin(1) = 0.84
    p0, p1 = _vaswani(0.0, 8), _vaswani(1.0, 8)
    diff = max(abs(a - b) for a, b in zip(p0, p1, strict=True))
    assert math.isclose(diff, math.sin(1.0))
    ev = CONTROLS[L.sinusoidal_literal].run().evidence
    assert f"p_0 and p_1 differ by {diff:.1e}" in ev and "no position is encoded" not in ev


def test_sinusoidal_counterexample_follows_from_its_inputs():
    ex = L.sinusoidal_literal().counterexample
    angle = 10000 ** (2 * ex["t"] / ex["d"])
    assert ex["stated"] == round(math.sin(ex["k"] / angle), 4)  # the note's line, k in the numerator
    assert ex["actual"] == round(math.sin(ex["i"] / angle), 4)  # Vaswani's p_(i, 2t)


def test_parity_cosines_at_odd_subscripts():
    assert "the cosines at [1, 3, 5, 7]" in L.parity_literal().evidence


def test_t5_pairs_have_the_reported_distance():
    ex = L.t5_bias_literal().counterexample
    assert ex["i - j"] == 1 - 0 == 4 - 3


def test_initial_projection_reports_products_of_its_inputs():
    out = L.initial_projection_literal()
    ex = out.counterexample
    w, xm, xn = (np.array(ex[k]) for k in ("W_q", "x_m", "x_n"))
    wxm, wxn = [float(v) for v in w @ xm], [float(v) for v in w @ xn]
    assert f"W_q x_n = {wxn}" in out.evidence and f"f_q(x_m, 0) = {wxm}" in out.evidence
    assert (ex["stated"], ex["actual"]) == (wxn[ex["coordinate"]], wxm[ex["coordinate"]])


def test_angle_rate_is_the_stated_theta():
    ev = L.angle_represents_position().evidence
    theta = float(re.search(r"theta = ([0-9.]+)", ev).group(1))
    rate = float(re.search(r"rotated by ([0-9.]+) m", ev).group(1))
    assert rate == theta == 1.0


def test_sdpa_counterexample_sizes_match_its_output():
    out = L.sdpa_is_inner_product()
    ex = out.counterexample
    assert ex["shape of o_0"] == [ex["d"]]
    assert f"N = {ex['N']} vectors o_m of shape [{ex['d']}]" in out.evidence


def test_sparse_cost_table_and_counterexample():
    ev = L.sparse_is_inefficient().evidence
    for d in (8, 128):  # R has d/2 rotation blocks of 4 non-zeros: 2d; eq. (34): d products with cos, d with sin
        assert f"{d}: {{'dense': {d * d}, 'sparse': {2 * d}, 'eq. (34)': {2 * d}}}" in ev
    ex = L.sparse_is_inefficient().counterexample
    assert (ex["multiplications dense"], ex["eq. (34)"]) == (ex["d"] ** 2, 2 * ex["d"])


def test_sdpa_is_inner_product_can_come_out_holds(monkeypatch):
    """The check looks at what SDPA returns: an attention that returned one number per query (a faulty
    implementation swapped in, as an inner product would) makes the claim hold; the real one fails it."""
    assert L.sdpa_is_inner_product().verdict == "fails"
    monkeypatch.setattr(L, "rope_softmax_attention", lambda q, k, v, pos, layout, **rope: np.einsum("md,md->m", q, k))
    outcome = L.sdpa_is_inner_product()
    assert outcome.verdict == "holds" and "of shape []" in outcome.evidence
