"""Load the Warbound catalog: the cards the rulebook names (seed 004), printed facts sourced, every other
value illustrative.

The rulebook prints no card, only facts scattered through its examples (the COPP's built-in ranged weapon,
line 245; Splatter's Opportunist skill, line 557; ...) and the rules of the Formation card (lines
543-575). The packaged ``data/examples.toml`` keeps each fact with its line in ``sources`` and lists every
invented value in ``illustrative``; its header comment describes the schema and the ranges. User files
given to :func:`load` use the same schema and are applied on top: an entry whose key exists in the same
table replaces it as a whole, a new key adds one, a ``[board]`` replaces the Action Board.

Paths (``name``, ``front.attack``, ``panic.morale``, ``front.skills[0].text``; an ancestor such as
``panic`` stands for every value under it) name the value fields of an entry; each is in exactly one of
``sources`` and ``illustrative``. An absent ``attack``, accuracy or ``morale`` is a value too. Breaking the
schema raises :class:`CatalogError`, one line naming file, entry, key and value, and what is accepted:
``my.toml: characters.copp: front.attack: expected a whole number from 2 to 12, got 13``.

Pure Python: the command tree may import this; tomllib (rulesets.toml_fields) is imported when reading.
"""

from __future__ import annotations

import dataclasses
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
PACKAGE_LABEL = f"rulesets/warbound/data/{PACKAGE_FILE}"
#: The keyed tables of a catalog file, with what one entry is called in messages; ``board`` is not keyed.
ENTRY_TABLES = {"characters": "character", "leaders": "leader", "formations": "Formation card",
                "equipment": "Equipment card", "vocations": "Vocation card"}
TABLES = (*ENTRY_TABLES, "board")
#: Equipment type icons (lines 241-245, 279-283).
ICONS = ("ranged", "melee", "armor")
#: The Actions an Action Board may hold (lines 141-173); "move" carries the cost reduction (line 157).
ACTIONS = ("move", "run", "fight", "shoot", "aim+shoot", "move+shoot", "move+fight", "run+fight")
#: The key of the Formation card for any character.
GENERIC_FORMATION = "formation"
#: The faction of a Leader whose Order tokens pay every colour: no printed card does (a coloured token
#: "indicates the required faction color", line 213); the reference Leader of WB-economy=same-leader has it,
#: so that no character's coloured cost is favoured over another's.
ANY_FACTION = "any"
#: The catalog key of the reference Leader both sides spend under WB-economy=same-leader.
REFERENCE_LEADER = "reference"

HIT, DICE, HEALTH, MORALE = (2, 12), (1, 10), (1, 20), (1, 20)
ARMOR_POINTS, COST, MOVE, ROLL, ORDERS, BONUS = (0, 10), (0, 10), (0, 20), (0, 10), (0, 20), (0, 5)
#: Profile fields an Equipment card may add to (a negative change lowers a hit or armor value: better).
CHANGEABLE = ("attack", "attack_dice", "speed", "run", "accuracy_near", "accuracy_far", "shoot_dice",
              "cost_colourless", "cost_coloured", "health", "morale", "armor_points", "armor_value")
#: What a Formation card prints for every Formation (lines 543-575): a field absent from a user's card
#: takes this value, sourced by this line.
FORMATION_PRINTED = {"cost_colourless": (1, "line 543"), "hit_bonus": (1, "line 545"),
                     "extra_dice": (1, "lines 559, 565"), "extra_health": (1, "line 573"),
                     "character": (None, "line 83")}

_KEY = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


class CatalogError(RulesError):
    """A catalog file that cannot be read or breaks the schema (one line: file, entry, key, value)."""


def slug(name: str) -> str:
    """``"Ork'edo Drummer"`` → ``ork-edo-drummer``: the form of catalog keys."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")






# --- the catalog's types ----------------------------------------------------------------------------




@dataclass(frozen=True)
class Skill:
    """A skill (lines 219-225): ``text`` quoted when printed, else a short illustrative description;
    ``active`` skills are used once per activation (line 223); ``roll`` the "Roll X" dice (line 608)."""

    name: str
    text: str
    active: bool = False
    roll: int = 0
    modelled: bool = False


@dataclass(frozen=True)
class Profile:
    """One side of a Character card (the front, or the Panic side, lines 517-523). ``attack`` None: the
    character cannot Fight (its ``attack_dice`` is then 0); ``accuracy_near`` None: it cannot Shoot
    (``accuracy_far`` None, ``shoot_dice`` 0); ``accuracy_far`` None: the closest target only (line 461);
    ``morale`` None: no Morale Point pool (line 525); ``armor_value`` None exactly when ``armor_points``
    is 0."""

    attack: int | None
    attack_dice: int
    speed: int
    run: int
    accuracy_near: int | None
    accuracy_far: int | None
    shoot_dice: int
    cost_colourless: int
    cost_coloured: int
    health: int
    morale: int | None
    armor_points: int
    armor_value: int | None
    equipment_icons: tuple[str, ...]
    skills: tuple[Skill, ...]

    @property
    def cost(self) -> int:
        """Order tokens paid per activation, colourless and coloured (lines 213-217)."""
        return self.cost_colourless + self.cost_coloured

    def paths(self, side: str) -> list[str]:
        """The value fields of this side of the card, prefixed with ``side`` (``front`` or ``panic``)."""
        names = ["attack", *(["attack_dice"] if self.attack is not None else []), "speed", "run",
                 "accuracy_near", *(["accuracy_far", "shoot_dice"] if self.accuracy_near is not None else []),
                 "cost_colourless", "cost_coloured", "health", "morale", "armor_points",
                 *(["armor_value"] if self.armor_points else []), "equipment_icons"]
        out = [f"{side}.{n}" for n in names]
        for i in range(len(self.skills)):
            out += [f"{side}.skills[{i}].{k}" for k in ("name", "text", "active", "roll")]
        return out


@dataclass(frozen=True)
class Character(Provenance):
    """A Character card: ``front`` and ``panic`` (None when the catalog gives no Panic side)."""

    key: str
    name: str
    faction: str
    front: Profile
    panic: Profile | None
    sources: tuple[tuple[str, str], ...]
    illustrative: tuple[str, ...]
    quirks: tuple[str, ...] = ()
    notes: str = ""
    origin: str = ""

    def _paths(self) -> list[str]:
        return ["name", "faction", *self.front.paths("front"),
                *(self.panic.paths("panic") if self.panic is not None else [])]


@dataclass(frozen=True)
class Leader(Provenance):
    """A Leader card (lines 253-265): ``orders`` of its faction's colour per Leader Phase (left, right);
    a ``faction`` of :data:`ANY_FACTION` makes tokens that pay every colour (the reference Leader)."""

    key: str
    name: str
    faction: str
    orders: tuple[int, int]
    skill: str
    sources: tuple[tuple[str, str], ...]
    illustrative: tuple[str, ...]
    notes: str = ""
    origin: str = ""
    _PATHS = ("name", "faction", "orders", "skill")


@dataclass(frozen=True)
class Formation(Provenance):
    """A Formation card (lines 285-289, 529-575) for ``character`` (a key; None: any character)."""

    key: str
    name: str
    character: str | None
    cost_colourless: int = 1
    hit_bonus: int = 1
    extra_dice: int = 1
    extra_health: int = 1
    sources: tuple[tuple[str, str], ...] = ()
    illustrative: tuple[str, ...] = ()
    notes: str = ""
    origin: str = ""
    _PATHS = ("name", "character", "cost_colourless", "hit_bonus", "extra_dice", "extra_health")


@dataclass(frozen=True)
class Equipment(Provenance):
    """An Equipment card (lines 273-283): its type ``icon`` (None: any character may equip it), its
    ``faction`` (None: any, line 310) and the profile fields it adds to (``changes``)."""

    key: str
    name: str
    icon: str | None
    faction: str | None
    changes: tuple[tuple[str, int], ...]
    text: str
    sources: tuple[tuple[str, str], ...] = ()
    illustrative: tuple[str, ...] = ()
    notes: str = ""
    origin: str = ""
    _PATHS = ("name", "icon", "faction", "changes", "text")


@dataclass(frozen=True)
class Vocation(Provenance):
    """A Vocation card (lines 299-309), attached to the Leader; ``faction`` None: any Leader."""

    key: str
    name: str
    faction: str | None
    text: str
    sources: tuple[tuple[str, str], ...] = ()
    illustrative: tuple[str, ...] = ()
    notes: str = ""
    origin: str = ""
    _PATHS = ("name", "faction", "text")


@dataclass(frozen=True)
class ActionBoard:
    """The Exploration Action Board: the Actions of Period 1 (turns 1-2) and Period 2 (turns 3-5), line
    127. Its layout is an image the text lacks, so the packaged board is illustrative."""

    periods: tuple[tuple[str, ...], tuple[str, ...]]
    illustrative: bool = True
    notes: str = ""


@dataclass(frozen=True)
class Catalog(EntryTables):
    """The cards of the packaged file and the user files; ``files`` the (file, sha256) of every file read,
    packaged first; ``sha256`` the packaged file's own hash when no user file was given."""

    characters: dict[str, Character] = field(hash=False)
    leaders: dict[str, Leader] = field(hash=False)
    formations: dict[str, Formation] = field(hash=False)
    equipment: dict[str, Equipment] = field(hash=False)
    vocations: dict[str, Vocation] = field(hash=False)
    board: ActionBoard
    source: str
    sha256: str
    files: tuple[tuple[str, str], ...]
    ENTRY_TABLES = ENTRY_TABLES


    def character(self, name: str) -> Character:
        return self.entry("characters", name)

    def leader(self, name: str) -> Leader:
        return self.entry("leaders", name)

    def formation_for(self, character_key: str) -> Formation:
        """The Formation card of a character: the card naming it if there is one, else the generic card
        (key ``formation``)."""
        key = self.character(character_key).key
        own = next((f for f in self.formations.values() if f.character == key), None)
        if own is not None:
            return own
        generic = self.formations.get(GENERIC_FORMATION)
        if generic is None or generic.character is not None:
            raise RulesError(f"no Formation card for {key!r}: no card names it and the catalog has no "
                             f"generic card (key {GENERIC_FORMATION!r} without a character)")
        return generic


def with_formation(profile: Profile, formation: Formation) -> Profile:
    """The profile of the character in Formation: the card's colourless cost added (line 543), one more
    melee die if it can Fight (565) and ranged die if it can Shoot (559), one more Health point (573). The
    +1 to hit (545) is not folded in: the dice apply it as a modifier (ruling WB-formation-bonus)."""
    return dataclasses.replace(
        profile, cost_colourless=profile.cost_colourless + formation.cost_colourless,
        attack_dice=profile.attack_dice + (formation.extra_dice if profile.attack is not None else 0),
        shoot_dice=profile.shoot_dice + (formation.extra_dice if profile.accuracy_near is not None else 0),
        health=profile.health + formation.extra_health)


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

        def maybe(self, key: str, bounds: tuple[int, int]) -> int | None:
            return self.whole(key, *bounds) if self.has(key) else None

        def faction(self, key: str) -> str | None:
            if not self.has(key):
                return None
            value = self.text(key)
            if not _KEY.match(value):
                self.fail(key, f"expected a lower-case faction key like \"raiders\", got {_show(value)}"
                               f"{f'; did you mean {slug(value)!r}?' if slug(value) else ''}")
            return value

    return _Fields


def _read_skill(f: Fields) -> Skill:
    if f.flag("modelled"):
        f.fail("modelled", "true is not supported: duels do not model skills yet; give false or leave it out")
    return Skill(f.text("name"), f.text("text"), f.flag("active"), f.maybe("roll", ROLL) or 0)  # type: ignore


_PROFILE_REQUIRED = ("speed", "run", "cost_colourless", "cost_coloured", "health", "armor_points")
_PROFILE_OPTIONAL = ("attack", "attack_dice", "accuracy_near", "accuracy_far", "shoot_dice", "morale",
                     "armor_value", "equipment_icons", "skills")


def _read_profile(f: Any) -> Profile:
    attack, near = f.maybe("attack", HIT), f.maybe("accuracy_near", HIT)
    if attack is None and f.has("attack_dice"):
        f.fail("attack_dice", "given without attack: a character with no attack value cannot Fight (line "
                              "197); give attack or leave attack_dice out")
    for key in ("accuracy_far", "shoot_dice"):
        if near is None and f.has(key):
            f.fail(key, "given without accuracy_near: a character with no accuracy cannot Shoot (lines 139, "
                        "203); give accuracy_near or leave it out")
    armor_points = f.whole("armor_points", *ARMOR_POINTS)
    if armor_points and not f.has("armor_value"):
        f.fail("armor_value", f"required key missing: {armor_points} armor points need the value to roll on "
                              "an armor die (line 239), a whole number from 2 to 12")
    if not armor_points and f.has("armor_value"):
        f.fail("armor_value", "given with armor_points = 0: a character without armor points has no armor "
                              "value (line 239); give armor_points >= 1 or leave armor_value out")
    colourless, coloured = f.whole("cost_colourless", *COST), f.whole("cost_coloured", *COST)
    if colourless + coloured == 0:
        f.fail("cost_coloured", "the activation cost is 0: a character costs at least 1 Order token (lines "
                                "213-217); give cost_colourless or cost_coloured >= 1")
    icons = f.texts("equipment_icons")
    for i, icon in enumerate(icons):
        if icon not in ICONS or icon in icons[:i]:
            what = "repeated" if icon in ICONS else "unknown"
            f.fail(f"equipment_icons[{i}]", f"{what} equipment icon {_show(icon)}; accepted, each once: "
                                            f"{', '.join(ICONS)}")
    skills = tuple(_read_skill(s) for s in f.subs("skills", ("name", "text"), ("active", "roll", "modelled")))
    return Profile(
        attack=attack, attack_dice=(f.maybe("attack_dice", DICE) or 1) if attack is not None else 0,
        speed=f.whole("speed", *MOVE), run=f.whole("run", *MOVE), accuracy_near=near,
        accuracy_far=f.maybe("accuracy_far", HIT) if near is not None else None,
        shoot_dice=(f.maybe("shoot_dice", DICE) or 1) if near is not None else 0,
        cost_colourless=colourless, cost_coloured=coloured, health=f.whole("health", *HEALTH),
        morale=f.maybe("morale", MORALE), armor_points=armor_points,
        armor_value=f.maybe("armor_value", HIT), equipment_icons=tuple(icons), skills=skills)


def _provenance(f: Any, entry: Any, implicit: dict[str, str] | None = None) -> Any:
    """``entry`` with its sources and illustrative paths read and checked (rulesets.toml_fields.Fields
    .provenance), plus ``implicit`` sources of absent printed fields."""
    return f.provenance(entry, implicit=implicit, dotted_example="front.attack")


def _notes(f: Any) -> str:
    return f.text("notes", "", empty=True) if f.has("notes") else ""


def _read_character(where: str, key: str, data: Any) -> Character:
    f = _fields()(where, "", data, ("name", "faction", "front"),
                  ("panic", "sources", "illustrative", "quirks", "notes"))
    name, faction = f.text("name"), f.faction("faction")
    front = _read_profile(f.sub("front", _PROFILE_REQUIRED, _PROFILE_OPTIONAL))
    panic = _read_profile(f.sub("panic", _PROFILE_REQUIRED, _PROFILE_OPTIONAL)) if f.has("panic") else None
    character = Character(key, name, faction, front, panic, (), (), f.texts("quirks"), _notes(f),
                          where.split(": ", 1)[0])
    return _provenance(f, character)


def _read_leader(where: str, key: str, data: Any) -> Leader:
    f = _fields()(where, "", data, ("name", "faction", "orders", "skill"),
                  ("sources", "illustrative", "notes"))
    orders = f.data["orders"]
    if not isinstance(orders, list) or len(orders) != 2:
        f.fail("orders", f"expected [left, right], the Order tokens of Periods 1 and 2 (line 261), got "
                         f"{_show(orders)}{f' of {len(orders)}' if isinstance(orders, list) else ''}")
    left, right = (f.whole(f"orders[{i}]", *ORDERS, value=v) for i, v in enumerate(orders))
    if left + right == 0:
        f.fail("orders", "expected at least 1 Order token in all, got [0, 0]")
    leader = Leader(key, f.text("name"), f.faction("faction"), (left, right), f.text("skill"), (), (),
                    _notes(f), where.split(": ", 1)[0])
    return _provenance(f, leader)


def _read_formation(where: str, key: str, data: Any) -> Formation:
    numbers = ("cost_colourless", "hit_bonus", "extra_dice", "extra_health")
    f = _fields()(where, "", data, ("name",), ("character", *numbers, "sources", "illustrative", "notes"))
    character = None
    if f.has("character"):
        character = f.text("character")
        if not _KEY.match(character):
            f.fail("character", f"expected a character key like \"oshi-goru\", got {_show(character)}")
    values = {k: f.whole(k, *(COST if k == "cost_colourless" else BONUS)) if f.has(k)
              else FORMATION_PRINTED[k][0] for k in numbers}
    formation = Formation(key, f.text("name"), character, **values, notes=_notes(f),
                          origin=where.split(": ", 1)[0])
    implicit = {k: cite for k, (_, cite) in FORMATION_PRINTED.items() if not f.has(k)}
    return _provenance(f, formation, implicit)


def _read_equipment(where: str, key: str, data: Any) -> Equipment:
    f = _fields()(where, "", data, ("name", "changes", "text"),
                  ("icon", "faction", "sources", "illustrative", "notes"))
    icon = f.choice("icon", ICONS, "equipment icon") if f.has("icon") else None
    c = f.sub("changes", (), CHANGEABLE)
    changes = []
    for name in c.data:
        amount = c.whole(name, -10, 10)
        if amount == 0:
            c.fail(name, "expected a whole number from -10 to 10 other than 0, got 0")
        changes.append((name, amount))
    equipment = Equipment(key, f.text("name"), icon, f.faction("faction"), tuple(changes), f.text("text"),
                          notes=_notes(f), origin=where.split(": ", 1)[0])
    return _provenance(f, equipment)


def _read_vocation(where: str, key: str, data: Any) -> Vocation:
    f = _fields()(where, "", data, ("name", "text"), ("faction", "sources", "illustrative", "notes"))
    vocation = Vocation(key, f.text("name"), f.faction("faction"), f.text("text"), notes=_notes(f),
                        origin=where.split(": ", 1)[0])
    return _provenance(f, vocation)


_READERS = {"characters": _read_character, "leaders": _read_leader, "formations": _read_formation,
            "equipment": _read_equipment, "vocations": _read_vocation}


def _read_board(where: str, data: Any) -> ActionBoard:
    f = _fields()(where, "", data, ("period_1", "period_2"), ("illustrative", "notes"))
    periods = []
    for key in ("period_1", "period_2"):
        actions = f.texts(key)
        if not actions:
            f.fail(key, "expected at least one Action (lines 127, 137)")
        for i, action in enumerate(actions):
            if action.replace(" ", "").lower() not in ACTIONS:
                close = difflib.get_close_matches(action.lower(), ACTIONS, n=1, cutoff=0.6)
                hint = f"; did you mean {close[0]}?" if close else ""
                f.fail(f"{key}[{i}]", f"unknown action {_show(action)}; accepted: {', '.join(ACTIONS)}{hint}")
        periods.append(tuple(a.replace(" ", "").lower() for a in actions))
    return ActionBoard((periods[0], periods[1]), f.flag("illustrative") if f.has("illustrative") else True,
                       _notes(f))


def _parse(label: str, text: str) -> tuple[dict[str, dict[str, Any]], ActionBoard | None]:
    """The entries of one catalog file, by table, and its Action Board (None if it has none)."""
    from rulesets.toml_fields import parse_entries

    out, raw = parse_entries(label, text, CatalogError, _READERS, lambda table, key: slug(key) or "roh-na",
                             others=("board",))
    board = _read_board(f"{label}: board", raw["board"]) if "board" in raw else None
    return out, board


def _check_formations(characters: dict[str, Character], formations: dict[str, Formation]) -> None:
    """Every Formation card names a known character, and no character has two."""
    holder: dict[str, str] = {}
    for key, card in formations.items():
        if card.character is None:
            continue
        where = f"{card.origin}: formations.{key}: character"
        if card.character not in characters:
            close = difflib.get_close_matches(card.character, list(characters), n=1, cutoff=0.6)
            hint = f"; did you mean {close[0]}?" if close else f"; known: {', '.join(sorted(characters))}"
            raise CatalogError(f"{where}: unknown character {_show(card.character)}{hint}")
        if card.character in holder:
            raise CatalogError(f"{where}: {_show(card.character)} already has the Formation card "
                               f"{holder[card.character]!r}; give each character at most one")
        holder[card.character] = key


def load(path: Path | str | None = None, user_paths: Sequence[Path | str] = ()) -> Catalog:
    """The Warbound catalog: ``path`` (default: the packaged ``data/examples.toml``), then each user file in
    ``user_paths`` on top (an entry with an existing key in the same table replaces it, a new key adds
    one, a ``[board]`` replaces the board).

    Raises:
        CatalogError: a file cannot be read or breaks the schema (one line naming file, entry and key).
    """
    from rulesets.toml_fields import catalog_files, fingerprint

    files = catalog_files(__package__, PACKAGE_FILE, PACKAGE_LABEL, path, user_paths, CatalogError)
    tables: dict[str, dict[str, Any]] = {table: {} for table in ENTRY_TABLES}
    board = None
    for label, text in files:
        entries, file_board = _parse(label, text)
        for table, read in entries.items():
            tables[table].update(read)
        board = file_board or board
    if board is None:
        raise CatalogError(f"{files[0][0]}: board: required table missing: [board] with period_1 and "
                           f"period_2 (Actions among {', '.join(ACTIONS)})")
    _check_formations(tables["characters"], tables["formations"])
    source, digest, hashes = fingerprint(files, "004")
    return Catalog(**tables, board=board, source=source, sha256=digest, files=hashes)
