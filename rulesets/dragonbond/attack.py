"""One Dragonbond attack as the rulebook builds it (seed 000, "Performing an Attack", 691-757): the dice
collected, every typed modifier that applies to the attack roll and to the defense roll, each with its
source, then the exact outcome (rulesets.dragonbond.exact).

Modifiers are typed (236-283): Attack applies to melee and ranged attacks, Melee and Ranged to one kind;
Defense to both kinds, Melee Defense and Ranged Defense to one. Upgrades and downgrades on one roll cancel
first (216); what is left is applied once to the whole pool (the defense pool of all hits, 728-741).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from rulesets.base import RulesError, whole_number
from rulesets.dragonbond.dice import Pool, modified
from rulesets.dragonbond.exact import Defense
from rulesets.dragonbond.rules import DragonbondRulings

MELEE, RANGED = "melee", "ranged"
#: Exhaustion Penalty (555-560): downgrades per fatigue token beside the unit.
ATTACK_DOWN_PER_TOKEN = 2
DEFENSE_DOWN_PER_TOKEN = 1
#: "they may make a melee attack against it, upgrading two melee attack dice" (498).
CHARGE_UPGRADES = 2
#: Huge creatures: "downgrade ... one die for each injury" on attack, defense and power rolls (969-973).
INJURY_DOWN_PER_INJURY = 1
MAX_MODIFIER = 100


@dataclass(frozen=True)
class AttackSetup:
    """Everything that shapes one attack's dice.

    Args:
        dice: the weapon's attack dice per engaged model (or the unit's whole pool with ``models`` 1).
        models: models engaged (melee) or in range (ranged): "For each model that is engaged, collect dice
            equal to the unit's attack stat on the selected weapon" (708-710).
        kind: melee or ranged.
        up, down: other upgrades and downgrades on the attack roll (terrain, captains, powers: the caller
            sums the ones of types Attack and this kind).
        charge: the attacker charged this turn (2 melee upgrades, 498).
        tokens_beside: fatigue tokens beside the attacking unit (exhaustion: 2 downgrades each, 560).
        injuries: the attacker is a Huge creature with this many injuries (1 downgrade each, 971).
        defense: the target's defense stat (dice per non-critical hit); defense_die its strength (0 red,
            1 white, 2 black).
        defense_up, defense_down: other defense upgrades and downgrades (types Defense and this kind's).
        target_tokens_beside: fatigue tokens beside the target (1 downgrade each, 559).
        engaged_enemies: enemy units the target is engaged with (flanking, DB-flanking-count); None: 1 for a
            melee attack (the attacker), 0 for a ranged one (the target is in no melee). A ranged attack at a
            target engaged with other units shares its hits among them (685-689, :meth:`melee_defenses`).
        flying_unengaged: the target is Flying and did not begin the turn engaged (one defense upgrade,
            869; DB-flying-turn says which turn).
        target_injuries: the target is a Huge creature with this many injuries (1 defense downgrade each).
        sharp: the attacker has Sharp (859).
    """

    dice: Pool
    models: int = 1
    kind: str = MELEE
    up: int = 0
    down: int = 0
    charge: bool = False
    tokens_beside: int = 0
    injuries: int = 0
    defense: int = 1
    defense_die: int = 1
    defense_up: int = 0
    defense_down: int = 0
    target_tokens_beside: int = 0
    engaged_enemies: int | None = None
    flying_unengaged: bool = False
    target_injuries: int = 0
    sharp: bool = False
    notes: tuple[str, ...] = field(default=(), compare=False)

    def __post_init__(self) -> None:
        if self.kind not in (MELEE, RANGED):
            raise RulesError(f"attack kind {self.kind!r}: accepted melee, ranged")
        if self.dice.kind != "action":
            raise RulesError(f"attack dice {self.dice}: action dice (B, G, W)")
        whole_number("models", self.models, 1, 1000)
        for name in ("up", "down", "tokens_beside", "injuries", "defense", "defense_up", "defense_down",
                     "target_tokens_beside", "target_injuries"):
            whole_number(name.replace("_", " "), getattr(self, name), 0, MAX_MODIFIER)
        if self.engaged_enemies is None:
            object.__setattr__(self, "engaged_enemies", 1 if self.kind == MELEE else 0)
        # a melee attacker is itself engaged with its target (656)
        whole_number("engaged enemy units", self.engaged_enemies, 1 if self.kind == MELEE else 0, 20)
        if self.defense_die not in (0, 1, 2):
            raise RulesError(f"defense die {self.defense_die!r}: 0 red, 1 white, 2 black")
        if self.charge and self.kind != MELEE:
            raise RulesError("a charge opens a melee attack: --charge goes with a melee attack")
        if self.dice.size * self.models > 200:
            raise RulesError(f"{self.dice.size * self.models} attack dice: at most 200")

    def collected(self) -> Pool:
        """The dice before modifiers: the weapon's dice for each engaged model."""
        return Pool("action", tuple(n * self.models for n in self.dice.counts))

    def melee_defenses(self, given: Sequence[Defense] = ()) -> list[Defense]:
        """The units after the target, nearest first, that share the hits of a ranged attack at a target
        engaged with ``engaged_enemies`` units: "the damage from the attack is divided among that unit and
        the units it is engaged with ... Each unit that is hit may roll their defense normally" (687).
        ``given``: the defenses of the nearest of them; the others, not described, defend with the
        target's own defense stat and die, unmodified. Empty for a melee attack or a target in no melee.

        Raises:
            RulesError: ``given`` for a melee attack, or more units given than the target is engaged with.
        """
        if self.kind != RANGED:
            if given:
                raise RulesError("only a ranged attack goes into a melee (685-689)")
            return []
        if len(given) > self.engaged_enemies:
            raise RulesError(f"{len(given)} units engaged with the target described, but it is engaged with "
                             f"{self.engaged_enemies} enemy unit(s)")
        alike = Defense(self.defense, self.defense_die)
        return [*given, *[alike] * (self.engaged_enemies - len(given))]

    def attack_modifiers(self) -> list[tuple[str, int, int]]:
        """(what, upgrades, downgrades) on the attack roll, each with its source."""
        out = []
        if self.charge:
            out.append(("charge: 2 melee attack upgrades (498)", CHARGE_UPGRADES, 0))
        if self.tokens_beside:
            out.append((f"exhaustion: {self.tokens_beside} fatigue token(s) beside the unit, 2 downgrades "
                        f"each (560)", 0, ATTACK_DOWN_PER_TOKEN * self.tokens_beside))
        if self.injuries:
            out.append((f"Huge: {self.injuries} injury(ies), 1 downgrade each (971)", 0,
                        INJURY_DOWN_PER_INJURY * self.injuries))
        if self.up or self.down:
            out.append((f"other {self.kind} and Attack modifiers", self.up, self.down))
        return out

    def flanking_downgrades(self, rulings: DragonbondRulings) -> int:
        """Defense downgrades for flanking (662-672) under DB-flanking-count: "Flanked units must downgrade
        one die when defending for each unit they are flanked by"; a unit "engaged with two enemy units"
        downgrades "a single defense die because the second unit is flanking them"."""
        if self.engaged_enemies < 2:
            return 0
        if rulings.flanking_count == "per-extra-unit":
            return self.engaged_enemies - 1
        if rulings.flanking_count == "per-engaged-unit":
            return self.engaged_enemies
        return 1

    def defense_modifiers(self, rulings: DragonbondRulings) -> list[tuple[str, int, int]]:
        out = []
        if self.target_tokens_beside:
            out.append((f"exhaustion: {self.target_tokens_beside} fatigue token(s) beside the target, 1 "
                        f"downgrade each (559)", 0, DEFENSE_DOWN_PER_TOKEN * self.target_tokens_beside))
        flank = self.flanking_downgrades(rulings)
        if flank:
            out.append((f"flanked: engaged with {self.engaged_enemies} enemy units, DB-flanking-count="
                        f"{rulings.flanking_count} (664-672)", 0, flank))
        if self.flying_unengaged:
            turn = ("the turn in progress" if rulings.flying_turn == "current"
                    else "its own last activation")
            out.append((f"Flying, not engaged at the start of {turn} (DB-flying-turn={rulings.flying_turn}): "
                        "1 upgrade (869)", 1, 0))
        if self.target_injuries:
            out.append((f"Huge target: {self.target_injuries} injury(ies), 1 downgrade each (971)", 0,
                        INJURY_DOWN_PER_INJURY * self.target_injuries))
        if self.defense_up or self.defense_down:
            out.append((f"other Defense and {self.kind} Defense modifiers", self.defense_up,
                        self.defense_down))
        return out

    def attack_pool(self, rulings: DragonbondRulings) -> Pool:
        mods = self.attack_modifiers()
        return modified(self.collected(), sum(m[1] for m in mods), sum(m[2] for m in mods), rulings)

    def defense_totals(self, rulings: DragonbondRulings) -> tuple[int, int]:
        mods = self.defense_modifiers(rulings)
        return sum(m[1] for m in mods), sum(m[2] for m in mods)
