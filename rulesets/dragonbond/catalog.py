"""Load the Dragonbond catalog: the units the beta rulebook names (seed 000), printed facts sourced, every
other value illustrative.

The rulebook prints no unit cards and no points costs ("<SECTION STILL UNDER DEVELOPMENT>", line 295):
only facts scattered through its examples. The packaged ``data/examples.toml`` keeps each of those facts
as printed, with its line in ``sources``, and marks every value it had to invent in ``illustrative`` (every
``cost`` among them); its header comment describes the schema. User files given to :func:`load` have the
same schema and are applied on top: an entry whose key exists replaces the packaged unit as a whole, a new
key adds a unit.

Paths. ``illustrative``, ``sources`` and ``at_least`` name the value fields of a unit by path: ``speed``,
``keywords.flying``, ``keywords.huge.injury_slots``, ``captain``, ``captain.name``, ``weapons[0].dice``,
``powers[0].fatigue``. A weapon, captain or power table may list its own fields (``illustrative =
["name"]`` in the first weapon is ``weapons[0].name``); :attr:`Unit.illustrative` and
:attr:`Unit.sources` hold the full paths. :attr:`Unit.value_paths` lists every value field a unit has.

Validation. Unknown keys, wrong types, missing keys, impossible values (models < 1, negative numbers, a
cost <= 0, an unknown defense die, a pool that :func:`rulesets.dragonbond.dice.parse_pool` cannot read,
an unknown keyword, roll type or timing, a path that names no field of the unit, a value both sourced and
illustrative, a value below its ``at_least``) raise :class:`CatalogError` with one line naming file,
entry, field and value, and what is accepted, e.g. ``my.toml: units.blades: cost: expected a number of
points > 0, got 0``.

Pure Python and tomllib: the command tree imports this without numpy.
"""

from __future__ import annotations

import dataclasses
import difflib
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from rulesets.base import SOURCE, RulesError
from rulesets.dragonbond.dice import ACTION, COLOURS, DEFENSE, Pool, parse_pool
from rulesets.toml_fields import Fields, parse_toml, show

PACKAGE_FILE = "examples.toml"
PACKAGE_LABEL = f"rulesets/dragonbond/data/{PACKAGE_FILE}"
TABLES = ("units",)

MELEE, RANGED = "melee", "ranged"
KINDS = (MELEE, RANGED)
#: Typed modifiers (Game Symbols, lines 236-268).
ROLLS = ("attack", "melee", "ranged", "defense", "melee-defense", "ranged-defense")
#: Power timings (lines 819-837).
TIMINGS = ("passive", "action", "reaction")
#: A power cost of "E" (Exhaustion): one fatigue token straight beside the unit (line 841).
EXHAUSTION_COST = "E"
#: Keywords (lines 855-877), in the printed order.
KEYWORDS = ("sharp", "agile", "reach", "flying", "epic", "dragonriding", "huge", "blocking")
FLAG_KEYWORDS = ("sharp", "agile", "reach", "flying", "dragonriding", "blocking")
#: Defense dice, weakest first (lines 34-36).
DEFENSE_DICE = COLOURS[DEFENSE]

MAX_MODELS = 100
MAX_STAT = 100

#: The scalar stats of a unit, all required (with ``weapons``).
STATS = ("name", "models", "health", "stamina", "speed", "defense", "defense_die", "cost")
#: Paths that ``at_least`` may bound.
BOUNDED = ("models", "health", "stamina", "speed", "defense", "keywords.epic", "keywords.huge.health",
           "keywords.huge.injury_slots")

_KEY = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


class CatalogError(RulesError):
    """A catalog file that cannot be read or does not follow the schema (one line: file, entry, field)."""


def slug(name: str) -> str:
    """``"Bucentaur Blades"`` → ``bucentaur-blades``: the form of catalog keys."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")




# --- the catalog's types ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Modifier:
    """A typed modifier: ``up`` upgrades and ``down`` downgrades to one kind of roll (lines 270-283)."""

    roll: str
    up: int = 0
    down: int = 0

    @property
    def net(self) -> int:
        """Upgrades minus downgrades: they cancel before being applied (line 216)."""
        return self.up - self.down


@dataclass(frozen=True)
class Huge:
    """The Huge keyword's track: ``health`` slots per injury and ``injury_slots`` (lines 955-977)."""

    health: int
    injury_slots: int


@dataclass(frozen=True)
class Keywords:
    """The keywords printed on a unit card (lines 855-877); ``epic`` 0 when the unit is not Epic."""

    sharp: bool = False
    agile: bool = False
    reach: bool = False
    flying: bool = False
    epic: int = 0
    dragonriding: bool = False
    huge: Huge | None = None
    blocking: bool = False

    def names(self) -> tuple[str, ...]:
        """The keywords the unit has, in the printed order (``epic 2``, ``huge``)."""
        out = []
        for name in KEYWORDS:
            value = getattr(self, name)
            if name == "epic" and value:
                out.append(f"epic {value}")
            elif name != "epic" and value:
                out.append(name)
        return tuple(out)


@dataclass(frozen=True)
class Weapon:
    """A weapon: its attack pool per model (``dice``) or for the whole unit (``unit_dice``)."""

    name: str
    kind: str
    dice: Pool | None = None
    unit_dice: Pool | None = None
    range: int | None = None

    def pool(self, models: int) -> Pool:
        """The attack pool of ``models`` engaged models (in range, for a ranged attack; line 710): the
        per-model dice times ``models``, or the whole unit's pool when the text gives only that.

        Raises:
            RulesError: ``models`` is not a whole number >= 1, or the pool exceeds the dice limit.
        """
        if isinstance(models, bool) or not isinstance(models, int) or models < 1:
            raise RulesError(f"engaged models {models!r} is not a whole number >= 1")
        if self.unit_dice is not None:
            return self.unit_dice
        assert self.dice is not None  # the loader gives a weapon one of the two
        return Pool(ACTION, tuple(c * models for c in self.dice.counts))  # type: ignore[arg-type]

    @property
    def notation(self) -> str:
        """``2G 1B per model`` or ``3G 3W per unit``."""
        if self.unit_dice is not None:
            return f"{self.unit_dice.notation()} per unit"
        assert self.dice is not None
        return f"{self.dice.notation()} per model"


@dataclass(frozen=True)
class Captain:
    """A regular unit's captain: one of its models, granting ``modifiers`` while alive (lines 785-805)."""

    name: str
    health: int
    modifiers: tuple[Modifier, ...] = ()
    sacrifice: str | None = None


@dataclass(frozen=True)
class Power:
    """A power (lines 807-853): ``fatigue`` a whole number or ``"E"``; ``modelled`` when it is nothing but
    typed ``modifiers`` the simulation applies."""

    name: str
    fatigue: int | str
    timing: str
    text: str
    modelled: bool = False
    modifiers: tuple[Modifier, ...] = ()


@dataclass(frozen=True)
class Unit:
    """One unit. ``illustrative`` holds the paths of the values the rulebook does not print (invented to
    make the unit playable), ``sources`` the line of each printed one; ``at_least`` the least values the
    text allows; ``origin`` the file the unit was read from."""

    key: str
    name: str
    models: int
    health: int
    stamina: int
    speed: int
    defense: int
    defense_die: str
    cost: float
    weapons: tuple[Weapon, ...]
    keywords: Keywords = field(default_factory=Keywords)
    captain: Captain | None = None
    powers: tuple[Power, ...] = ()
    rest_removes_all: bool = False
    illustrative: frozenset[str] = frozenset()
    sources: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}), hash=False)
    quirks: tuple[str, ...] = ()
    at_least: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}), hash=False)
    notes: str = ""
    origin: str = ""

    @property
    def is_illustrative(self) -> bool:
        """Whether any value of the unit is illustrative (not printed in the rulebook)."""
        return bool(self.illustrative)

    @property
    def melee(self) -> Weapon | None:
        return next((w for w in self.weapons if w.kind == MELEE), None)

    @property
    def ranged(self) -> Weapon | None:
        return next((w for w in self.weapons if w.kind == RANGED), None)

    @property
    def value_paths(self) -> frozenset[str]:
        """Every value field the unit has, by path (each is either sourced or illustrative)."""
        return frozenset(_value_paths(self))

    def defense_pool(self, hits: int) -> Pool:
        """The defense dice for ``hits`` non-critical hits before modifiers (line 730)."""
        if isinstance(hits, bool) or not isinstance(hits, int) or hits < 0:
            raise RulesError(f"hits {hits!r} is not a whole number >= 0")
        counts = [0, 0, 0]
        counts[DEFENSE_DICE.index(self.defense_die)] = self.defense * hits
        return Pool(DEFENSE, tuple(counts))  # type: ignore[arg-type]


@dataclass(frozen=True)
class Catalog:
    """The units of the packaged file and the user files; ``sha256`` identifies the data read (the
    packaged file's own hash when no user file was given)."""

    units: dict[str, Unit] = field(hash=False)
    source: str
    sha256: str

    def unit(self, key: str) -> Unit:
        """The unit with this key (or printed name, case-insensitive); a RulesError that names the key and
        suggests the closest keys otherwise."""
        wanted = str(key).strip().lower()
        if wanted in self.units:
            return self.units[wanted]
        if slug(wanted) in self.units:
            return self.units[slug(wanted)]
        names = {u.name.lower(): k for k, u in self.units.items()}
        close = difflib.get_close_matches(wanted, [*self.units, *names], n=3, cutoff=0.5)
        close = list(dict.fromkeys(names.get(c, c) for c in close))
        if not close:  # "blades" → bucentaur-blades: a word of a key
            close = [k for k in self.units if wanted and wanted in k.split("-")]
        hint = (f"; did you mean {' or '.join(close)}?" if close
                else f"; known: {', '.join(sorted(self.units))}")
        raise RulesError(f"unknown Dragonbond unit {key!r}{hint}")


def _value_paths(unit: Unit) -> list[str]:
    paths = list(STATS)
    if unit.rest_removes_all:
        paths.append("rest_removes_all")
    kw = unit.keywords
    for name in KEYWORDS:
        if getattr(kw, name):
            paths.append(f"keywords.{name}")
    if kw.huge is not None:
        paths += ["keywords.huge.health", "keywords.huge.injury_slots"]
    for i, w in enumerate(unit.weapons):
        paths += [f"weapons[{i}].{f}" for f in _weapon_fields(w)]
    if unit.captain is not None:
        c = unit.captain
        paths += ["captain", "captain.name", "captain.health"]
        paths += ["captain.modifiers"] if c.modifiers else []
        paths += ["captain.sacrifice"] if c.sacrifice is not None else []
    for i, p in enumerate(unit.powers):
        paths += [f"powers[{i}].{f}" for f in ("name", "fatigue", "timing", "text")]
        paths += [f"powers[{i}].modifiers"] if p.modifiers else []
    return paths


def _weapon_fields(weapon: Weapon) -> list[str]:
    return ["name", "kind", "unit_dice" if weapon.unit_dice is not None else "dice",
            *(["range"] if weapon.range is not None else [])]


# --- reading ------------------------------------------------------------------------------------------


_show = show


def _accepted(names: Sequence[str]) -> str:
    return ", ".join(names)


class _Fields(Fields):
    """The keys of one Dragonbond TOML table (rulesets.toml_fields), and its pools."""

    error = CatalogError

    def pool(self, key: str) -> Pool:
        value = self.data[key]
        if not isinstance(value, str):
            self.fail(key, f"expected an action pool like \"2G 1B\", got {_show(value)}")
        try:
            return parse_pool(value, ACTION)
        except RulesError as exc:
            self.fail(key, f"cannot read {_show(value)}: {exc}")


@dataclass
class _Meta:
    """Illustrative paths and sources read so far for one unit (full paths), with where each came from."""

    illustrative: dict[str, str] = field(default_factory=dict)
    sources: dict[str, str] = field(default_factory=dict)

    def read(self, f: _Fields, prefix: str = "") -> None:
        """``illustrative`` and ``sources`` of table ``f``, whose paths get ``prefix``."""
        for i, path in enumerate(f.texts("illustrative")):
            self.illustrative.setdefault(prefix + path, f"{f.prefix}illustrative[{i}]")
        if not f.has("sources"):
            return
        table = f.data["sources"]
        if not isinstance(table, dict):
            f.fail("sources", f"expected a table of path = \"line N\", got {_show(table)}")
        for path, cite in table.items():
            if not isinstance(cite, str) or not SOURCE.match(cite):
                f.fail(f"sources.{path}", f"expected \"line N\", \"lines N-M\" or \"lines N, M\", got "
                                          f"{_show(cite)}")
            lines = [part.partition("-") for part in cite.split(" ", 1)[1].split(", ")]
            if any(high and int(high) < int(low) for low, _, high in lines):
                f.fail(f"sources.{path}", f"line range {_show(cite)} runs backwards")
            self.sources[prefix + path] = cite


def _modifiers(f: _Fields, key: str) -> tuple[Modifier, ...]:
    out = []
    for m in f.subs(key, ("roll",), ("up", "down")):
        roll = m.choice("roll", ROLLS, "roll type")
        up = m.whole("up", 0, MAX_STAT) if m.has("up") else 0
        down = m.whole("down", 0, MAX_STAT) if m.has("down") else 0
        if up == 0 and down == 0:
            m.fail("", "a modifier needs up = N or down = N (N >= 1)")
        out.append(Modifier(roll, up, down))
    return tuple(out)


def _read_weapon(f: _Fields, meta: _Meta, i: int) -> Weapon:
    kind = f.choice("kind", KINDS, "weapon kind")
    given = [k for k in ("dice", "unit_dice") if f.has(k)]
    if len(given) != 1:
        f.fail("dice", "give exactly one of dice (per model, e.g. \"2G 1B\") and unit_dice (the whole "
                       f"unit's pool), got {' and '.join(given) or 'neither'}")
    pool = f.pool(given[0])
    weapon_range = None
    if f.has("range"):
        weapon_range = f.whole("range", 1 if kind == RANGED else 0, MAX_STAT)
    elif kind == RANGED:
        f.fail("range", "required key missing (a ranged weapon needs its range in inches)")
    weapon = Weapon(f.text("name"), kind, pool if given[0] == "dice" else None,
                    pool if given[0] == "unit_dice" else None, weapon_range)
    meta.read(f, f"weapons[{i}].")
    _own_paths(f, meta, f"weapons[{i}].", _weapon_fields(weapon))
    return weapon


def _read_captain(f: _Fields, meta: _Meta) -> Captain:
    captain = Captain(f.text("name"), f.whole("health", 1, MAX_STAT), _modifiers(f, "modifiers"),
                      f.text("sacrifice") if f.has("sacrifice") else None)
    meta.read(f, "captain.")
    present = ["name", "health", *(["modifiers"] if captain.modifiers else []),
               *(["sacrifice"] if captain.sacrifice is not None else [])]
    _own_paths(f, meta, "captain.", present)
    return captain


def _read_power(f: _Fields, meta: _Meta, i: int) -> Power:
    cost = f.data["fatigue"]
    if cost != EXHAUSTION_COST:
        if isinstance(cost, str):
            f.fail("fatigue", f"expected a whole number >= 0 or \"{EXHAUSTION_COST}\" (Exhaustion, line "
                              f"841), got {_show(cost)}")
        cost = f.whole("fatigue", 0, MAX_STAT)
    modifiers = _modifiers(f, "modifiers")
    modelled = f.flag("modelled")
    if modelled != bool(modifiers):
        f.fail("modelled", f"modelled = {_show(modelled)} but {len(modifiers)} modifiers: a modelled power "
                           "is its typed modifiers, so give both or neither")
    power = Power(f.text("name"), cost, f.choice("timing", TIMINGS, "timing"), f.text("text"), modelled,
                  modifiers)
    meta.read(f, f"powers[{i}].")
    _own_paths(f, meta, f"powers[{i}].", ["name", "fatigue", "timing", "text",
                                          *(["modifiers"] if modifiers else [])])
    return power


def _own_paths(f: _Fields, meta: _Meta, prefix: str, present: Sequence[str]) -> None:
    """The paths a weapon, captain or power table lists for itself name its own fields."""
    for path, where in meta.illustrative.items():
        if where.startswith(f.prefix) and path.startswith(prefix) and path[len(prefix):] not in present:
            f.fail(where[len(f.prefix):], f"{_show(path[len(prefix):])} is not a field of this table; "
                                          f"accepted: {_accepted(present)}")
    table = f.data.get("sources", {})
    for key in table:
        if key not in present:
            f.fail(f"sources.{key}", f"{_show(key)} is not a field of this table; accepted: "
                                     f"{_accepted(present)}")


def _read_keywords(f: _Fields, health: int) -> Keywords:
    table = f.data.get("keywords", {})
    if not isinstance(table, dict):
        f.fail("keywords", f"expected a table of keywords, got {_show(table)}")
    values: dict[str, Any] = {}
    for name in table:
        if name not in KEYWORDS:
            close = difflib.get_close_matches(name, KEYWORDS, n=1, cutoff=0.6)
            hint = f"; did you mean {close[0]}?" if close else ""
            f.fail(f"keywords.{name}", f"unknown keyword; accepted: {_accepted(KEYWORDS)}{hint}")
    k = f.sub("keywords", (), KEYWORDS) if table else None
    if k is None:
        return Keywords()
    for name in FLAG_KEYWORDS:
        values[name] = k.flag(name)
    if k.has("epic"):
        values["epic"] = k.whole("epic", 1, MAX_STAT)
    if k.has("huge"):
        h = k.sub("huge", ("health", "injury_slots"))
        huge = Huge(h.whole("health", 1, MAX_STAT), h.whole("injury_slots", 1, MAX_STAT))
        if huge.health != health:
            h.fail("health", f"{huge.health} differs from the unit's health {health}; a Huge creature's "
                             "health is its health slots (line 965), give the same number")
        values["huge"] = huge
    return Keywords(**values)


_UNIT_OPTIONAL = ("keywords", "captain", "powers", "rest_removes_all", "illustrative", "sources", "quirks",
                  "at_least", "notes")


def _number(f: _Fields, key: str) -> float:
    value = f.data[key]
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) \
            or value <= 0:
        f.fail(key, f"expected a number of points > 0, got {_show(value)}")
    return float(value)


def _read_unit(where: str, key: str, data: Any) -> Unit:
    f = _Fields(where, "", data, (*STATS, "weapons"), _UNIT_OPTIONAL)
    name = f.text("name")
    models = f.whole("models", 1, MAX_MODELS)
    health = f.whole("health", 1, MAX_STAT)
    stamina = f.whole("stamina", 0, MAX_STAT)
    speed = f.whole("speed", 0, MAX_STAT)
    defense = f.whole("defense", 0, MAX_STAT)
    defense_die = f.choice("defense_die", DEFENSE_DICE, "defense die",
                           " (grey is an action die)" if str(f.data["defense_die"]).lower() == "grey" else "")
    cost = _number(f, "cost")
    meta = _Meta()
    meta.read(f)
    weapons = tuple(_read_weapon(w, meta, i)
                    for i, w in enumerate(f.subs("weapons", ("name", "kind"),
                                                 ("dice", "unit_dice", "range", "illustrative", "sources"))))
    if not weapons:
        f.fail("weapons", "expected at least one weapon (a table with name, kind and dice)")
    captain = (_read_captain(f.sub("captain", ("name", "health"), ("modifiers", "sacrifice", "illustrative",
                                                                   "sources")), meta)
               if f.has("captain") else None)
    powers = tuple(_read_power(p, meta, i)
                   for i, p in enumerate(f.subs("powers", ("name", "fatigue", "timing", "text"),
                                                ("modelled", "modifiers", "illustrative", "sources"))))
    unit = Unit(
        key=key, name=name, models=models, health=health, stamina=stamina, speed=speed, defense=defense,
        defense_die=defense_die, cost=cost, weapons=weapons, keywords=_read_keywords(f, health),
        captain=captain, powers=powers, rest_removes_all=f.flag("rest_removes_all"),
        quirks=f.texts("quirks"), notes=f.text("notes", "") if f.has("notes") else "",
        origin=where.split(": ", 1)[0])
    at_least = _read_at_least(f, unit)
    _check_paths(f, unit, meta, at_least)
    return dataclasses.replace(unit, illustrative=frozenset(meta.illustrative),
                               sources=MappingProxyType(dict(meta.sources)),
                               at_least=MappingProxyType(at_least))


def _path_value(unit: Unit, path: str) -> int:
    if path.startswith("keywords.huge."):
        assert unit.keywords.huge is not None
        return getattr(unit.keywords.huge, path.rsplit(".", 1)[1])
    if path.startswith("keywords."):
        return getattr(unit.keywords, path.split(".", 1)[1])
    return getattr(unit, path)


def _read_at_least(f: _Fields, unit: Unit) -> dict[str, int]:
    table = f.data.get("at_least", {})
    if not isinstance(table, dict):
        f.fail("at_least", f"expected a table of path = least value, got {_show(table)}")
    paths = unit.value_paths
    out = {}
    for path in table:
        if path not in BOUNDED or path not in paths:
            have = [p for p in BOUNDED if p in paths]
            f.fail(f"at_least.{path}", f"cannot bound {_show(path)}; accepted: {_accepted(have)}")
        least = _whole_at(f, path, table[path])
        value = _path_value(unit, path)
        if value < least:
            f.fail(path, f"{value} is below {least}, the least the rulebook allows (at_least.{path})")
        out[path] = least
    return out


def _whole_at(f: _Fields, path: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        f.fail(f"at_least.{path}", f"expected a whole number >= 0, got {_show(value)}")
    return value


def _check_paths(f: _Fields, unit: Unit, meta: _Meta, at_least: dict[str, int]) -> None:
    """Every illustrative or sourced path names a value field of the unit, and none is both."""
    paths = unit.value_paths
    known = sorted(paths, key=_path_order(unit))
    for path, where in meta.illustrative.items():
        if path not in paths:
            close = difflib.get_close_matches(path, known, n=1, cutoff=0.7)
            hint = f"; did you mean {close[0]}?" if close else f"; accepted: {_accepted(known)}"
            raise CatalogError(f"{f.where}: {where}: {_show(path)} is not a field of this unit{hint}")
    for path in meta.sources:
        bound = path.removeprefix("at_least.")
        if path.startswith("at_least.") and bound in at_least:
            continue
        if path not in paths:
            close = difflib.get_close_matches(path, known, n=1, cutoff=0.7)
            hint = f"; did you mean {close[0]}?" if close else f"; accepted: {_accepted(known)}"
            raise CatalogError(f"{f.where}: sources.{path}: {_show(path)} is not a field of this unit{hint}")
        if path in meta.illustrative:
            raise CatalogError(f"{f.where}: sources.{path}: {_show(path)} is also listed as illustrative; a "
                               "value is printed (sources) or illustrative, not both")
    for path in at_least:
        if f"at_least.{path}" not in meta.sources:
            f.fail(f"at_least.{path}", f"needs the line that implies it: sources.\"at_least.{path}\" = "
                                       "\"line N\"")


def _path_order(unit: Unit) -> Any:
    order = _value_paths(unit)
    return order.index


def _parse(label: str, text: str) -> dict[str, Unit]:
    """The units of one catalog file, read and validated."""
    document = parse_toml(label, text, CatalogError)
    out: dict[str, Unit] = {}
    for table, entries in document.items():
        if table not in TABLES:
            raise CatalogError(f"{label}: {table}: unknown table; accepted: {_accepted(TABLES)}")
        if not isinstance(entries, dict):
            raise CatalogError(f"{label}: {table}: expected a table of units, got {_show(entries)}")
        for key, data in entries.items():
            if not _KEY.match(key):
                raise CatalogError(f"{label}: {table}.{key}: a key is a lower-case slug of the name, "
                                   f"e.g. {slug(key) or 'bucentaur-blades'!r}")
            out[key] = _read_unit(f"{label}: {table}.{key}", key, data)
    return out


def load(path: Path | str | None = None, user_paths: Sequence[Path | str] = ()) -> Catalog:
    """The Dragonbond catalog: ``path`` (default: the packaged ``data/examples.toml``), then each user file
    in ``user_paths`` on top (a unit with an existing key replaces it, a new key adds one).

    Raises:
        CatalogError: a file cannot be read or breaks the schema (one line naming file, unit and field).
    """
    from rulesets.toml_fields import catalog_files, fingerprint

    files = catalog_files(__package__, PACKAGE_FILE, PACKAGE_LABEL, path, user_paths, CatalogError)
    units: dict[str, Unit] = {}
    for label, text in files:
        units.update(_parse(label, text))
    source, digest, _ = fingerprint(files, "000")
    return Catalog(units, source, digest)
