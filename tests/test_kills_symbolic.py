"""Tests that kill surviving mutmut mutants of ropemath.symbolic (``make mutants``).

Each expected value comes from outside the code under test: the package's files on disk, the
paper's formulas worked by hand, or sympy used directly.
"""

from pathlib import Path

import sympy as sp

from ropemath import symbolic

PACKAGE = Path(symbolic.__file__).parent


def test_dir_lists_every_public_name_and_submodule_sorted():
    listed = dir(symbolic)
    submodules = {path.stem for path in PACKAGE.glob("*.py") if not path.stem.startswith("_")}
    assert listed == sorted(listed) and len(listed) == len(set(listed))
    assert set(symbolic.__all__) <= set(listed)
    assert submodules <= set(listed)
    assert {"__getattr__", "__all__", "__name__"} <= set(listed)  # the module's own globals as well


def test_R_is_the_rotation_by_the_angle_itself():
    from ropemath.symbolic.common import a, render
    from ropemath.symbolic.proofs import R

    assert R(a).explicit() == sp.Matrix([[sp.cos(a), -sp.sin(a)], [sp.sin(a), sp.cos(a)]])
    assert render(R(a)) == "R(a)"


def test_complex_rotation_turns_by_m_theta_counter_clockwise():
    from ropemath.symbolic.common import theta
    from ropemath.symbolic.general import complex_rotation

    # e^{i pi/2} = i and e^{2i pi/4} = i: a quarter turn, counter-clockwise (1 -> i, not -i)
    assert complex_rotation(sp.Integer(1), 1).subs(theta, sp.pi / 2) == sp.I
    assert complex_rotation(sp.Integer(1), 2).subs(theta, sp.pi / 4) == sp.I
    assert complex_rotation(sp.Integer(3), 4).subs(theta, sp.pi / 4) == -3  # m = 4, theta = pi/4: a half turn
