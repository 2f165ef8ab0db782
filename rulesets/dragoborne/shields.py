"""Dragoborne's dragoshields, exact (seed 001, lines 13-15, 119, 137, 212-215, 238-246; RULES.md §5).

"The die then becomes a 0/X defender for that fort where X is the current value of the die" (line 15); "it
will block all opposing creature's attacks until it is destroyed" (15); "Once it has blocked damage equal
to or exceeding its value, it will be destroyed" (215); damage to a shield never reaches the fort (246).
So a shield of value X absorbs ceil(X / ATK) attacks of a given ATK, the last of them included, and an
attack of 0 ATK (Deadly's "0 ATK deals none", line 312) never wears it down.

DG-shield-persist: damage stays on the shield from turn to turn (default), or is cleared at the End Phase
like a creature's (then only a turn whose attacks reach X breaks it). DG-shield-stack: one shield per fort
(default), or several dice stacked, each absorbing in turn. The value is the die's, uniform on its faces
(DG-die). Exact fractions; pure Python.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from rulesets.base import OptionError
from rulesets.dragoborne.rules import DICE, DragoborneRulings

#: Most attacks a table looks at.
MAX_ATTACKS = 30


def after_attack(value: int, atk: int) -> int:
    """A shield's value after blocking an attack of this ATK: 0 is destroyed (line 215; RULES.md: a shield
    of 4 blocking ATK 3 has 1 left)."""
    return max(0, value - max(0, atk))


def _attacks_absorbed(value: int, atk: int) -> int | None:
    """Attacks of this ATK a shield of this value absorbs (None: every one, ATK 0)."""
    return None if atk == 0 else -(-value // atk)


def absorbed_pmf(atk: int, rulings: DragoborneRulings | None = None, shields: int = 1) -> dict[int, Fraction]:
    """P(the fort's dragoshields absorb exactly n attacks of this ATK before one gets through), for a fresh
    roll of each shield's die; ``shields`` > 1 only under DG-shield-stack=stack (each absorbs in turn)."""
    rulings = rulings or DragoborneRulings()
    if atk < 1:
        raise OptionError(f"ATK {atk}: a dragoshield absorbs every attack of 0 ATK (it deals no damage, "
                          "line 312); give ATK >= 1")
    if not 1 <= shields <= DICE:
        raise OptionError(f"{shields} shields: a player has {DICE} dice")
    if shields > 1 and rulings.shield_stack != "stack":
        raise OptionError(f"{shields} shields on one fort: DG-shield-stack={rulings.shield_stack} allows one "
                          "(\"the dragoshield\"); give --ruling DG-shield-stack=stack")
    one: dict[int, Fraction] = {}
    for value in range(1, rulings.die + 1):
        n = _attacks_absorbed(value, atk)
        one[n] = one.get(n, Fraction(0)) + Fraction(1, rulings.die)
    out = {0: Fraction(1)}
    for _ in range(shields):
        nxt: dict[int, Fraction] = {}
        for a, p in out.items():
            for b, q in one.items():
                nxt[a + b] = nxt.get(a + b, Fraction(0)) + p * q
        out = nxt
    return dict(sorted(out.items()))


def p_stands(atk: int, attacks: int, rulings: DragoborneRulings | None = None, shields: int = 1) -> Fraction:
    """P(the fort's shields still stand after ``attacks`` attacks of this ATK in one turn)."""
    if not 0 <= attacks <= MAX_ATTACKS:
        raise OptionError(f"{attacks} attacks: give 0..{MAX_ATTACKS}")
    return sum((p for n, p in absorbed_pmf(atk, rulings, shields).items() if n > attacks), Fraction(0))


def p_stands_turns(atk: int, per_turn: int, turns: int, rulings: DragoborneRulings | None = None) -> Fraction:
    """P(one shield still stands after ``turns`` turns of ``per_turn`` attacks of this ATK each):
    DG-shield-persist=true wears it down across turns (turns x per_turn attacks in all); false clears its
    damage each End Phase (line 255 read for shields too), so it falls only in a turn whose attacks reach
    its value."""
    rulings = rulings or DragoborneRulings()
    if not 0 <= per_turn * turns <= MAX_ATTACKS or turns < 0:
        raise OptionError(f"{turns} turns of {per_turn} attacks: give at most {MAX_ATTACKS} attacks in all")
    if rulings.shield_persist:
        return p_stands(atk, per_turn * turns, rulings)
    return p_stands(atk, per_turn, rulings) if turns else Fraction(1)


@dataclass(frozen=True)
class ShieldRow:
    atk: int
    attacks: int
    p_stands: Fraction


def shield_rows(rulings: DragoborneRulings | None = None, atks=range(1, 7), attacks=range(1, 7)
                ) -> list[ShieldRow]:
    """P(a fresh dragoshield stands) after 1..6 attacks of ATK 1..6 in a turn: the standard table."""
    rulings = rulings or DragoborneRulings()
    return [ShieldRow(a, k, p_stands(a, k, rulings)) for a in atks for k in attacks]
