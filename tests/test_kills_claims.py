"""Tests that kill surviving mutmut mutants of ropemath.claims (``make mutants``).

A check's outcome is what notebook 09 shows the reader: the verdict, the evidence text and the counterexample.
Each expected value here is worked out by hand (or with ``math`` directly), never by the check under test.
"""

import math

from ropemath.claims.checks_derivation import converse, cos_theta_case
from ropemath.claims.checks_encodings import absolute_carries_relative
from ropemath.claims.checks_literal import direction_rotation_unique, negative_angle, polar_split_literal
from ropemath.claims.checks_rotation import transpose_rule


def test_converse_names_the_key_and_its_two_scores():
    # q = (1, 0), k = (0, 1), theta = 1: (R_1 q).k = sin 1 at m - n = 1, q.(R_1 k) = -sin 1 at m - n = -1
    out = converse(k=(0.0, 1.0))
    s = round(math.sin(1.0), 4)
    assert out.verdict == "holds"
    assert out.evidence.startswith(f"For q = (1, 0), k = [0.0, 1.0] the scores at m - n = 1 and m - n = -1 are "
                                   f"{s} and {-s}.")
    assert out.counterexample == {"theta": 1.0, "q": [1.0, 0.0], "k": [0.0, 1.0], "m - n = 1": s, "m - n = -1": -s}


def test_cos_theta_case_counterexample_records_both_positions_and_sides():
    # q = k = (1, 0), theta = 1, m = 2, n = 0: the true score is cos 2, the stated (q.k) cos theta is cos 1
    out = cos_theta_case()
    assert out.counterexample == {"q": [1.0, 0.0], "k": [1.0, 0.0], "theta": 1.0, "m": 2, "n": 0,
                                  "true side": round(math.cos(2.0), 4), "stated": round(math.cos(1.0), 4)}


def test_absolute_carries_relative_prints_the_sinusoidal_dot_product():
    # with the pairs (sin x, cos x) (phase pi/2), p_1 . p_0 = sum_t cos(w_t), w_t = 10000^(-2t/16), t = 0..7
    out = absolute_carries_relative()
    expected = round(sum(math.cos(10000.0 ** (-2 * t / 16)) for t in range(8)), 4)
    assert out.counterexample["d"] == 16
    assert out.counterexample["p_1 . p_0"] == expected == out.counterexample["p_6 . p_5"]


def test_direction_rotation_unique_says_why_in_two_dimensions():
    assert "and R(c) u = u at no grid angle c in (0, 2 pi)). So R(a)" in direction_rotation_unique().evidence


def test_negative_angle_reports_the_parity_rule_and_its_counterexample():
    assert "sin(-t) = -1 sin t proved; the matrix it gives equals R(-theta)" in negative_angle().evidence
    wrong = negative_angle(sin_parity=1)  # sin(-t) = +sin t: false at theta = pi/2, where sin(-pi/2) = -1
    assert "sin(-t) = +1 sin t NOT proved" in wrong.evidence
    assert wrong.counterexample == {"theta": "pi/2", "sin(-theta)": -1, "rule gives": 1}


def test_polar_split_literal_rests_on_the_three_steps_of_section_2_4():
    # the product of polar forms, then equal moduli (radial) and equal arguments (angular)
    text = "sympy derivation steps 'polar_product', 'radial_equation', 'angular_equation' verified"
    assert text in polar_split_literal().evidence


def test_transpose_control_fails_in_sympy_too_not_only_in_numbers():
    # R_m^T = R_m (sign -1) is false for every m not a multiple of pi: sympy cannot reduce it to 0
    assert "sympy proof 'transpose' FAILS" in transpose_rule(sign=-1).evidence
    assert "sympy proof 'transpose' holds" in transpose_rule().evidence
