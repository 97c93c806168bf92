"""Test configuration: property tests check values, not speed (speed is measured by `make bench`)."""

from hypothesis import settings

settings.register_profile("project", deadline=None)
settings.load_profile("project")
