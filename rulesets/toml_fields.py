"""Reading a catalog's TOML tables against a schema, for every game: each error one line naming the file,
the entry, the key and the value, and what is accepted. Pure Python (the command tree may import it)."""

from __future__ import annotations

import difflib
import json
import re
import tomllib
from collections.abc import Callable, Mapping, Sequence
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

    # --- provenance: which values are printed (with their lines) and which illustrative -------------------

    def sources(self, dotted_example: str = "") -> tuple[tuple[str, str], ...]:
        """The entry's ``sources`` table: value path -> "line N", "lines N-M" or "lines N, M"."""
        from rulesets.base import source_lines

        table = self.data.get("sources", {})
        if not isinstance(table, dict):
            self.fail("sources", f"expected a table of field = \"line N\", got {show(table)}")
        out = []
        for path, cite in table.items():
            try:
                source_lines(cite if isinstance(cite, str) else "")
            except RulesError:
                hint = (f" (quote a dotted path: \"{dotted_example}\" = \"line N\")"
                        if isinstance(cite, dict) and dotted_example else "")
                self.fail(f"sources.{path}", f"expected \"line N\", \"lines N-M\" or \"lines N, M\" with the "
                                             f"lines in order{hint}, got {show(cite)}")
            out.append((path, cite))
        return tuple(out)

    def provenance(self, entry: Any, *, implicit: dict[str, str] | None = None, dotted_example: str = "",
                   whole: bool = False) -> Any:
        """``entry`` (a rulesets.base.Provenance dataclass) with its sources and illustrative paths read
        and checked: every listed path names a value field or an ancestor of one, and every value field is
        covered by exactly one of the two. ``implicit``: sources of printed fields the file need not cite;
        ``whole``: ``illustrative = true`` may cover them all."""
        import dataclasses

        from rulesets.base import ancestry

        sources, paths = self.sources(dotted_example), entry.value_paths
        everything = self.data.get("illustrative")
        if whole and isinstance(everything, bool):
            if not everything:
                self.fail("illustrative", "expected true (every value illustrative) or a list of the "
                                          "illustrative fields, got false")
            if sources:
                self.fail("illustrative", f"true makes every value illustrative, but sources.{sources[0][0]} "
                                          "cites a line; list the illustrative fields instead")
            return dataclasses.replace(entry, sources=(), illustrative=paths)
        illustrative = self.texts("illustrative")
        listed = {p for p, _ in sources} | set(illustrative)
        sources += tuple((p, c) for p, c in (implicit or {}).items() if not listed.intersection(ancestry(p)))
        listable = list(dict.fromkeys(a for p in paths for a in ancestry(p)))
        named = [(f"illustrative[{i}]", p) for i, p in enumerate(illustrative)]
        for where, path in [*named, *((f"sources.{p}", p) for p, _ in sources)]:
            if path not in listable:
                close = difflib.get_close_matches(path, listable, n=1, cutoff=0.6)
                hint = f"; did you mean {close[0]}?" if close else f"; accepted: {', '.join(listable)}"
                self.fail(where, f"{show(path)} is not a value field of this entry{hint}")
        for i, path in enumerate(illustrative):
            if path in illustrative[:i]:
                self.fail(f"illustrative[{i}]", f"{show(path)} is listed twice")
        cited, invented = {p for p, _ in sources}, set(illustrative)
        for path in paths:
            chain = ancestry(path)
            by_source = next((a for a in chain if a in cited), None)
            by_invention = next((a for a in chain if a in invented), None)
            if by_source and by_invention:
                self.fail(path, f"both printed (sources.{by_source}) and illustrative "
                                f"({show(by_invention)}); a value is one or the other")
            if not by_source and not by_invention:
                options = ("list it in illustrative, or mark the entry illustrative = true" if whole
                           else "or list it in illustrative")
                self.fail(path, f"neither sourced nor illustrative: give its line (sources.\"{path}\" = "
                                f"\"line N\"){',' if whole else ''} {options}")
        return dataclasses.replace(entry, sources=sources, illustrative=illustrative)


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


# --- catalog files: the packaged one, then the user's ---------------------------------------------------


def read_text(label: str, read: Any, error: type[RulesError] = RulesError) -> str:
    """``read()``'s bytes as UTF-8 text; a one-line ``error`` naming ``label`` when they cannot be read."""
    try:
        data = read()
    except OSError as exc:
        raise error(f"{label}: cannot read: {exc.strerror or exc}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise error(f"{label}: not UTF-8 text (byte {exc.start})") from None


def catalog_files(package: str, package_file: str, package_label: str, path: Any, user_paths: Any,
                  error: type[RulesError] = RulesError) -> list[tuple[str, str]]:
    """(label, text) of the packaged ``data/<package_file>`` of ``package`` (or of ``path``), then of each
    user file, in order: later files win."""
    from importlib import resources
    from pathlib import Path

    if isinstance(user_paths, str | Path):
        user_paths = (user_paths,)
    if path is None:
        packaged = resources.files(package).joinpath("data", package_file)
        files = [(package_label, read_text(package_label, packaged.read_bytes, error))]
    else:
        files = [(str(path), read_text(str(path), Path(path).read_bytes, error))]
    return files + [(str(user), read_text(str(user), Path(user).read_bytes, error)) for user in user_paths]


def fingerprint(files: Sequence[tuple[str, str]], seed: str) -> tuple[str, str, tuple[tuple[str, str], ...]]:
    """(source, sha256, (label, sha256) of each file) of a catalog read from ``files``: the packaged file's
    own hash when it is the only one, else the hash of the files' hashes."""
    import hashlib

    hashes = tuple((label, hashlib.sha256(text.encode("utf-8")).hexdigest()) for label, text in files)
    digest = (hashes[0][1] if len(hashes) == 1
              else hashlib.sha256("\n".join(h for _, h in hashes).encode()).hexdigest())
    return f"seed {seed} (" + ", ".join(label for label, _ in files) + ")", digest, hashes


#: A catalog key: the lower-case slug of a name.
CATALOG_KEY = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


def parse_entries(label: str, text: str, error: type[RulesError],
                  readers: Mapping[str, Callable[[str, str, Any], Any]], example: Callable[[str, str], str],
                  others: Sequence[str] = ()) -> tuple[dict[str, dict[str, Any]], dict[str, Any]]:
    """One catalog file's entries, by table, each read by ``readers[table](where, key, data)``; and the
    raw value of each table in ``others`` it holds. Every error is one line naming the file, the table and
    the key: an unknown table (with the closest), a table that is not a table of entries, a key that is not
    a slug (``example(table, key)`` suggests one)."""
    document = parse_toml(label, text, error)
    accepted = [*readers, *others]
    out: dict[str, dict[str, Any]] = {table: {} for table in readers}
    raw: dict[str, Any] = {}
    for table, entries in document.items():
        if table not in accepted:
            close = difflib.get_close_matches(table, accepted, n=1, cutoff=0.6)
            hint = f"; did you mean {close[0]}?" if close else ""
            raise error(f"{label}: {table}: unknown table; accepted: {', '.join(accepted)}{hint}")
        if table in others:
            raw[table] = entries
            continue
        if not isinstance(entries, dict):
            raise error(f"{label}: {table}: expected a table of entries, got {show(entries)}")
        for key, data in entries.items():
            if not CATALOG_KEY.match(key):
                raise error(f"{label}: {table}.{key}: a key is a lower-case slug of the name, e.g. "
                            f"{example(table, key)!r}")
            out[table][key] = readers[table](f"{label}: {table}.{key}", key, data)
    return out, raw
