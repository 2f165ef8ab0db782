"""Registry of the five rulesets: ``get(name)`` and ``available()``."""

from __future__ import annotations

import difflib
import importlib

from rulesets.base import RulesError, Ruleset

_NAMES = ("drakerys", "dragonbond", "warbound", "uberdrakes", "dragoborne")


def names() -> tuple[str, ...]:
    """Names of every ruleset, implemented or not."""
    return _NAMES


def get(name: str) -> Ruleset:
    """The ruleset called ``name`` (case-insensitive); :class:`RulesError` with suggestions otherwise."""
    key = name.strip().lower()
    if key not in _NAMES:
        close = difflib.get_close_matches(key, _NAMES, n=2)
        hint = f" (did you mean {' or '.join(close)}?)" if close else ""
        raise RulesError(f"unknown ruleset {name!r}{hint}; known: {', '.join(_NAMES)}")
    return importlib.import_module(f"rulesets.{key}").RULESET


def available() -> list[Ruleset]:
    """Every ruleset, in the registry's order."""
    return [get(n) for n in _NAMES]
