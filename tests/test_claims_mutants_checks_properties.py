"""Numbers reported by the checks of :mod:`ropemath.claims.checks_properties`, recomputed independently.

The checks' verdicts are pinned by tests/test_claims.py; these tests pin what their evidence and
counterexamples *report*: the closest pair of rotated positions (absolute_and_relative), the shape and
score of the score_shape counterexample, the dot products of dot_and_angle's example, and the 3D
commutator norm of rotations_2d_vs_3d.  Each value is recomputed here by another route (dense rotation
matrices built from cos/sin, plain dot products), so a check that measured something else would be caught.
"""

import numpy as np

from ropemath.claims import checks_properties as cp


def _dense_rotation(m: float, d: int) -> np.ndarray:
    """Block-diagonal RoPE rotation, theta_i = 10000^(-2i/d), interleaved pairs (RoFormer eq. 15)."""
    r = np.zeros((d, d))
    for i in range(d // 2):
        a = m * 10000.0 ** (-2 * i / d)
        c, s = np.cos(a), np.sin(a)
        r[2 * i : 2 * i + 2, 2 * i : 2 * i + 2] = [[c, -s], [s, c]]
    return r


def test_absolute_and_relative_reports_the_closest_pair_of_rotated_positions():
    q = np.random.default_rng(7).standard_normal(8)
    pts = np.array([_dense_rotation(float(m), 8) @ q for m in range(512)])
    diff = pts[:, None, :] - pts[None, :, :]
    dist = np.sqrt(np.sum(diff**2, axis=-1))
    np.fill_diagonal(dist, np.inf)
    closest = dist.min() / np.linalg.norm(q)
    out = cp.absolute_and_relative()
    assert out.verdict == "holds"
    assert f"relative distance {closest:.3f}" in out.evidence
    assert closest > 0.1  # clearly distinct: positions 0..511 give 512 different vectors
    ctrl = cp.absolute_and_relative(spacing=0.0)
    assert ctrl.verdict == "fails" and "NOT pairwise distinct" in ctrl.evidence


def test_score_shape_counterexample_is_consistent():
    out = cp.score_shape()
    ex = out.counterexample
    assert out.verdict == "fails" and out.correction_holds
    assert ex["d"] == len(ex["f_q(x_m, m)"]) == 4
    rng = np.random.default_rng(11)
    wq, wk = rng.standard_normal((2, 4, 4))
    xm, xn = rng.standard_normal((2, 4))
    f_q = _dense_rotation(3.0, 4) @ wq @ xm
    score = float(f_q @ (_dense_rotation(1.0, 4) @ wk @ xn))
    assert np.allclose(ex["f_q(x_m, m)"], f_q, atol=1e-4)
    assert abs(ex["score f_q^T f_k (n = 1)"] - score) < 1e-4


def test_dot_and_angle_example_dot_products_follow_from_its_vectors():
    for scale in (2.0, 1.0):
        out = cp.dot_and_angle(scale=scale)
        ex = out.counterexample
        a, b, b2 = (np.array(ex[key]) for key in ("a", "b", "b'"))
        assert np.allclose(b2, scale * b)
        assert np.arctan2(a[1], a[0]) == np.arctan2(b[1], b[0]) == ex["angle"]  # same angle
        assert ex["a.b"] == float(a @ b) and ex["a.b'"] == float(a @ b2)
    assert cp.dot_and_angle().verdict == "holds-if"
    assert cp.dot_and_angle(scale=1.0).verdict == "holds"


def _turn_3d(axis: int, angle: float) -> np.ndarray:
    """Rotation by ``angle`` about coordinate axis ``axis`` (right-handed)."""
    i, j = [k for k in range(3) if k != axis]
    r = np.eye(3)
    r[i, i] = r[j, j] = np.cos(angle)
    r[j, i], r[i, j] = np.sin(angle), -np.sin(angle)
    return r


def test_rotations_2d_vs_3d_reports_the_3d_commutator_of_quarter_turns():
    rx, rz = _turn_3d(0, np.pi / 2), _turn_3d(2, np.pi / 2)
    gap = float(np.max(np.abs(rx @ rz - rz @ rx)))
    out = cp.rotations_2d_vs_3d()
    assert out.verdict == "holds"
    assert f"|R_x R_z - R_z R_x| = {gap:.0f})" in out.evidence
    assert cp.rotations_2d_vs_3d(proper=False).verdict == "fails"


def test_any_length_examines_positions_up_to_two_to_the_twenty_including_negative_ones():
    import re

    from ropemath.core.rotation import rotation_matrix

    out = cp.any_length()
    assert out.verdict == "holds" and cp.any_length(sign=-1).verdict == "fails"
    pairs = [(float(m), float(n)) for m, n in re.findall(r"\((-?\d+), (-?\d+)\)", out.evidence)]
    assert len(pairs) == 3
    assert max(abs(p) for pair in pairs for p in pair) == 2**20  # "positions up to 2^20", as the evidence says
    assert min(p for pair in pairs for p in pair) < 0  # negative positions are defined too
    q, k = np.random.default_rng(8).standard_normal((2, 64))
    for m, n in pairs:  # the identity really holds at the reported pairs (dense matrices, independent route)
        lhs = (_dense_rotation(m, 64) @ q) @ (_dense_rotation(n, 64) @ k)
        rhs = q @ (_dense_rotation(n - m, 64) @ k)
        assert abs(lhs - rhs) / (np.linalg.norm(q) * np.linalg.norm(k)) < 1e-8
        assert np.allclose(rotation_matrix(m, 64), _dense_rotation(m, 64), atol=1e-8)


def test_stability_checks_float64_angles_near_position_ten_to_the_six():
    import re

    out = cp.stability()
    m, n = (float(v) for v in re.search(r"at \(m, n\) = \((\d+), (\d+)\)", out.evidence).groups())
    assert min(m, n) == 10**6 and m != n and abs(m - n) < 1e-3 * n  # two distinct positions at about 10^6
    q, k = np.random.default_rng(14).standard_normal((2, 128))
    lhs = (_dense_rotation(m, 128) @ q) @ (_dense_rotation(n, 128) @ k)
    rhs = q @ (_dense_rotation(n - m, 128) @ k)
    assert abs(lhs - rhs) / (np.linalg.norm(q) * np.linalg.norm(k)) < 1e-9
    assert "(relative residual below 1e-9, seed 14)" in out.evidence


def test_rotations_2d_vs_3d_needs_3d_turns_that_do_not_commute(monkeypatch):
    """The check's 3D part: were the 90-degree turns about x and z to commute (rotation_2d(pi/2) = I swapped
    in, so R_x = R_z = I), the claim's contrast would be gone and the check must not say "holds"."""
    assert cp.rotations_2d_vs_3d().verdict == "holds"
    real = cp.rotation_2d
    monkeypatch.setattr(cp, "rotation_2d", lambda a: np.eye(2) if a == np.pi / 2 else real(a))
    assert cp.rotations_2d_vs_3d().verdict != "holds"


def test_dot_and_angle_samples_rotations_of_both_signs(monkeypatch):
    """The rotated copies turn q and k by angles drawn from [-50, 50]: a faulty rotation_2d that ignores the
    sign of its angle (R(|a|) swapped in) must be caught, which needs negative angles among the samples."""
    right = cp.dot_and_angle().verdict
    real = cp.rotation_2d
    monkeypatch.setattr(cp, "rotation_2d", lambda a: real(abs(a)))
    assert cp.dot_and_angle().verdict != right
