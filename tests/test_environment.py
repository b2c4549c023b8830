"""environment.yml (conda route) agrees with pyproject.toml (ranges) and requirements-lock.txt (pins)."""

import re
import sys
from pathlib import Path

import pytest
import yaml
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name
from packaging.version import Version

tomllib = pytest.importorskip("tomllib") if sys.version_info >= (3, 11) else pytest.importorskip("tomli")

ROOT = Path(__file__).resolve().parents[1]
CONDA_NAMES = {"matplotlib-base": "matplotlib"}  # conda-forge name -> PyPI name


def pyproject():
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


# Extras that environment.yml (the conda route) carries; the heavy optional extras have venvs and locks of
# their own (`make conformance`: requirements-conformance.txt), checked by test_extra_locks_satisfy_ranges.
CONDA_EXTRAS = ("test", "notebooks", "model")
OWN_LOCKS = {"conformance": "requirements-conformance.txt"}


def project_requirements(extras=CONDA_EXTRAS):
    project = pyproject()["project"]
    reqs = [Requirement(r) for r in project["dependencies"]]
    for name, extra in project["optional-dependencies"].items():
        if name in extras:
            reqs += [Requirement(r) for r in extra]
    return {canonicalize_name(r.name): r for r in reqs}


def lock_pins(lock="requirements-lock.txt"):
    pins = {}
    for line in (ROOT / lock).read_text().splitlines():
        line = line.split("#")[0].strip()
        if line:
            name, version = line.split("==")
            pins[canonicalize_name(name)] = version
    return pins


def conda_env():
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    specs, pip = {}, []
    for dep in env["dependencies"]:
        if isinstance(dep, dict):
            pip += dep["pip"]
            continue
        match = re.fullmatch(r"([A-Za-z0-9_.\-]+)\s*(.*)", dep)
        name, spec = match.group(1), match.group(2)
        specs[canonicalize_name(CONDA_NAMES.get(name, name))] = spec
    return env, specs, pip


def test_channels_and_editable_install():
    env, _, pip = conda_env()
    assert env["channels"] == ["conda-forge", "nodefaults"]
    assert pip == ["-e ."]


def test_every_project_requirement_is_in_environment_yml():
    _, specs, _ = conda_env()
    missing = sorted(set(project_requirements()) - set(specs))
    assert not missing, f"environment.yml lacks {missing}"


def test_environment_pins_equal_lock_pins():
    _, specs, _ = conda_env()
    pins = lock_pins()
    for name, spec in specs.items():
        if name in pins:
            assert spec == f"={pins[name]}", f"{name}: environment.yml has {spec!r}, lock has =={pins[name]}"


def test_lock_pins_satisfy_pyproject_ranges():
    pins = lock_pins()
    for name, req in project_requirements().items():
        if name in pins:
            assert Version(pins[name]) in req.specifier, f"{name}=={pins[name]} outside {req.specifier}"


def test_runtime_and_test_requirements_are_locked():
    pins = lock_pins()
    project = pyproject()["project"]
    needed = project["dependencies"] + project["optional-dependencies"]["test"]
    missing = [r for r in needed if canonicalize_name(Requirement(r).name) not in pins]
    assert not missing, f"requirements-lock.txt lacks {missing}"


@pytest.mark.parametrize(("extra", "lock"), OWN_LOCKS.items())
def test_extra_locks_satisfy_ranges(extra, lock):
    pins = lock_pins(lock)
    for text in pyproject()["project"]["optional-dependencies"][extra]:
        req = Requirement(text)
        name = canonicalize_name(req.name)
        assert name in pins, f"{lock} lacks {name}"
        assert Version(pins[name]) in req.specifier, f"{name}=={pins[name]} outside {req.specifier}"


def test_python_version_agrees():
    _, specs, _ = conda_env()
    version = specs["python"].lstrip("=")
    assert Version(version) in SpecifierSet(pyproject()["project"]["requires-python"])


def test_the_check_can_fail(tmp_path, monkeypatch):
    """A pin that differs from the lock is reported (guards the guard)."""
    text = (ROOT / "environment.yml").read_text().replace("sympy=1.14.0", "sympy=1.12")
    (tmp_path / "environment.yml").write_text(text)
    for name in ("pyproject.toml", "requirements-lock.txt"):
        (tmp_path / name).write_text((ROOT / name).read_text())
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    with pytest.raises(AssertionError, match="sympy"):
        test_environment_pins_equal_lock_pins()
