"""Bad input raises ValueError/TypeError whose message names the parameter and what was expected.
One test per case, as the foundation issue lists them."""

import numpy as np
import pytest

from ropemath import apply_rope, frequencies, relative_position_error, rotation_matrix, to_half

X = np.ones((3, 8))


def test_odd_d():
    with pytest.raises(ValueError, match=r"^d must be a positive even integer, got 7$"):
        frequencies(7)


def test_zero_d():
    with pytest.raises(ValueError, match=r"^d must be a positive even integer, got 0$"):
        rotation_matrix(1.0, 0)


def test_negative_d():
    with pytest.raises(ValueError, match=r"^d must be a positive even integer, got -4$"):
        frequencies(-4)


def test_boolean_d():
    with pytest.raises(TypeError, match=r"^d must be a positive even integer, got bool True$"):
        frequencies(True)


def test_non_integer_d():
    with pytest.raises(TypeError, match=r"^d must be a positive even integer, got float 4.0$"):
        frequencies(4.0)


def test_string_d():
    with pytest.raises(TypeError, match=r"^d must be a positive even integer, got str '8'$"):
        rotation_matrix(0.0, "8")


@pytest.mark.parametrize("base", [0.0, -10000.0])
def test_non_positive_base(base):
    with pytest.raises(ValueError, match=r"^base must be a finite real number > 0, got"):
        apply_rope(X, 1, base=base, layout="interleaved")


@pytest.mark.parametrize("base", [np.inf, np.nan])
def test_non_finite_base(base):
    with pytest.raises(ValueError, match=r"^base must be a finite real number > 0, got (inf|nan)$"):
        frequencies(8, base)


def test_boolean_base():
    with pytest.raises(TypeError, match=r"^base must be a finite real number > 0"):
        frequencies(8, True)


@pytest.mark.parametrize("m", [np.nan, np.inf, [0.0, -np.inf, 1.0]])
def test_non_finite_positions(m):
    with pytest.raises(ValueError, match=r"^m must contain only finite values"):
        apply_rope(X, m, layout="interleaved", base=10000.0)


def test_boolean_positions():
    with pytest.raises(TypeError, match=r"^m must be a real number or an array of real numbers, got bool"):
        apply_rope(X, True, layout="interleaved", base=10000.0)


def test_complex_positions():
    with pytest.raises(TypeError, match=r"^m must be a real number or an array of real numbers"):
        rotation_matrix(1j, 4)


def test_last_axis_not_d():
    q, k = np.ones(8), np.ones(6)
    with pytest.raises(ValueError, match=r"^k must have last axis of length d=8, got shape \(6,\)$"):
        relative_position_error(q, k, 0.0, 1.0)


def test_odd_last_axis():
    with pytest.raises(ValueError, match=r"^x must have a positive even last axis"):
        apply_rope(np.ones((2, 5)), 0, layout="interleaved", base=10000.0)


def test_scalar_x():
    with pytest.raises(ValueError, match=r"^x must have at least one axis"):
        apply_rope(np.float64(1.0), 0, layout="interleaved", base=10000.0)


def test_positions_not_broadcastable():
    with pytest.raises(ValueError, match=r"^m must be broadcastable to x.shape\[:-1\]=\(3,\), got shape \(4,\)$"):
        apply_rope(X, np.arange(4), layout="interleaved", base=10000.0)


def test_positions_with_more_axes_than_x():
    with pytest.raises(ValueError, match=r"^m must be broadcastable to x.shape\[:-1\]=\(3,\), got shape \(2, 3\)$"):
        apply_rope(X, np.zeros((2, 3)), layout="interleaved", base=10000.0)


def test_unknown_layout():
    with pytest.raises(ValueError, match=r"^layout must be one of \('interleaved', 'half'\), got 'neox'$"):
        apply_rope(X, 0, layout="neox", base=10000.0)


def test_non_string_layout():
    with pytest.raises(TypeError, match=r"^layout must be one of"):
        rotation_matrix(0.0, 4, layout=1)


def test_integer_x():
    with pytest.raises(TypeError, match=r"^x must be a real floating-point array .*got array of dtype int64"):
        apply_rope(np.ones((2, 4), dtype=np.int64), 0, layout="interleaved", base=10000.0)


def test_boolean_x():
    with pytest.raises(TypeError, match=r"^x must be a real floating-point array .*got array of dtype bool"):
        apply_rope(np.ones((2, 4), dtype=bool), 0, layout="interleaved", base=10000.0)


def test_complex_x():
    with pytest.raises(TypeError, match=r"^x must be a real floating-point array .*got array of dtype complex128"):
        apply_rope(np.ones((2, 4), dtype=complex), 0, layout="interleaved", base=10000.0)


def test_to_half_rejects_odd_axis():
    with pytest.raises(ValueError, match=r"^x must have a positive even last axis"):
        to_half(np.ones(3))
