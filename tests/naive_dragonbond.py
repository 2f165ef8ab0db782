"""Plain-Python twin of Dragonbond (seed 000): every die rolled one by one with the standard ``random``
module, written from the rulebook and RULES.md §2 without the library's code, so that the fast kernels and
the exact tables can be checked against it.

The duel it plays (the reading the kernels must share; rulebook lines in brackets):

* Two units start engaged with every model in base contact, fresh (no fatigue, no wounds). The game is four
  rounds (643) unless a unit is destroyed first.
* Each round each player has 1 + (own units on the battlefield) turns (373), + X for Epic X (871). The
  players make a face-off (3 grey each, ties on criticals, then doubles, then a reroll, 218-228); the
  winner takes the first turn and the players alternate; a player with turns left when the other has none
  takes them one after the other (361-363).
* A turn: the unit activates and, per its policy, Attacks (fatigue 1) or Rests (fatigue -1; Dreamshaper
  Casters' Restful Dream: all) (438-448). ``attack``: attack every turn; ``rest``: rest when exhausted
  (fatigue tokens beside the unit), attack otherwise.
* Fatigue (547-570): tokens fill the Stamina squares first, then go beside the unit (exhausted). Removing
  takes the ones beside first. DB-fatigue-timing: ``pay-then-act`` and ``check-after-paying`` add the
  Attack's token before its roll (it counts for the roll's Exhaustion Penalty); ``act-then-pay`` after.
  Upkeep (627-629): the card is cleared, the tokens beside move onto it, the excess stays beside.
* An attack (691-757): every living model of the attacker is engaged; dice = the weapon's dice per model x
  models; attack downgrades 2 per token beside the attacker (560); the captain's modifiers while it lives;
  the defender collects ``defense`` dice per non-critical hit, 1 downgrade per token beside it (559);
  wounds = max(0, hits - blocks) + criticals, filling the models in DB-casualty-order (771-773).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

#: d10 faces 1..10 of black, grey, white action dice: "" blank, "s" ◇, "d" ◇◇, "c" ◆ (RULES.md §2 table).
ACTION_FACES = {
    "black": ["", "", "", "s", "s", "s", "s", "d", "d", "c"],
    "grey": ["", "", "", "", "", "s", "s", "s", "d", "c"],
    "white": ["", "", "", "", "", "", "", "s", "s", "c"],
}
#: d6 faces 1..6 of the defense dice: True for a Block.
DEFENSE_FACES = {
    "black": [False, False, True, True, True, True],
    "white": [False, False, False, True, True, True],
    "red": [False, False, False, False, True, True],
}
ACTION_ORDER = ["white", "grey", "black"]  # weakest first
DEFENSE_ORDER = ["red", "white", "black"]


def roll_action_die(rng: random.Random, colour: str, sharp: bool = False, sharp_mode: str = "extra-die"
                    ) -> tuple[int, int, int]:
    """(◇, ◇◇, ◆) of one action die; Sharp rolls it again on each ◆ (extra-die: the ◆ stays;
    reroll-replaces: the new face replaces it)."""
    s = d = c = 0
    while True:
        face = ACTION_FACES[colour][rng.randrange(10)]
        if face == "c":
            if sharp and sharp_mode == "reroll-replaces":
                continue
            c += 1
            if sharp:
                continue
            return s, d, c
        if face == "s":
            s += 1
        elif face == "d":
            d += 1
        return s, d, c


def modify(dice: list[str], up: int, down: int, order: list[str], *, cascade: bool = False,
           added: str | None = None, floor: str | None = None) -> list[str]:
    """Upgrades and downgrades (203-216), written independently: cancel first; upgrade the weakest dice
    first (a top die stays and adds a weakest die, or ``added``); downgrade the strongest first (a weakest
    die is removed); never zero dice (one weakest die, or ``floor``)."""
    rank = {c: i for i, c in enumerate(order)}
    dice = list(dice)
    net = up - down
    if not dice or net == 0:
        return dice
    if net > 0:
        steps = net
        while steps:
            dice.sort(key=lambda c: rank[c])
            take = 1 if cascade else min(steps, len(dice))
            new = []
            for i in range(take):
                if rank[dice[i]] == len(order) - 1:
                    new.append(added or order[0])
                else:
                    dice[i] = order[rank[dice[i]] + 1]
            dice += new
            steps -= take
        return dice
    steps = -net
    while steps and dice:
        dice.sort(key=lambda c: -rank[c])
        take = 1 if cascade else min(steps, len(dice))
        for i in range(take):
            dice[i] = order[rank[dice[i]] - 1] if rank[dice[i]] > 0 else None
        dice = [c for c in dice if c is not None]
        steps -= take
    return dice or [floor or order[0]]


@dataclass
class NaiveUnit:
    """What the twin needs of a unit. ``dice``: the melee weapon's dice per model, as colour counts."""

    name: str
    models: int
    health: int
    stamina: int
    defense: int
    defense_die: str
    dice: dict[str, int]
    sharp: bool = False
    captain_health: int | None = None
    captain_attack: tuple[int, int] = (0, 0)  # (up, down) on its unit's attacks while it lives
    captain_defense: tuple[int, int] = (0, 0)
    rest_removes_all: bool = False
    epic: int = 0
    huge: tuple[int, int] | None = None  # (health per slot, injury slots): a Huge creature (955-977)
    ranged_only: bool = False  # its only weapon is ranged: shooting while engaged draws an opportunity attack
    speed: int = 0  # a battle's unit moves into contact only while its speed less its tokens beside is > 0
    flying: bool = False


@dataclass
class Side:
    unit: NaiveUnit
    healths: list[int] = field(default_factory=list)  # model Health in the order wounds fill them
    wounds_on_current: int = 0
    card: int = 0  # fatigue on the Stamina squares
    beside: int = 0  # fatigue beside the unit (exhausted)
    wounds_taken: int = 0
    fatigue_gained: int = 0
    captain_alive: bool = False
    captain_at: int | None = None  # the captain's place in ``healths``
    injuries: int = 0

    @property
    def alive(self) -> int:
        return len(self.healths)

    def add_fatigue(self, n: int) -> None:
        self.fatigue_gained += n
        for _ in range(n):
            if self.card < self.unit.stamina:
                self.card += 1
            else:
                self.beside += 1

    def remove_fatigue(self, n: int) -> None:
        for _ in range(n):
            if self.beside:
                self.beside -= 1
            elif self.card:
                self.card -= 1

    def upkeep(self) -> None:
        self.card = min(self.beside, self.unit.stamina)
        self.beside -= self.card


def casualty_healths(u: NaiveUnit, order: str) -> tuple[list[int], int | None]:
    """Model Health in the order wounds fill them, and the captain's place in it (None: no captain)."""
    troops = [u.health] * (u.models - (1 if u.captain_health is not None else 0))
    if u.captain_health is None:
        return troops, None
    if order == "captain-first":
        return [u.captain_health] + troops, 0
    if order == "captain-last":
        return troops + [u.captain_health], len(troops)
    healths = sorted(troops + [u.captain_health])
    return healths, healths.index(u.captain_health)


def attack(rng: random.Random, att: Side, dfn: Side, rulings: dict, tokens_beside_for_roll: int,
           defense_extra: int = 0) -> int:
    """One melee attack of ``att`` on ``dfn``; returns the wounds dealt (and applies them).
    ``defense_extra``: net upgrades of the defense roll a battle adds (Flying, flanking downgrades)."""
    u = att.unit
    models = 1 if u.huge else att.alive
    dice = [c for c in ACTION_ORDER for _ in range(u.dice.get(c, 0) * models)]
    up, down = 0, 2 * tokens_beside_for_roll + att.injuries
    if att.captain_alive:
        up += u.captain_attack[0]
        down += u.captain_attack[1]
    cascade = rulings.get("step_mode") == "cascade"
    dice = modify(dice, up, down, ACTION_ORDER, cascade=cascade, added="white", floor="white")
    hits = crits = 0
    for colour in dice:
        s, d, c = roll_action_die(rng, colour, u.sharp, rulings.get("sharp", "extra-die"))
        hits += s + rulings.get("double_hits", 2) * d
        crits += c
    blocks = 0
    if hits and dfn.unit.defense:
        pool = [dfn.unit.defense_die] * (hits * dfn.unit.defense)
        dup, ddown = max(defense_extra, 0), dfn.beside + dfn.injuries + max(-defense_extra, 0)
        if dfn.captain_alive:
            dup += dfn.unit.captain_defense[0]
            ddown += dfn.unit.captain_defense[1]
        tiered = rulings.get("defense_tiers", "tiered") == "tiered"
        pool = modify(pool, dup, ddown, DEFENSE_ORDER, cascade=cascade, added="red" if tiered else "white",
                      floor=rulings.get("defense_floor", "red"))
        blocks = sum(DEFENSE_FACES[c][rng.randrange(6)] for c in pool)
    wounds = max(0, hits - blocks) + crits
    apply_wounds(dfn, wounds)
    return wounds


def apply_wounds(side: Side, wounds: int) -> None:
    side.wounds_taken += wounds
    if side.unit.huge:  # a full health slot resets and adds an injury; the last injury slot kills
        health, slots = side.unit.huge
        side.wounds_on_current += wounds
        while side.wounds_on_current >= health and side.healths:
            side.wounds_on_current -= health
            side.injuries += 1
            if side.injuries >= slots:
                side.healths.clear()
        return
    while wounds and side.healths:
        room = side.healths[0] - side.wounds_on_current
        if wounds >= room:
            wounds -= room
            side.healths.pop(0)
            side.wounds_on_current = 0
            if side.captain_at == 0:
                side.captain_alive = False
            side.captain_at = None if side.captain_at in (None, 0) else side.captain_at - 1
        else:
            side.wounds_on_current += wounds
            wounds = 0


def face_off(rng: random.Random) -> int:
    """0 or 1: who wins the initiative face-off (3 grey each; criticals, doubles, then reroll)."""
    while True:
        keys = []
        for _ in range(2):
            s = d = c = 0
            for _ in range(3):
                f = ACTION_FACES["grey"][rng.randrange(10)]
                s += f == "s"
                d += f == "d"
                c += f == "c"
            keys.append((s + 2 * d + c, c, d))
        if keys[0] != keys[1]:
            return 0 if keys[0] > keys[1] else 1


def duel(rng: random.Random, a: NaiveUnit, b: NaiveUnit, rulings: dict | None = None,
         policies: tuple[str, str] = ("attack", "attack"), rounds: int = 4) -> dict:
    """One duel to the end of the fourth round or the destruction of a unit."""
    rulings = rulings or {}
    sides = []
    for u in (a, b):
        healths, captain_at = casualty_healths(u, rulings.get("casualty_order", "captain-last"))
        if u.huge:
            healths, captain_at = [u.huge[0]], None
        sides.append(Side(u, healths, captain_at=captain_at, captain_alive=captain_at is not None))
    timing = rulings.get("fatigue_timing", "pay-then-act")
    turns_taken = [0, 0]
    for _ in range(rounds):
        left = [2 + sides[k].unit.epic for k in (0, 1)]
        first = face_off(rng)
        order = []
        p = first
        while left[0] or left[1]:
            if left[p]:
                order.append(p)
                left[p] -= 1
            p = 1 - p
        for p in order:
            me, enemy = sides[p], sides[1 - p]
            if not me.alive or not enemy.alive:
                break
            turns_taken[p] += 1
            if policies[p] == "rest" and me.beside > 0:
                me.remove_fatigue(me.card + me.beside if me.unit.rest_removes_all else 1)
                continue
            if me.unit.ranged_only and not enemy.unit.ranged_only:
                # shooting while engaged: the enemy's opportunity attack first (522-535)
                enemy.add_fatigue(rulings.get("opportunity_fatigue", 0))
                attack(rng, enemy, me, rulings, enemy.beside)
                if not me.alive:
                    me.add_fatigue(1)
                    break
            if timing == "act-then-pay":
                attack(rng, me, enemy, rulings, me.beside)
                me.add_fatigue(1)
            else:
                me.add_fatigue(1)
                attack(rng, me, enemy, rulings, me.beside)
        if not sides[0].alive or not sides[1].alive:
            break
        for s in sides:
            s.upkeep()
    if not sides[1].alive:
        outcome = "a"
    elif not sides[0].alive:
        outcome = "b"
    else:
        outcome = "neither"
    lost = [(1 if not s.alive else 0) if s.unit.huge else s.unit.models - s.alive for s in sides]
    return {"outcome": outcome, "wounds_a": sides[0].wounds_taken, "wounds_b": sides[1].wounds_taken,
            "lost_a": lost[0], "lost_b": lost[1],
            "fatigue_a": sides[0].fatigue_gained, "fatigue_b": sides[1].fatigue_gained,
            "turns_a": turns_taken[0], "turns_b": turns_taken[1]}
