"""block_diagonal (a plain loop) against hand-written matrices and np.kron, and
rotation_matrix against block_diagonal of 2x2 rotations (notebook 03, section 1)."""

import numpy as np
import pytest
from constructions import loop_block_diagonal

from ropemath import angles, block_diagonal, frequencies, rotation_2d, rotation_matrix


def test_block_diagonal_hand_example():
    got = block_diagonal([np.array([[1.0, 2.0], [3.0, 4.0]]), [[5]], np.full((3, 3), 6.0)])
    expected = np.array(
        [
            [1, 2, 0, 0, 0, 0],
            [3, 4, 0, 0, 0, 0],
            [0, 0, 5, 0, 0, 0],
            [0, 0, 0, 6, 6, 6],
            [0, 0, 0, 6, 6, 6],
            [0, 0, 0, 6, 6, 6],
        ],
        dtype=float,
    )
    assert got.dtype == np.float64
    np.testing.assert_array_equal(got, expected)


def test_block_diagonal_of_equal_blocks_is_kronecker_product():
    B = np.array([[0.6, -0.8], [0.8, 0.6]])
    np.testing.assert_array_equal(block_diagonal([B] * 5), np.kron(np.eye(5), B))


@pytest.mark.parametrize("d", [2, 4, 6, 8, 64, 128])
@pytest.mark.parametrize("m", [0, 1, -3, 4095, 123456, -10**6])
@pytest.mark.parametrize("base", [10000.0, 500000.0])
def test_rotation_matrix_equals_block_diagonal_loop(d, m, base):
    # Same float64 angles and cos/sin, different assembly (vectorised indices vs a loop): bit-identical.
    looped = block_diagonal(rotation_2d(angles(m, d, base)))
    assert np.array_equal(rotation_matrix(m, d, base), looped)


@pytest.mark.parametrize("d", [6, 64])
@pytest.mark.parametrize("m", [1.0, -999999.0])
def test_block_diagonal_rotation_matches_paper_loop(d, m):
    # against the 1-based paper formula with Python floats and math.cos/sin (tests/constructions.py)
    looped = block_diagonal(rotation_2d(angles(m, d)))
    np.testing.assert_allclose(looped, loop_block_diagonal(m, d), rtol=0, atol=1e-13 + 1e-15 * abs(m))


def test_block_diagonal_bad_input():
    with pytest.raises(ValueError, match=r"^blocks must be a non-empty sequence"):
        block_diagonal([])
    with pytest.raises(ValueError, match=r"^blocks\[1\] must be a non-empty square matrix, got shape \(2, 3\)$"):
        block_diagonal([np.eye(2), np.ones((2, 3))])
    with pytest.raises(TypeError, match=r"^blocks\[0\] must be a real matrix, got array of dtype complex128$"):
        block_diagonal([np.eye(2) * 1j])
    with pytest.raises(TypeError, match=r"^blocks must be a sequence of square matrices, got int$"):
        block_diagonal(3)


def test_symbolic_block_identities_d6():
    """Notebook 03, section 4: for d = 6 with symbolic theta_0..theta_2, sympy proves
    R_m^T R_n = R_{n-m} and det R_m = 1; the wrong sign R_m^T R_n = R_{m-n} is not proved and
    fails at a concrete point."""
    import sympy as sp

    from ropemath.symbolic.common import block_rotation, is_zero, m, n, thetas

    th = thetas(3)
    Rm, Rn = block_rotation(m, th), block_rotation(n, th)
    assert is_zero(Rm.T * Rn - block_rotation(n - m, th))
    assert sp.simplify(Rm.det()) == 1
    wrong = Rm.T * Rn - block_rotation(m - n, th)
    assert not is_zero(wrong)
    # the counterexample shown in the notebook: m = 1, n = 0, all theta = 1 gives R(-1) - R(1) per block,
    # whose off-diagonal entries are +-2 sin 1
    values = [abs(float(v)) for v in wrong.subs({m: 1, n: 0, th[0]: 1, th[1]: 1, th[2]: 1}).evalf()]
    assert max(values) == pytest.approx(2 * np.sin(1.0), rel=1e-15)


def test_symbolic_matrix_matches_rotation_matrix():
    """The LaTeX/sympy R^6 of notebook 03 is the matrix rotation_matrix computes."""
    import sympy as sp

    from ropemath.symbolic.common import block_rotation, m, thetas

    th = thetas(3)
    numeric = sp.lambdify((m, *th), block_rotation(m, th), "numpy")
    for pos in [1.0, -2.5, 777.0]:
        got = np.array(numeric(pos, *frequencies(6)), dtype=float)
        np.testing.assert_allclose(got, rotation_matrix(pos, 6), rtol=0, atol=1e-15)


@pytest.mark.parametrize("d", [2, 6, 128])
@pytest.mark.parametrize("m", [7, -3, 12345])
def test_rotation_matrix_has_2d_nonzeros(d, m):
    """Only the 2x2 diagonal blocks are nonzero: 2d of the d^2 entries (no angle here is a
    multiple of pi/2, so no cos or sin in a block vanishes)."""
    R = rotation_matrix(m, d)
    assert np.count_nonzero(R) == 2 * d
    mask = block_diagonal([np.ones((2, 2))] * (d // 2)) == 1
    assert np.all(R[~mask] == 0) and np.all(R[mask] != 0)
