"""Drakerys units, weapons and catalogs as domain objects (loaded by :mod:`rulesets.drakerys.catalog`)."""

from __future__ import annotations

import difflib
from collections.abc import Callable
from dataclasses import dataclass, field

from rulesets.base import RulesError

#: Skills the simulation models, by canonical name. Values-carrying skills use ``Unit.skill_value``.
MODELLED_SKILLS = frozenset({
    "swashbuckler", "parry", "expert_parry", "violent_blow", "martial_arts", "deadly_blow", "blocking",
    "berserker", "brutal_charge", "reach", "dreadful", "discipline", "authority", "heroic_action",
    "safeguard", "guard", "multiple_shots", "quick_shot", "sharpshooter", "shooter", "jammed",
})


@dataclass(frozen=True)
class Profile:
    """The nine characteristics of a unit sheet (Combat/Shooting and March/Charge are two each).

    ``shooting`` is None where the sheet prints "-".
    """

    actions: int
    power: int
    health: int
    initiative: int
    combat: int
    shooting: int | None
    strength: int
    resistance: int
    willpower: int
    march: int
    charge: int


@dataclass(frozen=True)
class Weapon:
    """A row of the ranged-weapons table. ``strength`` None: "Strength of the Warrior"."""

    name: str
    max_range_cm: int
    strength: int | None
    saturation: int
    special: str
    one_shot_per_activation: bool
    ignores_parry: bool
    source: str


@dataclass(frozen=True)
class UnitSize:
    """One recruitment option: a unit of ``size`` warriors costs ``ap`` Army Points and ``rarity``."""

    size: int
    ap: int
    rarity: int
    source: str


@dataclass(frozen=True)
class Unit:
    """A unit of the catalog.

    Attributes:
        key: lower-case identifier, unique in the catalog (e.g. ``gold-keepers``, ``avaren-bowmen``).
        skills: canonical skill names (see MODELLED_SKILLS; others are kept but not modelled).
        skill_values: the [X] of skills that carry one (``authority``: 20, ``wizard``: 3, ...).
        skills_as_printed: the skills as the rulebook prints them.
        types: Infantry, Hero, Monster, Beast, Awakened ...
        weapon: name of the ranged weapon (a key of Catalog.weapons), or None.
        profile: None for units the rulebook gives no profile.
        sheet: size/AP/rarity printed on the unit sheet, when there is a sheet.
        sizes: the recruitment-table options (empty when the table has no row).
        quirks: data problems kept as printed, in words.
        notes: rule text printed with the unit's row (Warriors of the Maelstrom, Mercenaries), unmodelled.
    """

    key: str
    name: str
    faction: str
    types: tuple[str, ...]
    skills: tuple[str, ...]
    skill_values: dict[str, int] = field(hash=False, compare=False)
    skills_as_printed: tuple[str, ...]
    weapon: str | None
    profile: Profile | None
    sheet: UnitSize | None
    sizes: tuple[UnitSize, ...]
    quirks: tuple[str, ...]
    source: str
    notes: str = ""

    def has(self, skill: str) -> bool:
        return skill in self.skills

    def skill_value(self, skill: str, default: int = 0) -> int:
        return self.skill_values.get(skill, default)

    @property
    def is_hero(self) -> bool:
        return "Hero" in self.types

    @property
    def unmodelled_skills(self) -> tuple[str, ...]:
        return tuple(s for s in self.skills if s not in MODELLED_SKILLS)

    def size_option(self, size: int) -> UnitSize:
        """The recruitment option for ``size`` (recruitment table first, then the unit sheet)."""
        for option in (*self.sizes, *((self.sheet,) if self.sheet else ())):
            if option.size == size:
                return option
        allowed = sorted({o.size for o in (*self.sizes, *((self.sheet,) if self.sheet else ()))})
        raise RulesError(f"{self.name} cannot be recruited {size} strong; the rulebook allows "
                         f"{', '.join(map(str, allowed)) or 'no size'} (another size needs its Army Points "
                         "given)")

    @property
    def standard_size(self) -> UnitSize | None:
        """The size printed on the unit sheet, else the largest recruitment option (None: no size at all)."""
        if self.sheet is not None:
            return self.size_option(self.sheet.size)
        options = self.all_sizes()
        return options[-1] if options else None

    def all_sizes(self) -> tuple[UnitSize, ...]:
        """Every recruitment option: the table's rows, and the sheet's when the table has none for it."""
        seen = {o.size for o in self.sizes}
        extra = (self.sheet,) if self.sheet and self.sheet.size not in seen else ()
        return tuple(sorted((*self.sizes, *extra), key=lambda o: o.size))


@dataclass(frozen=True)
class Catalog:
    """Units and weapons of one catalog file set; ``files`` holds (file, sha256 of its text) of each file
    read."""

    units: dict[str, Unit] = field(hash=False)
    weapons: dict[str, Weapon] = field(hash=False)
    source: str
    files: tuple[tuple[str, str], ...] = ()

    def unit(self, name: str, usable: Callable[[Unit], bool] | None = None, use: str = "") -> Unit:
        """The unit called ``name`` (key or printed name, case-insensitive), or a RulesError that suggests
        the closest names: only units for which ``usable`` holds (those that can ``use``, e.g. "fight"),
        when it is given. A name that is exactly one unit is returned whatever ``usable`` says (the caller
        then says why it cannot be used)."""
        wanted = name.strip().lower()
        if wanted in self.units:
            return self.units[wanted]
        matches = [u for u in self.units.values() if u.name.lower() == wanted]
        if len(matches) == 1:
            return matches[0]
        if len(matches) > 1:
            fit = [u for u in matches if usable is None or usable(u)]
            if usable is not None and not fit:
                keys = ", ".join(u.key for u in matches)
                raise RulesError(f"unit name {name!r} is ambiguous, and none of {keys} can {use}")
            unfit = [u.key for u in matches if u not in fit]
            why = f" ({', '.join(unfit)} cannot {use})" if unfit else ""
            raise RulesError(f"unit name {name!r} is ambiguous; use {' or '.join(u.key for u in fit)}{why}")
        pool = sorted(k for k, u in self.units.items() if usable is None or usable(u))
        close = difflib.get_close_matches(wanted, pool, n=3, cutoff=0.5)
        among = f" among the units that can {use}" if usable is not None else ""
        hint = (f"; did you mean {' or '.join(close)}?" if close
                else f"; no close name{among}: `balance units drakerys` lists every unit")
        raise RulesError(f"unknown unit {name!r}{hint}")

    def with_profiles(self) -> list[Unit]:
        return [u for u in self.units.values() if u.profile is not None]
