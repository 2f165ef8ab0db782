"""Hypothesis profiles (tests/conftest.py): CI derandomizes, so a run there never fails on a new draw; a
local run keeps Hypothesis's random search."""

from __future__ import annotations

import os
import re
from pathlib import Path

from hypothesis import settings

MAKEFILE = Path(__file__).resolve().parent.parent / "Makefile"


def test_ci_derandomizes_and_dev_searches():
    ci, dev = settings.get_profile("ci"), settings.get_profile("dev")
    assert ci.derandomize and ci.database is None
    assert not dev.derandomize


def test_the_profile_in_force_is_ci_under_ci_or_when_asked(request):
    asked = request.config.getoption("hypothesis_profile", None)
    wanted = "ci" if asked == "ci" or (asked is None and os.environ.get("CI")) else "dev"
    assert settings.default.derandomize == (wanted == "ci")


def test_the_makefile_test_targets_run_the_ci_profile():
    """.ci/run calls `make test` and `make test-slow`."""
    text = MAKEFILE.read_text(encoding="utf-8")
    for target in ("test", "test-slow"):
        recipe = re.search(rf"^{target}:.*\n\t(.*)$", text, flags=re.M)
        assert recipe and "pytest" in recipe[1] and "--hypothesis-profile=ci" in recipe[1], target
