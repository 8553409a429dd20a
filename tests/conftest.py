"""Shared test settings."""

from hypothesis import HealthCheck, settings

# No wall-clock deadlines in property tests: CI machines are shared; speed lives in bench/.
settings.register_profile(
    "stredisko", deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("stredisko")
