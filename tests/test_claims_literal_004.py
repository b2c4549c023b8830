"""The literal-reading checks of note 004 (ropemath.claims.checks_literal): each check's verdict, its
negative control's opposite verdict, and the counterexample numbers recomputed by hand (plain math, not the
code under test).
"""

import math

import pytest

from ropemath.claims import checks_literal as L
from ropemath.claims.controls import CONTROLS

CHECKS = [
    (L.parity_literal, "fails", "holds"),
    (L.t5_bias_literal, "fails", "holds"),
    (L.initial_projection_literal, "fails", "holds"),
    (L.angle_represents_position, "holds", "fails"),
    (L.sdpa_is_inner_product, "fails", "holds"),
    (L.sparse_is_inefficient, "fails", "holds"),
]


@pytest.mark.parametrize(("check", "verdict", "control_verdict"), CHECKS, ids=[c[0].__name__ for c in CHECKS])
def test_verdict_and_its_control(check, verdict, control_verdict):
    out = check()
    assert out.verdict == verdict, out.evidence
    assert CONTROLS[check].run().verdict == control_verdict
    if verdict == "fails":
        assert out.counterexample and out.correction_holds is True


def test_parity_by_hand():
    # Vaswani et al.: PE(pos, 2t) = sin, t = 0..d/2-1, so the sines sit at the even subscripts 0, 2, 4, 6 (d = 8);
    # numbered from 1 they are dimensions 1, 3, 5, 7 (odd), which is what the control computes
    ex = L.parity_literal().counterexample
    assert ex["subscripts 2t of the sines"] == [2 * t for t in range(4)] == [0, 2, 4, 6]
    assert "numbered from 1 the sine dimensions are [1, 3, 5, 7]" in CONTROLS[L.parity_literal].run().evidence


def test_t5_bias_by_hand():
    # same token everywhere: the content terms cancel; b_(1,0) - b_(4,3) = (1 + 0)/10 - (4 + 6)/10 = -0.9
    assert L.t5_bias_literal().counterexample["score(1, 0) - score(4, 3)"] == -0.9


def test_initial_projection_by_hand():
    # W_q = [[2, 1], [0, 1]]: W_q x_n = W_q (0, 1) = (1, 1), W_q x_m = W_q (1, 0) = (2, 0) = f_q(x_m, 0)
    ex = L.initial_projection_literal().counterexample
    assert (ex["stated"], ex["actual"]) == (1.0, 2.0)


def test_angle_separation_by_hand():
    # positions -50..50 turned by m radians: the closest pair differs by k = 44 (44 - 14 pi = 0.0177 rad)
    gap = min(abs((k + math.pi) % (2 * math.pi) - math.pi) for k in range(1, 101))
    assert round(gap, 4) == round(44 - 14 * math.pi, 4) == 0.0177
    assert "0.0177 rad apart" in L.angle_represents_position().evidence
    assert "NOT distinct" in CONTROLS[L.angle_represents_position].run().evidence


def test_sdpa_output_is_a_vector():
    assert L.sdpa_is_inner_product().counterexample["shape of o_0"] == [4]


def test_sparse_counts_by_hand():
    # d = 8: four 2x2 blocks have 16 = 2d non-zeros (cos 1, sin 0.1, ... are all non-zero), dense 8 * 8 = 64
    ex = L.sparse_is_inefficient().counterexample
    assert (ex["sparse (non-zeros of R)"], ex["multiplications dense"], ex["eq. (34)"]) == (16, 64, 16)
