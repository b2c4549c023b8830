"""Shared pytest configuration: a deterministic hypothesis profile (no deadline, no database), and cold
caches in mutmut's test-mapping run (``make mutants``)."""

import os
import sys

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ropemath",
    derandomize=True,  # the same examples on every run and machine: CI failures reproduce
    deadline=None,  # no timed assertions
    database=None,  # write nothing into the checkout
    max_examples=60,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("ropemath")


@pytest.fixture(autouse=True)
def _cold_caches_when_mutmut_maps_tests():
    """mutmut first runs every test once to record which functions each test calls ("stats"), then runs
    each mutant against those tests only. A cached function (``functools.cache``) runs its body in the
    first test that asks for it and nowhere else, so every later test would be missing from the map of
    the functions behind it: in that run, empty the package's caches before each test."""
    if os.environ.get("MUTANT_UNDER_TEST") == "stats":
        for name, module in list(sys.modules.items()):
            if name.startswith("ropemath"):
                for value in list(vars(module).values()):
                    if callable(getattr(value, "cache_clear", None)):
                        value.cache_clear()
    yield

# A script, not a test module: it imports torch and transformers at the top, which only the conformance venv has
# (test_transformers_versions.py imports it there).
collect_ignore = ["conformance/transformers_probe.py"]
