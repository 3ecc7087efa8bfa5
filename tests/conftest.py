"""Test-wide settings."""

from hypothesis import settings

# Speed is measured by the benchmarks, never asserted by tests: a loaded CI machine must not
# fail a property test on Hypothesis' per-example deadline.
settings.register_profile("console", deadline=None)
settings.load_profile("console")
