"""Independent constructions the tests compare ropemath against.

Written with Python floats and explicit loops, from the paper's formulas (1-based θ index
where the paper uses it), sharing no code with ropemath.
"""

import math

import numpy as np


def paper_theta(j: int, d: int, base: float = 10000.0) -> float:
    """θ_j = base^{-2(j-1)/d} for the paper's j = 1..d/2 (RoFormer eq. 15)."""
    return base ** (-2 * (j - 1) / d)


def angle_tol(m: float) -> float:
    """Rounding allowance for angles: θ_i from two different pow routines may differ in the
    last ulp, and m·θ_i carries that error times |m| (about |m|·2^-52 rad)."""
    return 1e-13 + 1e-15 * abs(float(m))


def loop_block_diagonal(m: float, d: int, base: float = 10000.0) -> np.ndarray:
    """R^d_{Θ,m} assembled 2×2 block by 2×2 block (RoFormer eq. 15)."""
    R = np.zeros((d, d))
    for j in range(1, d // 2 + 1):
        t = paper_theta(j, d, base)
        c, s = math.cos(m * t), math.sin(m * t)
        i = j - 1
        R[2 * i : 2 * i + 2, 2 * i : 2 * i + 2] = [[c, -s], [s, c]]
    return R


def complex_rope(x, m: float, base: float = 10000.0) -> np.ndarray:
    """(x[2i] + i·x[2i+1])·e^{i m θ_i} for each pair, written back as interleaved real pairs."""
    d = len(x)
    out = np.empty(d)
    for j in range(1, d // 2 + 1):
        a = m * paper_theta(j, d, base)
        z = complex(x[2 * j - 2], x[2 * j - 1]) * complex(math.cos(a), math.sin(a))
        out[2 * j - 2], out[2 * j - 1] = z.real, z.imag
    return out


def rotate_pairs(x, m, d, base=10000.0):
    """Rotate each adjacent pair (x_2i, x_2i+1) by m theta_i, written out with cos/sin (RoFormer eq. 13-15)."""
    out = np.empty(d)
    for i in range(d // 2):
        a = m * base ** (-2 * i / d)
        out[2 * i] = math.cos(a) * x[2 * i] - math.sin(a) * x[2 * i + 1]
        out[2 * i + 1] = math.sin(a) * x[2 * i] + math.cos(a) * x[2 * i + 1]
    return out
