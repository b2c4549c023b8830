"""Tests that pin what the checks of :mod:`ropemath.claims.checks_rotation` actually examine.

The default verdicts and the registered controls are tested in ``tests/test_claims.py``; they cannot tell
a check that measures the right thing from one that measures less.  These tests inject a known fault into
the function a check measures (``apply_rope``, ``rotation_matrix``, ``rotation_2d`` as seen by the check)
and assert the check's verdict: a relative error inside the tolerance is accepted while a larger one is not
(the residuals are relative, not absolute), a wrong result at a negative position is found, a reflected
pair (which keeps every score) is found by the per-pair comparison.  They also pin helper functions
(``_transpose_wq``) and the plug-in numbers of ``even_dimension`` against values worked out by hand.
"""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

import ropemath.claims.checks_rotation as cr
from ropemath.symbolic import proofs


def _scaled(func, factor):
    """``func`` with its result multiplied by ``factor`` (a relative error of ``factor - 1``)."""

    def wrapped(*args, **kwargs):
        return np.asarray(func(*args, **kwargs)) * factor

    return wrapped


# --- elementwise_form ---------------------------------------------------------------------------------


def test_elementwise_form_finds_apply_rope_wrong_at_negative_positions(monkeypatch):
    """apply_rope that ignores the position's sign is right at m >= 0 only; the check must examine an m < 0."""
    original = cr.apply_rope
    monkeypatch.setattr(cr, "apply_rope", lambda x, pm, **kw: original(x, abs(pm), **kw))
    assert cr.elementwise_form().verdict == "fails"


@pytest.mark.parametrize(("rel_error", "verdict"), [(5e-13, "holds"), (5e-11, "fails")])
def test_elementwise_form_residual_is_relative(monkeypatch, rel_error, verdict):
    """A relative error of apply_rope below the tolerance 1e-12 is accepted, one 50 times above it is not."""
    monkeypatch.setattr(cr, "apply_rope", _scaled(cr.apply_rope, 1.0 + rel_error))
    assert cr.elementwise_form().verdict == verdict


# --- norm_rule ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("factor", "verdict"), [(1.0 + 5e-13, "holds"), (1.0 + 5e-11, "fails")])
def test_norm_rule_measures_the_relative_norm_change(factor, verdict):
    """|R x| = f |x| has relative residual |1 - f| for every x: inside the tolerance 1e-12 or 50 times above it."""
    assert cr.norm_rule(factor=factor).verdict == verdict


# --- same_rotation_invariance -----------------------------------------------------------------------------


@pytest.mark.parametrize(("rel_error", "verdict"), [(2e-13, "holds"), (5e-11, "fails")])
def test_same_rotation_invariance_residual_is_relative(monkeypatch, rel_error, verdict):
    """apply_rope scaled by 1 + e changes q.k by about 2e |q.k| <= 2e |q||k|: accepted iff 2e is below 1e-12."""
    monkeypatch.setattr(cr, "apply_rope", _scaled(cr.apply_rope, 1.0 + rel_error))
    assert cr.same_rotation_invariance().verdict == verdict


# --- weights_identity ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(("rel_error", "verdict"), [(2e-11, "holds"), (5e-9, "fails")])
def test_weights_identity_residual_is_relative(monkeypatch, rel_error, verdict):
    """R scaled by 1 + e makes the left side (1 + e)^2 and the right (1 + e) times the score: relative gap ~ e."""
    monkeypatch.setattr(cr, "rotation_matrix", _scaled(cr.rotation_matrix, 1.0 + rel_error))
    assert cr.weights_identity().verdict == verdict


# --- lengths_and_angle ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("rel_error", "verdict"), [(8e-13, "holds"), (5e-11, "fails")])
def test_lengths_and_angle_norm_residual_is_relative(monkeypatch, rel_error, verdict):
    """R(m) scaled by 1 + e changes |R q| by e |q|: relative change e, accepted iff below the tolerance 1e-12."""
    monkeypatch.setattr(cr, "rotation_2d", _scaled(cr.rotation_2d, 1.0 + rel_error))
    assert cr.lengths_and_angle().verdict == verdict


# --- pairwise_rotation ------------------------------------------------------------------------------------------


def _reflect_last_pair(func):
    """R with the last row negated: the last 2x2 block becomes a reflection, which keeps every score q.R_{n-m}k."""

    def wrapped(pm, d):
        r = np.array(func(pm, d), dtype=float)
        r[d - 1, :] *= -1.0
        return r

    return wrapped


def test_reflected_pair_keeps_the_score():
    """The fault below is invisible to the score: (M_m q).(M_n k) = (R_m q).(R_n k) for the reflected R."""
    rng = np.random.default_rng(0)
    q, k = rng.standard_normal((2, 8))
    wrong = _reflect_last_pair(cr.rotation_matrix)
    assert (wrong(3.0, 8) @ q) @ (wrong(-5.0, 8) @ k) == pytest.approx(
        (cr.rotation_matrix(3.0, 8) @ q) @ (cr.rotation_matrix(-5.0, 8) @ k), rel=1e-12, abs=1e-12
    )


def test_pairwise_rotation_compares_every_pair_and_both_coordinates(monkeypatch):
    """Only the per-pair comparison (last pair, imaginary part) sees the reflected block: the check must fail."""
    monkeypatch.setattr(cr, "rotation_matrix", _reflect_last_pair(cr.rotation_matrix))
    assert cr.pairwise_rotation().verdict == "fails"


# --- helpers and plug-in numbers --------------------------------------------------------------------------------


def test_transpose_wq_swaps_the_off_diagonal_entries():
    """_transpose_wq(W_q) is W_q^T (and W_q^T back to W_q), entry by entry."""
    w = proofs.W_q.as_explicit()
    assert sp.simplify(cr._transpose_wq(w) - w.T) == sp.zeros(2, 2)
    assert sp.simplify(cr._transpose_wq(w.T) - w) == sp.zeros(2, 2)


@pytest.mark.parametrize(("d", "half", "covered"), [(3, 1.5, 2), (5, 2.5, 4), (4, 2.0, 4)])
def test_even_dimension_reports_d_over_2_and_covered_coordinates(d, half, covered):
    """The example reports d/2 (not an integer for odd d) and the 2 floor(d/2) coordinates the blocks cover."""
    ex = cr.even_dimension(d=d).counterexample
    assert ex["d"] == d
    assert ex["d/2"] == half
    assert ex["coordinates covered by the 2x2 blocks"] == covered


# --- the samples reach negative positions and large ones --------------------------------------------------------


def _scaled_where(func, predicate, factor=1.001):
    """``func(x, pm, ...)`` or ``func(pm, d)`` scaled by ``factor`` (no longer a rotation) where ``predicate(pm)``."""

    def wrapped(*args, **kwargs):
        pm = args[1] if isinstance(args[0], np.ndarray) else args[0]
        out = np.asarray(func(*args, **kwargs))
        return out * factor if predicate(float(pm)) else out

    return wrapped


@pytest.mark.parametrize("side", [-1.0, 1.0])
def test_same_rotation_invariance_samples_large_positions_of_both_signs(monkeypatch, side):
    """apply_rope scaled only at positions beyond 100 on one side: the 20 sampled positions must reach there."""
    monkeypatch.setattr(cr, "apply_rope", _scaled_where(cr.apply_rope, lambda pm: side * pm > 100))
    assert cr.same_rotation_invariance().verdict == "fails"


def test_composition_rule_samples_a_negative_second_angle(monkeypatch):
    """R scaled at negative positions: R_m R_n vs R_(m+n) sees the fault only when n < 0 (e.g. m = 3, n = -3)."""
    monkeypatch.setattr(cr, "rotation_matrix", _scaled_where(cr.rotation_matrix, lambda pm: pm < 0))
    assert cr.composition_rule().verdict == "fails"


def test_transpose_product_samples_a_negative_second_position(monkeypatch):
    """R scaled at positions in (-5, 0): only n = -3 reaches them (m, n - m never do); the check must fail."""
    monkeypatch.setattr(cr, "rotation_matrix", _scaled_where(cr.rotation_matrix, lambda pm: -5 < pm < 0))
    assert cr.transpose_product().verdict == "fails"
