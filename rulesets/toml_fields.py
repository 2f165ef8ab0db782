"""Reading a catalog's TOML tables against a schema, for every game: each error one line naming the file,
the entry, the key and the value, and what is accepted. Pure Python (the command tree may import it)."""

from __future__ import annotations

import difflib
import json
import re
import tomllib
from collections.abc import Sequence
from typing import Any, NoReturn

from rulesets.base import RulesError


def show(value: Any) -> str:
    """A TOML value as a reader would write it in an error message."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "a list"
    return str(value)


class Fields:
    """The keys of one TOML table, checked against a schema; every error names file, entry and key.

    A game subclasses it to raise its own error class (``error``) and to read its own kinds of value."""

    error: type[RulesError] = RulesError

    def __init__(self, where: str, prefix: str, data: Any, required: Sequence[str],
                 optional: Sequence[str] = ()) -> None:
        self.where, self.prefix = where, prefix
        if not isinstance(data, dict):
            self.fail("", f"expected a table, got {show(data)}")
        accepted = (*required, *optional)
        for key in data:
            if key not in accepted:
                close = difflib.get_close_matches(key, accepted, n=1, cutoff=0.7)
                hint = f"; did you mean {close[0]}?" if close else ""
                self.fail(key, f"unknown key; accepted: {', '.join(accepted)}{hint}")
        for key in required:
            if key not in data:
                self.fail(key, "required key missing")
        self.data = data

    def fail(self, key: str, message: str) -> NoReturn:
        path = f"{self.prefix}{key}".rstrip(".")
        raise self.error(f"{self.where}: {path + ': ' if path else ''}{message}")

    def has(self, key: str) -> bool:
        return key in self.data

    def whole(self, key: str, low: int, high: int | None = None, value: Any = None) -> int:
        value = self.data[key] if value is None else value
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(key, f"expected a whole number, got {show(value)}")
        if value < low or (high is not None and value > high):
            wanted = f"from {low} to {high}" if high is not None else f">= {low}"
            self.fail(key, f"expected a whole number {wanted}, got {value}")
        return value

    def text(self, key: str, default: str | None = None, empty: bool = False) -> str:
        if key not in self.data and default is not None:
            return default
        value = self.data[key]
        if not isinstance(value, str):
            self.fail(key, f"expected text, got {show(value)}")
        if not empty and not value.strip():
            self.fail(key, "expected text, got an empty string")
        return value

    def choice(self, key: str, choices: Sequence[str], what: str, hint: str = "") -> str:
        value = self.data[key]
        if not isinstance(value, str) or value.strip().lower() not in choices:
            self.fail(key, f"unknown {what} {show(value)}; accepted: {', '.join(choices)}{hint}")
        return value.strip().lower()

    def flag(self, key: str) -> bool:
        value = self.data.get(key, False)
        if not isinstance(value, bool):
            self.fail(key, f"expected true or false, got {show(value)}")
        return value

    def texts(self, key: str) -> tuple[str, ...]:
        value = self.data.get(key, [])
        if not isinstance(value, list):
            self.fail(key, f"expected a list of text, got {show(value)}")
        for i, item in enumerate(value):
            if not isinstance(item, str) or not item.strip():
                self.fail(f"{key}[{i}]", f"expected text, got {show(item)}")
        return tuple(value)

    def sub(self, key: str, required: Sequence[str], optional: Sequence[str] = ()) -> Fields:
        return type(self)(self.where, f"{self.prefix}{key}.", self.data[key], required, optional)

    def subs(self, key: str, required: Sequence[str], optional: Sequence[str] = ()) -> list[Fields]:
        value = self.data.get(key, [])
        if not isinstance(value, list):
            self.fail(key, f"expected a list of tables, got {show(value)}")
        return [type(self)(self.where, f"{self.prefix}{key}[{i}].", item, required, optional)
                for i, item in enumerate(value)]


def parse_toml(label: str, text: str, error: type[RulesError] = RulesError) -> dict[str, Any]:
    """A TOML document, or ``error`` with one line naming ``label``, the line and column, and what is
    wrong."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        if m := re.search(r"\s*\(at line (\d+), column (\d+)\)$", message):
            message = f"line {m[1]}, column {m[2]}: invalid TOML: {message[:m.start()]}"
        else:
            message = f"invalid TOML: {message}"
        raise error(f"{label}: {' '.join(message.split())}") from None
