r"""The ``ropemath derive`` command: print the sympy derivation, the proofs and the refutations.

Every formula printed is rendered by sympy from the expressions proved.  Exit code 1 (failing items named
on stderr) if a step is not verified, a proof does not hold or a refutation is not established.

References: Su et al., *RoFormer*, arXiv:2104.09864 v5, §3.2.1; Su Jianlin, kexue.fm/archives/8265.
"""

from __future__ import annotations

import argparse
import sys

PARTS = ("steps", "proofs", "refutations")

def add_cli_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``ropemath derive``."""
    parser.add_argument("--latex", action="store_true", help="print LaTeX instead of plain text")
    parser.add_argument("--only", choices=PARTS, nargs="+", default=None,
                        help="print only these parts (default: steps proofs refutations)")


def _steps(latex: bool) -> list[str]:
    from ropemath.symbolic.derivation import derivation_steps, rope_2d_solution

    failed = []
    print("Derivation of RoPE in two dimensions (RoFormer §3.2.1), each step checked by sympy")
    for s in derivation_steps():
        flag = "verified" if s.verified else "NOT VERIFIED"
        print(f"\nStep {s.number:>2} [{flag}] {s.key}: {s.heading(latex)}")
        print(f"  why: {s.explain(latex)}")
        print(f"  how: {s.method}")
        print(f"  $$ {s.latex} $$" if latex else "  " + s.text.replace("\n", "\n  "))
        if not s.verified:
            failed.append(f"step {s.number} {s.key}")
    import sympy as sp

    solution = rope_2d_solution()
    print("\nResult: f(q, m) = " + (sp.latex(solution) if latex else sp.sstr(solution)))
    return failed


def _proofs(latex: bool) -> list[str]:
    from ropemath.symbolic.proofs import all_proofs

    failed = []
    print("\nIdentities (sympy reduced lhs - rhs to 0: proved for all values, or checked at one size d)")
    for p in all_proofs():
        statement, where = (p.latex, p.where_latex) if latex else (p.text, p.where_text)
        print(f"  [{p.scope if p.holds else 'DOES NOT HOLD'}] {p.name}: {statement}   ({p.source})")
        if where:
            print(f"      where {where}")
        if not p.holds:
            failed.append(f"proof {p.name}")
    return failed


def _refutations(latex: bool) -> list[str]:
    from ropemath.symbolic.refutations import all_refutations

    failed = []
    print("\nRefutations (plausible but false; counterexample, then the proved correct form)")
    for r in all_refutations():
        claim, correct, gap = ((r.claim_latex, r.correct.latex, r.gap.latex) if latex
                               else (r.claim_text, r.correct.text, r.gap.text))
        print(f"\n  [{'refuted' if r.refuted else 'NOT REFUTED'}] {r.name}: claim {claim}   ({r.source})")
        print(f"    {r.summary()}")
        print(f"    correct ({'proved' if r.correct.holds else 'NOT PROVED'}): {correct}")
        print(f"    gap ({'proved' if r.gap.holds else 'NOT PROVED'}): {gap}")
        checked = "checked" if r.cases_hold else "NOT CONFIRMED"
        print(f"    claim holds {r.holds_when} ({checked}: the gap vanishes there)")
        where = r.correct.where_latex if latex else r.correct.where_text
        if where:
            print(f"    where {where}")
        if not (r.refuted and r.cases_hold):
            failed.append(f"refutation {r.name}")
    return failed


def run_cli(args: argparse.Namespace) -> int:
    """Print the chosen parts; return 1 (naming the failures on stderr) if anything failed."""
    parts = args.only or PARTS
    failed: list[str] = []
    for part, show in (("steps", _steps), ("proofs", _proofs), ("refutations", _refutations)):
        if part in parts:
            failed += show(args.latex)
    if failed:
        print("ropemath derive: FAILED: " + ", ".join(failed), file=sys.stderr)
        return 1
    print(f"\nok: every item checked ({', '.join(parts)})")
    return 0
