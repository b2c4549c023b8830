"""The ``ropemath derive`` command: print the sympy derivation, the proofs and the refutations.

Scope: formatting only.  By default all three parts are printed (``--only`` picks some);
``--latex`` prints LaTeX instead of plain text.  The exit code is 1, with the failing items
named on stderr, if any derivation step is not verified, any proof does not hold, or any
refutation is not established; otherwise 0.  sympy is imported only when the command runs.

References: Su et al., *RoFormer*, arXiv:2104.09864 v5, §3.2.1; Su Jianlin, kexue.fm/archives/8265.
"""

from __future__ import annotations

import argparse
import re
import sys

PARTS = ("steps", "proofs", "refutations")

_PLAIN = [  # LaTeX → plain text, for the statements printed without --latex
    (r"\;\Longrightarrow\;", " ==> "), (r"\Rightarrow", "=>"), (r"^\top", "^T"), (r"\,", " "), (r"\;", " "),
    (r"\ ", " "), (r"\quad", " "), (r"\big", ""), (r"\overline{k}", "conj(k)"), (r"\otimes", "*"),
    (r"\cdot", "·"), (r"\times", "×"),
]


def _command(match: re.Match) -> str:
    """A LaTeX command's name, spaced off from neighbouring letters and digits."""
    text, start, end = match.string, match.start(), match.end()
    before = " " if start and text[start - 1].isalnum() else ""
    after = " " if end < len(text) and (text[end].isalnum() or text[end] == "\\") else ""
    return before + match[1] + after


def plain(latex: str) -> str:
    """Return a plain-text rendering of one of this package's LaTeX statements.

    >>> plain(r"(R_m q)^\\top (R_n k) = q^\\top R_{n-m}\\, k")
    '(R_m q)^T (R_n k) = q^T R_(n-m) k'
    >>> plain(r"\\cos\\delta = \\mathrm{Re}\\,e^{i\\delta}")
    'cos delta = Re e^(i delta)'
    """
    for old, new in _PLAIN:
        latex = latex.replace(old, new)
    latex = re.sub(r"\\(mathrm|text)\{([^{}]*)\}", r"\2", latex)
    latex = re.sub(r"\\([A-Za-z]+)", _command, latex)  # \cos\delta -> cos delta
    while re.search(r"[_^]\{[^{}]*\}", latex):
        latex = re.sub(r"([_^])\{([^{}]*)\}", lambda g: g[1] + (g[2] if len(g[2]) == 1 else f"({g[2]})"), latex)
    return re.sub(r" {2,}", " ", latex.replace("{", "").replace("}", ""))


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
        print(f"\nStep {s.number:>2} [{flag}] {s.key}: {s.title}")
        print(f"  why: {s.reason}")
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
    print("\nProofs (holds = sympy reduced lhs - rhs to 0)")
    for p in all_proofs():
        statement = p.latex if latex else plain(p.latex)
        print(f"  [{'holds' if p.holds else 'DOES NOT HOLD'}] {p.name}: {statement}   ({p.source})")
        if not p.holds:
            failed.append(f"proof {p.name}")
    return failed


def _refutations(latex: bool) -> list[str]:
    from ropemath.symbolic.refutations import all_refutations

    failed = []
    print("\nRefutations (plausible but false; counterexample, then the proved correct form)")
    for r in all_refutations():
        show = (lambda t: t) if latex else plain
        print(f"\n  [{'refuted' if r.refuted else 'NOT REFUTED'}] {r.name}: claim {show(r.claim_latex)}   ({r.source})")
        print(f"    {r.summary()}")
        print(f"    correct ({'proved' if r.correct.holds else 'NOT PROVED'}): {show(r.correct.latex)}")
        print(f"    gap ({'proved' if r.gap.holds else 'NOT PROVED'}): {show(r.gap.latex)}; claim holds {r.holds_when}")
        if not r.refuted:
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
