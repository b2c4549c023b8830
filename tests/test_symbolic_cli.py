"""Tests of ``ropemath derive`` and of the import boundary (``import ropemath`` never loads sympy)."""

import dataclasses
import subprocess
import sys

import sympy as sp

from ropemath.cli.dispatch import main
from ropemath.symbolic import derivation
from ropemath.symbolic.common import m, q, theta


def test_derive_prints_every_part_and_exits_0(capsys):
    assert main(["derive"]) == 0
    out = capsys.readouterr().out
    for number in range(1, 13):
        assert f"Step {number:>2} [verified]" in out
    assert "Result: f(q, m) = q*exp(I*m*theta)" in out
    assert "[checked at d = 6] block_diagonal_d6" in out
    assert "[refuted] relative_sign" in out
    assert "true side = 1, claim = -1, correct form = 1" in out
    assert "NOT" not in out


def test_derive_latex_and_only(capsys):
    assert main(["derive", "--latex", "--only", "steps"]) == 0
    out = capsys.readouterr().out
    assert r"\Longrightarrow" in out and r"e^{i m \theta}" in out
    assert "Identities" not in out and "Refutations" not in out
    assert main(["derive", "--only", "proofs"]) == 0
    out = capsys.readouterr().out
    assert "Step" not in out and "[proved] transpose: R(a).T = R(-a)" in out


def test_derive_exits_1_and_names_a_failing_step(capsys, monkeypatch):
    steps = derivation.derivation_steps()
    i = next(i for i, s in enumerate(steps) if s.key == "solution")
    bad = dataclasses.replace(steps[i], rhs=q * sp.exp(-sp.I * m * theta))
    bad = dataclasses.replace(bad, verified=derivation.verify_step(bad))  # the flag is computed
    assert bad.verified is False
    corrupted = steps[:i] + (bad,) + steps[i + 1 :]
    monkeypatch.setattr(derivation, "derivation_steps", lambda: corrupted)
    assert main(["derive", "--only", "steps"]) == 1
    captured = capsys.readouterr()
    assert "Step 10 [NOT VERIFIED] solution" in captured.out
    assert "FAILED: step 10 solution" in captured.err


def test_import_ropemath_does_not_import_sympy():
    # one fresh interpreter: import ropemath, then the subpackage and its CLI module (which the
    # ropemath parser imports), then use a symbolic function
    code = (
        "import sys; import ropemath; a = 'sympy' in sys.modules; "
        "import ropemath.symbolic as s, ropemath.symbolic.cli; b = 'sympy' in sys.modules; "
        "s.rope_2d_solution; print(a, b, 'sympy' in sys.modules)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.split() == ["False", "False", "True"]
