"""Shared pytest configuration: a deterministic hypothesis profile (no deadline, no database)."""

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
