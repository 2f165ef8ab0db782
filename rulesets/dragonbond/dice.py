"""Dragonbond dice: the faces of the six dice, pools in the rulebook's notation and the Upgrade/Downgrade
algebra (seed 000, "Dice", 146-216).

"DB:BoV uses three tiers of dice ... black being the strongest and white being the weakest" (150-152):
action dice are d10 with the faces blank, Success ◇, Double Success ◇◇ and Critical ◆; defense dice are d6
with Block ▼ or blank, red (tier 1) < white (tier 2) < black (tier 3). "Using Standard Dice" (172-201)
prints three unlabeled columns per die; DB-faces reads them strongest first.

Pools count dice by strength, weakest first: ``counts[0]`` white (action) or red (defense).
Pure Python: the command tree and the exact tables import this without numpy.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from rulesets.base import RulesError
from rulesets.dragonbond.rules import DragonbondRulings

ACTION, DEFENSE = "action", "defense"
#: Colours by strength, weakest first.
COLOURS = {ACTION: ("white", "grey", "black"), DEFENSE: ("red", "white", "black")}
LETTERS = {ACTION: ("W", "G", "B"), DEFENSE: ("R", "W", "B")}
SIDES = {ACTION: 10, DEFENSE: 6}

#: Action-die symbols, in the order of an outcome vector.
BLANK, SUCCESS, DOUBLE, CRITICAL = 0, 1, 2, 3
SYMBOLS = ("blank", "◇", "◇◇", "◆")

#: "Using Standard Dice", Action Dice (176-190): the symbol of each d10 face (0 read as 10) in the three
#: printed columns, left to right. Faces 1-3 print nothing; 4-5: ◇ in the first column; 6-7: ◇ ◇;
#: 8: ◇◇ ◇ ◇; 9: ◇◇ ◇◇ ◇; 0: ◆ ◆ ◆.
_ACTION_COLUMNS = {
    1: (BLANK, BLANK, BLANK), 2: (BLANK, BLANK, BLANK), 3: (BLANK, BLANK, BLANK),
    4: (SUCCESS, BLANK, BLANK), 5: (SUCCESS, BLANK, BLANK),
    6: (SUCCESS, SUCCESS, BLANK), 7: (SUCCESS, SUCCESS, BLANK),
    8: (DOUBLE, SUCCESS, SUCCESS), 9: (DOUBLE, DOUBLE, SUCCESS),
    10: (CRITICAL, CRITICAL, CRITICAL),
}
#: Defense Dice (192-201): Block on 3-6, 4-6, 5-6 in the three columns.
_DEFENSE_COLUMNS = {1: (0, 0, 0), 2: (0, 0, 0), 3: (1, 0, 0), 4: (1, 1, 0), 5: (1, 1, 1), 6: (1, 1, 1)}

MAX_POOL = 200


def _column(strength: int, rulings: DragonbondRulings) -> int:
    """The printed column of a die of ``strength`` (0 weakest) under DB-faces."""
    return 2 - strength if rulings.faces == "strongest-first" else strength


def action_faces(strength: int, rulings: DragonbondRulings) -> tuple[int, ...]:
    """The symbol of each face 1..10 of the action die of ``strength`` (0 white, 1 grey, 2 black)."""
    col = _column(strength, rulings)
    return tuple(_ACTION_COLUMNS[f][col] for f in range(1, 11))


def action_face_probabilities(strength: int, rulings: DragonbondRulings) -> tuple[Fraction, ...]:
    """P(blank), P(◇), P(◇◇), P(◆) of one action die, exactly."""
    faces = action_faces(strength, rulings)
    return tuple(Fraction(faces.count(s), 10) for s in range(4))


def block_probability(strength: int, rulings: DragonbondRulings) -> Fraction:
    """P(▼) of one defense die of ``strength`` (0 red, 1 white, 2 black)."""
    col = _column(strength, rulings)
    return Fraction(sum(_DEFENSE_COLUMNS[f][col] for f in range(1, 7)), 6)


@dataclass(frozen=True)
class Pool:
    """Dice of one roll: ``counts[k]`` dice of strength k (weakest first) of ``kind`` (action or defense)."""

    kind: str
    counts: tuple[int, int, int]

    def __post_init__(self) -> None:
        if self.kind not in COLOURS:
            raise RulesError(f"pool kind {self.kind!r}: accepted action, defense")
        if len(self.counts) != 3 or any(not isinstance(c, int) or c < 0 for c in self.counts):
            raise RulesError(f"pool counts {self.counts!r}: three whole numbers >= 0")
        if sum(self.counts) > MAX_POOL:
            raise RulesError(f"pool of {sum(self.counts)} dice: at most {MAX_POOL}")

    @property
    def size(self) -> int:
        return sum(self.counts)

    def notation(self) -> str:
        """The rulebook-style notation, strongest first: ``2B 4G 1W``; ``no dice`` when empty."""
        parts = [f"{n}{LETTERS[self.kind][k]}" for k, n in reversed(list(enumerate(self.counts))) if n]
        return " ".join(parts) if parts else "no dice"

    def __str__(self) -> str:
        return self.notation()

    def dice(self) -> list[int]:
        """Strengths of the dice, weakest first."""
        return [k for k in range(3) for _ in range(self.counts[k])]

    @classmethod
    def of(cls, kind: str, strengths: list[int]) -> Pool:
        return cls(kind, tuple(strengths.count(k) for k in range(3)))


_TERM = re.compile(r"^(\d+)([A-Za-z]+)$")


def parse_pool(text: str, kind: str = ACTION) -> Pool:
    """A pool from the rulebook-style notation: ``2B 4G 1W`` (action: B black, G grey, W white) or
    ``1B 2W 1R`` (defense: B black, W white, R red). Terms may repeat; commas or spaces separate them.

    Raises:
        RulesError: an unknown colour letter, a count that is not a whole number, or no dice at all.
    """
    letters = LETTERS[kind]
    terms = [t for t in re.split(r"[\s,+]+", str(text).strip()) if t]
    if not terms:
        raise RulesError(f"{kind} pool {text!r} is empty; write it like "
                         f"{'2B 4G 1W' if kind == ACTION else '1B 2W 1R'}")
    counts = [0, 0, 0]
    for term in terms:
        m = _TERM.match(term)
        if not m or m.group(2).upper() not in letters:
            named = ", ".join(f"{ltr} {c}" for ltr, c in zip(letters[::-1], COLOURS[kind][::-1], strict=True))
            raise RulesError(f"{kind} pool term {term!r}: accepted a count and a colour letter ({named}), "
                             f"e.g. {'2B 4G 1W' if kind == ACTION else '1B 2W 1R'}")
        counts[letters.index(m.group(2).upper())] += int(m.group(1))
    pool = Pool(kind, tuple(counts))
    if pool.size == 0:
        raise RulesError(f"{kind} pool {text!r} has no dice")
    return pool


def _added_die(kind: str, rulings: DragonbondRulings) -> int:
    """Strength of the die an upgraded black die adds: "add another white die" (207). On defense dice,
    DB-defense-tiers: the weakest defense die (red) when tiered, white when literal-white."""
    if kind == ACTION or rulings.defense_tiers == "tiered":
        return 0
    return 1


def _floor_die(kind: str, rulings: DragonbondRulings) -> int:
    """Strength of the die rolled when downgrades would leave none: "roll one white die instead" (209);
    on defense dice, DB-defense-floor (red or white)."""
    if kind == ACTION or rulings.defense_floor == "red":
        return 0
    return 1


def modified(pool: Pool, up: int = 0, down: int = 0, rulings: DragonbondRulings | None = None) -> Pool:
    """The pool after ``up`` upgrades and ``down`` downgrades (Dice Actions, 203-216).

    "If a roll has both upgrades and downgrades applied to it, these cancel each other out before being
    applied" (216). "Upgrade X: Change X of the dice ... to dice of the next highest strength. If a die that
    you are upgrading is already black, add another white die ... always upgrade the weakest dice first"
    (207). "Downgrade X ... If the die you are downgrading is already white, remove it ... always downgrade
    the strongest dice first ... If downgrading would leave you with no dice to roll, roll one white die
    instead" (209). DB-step-mode says how X steps fall on the dice. An empty pool stays empty (nothing to
    change: a defense of 0 dice rolls nothing).
    """
    rulings = rulings or DragonbondRulings()
    if up < 0 or down < 0:
        raise RulesError(f"upgrades {up} and downgrades {down}: whole numbers >= 0")
    net = up - down
    dice = pool.dice()
    if net == 0 or not dice:
        return pool
    added, floor = _added_die(pool.kind, rulings), _floor_die(pool.kind, rulings)
    if net > 0:
        dice = _upgrade(dice, net, added, rulings.step_mode)
    else:
        dice = _downgrade(dice, -net, rulings.step_mode)
        if not dice:
            dice = [floor]
    return Pool.of(pool.kind, dice)


def _upgrade(dice: list[int], steps: int, added: int, mode: str) -> list[int]:
    dice = sorted(dice)
    while steps > 0:
        if mode == "cascade":
            take = 1
        else:
            take = min(steps, len(dice))
        order = sorted(range(len(dice)), key=lambda i: dice[i])[:take]  # weakest first (stable)
        extra = []
        for i in order:
            if dice[i] == 2:
                extra.append(added)
            else:
                dice[i] += 1
        dice = sorted(dice + extra)
        steps -= take
    return dice


def _downgrade(dice: list[int], steps: int, mode: str) -> list[int]:
    dice = sorted(dice, reverse=True)
    while steps > 0 and dice:
        take = 1 if mode == "cascade" else min(steps, len(dice))
        for i in range(take):  # strongest first: the first `take` dice of the sorted list
            dice[i] -= 1
        dice = sorted((d for d in dice if d >= 0), reverse=True)
        steps -= take
    return dice
