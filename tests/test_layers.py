"""The package's architecture, enforced: subpackages in reading order, lower layers never import
higher ones, no import cycles between modules, and every subpackage documents itself.

The layers (``ropemath.SUBPACKAGES``): core → symbolic → theory → attention → models → claims →
plots → cli.  A module may import its own layer and the layers before it.  Imports are read from
the source with ``ast`` (module level *and* inside functions), so a lazy import cannot hide a
violation.
"""

from __future__ import annotations

import ast
import importlib
import inspect
from pathlib import Path

import pytest

import ropemath

PACKAGE = Path(ropemath.__file__).parent
LAYERS = ropemath.SUBPACKAGES


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path, name: str | None = None) -> set[str]:
    """Every ``ropemath`` module or package that ``path`` (module ``name``) imports, absolute or relative."""
    name = name or module_name(path)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names if alias.name.split(".")[0] == "ropemath"}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != "ropemath":
                continue
            found.add(target)
            for alias in node.names:  # `from ropemath.claims import note000` imports a module
                if (PACKAGE.parent / Path(*f"{target}.{alias.name}".split("."))).with_suffix(".py").exists():
                    found.add(f"{target}.{alias.name}")
    return found


def layer_of(module: str) -> int | None:
    """The layer index of a module, or None for the top-level ``ropemath`` / ``ropemath.__main__``."""
    parts = module.split(".")
    if len(parts) < 2 or parts[1] not in LAYERS:
        return None
    return LAYERS.index(parts[1])


def violations(graph: dict[str, set[str]]) -> list[str]:
    """Edges that go from a lower layer to a higher one, or into the top-level package (which re-exports
    layers 0-4, so only the top layer, ``cli``, may import it)."""
    bad = []
    for source, targets in graph.items():
        here = layer_of(source)
        if here is None:
            continue
        for target in targets:
            there = layer_of(target)
            if (there is None and here < len(LAYERS) - 1) or (there is not None and there > here):
                bad.append(f"{source} imports {target}")
    return sorted(bad)


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Import cycles between modules (a package's ``__init__`` importing its own modules is not one)."""
    edges = {
        source: {t for t in targets if t in graph and not source.startswith(t + ".") and t != source}
        for source, targets in graph.items()
    }
    found, state = [], {}

    def visit(node, stack):
        state[node] = "open"
        for nxt in sorted(edges[node]):
            if state.get(nxt) == "open":
                found.append(stack[stack.index(nxt) :] + [nxt])
            elif nxt not in state:
                visit(nxt, stack + [nxt])
        state[node] = "done"

    for node in sorted(edges):
        if node not in state:
            visit(node, [node])
    return found


GRAPH = {module_name(p): imports_of(p) for p in sorted(PACKAGE.rglob("*.py"))}


def test_the_folders_are_the_layers():
    folders = sorted(p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").exists())
    assert folders == sorted(LAYERS)
    loose = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert loose == ["__init__.py", "__main__.py", "teaching.py"], f"modules outside the layers: {loose}"


def test_the_teaching_helpers_stand_on_the_core_alone():
    """ropemath.teaching (verdicts, exercises) is outside the layers: it may import only ropemath.core."""
    assert GRAPH["ropemath.teaching"] and all(m.startswith("ropemath.core") for m in GRAPH["ropemath.teaching"])
    assert not any("ropemath.teaching" in GRAPH[m] for m in GRAPH if m.startswith("ropemath.core"))


def test_lower_layers_never_import_higher_ones():
    assert violations(GRAPH) == []


def test_no_import_cycles():
    assert cycles(GRAPH) == []


def test_the_checks_can_say_no():
    # The same functions flag an upward import, an import of the top-level package, and a cycle.
    graph = {
        "ropemath.core.rotation": {"ropemath.plots.decay"},
        "ropemath.theory.decay": {"ropemath"},
        "ropemath.models.a": {"ropemath.models.b"},
        "ropemath.models.b": {"ropemath.models.a"},
    }
    assert violations(graph) == [
        "ropemath.core.rotation imports ropemath.plots.decay",
        "ropemath.theory.decay imports ropemath",
    ]
    assert cycles(graph) == [["ropemath.models.a", "ropemath.models.b", "ropemath.models.a"]]


def test_a_lazy_import_is_seen(tmp_path):
    fake = tmp_path / "rotation.py"
    source = (PACKAGE / "core" / "rotation.py").read_text(encoding="utf-8")
    fake.write_text(source + "\n\ndef _late():\n    from ..cli import main\n", encoding="utf-8")
    graph = {"ropemath.core.rotation": imports_of(fake, "ropemath.core.rotation")}
    assert violations(graph) == ["ropemath.core.rotation imports ropemath.cli"]


@pytest.mark.parametrize("layer", LAYERS)
def test_each_subpackage_documents_itself(layer):
    package = importlib.import_module(f"ropemath.{layer}")
    doc = inspect.getdoc(package) or ""
    assert "References" in doc.strip().split("\n\n")[-1]
    assert hasattr(package, "__all__"), f"ropemath.{layer} has no __all__"
    for name in package.__all__:
        assert hasattr(package, name), f"ropemath.{layer}.__all__ names missing {name}"


def test_help_lists_the_subpackages_in_reading_order():
    doc = ropemath.__doc__
    positions = [doc.index(f"``ropemath.{layer}``") for layer in LAYERS]
    assert positions == sorted(positions)


def test_the_public_api_is_the_union_of_the_numeric_layers():
    exported = set(ropemath.__all__)
    for layer in ("core", "theory", "attention", "models"):
        assert set(importlib.import_module(f"ropemath.{layer}").__all__) <= exported
