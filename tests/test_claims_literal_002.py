"""The literal checks of note 002 (ropemath.claims.checks_literal): each computes its verdict, its
negative control computes a different one, and the counterexamples agree with values worked out by hand
or by plain Python loops written from the definitions (RoFormer eq. 13-15, 34), not by ropemath code.
"""

import inspect
import math

import numpy as np
import pytest
from constructions import rotate_pairs

from ropemath.claims import checks_literal as L
from ropemath.claims import note002
from ropemath.claims.controls import CONTROLS

NOTE_002 = (
    "doubled_goal_formula", "kn_named_query", "position_term_absolute", "embedding_rotated_before_projection",
    "score_varies_with_distance", "direction_rotation_unique", "matrix_sparse", "index_shift", "elementwise_display",
    "lengths_and_same_angle", "angle_under_different_rotations", "flash_shape_comment",
)
CHECKS = [getattr(L, name) for name in NOTE_002]


def test_every_public_check_has_a_control_with_another_verdict():
    public = [fn for name, fn in inspect.getmembers(L, inspect.isfunction) if fn.__module__ == L.__name__
              and not name.startswith("_")]
    assert public and set(CHECKS) <= set(public) and set(public) <= set(CONTROLS)
    for fn in public:
        assert CONTROLS[fn].run().verdict != fn().verdict, fn.__name__


def test_every_new_check_is_used_by_an_entry_or_an_alternative():
    used = {e.check for e in note002.ENTRIES} | {a.check for e in note002.ENTRIES for a in e.alternatives}
    assert set(CHECKS) <= used


def test_doubled_goal_formula():
    # q = k = (2, 0), m = n = 0: <f_q, f_k> = 4 = g, so the chain A = g A asks 4 = 16
    out = L.doubled_goal_formula()
    assert out.verdict == "fails" and L.doubled_goal_formula(doubled=False).verdict == "holds"
    assert (out.counterexample["<f_q, f_k>"], out.counterexample["g <f_q, f_k>"]) == (4.0, 16.0)


def test_kn_named_query():
    # theta = 1, m = 1, n = 0: R_1 (0, 1) = (-sin 1, cos 1), so <R_1 k_n, k_n> = cos 1; the true score
    # <R_1 (1, 0), (0, 1)> = sin 1
    out = L.kn_named_query()
    assert out.verdict == "fails" and out.correction_holds is True
    ex = out.counterexample
    assert (ex["stated"], ex["actual"]) == (round(math.cos(1), 4), round(math.sin(1), 4))
    assert L.kn_named_query(symbol="q_m").verdict == "holds"


def test_position_term_absolute():
    assert L.position_term_absolute().verdict == "holds"
    assert L.position_term_absolute(structured=True).verdict == "fails"

    # why the control says no: sinusoidal p_i . p_j = sum_t cos((i - j) w_t), so with W = I it is relative
    def p(i, d=8):
        return [math.sin(i * 10000 ** (-2 * (t // 2) / d)) if t % 2 == 0 else math.cos(i * 10000 ** (-2 * (t // 2) / d))
                for t in range(d)]
    assert abs(np.dot(p(1), p(0)) - np.dot(p(6), p(5))) < 1e-12


def test_embedding_rotated_before_projection():
    out = L.embedding_rotated_before_projection()
    assert out.verdict == "fails" and out.counterexample["relative score change"] > 0.1
    assert L.embedding_rotated_before_projection(project=False).verdict == "holds"
    # the same by a loop: W = diag(1, 2) does not commute with a rotation, so rotating before it is not relative
    w = np.diag([1.0, 2.0])
    x = np.array([1.0, 0.0])

    def before(m, n):
        return float((w @ rotate_pairs(x, m, 2)) @ (w @ rotate_pairs(x, n, 2)))

    def after(m, n):
        return float(rotate_pairs(w @ x, m, 2) @ rotate_pairs(w @ x, n, 2))

    assert abs(before(1, 0) - before(2, 1)) > 0.1  # (cos 1, 2 sin 1).(1, 0) = cos 1 vs cos 2 cos 1 + 4 sin 2 sin 1
    assert abs(after(1, 0) - after(2, 1)) < 1e-12


def test_score_varies_with_distance():
    assert L.score_varies_with_distance().verdict == "holds"
    assert L.score_varies_with_distance(speed=0.0).verdict == "fails"
    q, k = np.random.default_rng(62).standard_normal((2, 8))  # the check's inputs, scored by the loop above
    s = sorted(float(rotate_pairs(k, r, 8) @ q) for r in range(-10, 11))
    assert min(b - a for a, b in zip(s, s[1:], strict=False)) > 1e-6


def test_matrix_sparse():
    out = L.matrix_sparse()
    assert out.verdict == "holds" and "128 of 4096 at d = 64" in out.evidence  # 2 * 64 of 64^2
    wrong = L.matrix_sparse(dims=(2,))
    assert wrong.verdict == "fails" and "4 of 4 at d = 2" in wrong.evidence  # one 2x2 block fills the matrix


def test_index_shift():
    # d = 8: theta_k = 10000^(-2k/8) = 10^-k. q = e_0, m = 1: the §4 block R(theta_1) gives sin 0.1 in
    # coordinate 1, the §4.1 formula (theta_0 = 1) gives sin 1
    out = L.index_shift()
    assert out.verdict == "fails" and out.correction_holds is True
    assert (out.counterexample["stated"], out.counterexample["actual"]) == (round(math.sin(0.1), 4), 0.8415)
    assert L.index_shift(matrix_first=0).verdict == "holds"


def test_elementwise_display():
    # d = 8, q = e_5, m = 1: coordinate 4 is q_4 cos(theta_2) - q_5 sin(.) = -sin(.); the display's sine
    # entry 4 is sin theta_1 = sin 0.1, the rotation needs sin theta_2 = sin 0.01
    out = L.elementwise_display()
    assert out.verdict == "fails" and out.correction_holds is True
    assert (out.counterexample["stated"], out.counterexample["actual"]) == (-0.0998, round(-math.sin(0.01), 4))
    assert L.elementwise_display(fifth_sine=2).verdict == "holds"
    assert -math.sin(0.01) == pytest.approx(rotate_pairs(np.eye(8)[5], 1.0, 8)[4])


def test_lengths_and_same_angle():
    assert L.lengths_and_same_angle().verdict == "holds"
    assert L.lengths_and_same_angle(stretch=2.0).verdict == "fails"  # |2 R x| = 2 |x|


def test_angle_under_different_rotations():
    # q = k = (1, 0), theta = 1: the angle is 0 before, and 1 rad between R(1) q = (cos 1, sin 1) and R(0) k
    out = L.angle_under_different_rotations()
    assert out.verdict == "fails" and out.correction_holds is True
    assert (out.counterexample["stated"], out.counterexample["actual"]) == (0.0, 1.0)
    assert L.angle_under_different_rotations(n_offset=0.0).verdict == "holds"


def test_flash_shape_comment():
    # bsz = 1, q_len = 3, num_heads = 2, head_dim = 4, hidden = 8: the comment's shape (1, 3, 4, 8) has 96 entries,
    # the projected states 1 * 3 * 8 = 24; the view makes (1, 3, 2, 4)
    out = L.flash_shape_comment()
    assert out.verdict == "fails" and out.correction_holds is True
    assert out.counterexample["stated shape"] == [1, 3, 4, 8] and out.counterexample["shape after view"] == [1, 3, 2, 4]
    assert L.flash_shape_comment(stated=("batch_size", "seq_length", "num_heads", "head_dim")).verdict == "holds"


def test_direction_rotation_unique():
    # SO(2) has dimension 1 and A u != 0 for the skew A = J: no freedom left. SO(3) has dimension 3, and A u over
    # skew A spans only the plane orthogonal to u (rank 2): the turns about u are left, 3 - 2 = 1 free parameter
    assert L.direction_rotation_unique().verdict == "holds"
    out = L.direction_rotation_unique(dim=3)
    assert out.verdict == "fails" and out.counterexample["free parameters"] == 3 - 2
