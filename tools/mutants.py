"""Mutation testing of ropemath.claims and ropemath.symbolic: can the test suite tell a broken check from a good one?

Usage:  python tools/mutants.py [--jobs N] [--only MODULE ...] [--limit N] [--list] [--json FILE]
        (`make mutants`; slow — minutes to an hour — and not part of `make test`)

Each mutant changes one spot of one module of the two packages, with one of these operators:

* ``sign``        ``a + b`` <-> ``a - b``, ``a * b`` <-> ``a / b``, ``-x`` -> ``x``, ``a ** b`` -> ``a * b``
* ``compare``     ``<`` <-> ``<=``, ``>`` <-> ``>=``, ``==`` <-> ``!=``, ``is`` <-> ``is not``, ``in`` <-> ``not in``
* ``logic``       ``and`` <-> ``or``, ``not x`` -> ``x``
* ``constant``    an integer k -> k + 1, a float x -> 2x (0.0 -> 1.0), ``True`` <-> ``False``
* ``verdict``     a verdict string "holds" / "fails" / "holds-if" replaced by another (a check that
                  returns a constant verdict)
* ``drop``        ``sp.simplify(e)``, ``expand``, ``expand_trig``, ``expand_complex``, ``trigsimp``,
                  ``factor``, ``solve(...)``, ``.doit()`` -> their argument / receiver (a proof step dropped)
* ``return``      ``return <expr>`` of a ``bool`` -> ``return True`` (a check that ignores what it computed)

Docstrings, f-strings, other string constants, type annotations and lines marked ``# no mutate``
are left alone.  A mutant is *killed* when the tests of its package (`TESTS` below, run with
``pytest -x``) fail or time out, *survives* when they pass.  Each mutant runs in a forked child
of a process that has already imported numpy, sympy and pytest; the child serves the mutated
source through an import hook, so nothing on disk changes and mutants run in parallel.

Test selection (``--no-select`` turns it off): one coverage run of the package's tests, with one
coverage context per test and the package's ``functools`` caches switched off (so that every test
that *reads* a cached result runs the code that computes it), maps each statement to the tests
that execute it; a mutant runs only those.  A mutant in a function's header (a default, a
decorator's argument) runs the tests that execute the function's body; one in a statement run at
import (module constants, the ledger's entries) runs the whole set; one in a statement that no
test executes survives without a run.  The map is kept in ``.mutants-map-<package>.json`` while the
package's sources and tests are unchanged.  A test id pytest cannot take falls back to the whole set.

Surviving mutants judged *equivalent* (no test can kill them: the program means the same) are
listed in ``tools/mutants-equivalent.txt``, one per line as ``<module>:<line>:<operator>:<detail>
# reason``; the run reads that file, reports them apart and computes the kill rate without them.
Exit status 1 when the kill rate of either package is below ``--goal`` (90%).

References: R. A. DeMillo, R. J. Lipton, F. G. Sayward, "Hints on test data selection", 1978;
mutmut (the operators above are a subset of its).
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import importlib.abc
import importlib.util
import json
import os
import signal
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("ropemath/claims", "ropemath/symbolic")
TESTS = {
    "ropemath/claims": [
        "tests/test_claims.py",
        "tests/test_claims_rubric.py",
        "tests/test_claims_report.py",
        "tests/test_verdict.py",
        "tests/test_claims_controls_a.py",
        "tests/test_claims_controls_b.py",
        "tests/test_claims_literal_000_003.py",
        "tests/test_claims_literal_001.py",
        "tests/test_claims_literal_002.py",
        "tests/test_claims_literal_004.py",
        "tests/test_claims_mutants.py",
        "tests/test_claims_mutants_*.py",  # globs: the per-module files that kill survivors
    ],
    "ropemath/symbolic": [
        "tests/test_symbolic_mutants.py",
        "tests/test_symbolic_mutants_*.py",
        "tests/test_symbolic_proofs.py",
        "tests/test_symbolic_refutations.py",
        "tests/test_symbolic_derivation.py",
        "tests/test_symbolic_cli.py",
        "tests/test_symbolic_display.py",
        "tests/test_claims.py",
    ],
}
EQUIVALENT = ROOT / "tools" / "mutants-equivalent.txt"
VERDICTS = ("holds", "fails", "holds-if")
DROPPED_CALLS = {"simplify", "expand", "expand_trig", "expand_complex", "trigsimp", "factor", "nsimplify"}
SWAP_BINOP = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Div, ast.Div: ast.Mult, ast.Pow: ast.Mult}
SWAP_CMP = {
    ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Eq: ast.NotEq, ast.NotEq: ast.Eq,
    ast.Is: ast.IsNot, ast.IsNot: ast.Is, ast.In: ast.NotIn, ast.NotIn: ast.In,
}  # fmt: skip


@dataclasses.dataclass(frozen=True)
class Mutant:
    """One change: module path, the n-th mutable spot of the module, where it is and what it does."""

    path: str
    index: int
    line: int
    operator: str
    detail: str

    @property
    def key(self) -> str:
        return f"{self.path}:{self.line}:{self.operator}:{self.detail}"

    @property
    def package(self) -> str:
        return str(Path(self.path).parent)


def _skip_nodes(tree: ast.AST) -> set[int]:
    """ids of nodes never mutated: docstrings, f-strings, annotations, decorators' text arguments."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            if isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
                skip.update(id(n) for n in ast.walk(body[0]))
        if isinstance(node, ast.JoinedStr):
            skip.update(id(n) for n in ast.walk(node))
        for field in ("annotation", "returns"):
            sub = getattr(node, field, None)
            if sub is not None:
                skip.update(id(n) for n in ast.walk(sub))
    return skip


class _Mutator(ast.NodeTransformer):
    """Walks a module; numbers every mutable spot; applies the change at spot ``target`` (or none: -1)."""

    def __init__(self, target: int, skip: set[int], quiet_lines: set[int]) -> None:
        self.target, self.skip, self.quiet = target, skip, quiet_lines
        self.count = 0
        self.found: list[tuple[int, str, str]] = []
        self.bool_functions: list[bool] = []

    def _spot(self, node: ast.AST, operator: str, detail: str) -> bool:
        if id(node) in self.skip or getattr(node, "lineno", 0) in self.quiet:
            return False
        index = self.count
        self.count += 1
        self.found.append((getattr(node, "lineno", 0), operator, detail))
        return index == self.target

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        returns_bool = isinstance(node.returns, ast.Name) and node.returns.id == "bool"
        self.bool_functions.append(returns_bool)
        self.generic_visit(node)
        self.bool_functions.pop()
        return node

    def visit_Return(self, node: ast.Return) -> ast.AST:
        self.generic_visit(node)
        if (
            self.bool_functions
            and self.bool_functions[-1]
            and node.value is not None
            and not (isinstance(node.value, ast.Constant) and node.value.value is True)
            and self._spot(node, "return", "True")
        ):
            node.value = ast.Constant(True)
        return node

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        self.generic_visit(node)
        new = SWAP_BINOP.get(type(node.op))
        if new and self._spot(node, "sign", f"{type(node.op).__name__}->{new.__name__}"):
            node.op = new()
        return node

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.op, ast.USub) and self._spot(node, "sign", "USub->drop"):
            return node.operand
        if isinstance(node.op, ast.Not) and self._spot(node, "logic", "Not->drop"):
            return node.operand
        return node

    def visit_Compare(self, node: ast.Compare) -> ast.AST:
        self.generic_visit(node)
        for i, op in enumerate(node.ops):
            new = SWAP_CMP.get(type(op))
            if new and self._spot(node, "compare", f"{i}:{type(op).__name__}->{new.__name__}"):
                node.ops[i] = new()
        return node

    def visit_BoolOp(self, node: ast.BoolOp) -> ast.AST:
        self.generic_visit(node)
        new = ast.Or if isinstance(node.op, ast.And) else ast.And
        if self._spot(node, "logic", f"{type(node.op).__name__}->{new.__name__}"):
            node.op = new()
        return node

    def visit_Constant(self, node: ast.Constant) -> ast.AST:
        v = node.value
        if isinstance(v, bool):
            if self._spot(node, "constant", f"{v}->{not v}"):
                return ast.Constant(not v)
        elif isinstance(v, int):
            if self._spot(node, "constant", f"{v}->{v + 1}"):
                return ast.Constant(v + 1)
        elif isinstance(v, float):
            new = 2 * v if v != 0 else 1.0
            if self._spot(node, "constant", f"{v!r}->{new!r}"):
                return ast.Constant(new)
        elif isinstance(v, str) and v in VERDICTS:
            new = {"holds": "fails", "fails": "holds", "holds-if": "holds"}[v]
            if self._spot(node, "verdict", f"{v}->{new}"):
                return ast.Constant(new)
        return node

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
        if name in DROPPED_CALLS and node.args and self._spot(node, "drop", name):
            return node.args[0]
        if name == "doit" and isinstance(func, ast.Attribute) and not node.args and self._spot(node, "drop", "doit"):
            return func.value
        return node


def _quiet_lines(source: str) -> set[int]:
    return {i for i, line in enumerate(source.splitlines(), 1) if "# no mutate" in line}


def list_mutants(path: str) -> list[Mutant]:
    """Every mutant of the module at ``path`` (relative to the repository root), in source order."""
    source = (ROOT / path).read_text(encoding="utf-8")
    tree = ast.parse(source)
    m = _Mutator(-1, _skip_nodes(tree), _quiet_lines(source))
    m.visit(tree)
    out, seen = [], {}
    for i, (line, op, detail) in enumerate(m.found):
        n = seen[line, op, detail] = seen.get((line, op, detail), 0) + 1
        out.append(Mutant(path, i, line, op, detail if n == 1 else f"{detail}#{n}"))  # keys stay unique
    return out


def mutated_source(mutant: Mutant) -> str:
    """The module's source with the one change of ``mutant`` applied (unparsed from the AST)."""
    source = (ROOT / mutant.path).read_text(encoding="utf-8")
    tree = ast.parse(source)
    m = _Mutator(mutant.index, _skip_nodes(tree), _quiet_lines(source))
    tree = m.visit(tree)
    ast.fix_missing_locations(tree)
    return ast.unparse(tree)


class _Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Serves ``source`` for module ``name`` (the mutant); everything else imports normally."""

    def __init__(self, name: str, path: Path, source: str) -> None:
        self.package = name.endswith(".__init__")  # a package's __init__.py is imported as the package itself
        self.name = name.removesuffix(".__init__")
        self.path, self.source = path, source

    def find_spec(self, fullname, path=None, target=None):  # noqa: D102 (importlib protocol)
        if fullname != self.name:
            return None
        spec = importlib.util.spec_from_loader(fullname, self, origin=str(self.path), is_package=self.package)
        if self.package:
            spec.submodule_search_locations = [str(self.path.parent)]
        return spec

    def create_module(self, spec):  # noqa: D102
        return None

    def exec_module(self, module):  # noqa: D102
        module.__file__ = str(self.path)
        exec(compile(self.source, str(self.path), "exec"), module.__dict__)


def _purge(package: str) -> None:
    """Forget the modules a mutant of ``package`` may change (and what imports them), and the tests."""
    prefixes = ["ropemath.claims", "ropemath.cli", "tests.", "test_", "conftest"]
    if package == "ropemath/symbolic":
        prefixes.append("ropemath.symbolic")
    for mod in list(sys.modules):
        if mod.startswith(tuple(prefixes)):
            del sys.modules[mod]


def _header_bodies(path: str) -> dict[int, list[int]]:
    """line of a function's header (decorators, defaults) -> the lines of its body: a mutant of a
    default or a decorator's argument matters only where the function runs."""
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    out: dict[int, list[int]] = {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            body = list(range(node.body[0].lineno, node.end_lineno + 1))
            for line in range(first, node.body[0].lineno):
                out[line] = body
    return out


#: key of the coverage map listing the tests that failed in the coverage run
FAILED_KEY = "__failed__"


def _statement_lines(path: str) -> dict[int, int]:
    """line -> first line of the innermost statement containing it (the line coverage records)."""
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    best: dict[int, tuple[int, int]] = {}  # line -> (span, statement's first line)
    for node in ast.walk(tree):
        if isinstance(node, ast.stmt):
            span = node.end_lineno - node.lineno
            for line in range(node.lineno, node.end_lineno + 1):
                if line not in best or span < best[line][0]:
                    best[line] = (span, node.lineno)
    return {line: first for line, (_, first) in best.items()}


class _ContextPerTest:
    """pytest plugin: coverage context = the running test's node id (setup, call and teardown)."""

    def __init__(self, cov) -> None:
        self.cov = cov
        self.failed: set[str] = set()

    def pytest_runtest_logreport(self, report):  # noqa: D102 (pytest hook)
        if report.failed:
            self.failed.add(report.nodeid)

    def pytest_runtest_logstart(self, nodeid, location):  # noqa: D102 (pytest hook)
        self.cov.switch_context(nodeid)

    def pytest_runtest_logfinish(self, nodeid, location):  # noqa: D102
        self.cov.switch_context("")


def _map_child(package: str, tests: list[str], out: str) -> int:
    """In a forked child: run the tests of ``package`` under coverage with one context per test and
    write, per module, line -> test ids (``""`` = run at import or collection) and the unexecuted
    statements.  Caches are switched off first, so that every test that reads a cached result runs
    the code that computes it and is selected for its mutants."""
    import functools

    import coverage
    import pytest

    def ours(f) -> bool:
        return getattr(f, "__module__", "").startswith("ropemath.")

    cache, lru_cache, cached_property = functools.cache, functools.lru_cache, functools.cached_property

    def lru(*a, **k):
        if a and callable(a[0]):
            return a[0] if ours(a[0]) else lru_cache(*a, **k)
        decorate = lru_cache(*a, **k)
        return lambda f: f if ours(f) else decorate(f)

    class NoCachedProperty(cached_property):
        def __new__(cls, func):
            return property(func) if ours(func) else super().__new__(cls)

    functools.cache = lambda f: f if ours(f) else cache(f)
    functools.lru_cache, functools.cached_property = lru, NoCachedProperty
    _purge(package)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    cov = coverage.Coverage(data_file=None, include=[str(ROOT / package / "*.py")])
    cov.start()
    args = ["-q", "-p", "no:cacheprovider", "-p", "no:randomly", "--no-header", "-W", "ignore", *tests]
    plugin = _ContextPerTest(cov)
    code = int(pytest.main(args, plugins=[plugin]))
    cov.stop()
    data, result = cov.get_data(), {FAILED_KEY: sorted(plugin.failed)}
    for path in sorted((ROOT / package).glob("*.py")):
        rel = str(path.relative_to(ROOT))
        _, statements, _, missing, _ = cov.analysis2(str(path))
        contexts = data.contexts_by_lineno(str(path))
        result[rel] = {"missing": sorted(missing), "lines": {str(k): sorted(v) for k, v in contexts.items()}}
    Path(out).write_text(json.dumps(result), encoding="utf-8")
    # a test that fails only because the caches are off (e.g. one asserting that two calls return the
    # same cached object) is no reason to give up: it is run for every mutant (see select_tests)
    return 0 if code == 1 and plugin.failed else code


def select_tests(package: str, mutants: list[Mutant]) -> dict[str, list[str]]:
    """key -> the test ids that execute the mutant's statement ([] = no test executes it); mutants of
    statements run at import are left out (they get the whole test set)."""
    import hashlib
    import tempfile

    tests = test_files(package)
    digest = hashlib.sha256()
    for path in [*sorted((ROOT / package).glob("*.py")), *(ROOT / t for t in tests)]:
        digest.update(str(path).encode() + path.read_bytes())
    cached = ROOT / f".mutants-map-{Path(package).name}.json"  # reused while sources and tests are unchanged
    coverage_map = None
    if cached.exists():
        stored = json.loads(cached.read_text(encoding="utf-8"))
        if stored.get("digest") == digest.hexdigest():
            coverage_map = stored["map"]
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "map.json")
        if coverage_map is None:
            pid = os.fork()
            if pid == 0:
                code = 1
                try:
                    code = _map_child(package, tests, out)
                finally:
                    os._exit(code)
            _, status = os.waitpid(pid, 0)
            if os.waitstatus_to_exitcode(status) != 0 or not os.path.exists(out):
                raise SystemExit(f"the coverage run of the tests of {package} failed: fix the tests first")
            coverage_map = json.loads(Path(out).read_text(encoding="utf-8"))
            cached.write_text(json.dumps({"digest": digest.hexdigest(), "map": coverage_map}), encoding="utf-8")
    # tests that failed in the coverage run (caches off) may stop before the lines they cover with
    # caches on: they cannot be mapped, so every mutant runs them
    always = coverage_map.get(FAILED_KEY, [])
    if always:
        print(f"coverage run of {package}: {len(always)} test(s) failed with the caches off, run for every "
              f"mutant: {', '.join(always)}", file=sys.stderr)
    selection: dict[str, list[str]] = {}
    statement_of = {path: _statement_lines(path) for path in {m.path for m in mutants}}
    header_of = {path: _header_bodies(path) for path in {m.path for m in mutants}}
    for m in mutants:
        info = coverage_map.get(m.path)
        line = statement_of[m.path].get(m.line)
        if info is None or line is None:
            continue
        if m.line in header_of[m.path]:  # a default or a decorator's argument: the tests that run the body
            ids = {t for b in header_of[m.path][m.line] for t in info["lines"].get(str(b), ())} - {""}
            if ids:
                selection[m.key] = sorted(ids | set(always))
                continue
        ids = info["lines"].get(str(line))
        if ids is None:
            if line in info["missing"]:
                selection[m.key] = list(always)  # no test executes this statement (but those that failed might)
            continue
        if "" not in ids:
            selection[m.key] = sorted(set(ids) | set(always))
    return selection


def _run_child(mutant: Mutant, tests: list[str]) -> int:
    """In a forked child: install the mutant, re-import the packages, run the tests; return pytest's code."""
    import pytest

    name = mutant.path[:-3].replace("/", ".")
    _purge(mutant.package)
    sys.meta_path.insert(0, _Finder(name, ROOT / mutant.path, mutated_source(mutant)))
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    args = ["-x", "-q", "-p", "no:cacheprovider", "-p", "no:randomly", "--no-header", "-W", "ignore", *tests]
    return int(pytest.main(args))


def run(mutants: list[Mutant], jobs: int, timeout: float, select: bool = True) -> dict[str, str]:
    """Run every mutant (``jobs`` at a time); return key -> "killed" / "survived" / "timeout".

    With ``select``, a coverage run first finds the tests that execute each mutated statement and a
    mutant runs only those (a statement no test executes survives without a run; one executed at
    import runs the whole set)."""
    import numpy  # noqa: F401  (imported once in the parent, shared by every forked child)
    import pytest  # noqa: F401
    import sympy  # noqa: F401

    import ropemath  # noqa: F401
    import ropemath.core  # noqa: F401

    os.chdir(ROOT)
    # Children inherit what the parent imported: load pytest's plugins once here (a collection of a
    # small file, output discarded), and let Python and pytest's assertion rewriter keep their
    # compiled files (PYTHONDONTWRITEBYTECODE would make every child recompile every test module).
    sys.dont_write_bytecode = False
    saved, devnull = os.dup(1), os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    pytest.main(["--collect-only", "-q", "-p", "no:cacheprovider", "-p", "no:randomly", "tests/test_verdict.py"])
    os.dup2(saved, 1)
    _purge("ropemath/symbolic")
    results: dict[str, str] = {}
    # symbolic mutants first, from a parent that has not imported ropemath.symbolic; then the
    # claims mutants, from a parent whose sympy proofs are computed and cached (they cannot change)
    for package in ("ropemath/symbolic", "ropemath/claims"):
        group = [m for m in mutants if m.package == package]
        if not group:
            continue
        if package == "ropemath/claims":
            import ropemath.claims

            ropemath.claims.run_ledger()
            _purge(package)
        baseline = Mutant(group[0].path, -1, 0, "none", "unchanged")
        if _fork_all([baseline], 1, timeout)[baseline.key] != "survived":
            raise SystemExit(f"the tests of {package} fail without any mutant: fix them first")
        selection = select_tests(package, group) if select else {}
        for m in group:
            if selection.get(m.key) == []:
                results[m.key] = "survived"
        group = [m for m in group if m.key not in results]
        print(f"{package}: {len(group)} mutants to run, {sum(1 for k in selection if selection[k])} with "
              f"selected tests", file=sys.stderr, flush=True)
        results.update(_fork_all(group, jobs, timeout, selection))
    return results


def test_files(package: str) -> list[str]:
    """The test files of ``package`` that exist (globs in ``TESTS`` expanded, in order)."""
    out: list[str] = []
    for pattern in TESTS[package]:
        for path in sorted(ROOT.glob(pattern)) if "*" in pattern else [ROOT / pattern]:
            rel = str(path.relative_to(ROOT))
            if path.exists() and rel not in out:
                out.append(rel)
    return out


def _fork_all(
    mutants: list[Mutant], jobs: int, timeout: float, selection: dict[str, list[str]] | None = None
) -> dict[str, str]:
    """Run each mutant in a forked child against its selected tests (``selection``: key -> test ids;
    missing: the package's whole test set); key -> "killed" / "survived" / "timeout"."""
    selection = selection or {}
    results: dict[str, str] = {}
    running: dict[int, tuple[Mutant, float]] = {}
    queue = list(mutants)
    done = 0
    while queue or running:
        while queue and len(running) < jobs:
            mutant = queue.pop(0)
            tests = selection.get(mutant.key) or test_files(mutant.package)
            pid = os.fork()
            if pid == 0:
                code = 1
                try:
                    code = _run_child(mutant, tests)
                finally:
                    os._exit(code)
            running[pid] = (mutant, time.monotonic())
        pid, status = os.waitpid(-1, os.WNOHANG)
        if pid == 0:
            time.sleep(0.05)
            for p, (mutant, start) in list(running.items()):
                if time.monotonic() - start > timeout:
                    os.kill(p, signal.SIGKILL)
                    os.waitpid(p, 0)
                    del running[p]
                    results[mutant.key] = "timeout"
                    done += 1
            continue
        mutant, _ = running.pop(pid)
        code = os.waitstatus_to_exitcode(status)
        if code in (4, 5) and selection.pop(mutant.key, None):  # a test id pytest could not take
            queue.append(mutant)
            continue
        results[mutant.key] = "survived" if code == 0 else "killed"
        done += 1
        if done % 25 == 0:
            print(f"  {done}/{len(mutants)} run", file=sys.stderr, flush=True)
    return results


def read_equivalent() -> dict[str, str]:
    """The mutants judged equivalent: key -> reason (from tools/mutants-equivalent.txt)."""
    out = {}
    if EQUIVALENT.exists():
        for line in EQUIVALENT.read_text(encoding="utf-8").splitlines():
            if line.strip() and not line.startswith("#"):
                key, _, reason = line.strip().partition(" ")  # a key has no spaces but may end in "#2"
                out[key] = reason.strip().removeprefix("#").strip()
    return out


def wilson(killed: int, total: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval for a kill rate measured on a sample of ``total`` mutants.

    >>> [round(v, 3) for v in wilson(90, 100)]
    [0.826, 0.945]
    """
    if total <= 0:
        return 0.0, 1.0
    p = killed / total
    centre = (p + z * z / (2 * total)) / (1 + z * z / total)
    half = z * ((p * (1 - p) / total + z * z / (4 * total * total)) ** 0.5) / (1 + z * z / total)
    return max(0.0, centre - half), min(1.0, centre + half)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tools/mutants.py", description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--only", nargs="+", metavar="MODULE", help="module paths, e.g. ropemath/claims/_verdict.py")
    parser.add_argument("--limit", type=int, default=0, help="run only every k-th mutant so that about N run")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per mutant (default 120)")
    parser.add_argument("--goal", type=float, default=0.90)
    parser.add_argument("--tests", nargs="+", metavar="FILE", help="run these test files instead of TESTS")
    parser.add_argument("--list", action="store_true", help="list the mutants and exit")
    parser.add_argument("--keys", metavar="FILE", help="run only the mutants whose keys FILE lists (one per line)")
    parser.add_argument("--no-select", action="store_true",
                        help="run every mutant against the whole test set (no coverage-based selection)")
    parser.add_argument("--json", metavar="FILE", help="write every mutant and its fate to FILE")
    args = parser.parse_args(argv)
    paths = args.only or sorted(str(p.relative_to(ROOT)) for pkg in PACKAGES for p in (ROOT / pkg).glob("*.py"))
    mutants = [m for p in paths for m in list_mutants(p)]
    if args.keys:
        wanted = {line.split()[0] for line in Path(args.keys).read_text(encoding="utf-8").splitlines() if line.strip()}
        mutants = [m for m in mutants if m.key in wanted]
    sampled = bool(args.limit and len(mutants) > args.limit)
    if sampled:
        step = -(-len(mutants) // args.limit)
        mutants = mutants[::step]
    if args.list:
        for m in mutants:
            print(m.key)
        print(f"{len(mutants)} mutants")
        return 0
    if args.tests:
        for pkg in TESTS:
            TESTS[pkg] = args.tests
    equivalent = read_equivalent()
    print(f"{len(mutants)} mutants over {len(paths)} modules, {args.jobs} jobs", file=sys.stderr)
    results = run(mutants, args.jobs, args.timeout, not args.no_select)
    failed = False
    for pkg in PACKAGES:
        mine = [m for m in mutants if m.package == pkg]
        if not mine:
            continue
        eq = [m for m in mine if results[m.key] == "survived" and m.key in equivalent]
        survivors = [m for m in mine if results[m.key] == "survived" and m.key not in equivalent]
        killed = [m for m in mine if results[m.key] in ("killed", "timeout")]
        rate = len(killed) / max(1, len(mine) - len(eq))
        print(f"{pkg}: {len(mine)} mutants, {len(killed)} killed, {len(eq)} equivalent (listed), "
              f"{len(survivors)} survived: kill rate {rate:.1%} (goal {args.goal:.0%})")  # fmt: skip
        if sampled:
            low, high = wilson(len(killed), len(mine) - len(eq))
            print(f"  a systematic sample (--limit): the kill rate of all mutants lies in [{low:.1%}, {high:.1%}] "
                  "with 95% confidence (Wilson interval)")
        for m in survivors:
            print(f"  survived  {m.key}")
        failed |= rate < args.goal
    stale = sorted(set(equivalent) - {m.key for m in mutants})
    if stale and not args.only and not args.limit:
        print(f"{len(stale)} entries of {EQUIVALENT.name} match no mutant (the code moved): {stale[:5]}")
    if args.json:
        data = [{**dataclasses.asdict(m), "key": m.key, "fate": results[m.key]} for m in mutants]
        Path(args.json).write_text(json.dumps(data, indent=1), encoding="utf-8")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
