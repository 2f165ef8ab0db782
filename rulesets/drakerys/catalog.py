"""Load the Drakerys catalog: unit sheets, the RECRUITMENT TABLE and the ranged weapons (seed 002).

Three packaged TOML files (``data/units.toml``, ``data/recruitment.toml``, ``data/weapons.toml``) are
read, validated and joined; user files given to :func:`load` are applied on top. A user file has the
same schema in one file: optional top-level tables ``units``, ``weapons`` and ``recruitment``. An
entry whose key exists replaces the packaged entry as a whole; a new key adds an entry.

Keys. Every entry is keyed by the lower-case slug of its printed name (``gold-keepers``, ``maelan``
for Maëlan). A name that the RECRUITMENT TABLE prints in several sections (Bowmen, Lancers, Enforcers)
gets a faction prefix on every holder: ``avaren-bowmen``, ``irosia-bowmen``, ``irosia-lancers``,
``aurium-lancers``, ``irosia-enforcers``, ``aurium-enforcers``. A unit sheet and a recruitment row
with the same key are the same unit (their names and factions must agree).

Factions. Avaren, Irosia, Aurium, Ashral, Maelstrom (WARRIORS OF THE MAELSTROM), Mercenaries, and
"Mission: Prisoners" for the prisoner cage. The human sheets are printed under "IROSIA PALADINATE";
the RECRUITMENT TABLE prints their section as "HUMANS: THE EMPIRE OF TROSIA" (so does one TimePath
page), while the contents page ("Humans: The Empire of Irosia"), the tokens and the army lists say
Irosia. Both spellings are kept as printed in the sources (``Unit.source`` of the Bowmen names both
headings) and every human row carries the quirk; they are read as one faction, Irosia, so the
Bowmen sheet joins the TROSIA Bowmen row under the key ``irosia-bowmen``.

Skills. Printed names map to canonical lower-case snake names (:data:`rulesets.drakerys.units.
MODELLED_SKILLS` lists those the simulation models). Names that the SKILLS section does not use are
read as follows, and each such reading is a quirk on the unit that prints it:

- "Parrying" → ``parry``; "Quick Shoot" → ``quick_shot``; "Shooting/X" → ``shooter`` with weapon X;
- "Saving" → ``safeguard`` (TYPE OF WARRIOR: Heroes have the Skill Safeguard);
- "Escort" → ``guard``, the only Skill that lets a Unit escort a Hero in a Combined Charge
  (an interpretation);
- "Heavy-Loaded" → ``jammed``, the only Skill that burdens a Unit's Charge (an interpretation);
- "Intimidation" (not defined) and "Camouflage" (its "Concealment" is never defined) are kept with no
  modelled effect.

Skills with a value keep it in ``Unit.skill_values`` ("Authority [20]" → ``authority`` 20, "Wizard [3]
(Tempest, Solar)" → ``wizard`` 3, the domains stay in ``skills_as_printed``). Types add skills: Hero →
``safeguard``, Monster → ``dreadful``, "Awakened [X]" → ``awakened`` with value X.

Joins and derived quirks. A unit's ``sizes`` are its recruitment row's options; ``sheet`` is the size
printed on its sheet. Where the sheet disagrees with the table (Celeste's Rarity), or the table has no
row for a sheet (Spearmen), the loader adds a quirk saying so, so a user file that fixes the data also
clears the quirk. Weapons have no quirks field: a weapon's quirks are listed on every unit carrying it.

Validation. Unknown keys, wrong types, missing keys, impossible values (characteristics outside 0..20,
Health 0, March/Charge outside 0..100 cm, sizes below 1, negative AP or Rarity, a range of 0 cm),
unknown weapons, types or skills raise :class:`CatalogError` with one line naming file, entry and key,
e.g. ``my.toml: units.crows: profile.power: expected a whole number, got "two"``.
"""

from __future__ import annotations

import difflib
import hashlib
import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from rulesets.base import RulesError
from rulesets.drakerys.rules import MAX_CHARACTERISTIC, MAX_MOVE_CM
from rulesets.drakerys.units import Catalog, Profile, Unit, UnitSize, Weapon
from rulesets.toml_fields import Fields, parse_toml, show

PACKAGE_FILES = ("weapons.toml", "recruitment.toml", "units.toml")
TABLES = ("units", "weapons", "recruitment")

#: A ranged weapon's Strength printed as "Strength of the Warrior".
WARRIOR_STRENGTH = "warrior"

_KEY = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")

#: Skill names as the SKILLS section prints them (seed 002, lines 1777-1995); canonical = snake case.
_SKILLS = (
    "Assassination", "Authority", "Berserker", "Blocking", "Brutal Charge", "Camouflage", "Charisma",
    "Deadly Blow", "Discipline", "Disengagement", "Divination", "Dreadful", "Elemental Power",
    "Expert Parry", "Flight", "Guard", "Harassment", "Heroic Action", "Infiltration", "Jammed",
    "Leadership", "Martial Arts", "Multiple Shots", "Negation", "Parry", "Quick Shot", "Reach",
    "Sacrifice", "Safeguard", "Sharpshooter", "Shooter", "Swashbuckler", "Violent Blow", "War Cry",
    "Wizard",
)
#: Named abilities of the WARRIORS OF THE MAELSTROM and MERCENARIES rows (RECRUITMENT TABLE).
_ROW_SKILLS = (
    "Elemental Absorption", "Elemental Movement", "Zephyr", "Reflexes", "Rock solid", "Blaze",
    "Hurricane", "Engulfing", "Inferno", "Rift", "Experimental Weapons", "Incarnation", "Spiritual Link",
)
#: Skills printed with a value [X].
_VALUED = frozenset({"authority", "sacrifice", "war_cry", "wizard"})

#: Printed names that are not SKILLS headings, or whose rule cannot be used: (canonical, quirk).
_VARIANTS = {
    "parrying": ("parry", 'skill printed "{printed}": SKILLS names it Parry; read as parry'),
    "quick shoot": ("quick_shot", 'skill printed "{printed}": SKILLS names it Quick Shot; read as '
                                  "quick_shot"),
    "shooting": ("shooter", 'skill printed "{printed}": SKILLS names it Shooter/X; read as shooter with '
                            "the {weapon}"),
    "saving": ("safeguard", 'skill printed "{printed}", which SKILLS does not define: read as Safeguard '
                            "(TYPE OF WARRIOR: Heroes have the Skill Safeguard)"),
    "escort": ("guard", 'skill printed "{printed}", which SKILLS does not define: read as Guard, the only '
                        "Skill that lets a Unit escort a Hero in a Combined Charge (an interpretation)"),
    "heavy-loaded": ("jammed", 'skill printed "{printed}", which SKILLS does not define: read as Jammed '
                               "(Charge Actions cost 2 TS more), the only Skill that burdens a Unit's "
                               "Charge (an interpretation)"),
    "intimidation": ("intimidation", 'skill printed "{printed}", which SKILLS does not define: kept, with '
                                     "no modelled effect (no usable rule)"),
    "camouflage": ("camouflage", 'skill "{printed}" makes Sceneries procure Concealment, which these '
                                 "rules never define: kept, with no modelled effect (no usable rule)"),
}

#: TYPE OF WARRIOR (seed 002, line 517), plus "Object" for the prisoner cage.
_TYPES = ("Infantry", "Monster", "Beast", "Hero", "Awakened", "Object")
#: Skills a type gives (TYPE OF WARRIOR: Monsters have Dreadful, Heroes have Safeguard).
_TYPE_SKILLS = {"Monster": "dreadful", "Hero": "safeguard"}

_SKILL = re.compile(r"^(?P<name>[^\[\]()/]+?)\s*(?:/\s*(?P<weapon>[^\[\]()/]+?))?\s*"
                    r"(?:\[\s*(?P<value>[^\]]*?)\s*\])?\s*(?:\((?P<domains>[^()]*)\))?$")
_SOURCE_OF = re.compile(r"^source of (?P<element>[a-z]+)\s*/\s*\[\s*(?P<value>\d+)\s*\]$", re.IGNORECASE)
_AWAKENED = re.compile(r"^Awakened\s*\[\s*(?P<value>[^\]]*?)\s*\]$")


class CatalogError(RulesError):
    """A catalog file that cannot be read or does not follow the schema (one line: file, entry, key)."""


def snake(name: str) -> str:
    """``"Heroic Action"`` → ``heroic_action``."""
    return re.sub(r"[^a-z0-9]+", "_", _ascii(name).lower()).strip("_")


def slug(name: str) -> str:
    """``"Gold Keepers"`` → ``gold-keepers``, ``"Maëlan"`` → ``maelan``: the form of catalog keys."""
    return re.sub(r"[^a-z0-9]+", "-", _ascii(name).lower()).strip("-")


def _ascii(text: str) -> str:
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()


#: Canonical names of the SKILLS section and of the Maelstrom and Mercenaries rows, by printed name.
KNOWN_SKILLS = {name.lower(): snake(name) for name in (*_SKILLS, *_ROW_SKILLS)}


_show = show


class _Fields(Fields):
    """The keys of one Drakerys TOML table (rulesets.toml_fields)."""

    error = CatalogError


@dataclass(frozen=True)
class _Skill:
    """One printed skill, read."""

    printed: str
    canonical: str
    value: int | None
    weapon: str | None
    quirk: str | None


@dataclass(frozen=True)
class _WeaponEntry:
    weapon: Weapon
    quirks: tuple[str, ...]


@dataclass(frozen=True)
class _SheetEntry:
    """An entry of ``units``: a unit sheet."""

    where: str
    name: str
    faction: str
    types: tuple[str, ...]
    awakened: int | None
    skills: tuple[_Skill, ...]
    weapon: str | None
    sheet: UnitSize | None
    profile: Profile
    source: str
    quirks: tuple[str, ...]


@dataclass(frozen=True)
class _RowEntry:
    """An entry of ``recruitment``: a row of the RECRUITMENT TABLE."""

    where: str
    name: str
    faction: str
    options: tuple[UnitSize, ...]
    skills: tuple[_Skill, ...]
    notes: str
    source: str
    quirks: tuple[str, ...]


def _read_skill(fields: _Fields, key: str, printed: str) -> _Skill:
    """Read one printed skill ("Authority [20]", "Shooting/Bow", "Wizard [3] (Tempest, Solar)")."""
    text = " ".join(printed.split())
    if m := _SOURCE_OF.match(text):
        return _Skill(printed, f"source_of_{m['element'].lower()}", int(m["value"]), None, None)
    m = _SKILL.match(text)
    if m is None:
        fields.fail(key, f"cannot read skill {_show(printed)}; expected a name with an optional "
                         f"/Weapon, [value] and (domains), e.g. \"Wizard [3] (Tempest, Solar)\"")
    name = m["name"].strip()
    low = name.lower()
    if low in _VARIANTS:
        canonical, quirk = _VARIANTS[low]
    elif low in KNOWN_SKILLS:
        canonical, quirk = KNOWN_SKILLS[low], None
    else:
        names = [*_SKILLS, *_ROW_SKILLS, *(v.title() for v in _VARIANTS)]
        close = difflib.get_close_matches(name, names, n=2, cutoff=0.6)
        hint = f"; did you mean {' or '.join(close)}?" if close else "; see the SKILLS section"
        fields.fail(key, f"unknown skill {_show(printed)}{hint}")
    weapon = m["weapon"].strip() if m["weapon"] else None
    if canonical == "shooter" and weapon is None:
        fields.fail(key, f"cannot read skill {_show(printed)}: {name} needs its weapon, e.g. {name}/Bow")
    if canonical != "shooter" and weapon is not None:
        fields.fail(key, f"cannot read skill {_show(printed)}: {name} takes no /weapon (only Shooter/X)")
    value = None
    if m["value"] is not None:
        if canonical not in _VALUED:
            fields.fail(key, f"cannot read skill {_show(printed)}: {name} takes no [value]")
        if not m["value"].isdigit():
            fields.fail(key, f"cannot read skill {_show(printed)}: [{m['value']}] is not a whole number")
        value = int(m["value"])
    elif canonical in _VALUED:
        fields.fail(key, f"cannot read skill {_show(printed)}: {name} needs a value, e.g. {name} [2]")
    if m["domains"] is not None and canonical != "wizard":
        fields.fail(key, f"cannot read skill {_show(printed)}: only Wizard [X] lists domains")
    if quirk is not None:
        quirk = quirk.format(printed=printed, weapon=weapon)
    return _Skill(printed, canonical, value, weapon, quirk)


def _read_skills(fields: _Fields) -> tuple[_Skill, ...]:
    return tuple(_read_skill(fields, f"skills[{i}]", s) for i, s in enumerate(fields.texts("skills")))


def _read_weapon(where: str, data: Any) -> _WeaponEntry:
    f = _Fields(where, "", data, ("name", "max_range_cm", "strength", "saturation"),
                ("special", "one_shot_per_activation", "ignores_parry", "source", "quirks"))
    strength = f.data["strength"]
    if strength != WARRIOR_STRENGTH:
        if isinstance(strength, str):
            f.fail("strength", f"expected a whole number or \"{WARRIOR_STRENGTH}\" (Strength of the "
                               f"Warrior), got {_show(strength)}")
        strength = f.whole("strength", 0, MAX_CHARACTERISTIC)
    weapon = Weapon(
        name=f.text("name"), max_range_cm=f.whole("max_range_cm", 1),
        strength=None if strength == WARRIOR_STRENGTH else strength,
        saturation=f.whole("saturation", 0, MAX_CHARACTERISTIC), special=f.text("special", "", empty=True),
        one_shot_per_activation=f.flag("one_shot_per_activation"), ignores_parry=f.flag("ignores_parry"),
        source=f.text("source", where))
    return _WeaponEntry(weapon, f.texts("quirks"))


_PROFILE = ("actions", "power", "health", "initiative", "combat", "shooting", "strength", "resistance",
            "willpower", "march", "charge")


def _read_profile(f: _Fields) -> Profile:
    values: dict[str, int | None] = {}
    for key in _PROFILE:
        if key == "shooting" and f.data[key] == "-":
            values[key] = None
        elif key in ("march", "charge"):
            values[key] = f.whole(key, 0, MAX_MOVE_CM)
        else:
            values[key] = f.whole(key, 1 if key == "health" else 0, MAX_CHARACTERISTIC)
    return Profile(**values)


def _read_size(f: _Fields, source: str) -> UnitSize:
    return UnitSize(f.whole("size", 1), f.whole("ap", 1), f.whole("rarity", 0), source)


def _read_types(f: _Fields) -> tuple[tuple[str, ...], int | None]:
    types: list[str] = []
    awakened = None
    for i, printed in enumerate(f.texts("types")):
        text = printed.strip()
        if m := _AWAKENED.match(text):
            awakened = f.whole(f"types[{i}]", 0, MAX_CHARACTERISTIC,
                               int(m["value"]) if m["value"].isdigit() else m["value"])
            text = "Awakened"
        elif text == "Awakened":
            f.fail(f"types[{i}]", "Awakened needs its value, e.g. \"Awakened [2]\"")
        elif text not in _TYPES:
            f.fail(f"types[{i}]", f"unknown type {_show(printed)}; accepted: Infantry, Monster, Beast, "
                                  f"Hero, Awakened [X], Object")
        if text in types:
            f.fail(f"types[{i}]", f"type {text} is given twice")
        types.append(text)
    return tuple(types), awakened


def _read_sheet(where: str, data: Any) -> _SheetEntry:
    f = _Fields(where, "", data, ("name", "faction", "types", "skills", "profile"),
                ("weapon", "sheet", "source", "quirks"))
    source = f.text("source", where)
    types, awakened = _read_types(f)
    sheet = _read_size(f.sub("sheet", ("size", "ap", "rarity")), source) if f.has("sheet") else None
    profile = _read_profile(f.sub("profile", _PROFILE))
    skills = _read_skills(f)
    if any(s.canonical == "shooter" for s in skills) and profile.shooting is None:
        f.fail("profile.shooting", "a unit with Shooter/X needs a Shooting characteristic, got \"-\"")
    return _SheetEntry(where, f.text("name"), f.text("faction"), types, awakened, skills,
                       f.text("weapon") if f.has("weapon") else None, sheet, profile, source,
                       f.texts("quirks"))


def _read_row(where: str, data: Any) -> _RowEntry:
    f = _Fields(where, "", data, ("name", "faction", "options"), ("skills", "notes", "source", "quirks"))
    source = f.text("source", where)
    options = tuple(_read_size(o, source) for o in f.subs("options", ("size", "ap", "rarity")))
    for i, option in enumerate(options):
        if option.size in {o.size for o in options[:i]}:
            f.fail(f"options[{i}].size", f"size {option.size} is given twice")
    return _RowEntry(where, f.text("name"), f.text("faction"), options, _read_skills(f),
                     f.text("notes", "", empty=True), source, f.texts("quirks"))


_READERS: dict[str, Callable[[str, Any], Any]] = {
    "weapons": _read_weapon, "units": _read_sheet, "recruitment": _read_row,
}


def _parse(label: str, text: str) -> dict[str, dict[str, Any]]:
    """The entries of one catalog file, read and validated: ``{table: {key: entry}}``."""
    document = parse_toml(label, text, CatalogError)
    out: dict[str, dict[str, Any]] = {}
    for table, entries in document.items():
        if table not in TABLES:
            raise CatalogError(f"{label}: {table}: unknown table; accepted: {', '.join(TABLES)}")
        if not isinstance(entries, dict):
            raise CatalogError(f"{label}: {table}: expected a table of entries, got {_show(entries)}")
        out[table] = {}
        for key, data in entries.items():
            if not _KEY.match(key):
                raise CatalogError(f"{label}: {table}.{key}: a key is a lower-case slug of the name, "
                                   f"e.g. {slug(key) or 'gold-keepers'!r}")
            out[table][key] = _READERS[table](f"{label}: {table}.{key}", data)
    return out


def _read_text(label: str, data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise CatalogError(f"{label}: not UTF-8 text (byte {exc.start})") from None


def _packaged() -> list[tuple[str, str]]:
    """(label, text) of the packaged files, in the order they are applied."""
    folder = resources.files(__package__).joinpath("data")
    labels = [(f"rulesets/drakerys/data/{name}", name) for name in PACKAGE_FILES]
    return [(label, _read_text(label, folder.joinpath(name).read_bytes())) for label, name in labels]


def load(extra: Sequence[Path] = ()) -> Catalog:
    """The Drakerys catalog: the packaged files, then each user file in ``extra`` on top.

    Args:
        extra: user catalog files (same schema); later files override earlier ones.

    Returns:
        Every unit of the RECRUITMENT TABLE, the unit sheets and the user files, and the weapons.

    Raises:
        CatalogError: a file cannot be read or breaks the schema (one line naming file, entry and key).
    """
    files = _packaged()
    for path in extra:
        path = Path(path)
        try:
            files.append((str(path), _read_text(str(path), path.read_bytes())))
        except OSError as exc:
            raise CatalogError(f"{path}: cannot read: {exc.strerror or exc}") from None
    merged: dict[str, dict[str, Any]] = {table: {} for table in TABLES}
    for label, text in files:
        for table, entries in _parse(label, text).items():
            merged[table].update(entries)
    weapons = {key: e.weapon for key, e in merged["weapons"].items()}
    weapon_quirks = {key: e.quirks for key, e in merged["weapons"].items()}
    units = [_join(key, merged["units"].get(key), merged["recruitment"].get(key), weapons, weapon_quirks)
             for key in dict.fromkeys([*merged["recruitment"], *merged["units"]])]
    factions = list(dict.fromkeys(u.faction for u in units))
    units.sort(key=lambda u: factions.index(u.faction))
    source = "seed 002 (packaged: " + ", ".join(PACKAGE_FILES) + ")"
    if extra:
        source += " + " + ", ".join(str(p) for p in extra)
    hashes = tuple((label, hashlib.sha256(text.encode("utf-8")).hexdigest()) for label, text in files)
    return Catalog({u.key: u for u in units}, weapons, source, hashes)


def _weapon_key(name: str, weapons: dict[str, Weapon]) -> str | None:
    for key, weapon in weapons.items():
        if name.lower() in (key, weapon.name.lower()):
            return key
    return None


def _unit_weapon(where: str, given: str | None, skills: tuple[_Skill, ...],
                 weapons: dict[str, Weapon]) -> str | None:
    """The weapon key, from the ``weapon`` key (``given``) and the Shooter/X skill, which must agree."""
    known = ", ".join(weapons) or "none"
    named = None
    for i, skill in enumerate(skills):
        if skill.weapon is not None:
            key = _weapon_key(skill.weapon, weapons)
            if key is None:
                raise CatalogError(f"{where}: skills[{i}]: unknown weapon {_show(skill.weapon)} in "
                                   f"{_show(skill.printed)}; known: {known}")
            if named is not None and key != named:
                raise CatalogError(f"{where}: skills[{i}]: a second weapon {_show(skill.weapon)}")
            named = key
    if given is not None:
        if given not in weapons:
            raise CatalogError(f"{where}: weapon: unknown weapon {_show(given)}; known: {known}")
        if named != given:
            have = f"names {named}" if named else "has no Shooter/X skill"
            raise CatalogError(f"{where}: weapon: {_show(given)} but the unit {have}")
    return named


def _join(key: str, sheet: _SheetEntry | None, row: _RowEntry | None, weapons: dict[str, Weapon],
          weapon_quirks: dict[str, tuple[str, ...]]) -> Unit:
    """One Unit from its sheet and its recruitment row (either may be missing)."""
    if sheet and row:
        for field in ("name", "faction"):
            a, b = getattr(sheet, field), getattr(row, field)
            if a != b:
                raise CatalogError(f"{sheet.where}: {field}: {_show(a)} differs from {_show(b)} in "
                                   f"{row.where} (the same key is the same unit)")
    first: _SheetEntry | _RowEntry = sheet or row  # type: ignore[assignment]  # never both None
    skills = (*(sheet.skills if sheet else ()), *(row.skills if row else ()))
    types = sheet.types if sheet else ()
    canonical = [s.canonical for s in skills] + [_TYPE_SKILLS[t] for t in types if t in _TYPE_SKILLS]
    values = {s.canonical: s.value for s in skills if s.value is not None}
    if sheet and sheet.awakened is not None:
        canonical.append("awakened")
        values["awakened"] = sheet.awakened
    weapon = _unit_weapon(first.where, sheet.weapon if sheet else None, skills, weapons)
    quirks = [*(sheet.quirks if sheet else ()), *(row.quirks if row else ()),
              *(s.quirk for s in skills if s.quirk)]
    if weapon is not None:
        quirks += [f"{weapons[weapon].name}: {q}" for q in weapon_quirks[weapon]]
    if sheet and sheet.sheet:
        quirks += _sheet_quirks(sheet.sheet, row.options if row else None)
    return Unit(
        key=key, name=first.name, faction=first.faction, types=types,
        skills=tuple(dict.fromkeys(canonical)), skill_values=values,
        skills_as_printed=tuple(dict.fromkeys(s.printed for s in skills)), weapon=weapon,
        profile=sheet.profile if sheet else None, sheet=sheet.sheet if sheet else None,
        sizes=row.options if row else (), quirks=tuple(dict.fromkeys(quirks)),
        source="; ".join(e.source for e in (sheet, row) if e), notes=row.notes if row else "")


def _sheet_quirks(sheet: UnitSize, options: tuple[UnitSize, ...] | None) -> list[str]:
    """Where the unit sheet's Size / AP / Rarity and the RECRUITMENT TABLE disagree."""
    printed = f"{sheet.size} / {sheet.ap} / {sheet.rarity}"
    if options is None:
        return [f"no row in the RECRUITMENT TABLE; the unit sheet's {printed} (Size / AP / Rarity) is "
                f"its only recruitment option"]
    same = [o for o in options if o.size == sheet.size]
    if not same:
        sizes = ", ".join(str(o.size) for o in options) or "none"
        return [f"the unit sheet's size {sheet.size} ({printed}) is not among the RECRUITMENT TABLE's "
                f"sizes ({sizes}); it is kept as one more option"]
    table = same[0]
    diffs = [(name, getattr(sheet, attr), getattr(table, attr))
             for name, attr in (("AP", "ap"), ("Rarity", "rarity"))
             if getattr(sheet, attr) != getattr(table, attr)]
    if not diffs:
        return []
    sheet_says = ", ".join(f"{n} {a}" for n, a, _ in diffs)
    table_says = ", ".join(f"{n} {b}" for n, _, b in diffs)
    return [f"the unit sheet prints {sheet_says} ({printed}) and the RECRUITMENT TABLE {table_says} "
            f"({table.size} / {table.ap} / {table.rarity}); both kept, the table's is used for "
            f"{sheet.size} warrior{'s' if sheet.size != 1 else ''}"]
