"""The style rules for public functions, checked: summary line, equation, source, doctest, type hints."""

import importlib
import inspect
import pkgutil
from dataclasses import is_dataclass

import pytest

import ropemath

MODULES = sorted(m.name for m in pkgutil.walk_packages(ropemath.__path__, "ropemath.") if m.name != "ropemath.__main__")
# Modules whose public functions implement mathematics: each must show its equation and a doctest.
MATH_MODULES = {
    "ropemath.attention.linear",
    "ropemath.attention.softmax",
    "ropemath.core.apply",
    "ropemath.core.blocks",
    "ropemath.core.checks",
    "ropemath.core.precision",
    "ropemath.core.rotation",
    "ropemath.core.roundoff",
    "ropemath.core.spectrum",
    "ropemath.models.implementations",
    "ropemath.models.scaling",
    "ropemath.models.yarn",
    "ropemath.theory.abel",
    "ropemath.theory.base_bound",
    "ropemath.theory.decay",
    "ropemath.theory.encodings",
    "ropemath.theory.plateau",
}


def public_functions(name):
    module = importlib.import_module(name)
    for attr in getattr(module, "__all__", []):
        obj = getattr(module, attr)
        if inspect.isfunction(obj) and obj.__module__ == name:
            yield attr, obj


@pytest.mark.parametrize("name", MODULES)
def test_module_docstring_states_scope_and_references(name):
    doc = inspect.getdoc(importlib.import_module(name)) or ""
    assert doc.strip(), f"{name} has no docstring"
    last_paragraph = doc.strip().split("\n\n")[-1]
    assert "References" in last_paragraph, f"{name}: docstring must end with its references"


@pytest.mark.parametrize("name", MODULES)
def test_public_functions_have_summary_and_hints(name):
    for attr, fn in public_functions(name):
        doc = inspect.getdoc(fn) or ""
        assert doc and doc.splitlines()[0].strip(), f"{name}.{attr}: no one-line summary"
        sig = inspect.signature(fn)
        assert sig.return_annotation is not inspect.Signature.empty, f"{name}.{attr}: no return type hint"
        for p in sig.parameters.values():
            if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
                assert p.annotation is not inspect.Parameter.empty, f"{name}.{attr}: parameter {p.name} has no hint"


def public_classes(name):
    module = importlib.import_module(name)
    for attr in getattr(module, "__all__", []):
        obj = getattr(module, attr)
        if inspect.isclass(obj) and obj.__module__ == name and not is_dataclass(obj):  # records need no equation
            yield attr, obj


@pytest.mark.parametrize("name", sorted(MATH_MODULES))
def test_math_functions_show_equation_source_and_example(name):
    functions = list(public_functions(name)) + list(public_classes(name))
    assert functions, f"{name} exports nothing"
    for attr, fn in functions:
        doc = inspect.getdoc(fn) or ""
        assert ".. math::" in doc or ":math:" in doc, f"{name}.{attr}: no equation"
        assert ">>>" in doc, f"{name}.{attr}: no doctest example"
