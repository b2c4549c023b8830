"""Tests that tell mutants of ropemath.claims.checks_literal from the original.

What they pin, and why (every expected number is recomputed here with plain math, not the code under test):

* parity_literal: the cosines sit at the odd subscripts 1, 3, 5, 7 (Vaswani et al.'s PE(pos, 2t + 1) = cos);
* t5_bias_literal: both pairs of the counterexample, (1, 0) and (4, 3), have the reported distance i - j;
* initial_projection_literal: the reported W_q x_n and f_q(x_m, 0) = W_q x_m follow from the reported W_q, x_m,
  x_n, and the counterexample's stated / true values are the reported coordinate of those;
* angle_represents_position: the rate the evidence rotates by is the theta = 1 it states;
* sdpa_is_inner_product: the counterexample's N and d are the sizes of the output it reports;
* sparse_is_inefficient: the cost table reports 2d products for eq. (34) and 2d non-zeros of R at d = 8, 128,
  and the counterexample's d gives its dense (d^2) and eq. (34) (2d) counts.
"""

import re

import numpy as np

from ropemath.claims import checks_literal as L


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
