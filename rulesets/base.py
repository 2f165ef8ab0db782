"""Types shared by every ruleset: rulings, ruleset descriptions, errors."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Self

import numpy as np


class RulesError(ValueError):
    """Input that the rules cannot accept (a domain error: exit code 1 on the command line)."""


def whole_number(name: str, value: object, low: int, high: int | None = None) -> int:
    """``value`` as an int if it is a whole number (numpy integers too, never bool) in ``low..high``;
    a RulesError naming ``name``, the value and the accepted range otherwise."""
    accepted = f"from {low} to {high}" if high is not None else f">= {low}"
    if isinstance(value, bool | np.bool_) or not isinstance(value, int | np.integer) \
            or value < low or (high is not None and value > high):
        raise RulesError(f"{name} {value!r} is not a whole number {accepted}")
    return int(value)


class RulingError(RulesError):
    """An unknown ruling name or a value the ruling does not accept (a usage error: exit code 2)."""


@dataclass(frozen=True)
class RulingSpec:
    """One user-switchable interpretation of ambiguous rulebook text."""

    key: str
    field: str
    default: Any
    accepted: str
    meaning: str
    source: str
    parse: Callable[[str], Any]

    def format(self, value: Any) -> str:
        if isinstance(value, bool):
            return "true" if value else "false"
        return str(value)


def ruling(key: str, default: Any, *, accepted: str, meaning: str, source: str,
           parse: Callable[[str], Any]) -> Any:
    """Declare a ruling as a field of a :class:`Rulings` dataclass."""
    meta = {"key": key, "accepted": accepted, "meaning": meaning, "source": source, "parse": parse}
    return dataclasses.field(default=default, metadata={"ruling": meta})


def parse_bool(text: str) -> bool:
    low = text.strip().lower()
    if low in {"true", "yes", "on", "1"}:
        return True
    if low in {"false", "no", "off", "0"}:
        return False
    raise ValueError(text)


def parse_choice(*choices: str) -> Callable[[str], str]:
    def parse(text: str) -> str:
        low = text.strip().lower()
        if low not in choices:
            raise ValueError(text)
        return low

    return parse


def parse_int_range(low: int, high: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        value = int(text.strip())
        if not low <= value <= high:
            raise ValueError(text)
        return value

    return parse


@dataclass(frozen=True)
class Rulings:
    """Base of every ruleset's rulings: a frozen dataclass whose fields are declared with :func:`ruling`."""

    @classmethod
    def specs(cls) -> tuple[RulingSpec, ...]:
        out = []
        for f in dataclasses.fields(cls):
            m = f.metadata["ruling"]
            out.append(RulingSpec(m["key"], f.name, f.default, m["accepted"], m["meaning"], m["source"],
                                  m["parse"]))
        return tuple(out)

    @classmethod
    def spec(cls, key: str) -> RulingSpec:
        for s in cls.specs():
            if s.key.lower() == key.strip().lower():
                return s
        known = ", ".join(s.key for s in cls.specs())
        raise RulingError(f"unknown ruling {key!r}; this ruleset accepts: {known}")

    def with_overrides(self, assignments: Mapping[str, str]) -> Self:
        """A copy with rulings set from ``{key: text}``; :class:`RulingError` names a bad key or value."""
        changes = {}
        for key, text in assignments.items():
            s = self.spec(key)
            try:
                changes[s.field] = s.parse(text)
            except ValueError:
                message = f"ruling {s.key} does not accept {text!r}; accepted: {s.accepted}"
                raise RulingError(message) from None
        return dataclasses.replace(self, **changes)

    def with_assignments(self, texts: Iterable[str]) -> Self:
        """A copy with rulings set from ``KEY=VALUE`` strings."""
        pairs = {}
        for text in texts:
            key, sep, value = text.partition("=")
            if not sep or not key.strip() or not value.strip():
                raise RulingError(f"ruling {text!r} is not of the form NAME=VALUE")
            pairs[key.strip()] = value.strip()
        return self.with_overrides(pairs)

    def in_force(self) -> list[tuple[str, str]]:
        """(key, value) of every ruling, as a report states them."""
        return [(s.key, s.format(getattr(self, s.field))) for s in self.specs()]

    def describe(self) -> str:
        return ", ".join(f"{k}={v}" for k, v in self.in_force())


@dataclass(frozen=True)
class RulesetInfo:
    """What the registry knows of a game."""

    name: str
    title: str
    seed: str
    rulings: type[Rulings]
    implemented: bool
    summary: str
