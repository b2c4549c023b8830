"""Tests that kill surviving mutmut mutants of ropemath.symbolic (``make mutants``).

Each expected value comes from outside the code under test: the package's files on disk, the
paper's formulas worked by hand, or sympy used directly.
"""

from pathlib import Path

from ropemath import symbolic

PACKAGE = Path(symbolic.__file__).parent


def test_dir_lists_every_public_name_and_submodule_sorted():
    listed = dir(symbolic)
    submodules = {path.stem for path in PACKAGE.glob("*.py") if not path.stem.startswith("_")}
    assert listed == sorted(listed) and len(listed) == len(set(listed))
    assert set(symbolic.__all__) <= set(listed)
    assert submodules <= set(listed)
    assert {"__getattr__", "__all__", "__name__"} <= set(listed)  # the module's own globals as well
