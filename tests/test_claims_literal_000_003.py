"""The literal-reading checks of notes 000 and 003 (ropemath.claims.checks_literal): each check's
verdict, its negative control's opposite verdict, and its counterexample recomputed by hand.

Hand values come from math.sin / math.cos and plain loops written from the definitions (Vaswani et al.
§3.5, RoFormer eq. 13-15, 34-35, Katharopoulos et al. eq. 4), not from the code under test.
"""

import math

import pytest

from ropemath.claims import checks_literal as L
from ropemath.claims.controls import CONTROLS

CHECKS = [
    L.sinusoidal_position_variable,
    L.complex_score_frequency_index,
    L.elementwise_as_kronecker,
    L.absolute_breaks_linear,
]


@pytest.mark.parametrize("check", CHECKS, ids=[c.__name__ for c in CHECKS])
def test_check_fails_as_written_and_its_control_holds(check):
    out, ctl = check(), CONTROLS[check]
    assert out.verdict == "fails" and out.counterexample and out.correction_holds is True
    assert ctl.run().verdict == "holds", ctl.wrong


@pytest.mark.parametrize(
    ("check", "kwargs"),
    [
        (L.sinusoidal_position_variable, {"variable": "j"}),
        (L.complex_score_frequency_index, {"shift": 2}),
        (L.elementwise_as_kronecker, {"product": "outer"}),
        (L.absolute_breaks_linear, {"encoding": "rotary"}),
    ],
)
def test_checks_refuse_an_unknown_variant(check, kwargs):
    with pytest.raises(ValueError, match="must be"):
        check(**kwargs)


def test_sinusoidal_with_k_gives_every_position_the_same_value():
    # as written, p_(i,0) = sin(k) whatever i is: p_(1,0) - p_(0,0) = 0; the encoding has sin(1) - sin(0)
    ex = L.sinusoidal_position_variable().counterexample
    assert ex["stated"] == 0.0
    assert ex["actual"] == round(math.sin(1.0) - math.sin(0.0), 4) == 0.8415


def test_complex_form_with_the_notes_theta_by_hand():
    # d = 2, q = k = (1, 0), m - n = 1. The note's theta_j = 10000^(-2(j-1)/d) at j = 0 is 10000^(2/2) = 10000,
    # so the stated sum is Re[1 * 1 * e^(10000 i)] = cos(10000); the rotated score is cos(1).
    ex = L.complex_score_frequency_index().counterexample
    assert ex["frequency used"] == 10000.0
    assert (ex["stated"], ex["actual"]) == (round(math.cos(10000.0), 4), round(math.cos(1.0), 4))
    assert ex["stated"] == -0.9522


def _rotate_pairs(x, m, d, base=10000.0):
    """Rotate each adjacent pair (x_2i, x_2i+1) by m base^(-2i/d), written out with cos/sin (RoFormer eq. 13-15)."""
    out = []
    for i in range(d // 2):
        a = m * base ** (-2 * i / d)
        out += [
            math.cos(a) * x[2 * i] - math.sin(a) * x[2 * i + 1],
            math.sin(a) * x[2 * i] + math.cos(a) * x[2 * i + 1],
        ]
    return out


def test_corrected_complex_form_matches_a_loop():
    # the correction: pair i (from 0) turns with theta_(i+1) = 10000^(-2i/d) in the note's 1-based numbering
    d, q, k, m, n = 4, [0.3, -1.2, 0.7, 2.0], [1.1, 0.4, -0.5, 0.9], 5.0, 2.0
    score = sum(a * b for a, b in zip(_rotate_pairs(q, m, d), _rotate_pairs(k, n, d), strict=True))
    complex_form = sum(
        (
            complex(q[2 * i], q[2 * i + 1])
            * complex(k[2 * i], -k[2 * i + 1])
            * complex(math.cos((m - n) * 10000 ** (-2 * i / d)), math.sin((m - n) * 10000 ** (-2 * i / d)))
        ).real
        for i in range(d // 2)
    )
    assert complex_form == pytest.approx(score, abs=1e-12)


def test_kronecker_reading_by_hand():
    # d = 2, m = 1, x = (1, 0): (1, 0) kron (cos 1, cos 1) + (0, 1) kron (sin 1, sin 1) = (cos 1, cos 1, sin 1, sin 1),
    # four entries; R(1) x = (cos 1, sin 1)
    ex = L.elementwise_as_kronecker().counterexample
    c, s = round(math.cos(1.0), 4), round(math.sin(1.0), 4)
    assert ex["stated right side"] == [c, c, s, s]
    assert ex["R x"] == [c, s]
    assert CONTROLS[L.elementwise_as_kronecker].run().counterexample["stated right side"] == [c, s]


def _phi(x):
    """elu(x) + 1, written out."""
    return x + 1 if x > 0 else math.exp(x)


def test_relative_term_breaks_shared_sums_by_hand():
    # N = 2, d = 1, phi(q_m) = 1, k = (0, 0), v = (1, 0), r_(-1) = -1, r_0 = 0, r_1 = 1.
    # Query 0 sees key features (phi(0), phi(-1)) = (1, 1/e); query 1 sees (phi(1), phi(0)) = (2, 1).
    r = {-1: -1.0, 0: 0.0, 1: 1.0}
    v = [1.0, 0.0]

    def output(seen_by):  # the output of query 1 with the key features query `seen_by` sees
        feats = [_phi(0.0 + r[seen_by - n]) for n in range(2)]
        return sum(f * vn for f, vn in zip(feats, v, strict=True)) / sum(feats)

    assert output(seen_by=1) == pytest.approx(2 / 3)  # per pair: the features query 1 really sees
    assert output(seen_by=0) == pytest.approx(1 / (1 + math.exp(-1)))  # the sums formed once, for query 0
    assert abs(output(1) - output(0)) > 0.06
    # with an absolute encoding the features of key n do not involve m, so the sums formed once are exact
    assert L.absolute_breaks_linear().counterexample["shared-sum vs per-pair outputs"] == "within the tolerance 1e-12"
