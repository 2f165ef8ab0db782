"""Load the UberDrakes catalog: the six dragons, their spells and the items, as the rulebook prints them
(seed 003; ../shared/RULES.md §4).

The dragons' pages (lines 380-626) print every spell's cost, name, card text and Ultimate label; the item
pages (lines 631-811) print every item's card text and how it is obtained. The packaged ``data/examples.toml``
keeps each printed fact with its line in ``sources`` and lists every invented value in ``illustrative``:
every item's price (none is printed), the top of Plate Armor's cost and a few readings. Its header comment
describes the schema. User files given to :func:`load` use the same schema and are applied on top: an entry
whose key exists in the same table replaces it as a whole, a new key adds one.

Each value field of an entry (``name``, ``cost``, ``ultimate``, ``price``, ...; :attr:`value_paths`) is in
exactly one of ``sources`` and ``illustrative``. Breaking the schema raises :class:`CatalogError`, one line
naming file, entry, key and value, and what is accepted:
``my.toml: spells.fire-breath: timing: unknown timing "phase 3"; accepted: pre-combat, counterattack, ...``.

The contradictions of the text stay as printed and are flagged in ``quirks``, each naming the ruling that
settles it (rulesets/uberdrakes/rules.py): Furnace is stored ``ultimate = False`` as printed
(UD-furnace-ultimate makes it the Ultimate), Rocket Power's cost ``1 - 2`` as Magic (UD-rocket-power-cost),
Camouflage's combat effect quotes both its +3 and its +2 (UD-camouflage).

Pure Python: the command tree may import this; tomllib (rulesets.toml_fields) is imported when reading.
"""

from __future__ import annotations

import difflib
import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulesets.base import EntryTables, Provenance, RulesError

if TYPE_CHECKING:
    from rulesets.toml_fields import Fields

PACKAGE_FILE = "examples.toml"
PACKAGE_LABEL = f"rulesets/uberdrakes/data/{PACKAGE_FILE}"
#: The tables of a catalog file, with what one entry is called in messages.
TABLES = {"dragons": "dragon", "spells": "spell", "items": "item"}
#: The six elemental dragons (line 43).
ELEMENTS = ("fire", "water", "earth", "lightning", "wind", "metal")
#: When a spell or item is used: combat Phase 1 (line 307), Phase 3 (317-323), Phase 4 (325-331), a move.
TIMINGS = ("pre-combat", "counterattack", "damage", "movement", "other")
#: What an item is: used in combat (the "common combat item[s]" of line 613), heals, is sold, or else.
KINDS = ("combat", "potion", "treasure", "other")
#: The most Magic a spell may cost: no cap is printed on Magic held; Plate Armor's X + 1 stops here.
MAX_MAGIC = 20
#: The highest price (coins) a catalog accepts.
MAX_PRICE = 100
#: Hoard items: eight on the hoard card, at most one of each carried, at most three bought per village visit
#: (line 233; one of each item in stock, line 240); treasures may duplicate them (line 242).
HOARD_ITEMS, HOARD_LIMIT, BUY_PER_VISIT = 8, 1, 3

_KEY = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
#: A key for each table, for messages.
_EXAMPLE_KEYS = {"dragons": "fire", "spells": "fire-breath", "items": "hide-shield"}
#: What separates the quotes of a ``combat`` effect.
QUOTE_SEPARATOR = " … "


class CatalogError(RulesError):
    """A catalog file that cannot be read or breaks the schema (one line: file, entry, key, value)."""


def slug(name: str) -> str:
    """``"Alchemist's Fire"`` → ``alchemists-fire``: the form of catalog keys."""
    return re.sub(r"[^a-z0-9]+", "-", str(name).lower().replace("'", "")).strip("-")




# --- the catalog's types ----------------------------------------------------------------------------




@dataclass(frozen=True)
class Dragon(Provenance):
    """A dragon (line 43) and its page: ``spells`` are the keys of its spells, in printed order."""

    key: str
    name: str
    element: str
    spells: tuple[str, ...]
    sources: tuple[tuple[str, str], ...]
    illustrative: tuple[str, ...] = ()
    quirks: tuple[str, ...] = ()
    notes: str = ""
    origin: str = ""
    _PATHS = ("name", "element", "spells")

    @property
    def label(self) -> str:
        """``Fire Dragon`` → ``Fire dragon``, for messages."""
        return re.sub(r" Dragon$", " dragon", self.name) if self.name.endswith(" Dragon") else self.name


@dataclass(frozen=True)
class Spell(Provenance):
    """A spell of a dragon's page. ``cost`` is its Magic cost, None when the page prints a range or a
    formula (then ``cost_min``..``cost_max``; Rocket Power 1-2, Furnace 8-12, Plate Armor X + 1 = 2..20);
    a fixed cost has ``cost_min == cost_max == cost``. ``ultimate``: labelled "Ultimate Spell" (once per
    game, line 260; Furnace is not, see its quirks). ``combat``: the combat effect, quoted from the card
    (quotes joined by :data:`QUOTE_SEPARATOR`), "" if none. ``cost_printed``: the cost as printed when it is
    neither a number nor a range ("X + 1"), else ""."""

    key: str
    name: str
    dragon: str
    cost: int | None
    cost_min: int
    cost_max: int
    ultimate: bool
    timing: str
    combat: str
    text: str
    sources: tuple[tuple[str, str], ...]
    illustrative: tuple[str, ...] = ()
    quirks: tuple[str, ...] = ()
    cost_printed: str = ""
    notes: str = ""
    origin: str = ""

    def _paths(self) -> list[str]:
        costs = ["cost"] if self.cost is not None else ["cost_min", "cost_max"]
        return ["name", "dragon", *costs, *(["cost_printed"] if self.cost_printed else []), "ultimate",
                "timing", "combat", "text"]

    @property
    def cost_label(self) -> str:
        """The cost as the page prints it: ``4``, ``1 - 2``, ``X + 1``."""
        if self.cost_printed:
            return self.cost_printed
        return str(self.cost) if self.cost is not None else f"{self.cost_min} - {self.cost_max}"

    @property
    def combat_quotes(self) -> tuple[str, ...]:
        """The quotes of :attr:`combat`, each as printed on the card."""
        return tuple(self.combat.split(QUOTE_SEPARATOR)) if self.combat else ()


@dataclass(frozen=True)
class Item(Provenance):
    """An item card (lines 631-811). ``die``: adds one die in combat (Dragon Lance, Hide Shield);
    ``ranged_ok``: usable in ranged combat (both False for an item not used in combat); ``price``: coins,
    never printed, so illustrative in the packaged catalog (None: no price); ``hoard``: a hoard item
    (bought in villages, at most one of each, lines 233, 242), else a treasure (may be duplicated)."""

    key: str
    name: str
    kind: str
    timing: str
    die: bool
    ranged_ok: bool
    price: int | None
    hoard: bool
    text: str
    sources: tuple[tuple[str, str], ...]
    illustrative: tuple[str, ...] = ()
    quirks: tuple[str, ...] = ()
    notes: str = ""
    origin: str = ""

    def _paths(self) -> list[str]:
        return ["name", "kind", "timing", *(["die", "ranged_ok"] if self.kind == "combat" else []), "price",
                "hoard", "text"]


@dataclass(frozen=True)
class Catalog(EntryTables):
    """The dragons, spells and items of the packaged file and the user files; ``files`` the (file, sha256)
    of every file read, packaged first; ``sha256`` the packaged file's own hash when no user file was
    given, else the hash of the files' hashes."""

    dragons: dict[str, Dragon] = field(hash=False)
    spells: dict[str, Spell] = field(hash=False)
    items: dict[str, Item] = field(hash=False)
    source: str
    sha256: str
    files: tuple[tuple[str, str], ...]
    ENTRY_TABLES = TABLES


    def dragon(self, name: str) -> Dragon:
        """A dragon by key or name: ``fire``, ``Fire Dragon``."""
        return self.entry("dragons", name)

    def spell(self, name: str) -> Spell:
        """A spell by key or name: ``fire-breath``, ``Fire Breath``."""
        return self.entry("spells", name)

    def item(self, name: str) -> Item:
        """An item by key or name: ``alchemists-fire``, ``Alchemist's Fire``, ``Longbow``."""
        return self.entry("items", name)

    def spells_of(self, dragon: str) -> tuple[Spell, ...]:
        """A dragon's spells, in printed order."""
        return tuple(self.spells[key] for key in self.dragon(dragon).spells)

    def spell_of(self, dragon: str, spell: str) -> Spell:
        """``spell``, which must be one of ``dragon``'s; a RulesError saying whose it is otherwise."""
        caster, wanted = self.dragon(dragon), self.spell(spell)
        if wanted.key not in caster.spells:
            owner = self.dragons[wanted.dragon]
            own = ", ".join(self.spells[key].name for key in caster.spells)
            raise RulesError(f"{wanted.name} is the {owner.label}'s spell, not the {caster.label}'s; the "
                             f"{caster.label}'s spells: {own}")
        return wanted


# --- reading ------------------------------------------------------------------------------------------


def _show(value: Any) -> str:
    from rulesets.toml_fields import show

    return show(value)


@functools.cache
def _fields() -> type[Fields]:
    """rulesets.toml_fields.Fields raising CatalogError, built on first use (it imports tomllib)."""
    from rulesets.toml_fields import Fields

    class _Fields(Fields):
        error = CatalogError

        def key_of(self, key: str, example: str) -> str:
            value = self.text(key)
            if not _KEY.match(value):
                self.fail(key, f"expected a lower-case key like \"{example}\", got {_show(value)}"
                               f"{f'; did you mean {slug(value)!r}?' if slug(value) else ''}")
            return value

    return _Fields


def _provenance(f: Any, entry: Any) -> Any:
    """``entry`` with its sources and illustrative fields read and checked (rulesets.toml_fields.Fields
    .provenance)."""
    return f.provenance(entry)


def _extras(f: Any) -> dict[str, Any]:
    return {"quirks": f.texts("quirks"), "notes": f.text("notes", "", empty=True),
            "origin": f.where.split(": ", 1)[0]}


def _read_dragon(where: str, key: str, data: Any) -> Dragon:
    f = _fields()(where, "", data, ("name", "element", "spells"),
                  ("sources", "illustrative", "quirks", "notes"))
    name = f.text("name")
    element = f.choice("element", ELEMENTS, "element", " (the six dragons of line 43)")
    spells = f.texts("spells")
    if not spells:
        f.fail("spells", "expected the keys of its spells, in printed order, got an empty list")
    for i, spell in enumerate(spells):
        if not _KEY.match(spell):
            f.fail(f"spells[{i}]", f"expected a spell key like \"fire-breath\", got {_show(spell)}")
        if spell in spells[:i]:
            f.fail(f"spells[{i}]", f"{_show(spell)} is listed twice")
    return _provenance(f, Dragon(key, name, element, spells, (), **_extras(f)))


def _read_cost(f: Any) -> tuple[int | None, int, int]:
    ranged = f.has("cost_min") or f.has("cost_max")
    if f.has("cost") and ranged:
        other = "cost_min" if f.has("cost_min") else "cost_max"
        f.fail("cost", f"given with {other}: give either cost (a fixed cost) or cost_min and cost_max (a "
                       "range or a formula), not both")
    if not ranged:
        if not f.has("cost"):
            f.fail("cost", f"required key missing: give cost (Magic, a whole number from 0 to {MAX_MAGIC}) "
                           "or cost_min and cost_max")
        cost = f.whole("cost", 0, MAX_MAGIC)
        return cost, cost, cost
    for key in ("cost_min", "cost_max"):
        if not f.has(key):
            f.fail(key, "required key missing: a range needs cost_min and cost_max (or give cost)")
    low, high = f.whole("cost_min", 0, MAX_MAGIC), f.whole("cost_max", 0, MAX_MAGIC)
    if high <= low:
        hint = f"; a fixed cost is given as cost = {low}" if high == low else ""
        f.fail("cost_max", f"expected a whole number above cost_min = {low}, got {high}{hint}")
    return None, low, high


def _read_spell(where: str, key: str, data: Any) -> Spell:
    f = _fields()(where, "", data, ("name", "dragon", "ultimate", "timing", "combat", "text"),
                  ("cost", "cost_min", "cost_max", "cost_printed", "sources", "illustrative", "quirks",
                   "notes"))
    name, dragon = f.text("name"), f.key_of("dragon", "fire")
    cost, low, high = _read_cost(f)
    printed = f.text("cost_printed") if f.has("cost_printed") else ""
    spell = Spell(key, name, dragon, cost, low, high, f.flag("ultimate"),
                  f.choice("timing", TIMINGS, "timing"), f.text("combat", empty=True), f.text("text"), (),
                  cost_printed=printed, **_extras(f))
    return _provenance(f, spell)


def _read_item(where: str, key: str, data: Any) -> Item:
    f = _fields()(where, "", data, ("name", "kind", "timing", "hoard", "text"),
                  ("die", "ranged_ok", "price", "sources", "illustrative", "quirks", "notes"))
    name, kind = f.text("name"), f.choice("kind", KINDS, "item kind")
    for flag in ("die", "ranged_ok"):
        if kind == "combat" and not f.has(flag):
            f.fail(flag, "required key missing: a combat item says whether it adds a die (die) and whether "
                         "it can be used in ranged combat (ranged_ok), true or false")
        if kind != "combat" and f.has(flag):
            f.fail(flag, f"given for a {kind} item: only combat items (kind = \"combat\") have die and "
                         "ranged_ok; leave it out")
    price = f.whole("price", 0, MAX_PRICE) if f.has("price") else None
    item = Item(key, name, kind, f.choice("timing", TIMINGS, "timing"), f.flag("die"), f.flag("ranged_ok"),
                price, f.flag("hoard"), f.text("text"), (), **_extras(f))
    return _provenance(f, item)


_READERS = {"dragons": _read_dragon, "spells": _read_spell, "items": _read_item}


def _parse(label: str, text: str) -> dict[str, dict[str, Any]]:
    """The entries of one catalog file, by table."""
    from rulesets.toml_fields import parse_entries

    return parse_entries(label, text, CatalogError, _READERS,
                         lambda table, key: slug(key) or _EXAMPLE_KEYS[table])[0]


def _unknown(what: str, value: str, known: Sequence[str]) -> str:
    close = difflib.get_close_matches(value, list(known), n=1, cutoff=0.6)
    hint = f" (did you mean {close[0]}?)" if close else ""
    return f"unknown {what} {_show(value)}{hint}; known: {', '.join(sorted(known))}"


def _check(dragons: dict[str, Dragon], spells: dict[str, Spell]) -> None:
    """Every spell names a known dragon whose page lists it, every listed spell exists and is that
    dragon's, and no dragon has two Ultimate spells (line 260)."""
    for key, spell in spells.items():
        if spell.dragon not in dragons:
            unknown = _unknown("dragon", spell.dragon, dragons)
            raise CatalogError(f"{spell.origin}: spells.{key}: dragon: {unknown}")
    for key, dragon in dragons.items():
        where = f"{dragon.origin}: dragons.{key}"
        for i, name in enumerate(dragon.spells):
            if name not in spells:
                raise CatalogError(f"{where}: spells[{i}]: {_unknown('spell', name, spells)}")
            owner = spells[name].dragon
            if owner != key:
                raise CatalogError(f"{where}: spells[{i}]: {_show(name)} is the {dragons[owner].label}'s "
                                   f"spell (spells.{name}: dragon = {_show(owner)}); list it under "
                                   f"dragons.{owner} or change its dragon")
        ultimates = [name for name in dragon.spells if spells[name].ultimate]
        if len(ultimates) > 1:
            raise CatalogError(f"{where}: spells: {len(ultimates)} Ultimate spells ({', '.join(ultimates)}); "
                               "a dragon has one (line 260)")
    for key, spell in spells.items():
        dragon = dragons[spell.dragon]
        if key not in dragon.spells:
            raise CatalogError(f"{spell.origin}: spells.{key}: dragon: the {dragon.label} does not list "
                               f"{_show(key)} among its spells; add it to dragons.{dragon.key}.spells (a "
                               "user file replaces the whole dragon entry)")


def load(path: Path | str | None = None, user_paths: Sequence[Path | str] = ()) -> Catalog:
    """The UberDrakes catalog: ``path`` (default: the packaged ``data/examples.toml``), then each user file
    in ``user_paths`` on top (an entry with an existing key in the same table replaces it as a whole, a new
    key adds one).

    Raises:
        CatalogError: a file cannot be read or breaks the schema (one line naming file, entry and key).
    """
    from rulesets.toml_fields import catalog_files, fingerprint

    files = catalog_files(__package__, PACKAGE_FILE, PACKAGE_LABEL, path, user_paths, CatalogError)
    tables: dict[str, dict[str, Any]] = {table: {} for table in TABLES}
    for label, text in files:
        for table, read in _parse(label, text).items():
            tables[table].update(read)
    _check(tables["dragons"], tables["spells"])
    source, digest, hashes = fingerprint(files, "003")
    return Catalog(**tables, source=source, sha256=digest, files=hashes)
