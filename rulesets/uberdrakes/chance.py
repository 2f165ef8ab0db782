"""UberDrakes' small chance tables, exact (seed 003; ../shared/RULES.md §4): turn order, Caves, Ancient Urn.

Pure Python with :class:`fractions.Fraction`: every distribution is a ``{value: probability}`` dict.

- Turn order (lines 55-57): each player rolls 2d6, the highest goes first; players tied for the highest
  roll again until one is highest (UD-turn-order-ties: one die each, or 2d6 each), then play goes
  clockwise. A round among ``k`` tied players leaves ``j`` of them tied at the top; ``j = 1`` ends it. That
  is an absorbing Markov chain over the number of players still tied.
- Caves (lines 215, 859): coins from the first entry in a round, 1d6 or 3 (UD-caves), +3 for roosting.
- Ancient Urn (line 756): one die of Magic tokens.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import comb

from rulesets.uberdrakes.rules import SIDES, UberDrakesRulings

Pmf = dict[int, Fraction]

#: Players at the table for the turn-order table (the rulebook prints no player count).
PLAYERS = range(2, 7)
#: Rounds of cave visits for the caves table.
CAVE_ROUNDS = range(1, 6)
#: The extra coins for roosting in the caves (line 215; "an additional 3 coins", line 859).
CAVE_ROOST_COINS = 3
#: The cave's coins under UD-caves=3 ("Gain 3 coins", line 859).
CAVE_FIXED_COINS = 3


# --- distributions --------------------------------------------------------------------------------------


def dice_pmf(dice: int) -> Pmf:
    """The sum of ``dice`` d6, exactly."""
    out: Pmf = {0: Fraction(1)}
    face = Fraction(1, SIDES)
    for _ in range(dice):
        out = convolve(out, {v: face for v in range(1, SIDES + 1)})
    return out


def convolve(a: Mapping[int, Fraction], b: Mapping[int, Fraction]) -> Pmf:
    """The distribution of the sum of two independent values."""
    out: Pmf = {}
    for x, px in a.items():
        for y, py in b.items():
            out[x + y] = out.get(x + y, Fraction(0)) + px * py
    return dict(sorted(out.items()))


def mean(pmf: Mapping[int, Fraction]) -> Fraction:
    return sum((v * p for v, p in pmf.items()), Fraction(0))


def p_at_least(pmf: Mapping[int, Fraction], threshold: int) -> Fraction:
    """P(value >= ``threshold``)."""
    return sum((p for v, p in pmf.items() if v >= threshold), Fraction(0))


# --- turn order (lines 55-57) ---------------------------------------------------------------------------


def tie_break_dice(rulings: UberDrakesRulings) -> int:
    """How many d6 each tied player rolls in a tie-break round under UD-turn-order-ties."""
    return {"one-die": 1, "2d6": 2}[rulings.turn_order_ties]


def top_ties(players: int, pmf: Mapping[int, Fraction]) -> list[Fraction]:
    """P(exactly ``j`` players share the highest roll), j = 1..``players``, all rolling ``pmf``: the sum over
    the highest value m of C(k, j) p(m)^j F(m-1)^(k-j)."""
    below = Fraction(0)
    out = [Fraction(0)] * players
    for p in pmf.values():
        for j in range(1, players + 1):
            out[j - 1] += comb(players, j) * p**j * below ** (players - j)
        below += p
    return out


def seat_top_ties(players: int, pmf: Mapping[int, Fraction]) -> list[Fraction]:
    """P(one given seat is among the highest and exactly ``j`` players share it), j = 1..``players``:
    the sum over m of p(m) C(k-1, j-1) p(m)^(j-1) F(m-1)^(k-j), counted from the seat's own roll (no
    symmetry assumed)."""
    below = Fraction(0)
    out = [Fraction(0)] * players
    for p in pmf.values():
        for j in range(1, players + 1):
            out[j - 1] += p * comb(players - 1, j - 1) * p ** (j - 1) * below ** (players - j)
        below += p
    return out


def _absorb(step: Sequence[Sequence[Fraction]], cost: Sequence[Fraction], start: Sequence[Fraction]
            ) -> Fraction:
    """E[sum of ``cost[k]`` over the rounds played] from a first split ``start`` (start[j-1]: j tied), in
    the chain where a round among k tied gives j tied with ``step[k][j-1]``; rounds stop at j = 1.
    Solved upwards: value(k) = (cost[k] + sum_{j<k} step[k][j-1] value(j)) / (1 - step[k][k-1])."""
    value = [Fraction(0), Fraction(0)]
    for k in range(2, len(start) + 1):
        rest = sum((step[k][j - 1] * value[j] for j in range(1, k)), Fraction(0))
        value.append((cost[k] + rest) / (1 - step[k][k - 1]))
    return sum((start[j - 1] * value[j] for j in range(1, len(start) + 1)), Fraction(0))


def _win_chance(seat_step: Sequence[Sequence[Fraction]], seat_start: Sequence[Fraction]) -> Fraction:
    """P(a given seat goes first): win(1) = 1; win(k) = sum_{j<k} seat_step[k][j-1] win(j) / (1 -
    seat_step[k][k-1]), summed over the seat's first-roll outcomes ``seat_start``."""
    win = [Fraction(0), Fraction(1)]
    for k in range(2, len(seat_start) + 1):
        rest = sum((seat_step[k][j - 1] * win[j] for j in range(1, k)), Fraction(0))
        win.append(rest / (1 - seat_step[k][k - 1]))
    return sum((seat_start[j - 1] * win[j] for j in range(1, len(seat_start) + 1)), Fraction(0))


@dataclass(frozen=True)
class TurnOrder:
    """Turn order at a table of ``players`` (lines 55-57) under one UD-turn-order-ties.

    Attributes:
        players: at the table.
        tie_break_dice: d6 each tied player rolls per tie-break round (1 or 2).
        tied: P(exactly j players share the highest first roll), j = 1..players (index j - 1).
        expected_rounds: E[tie-break rounds], 0 when the first roll settles it.
        expected_extra_dice: E[d6 rolled in tie-breaks, all players together].
        p_seat_first: P(one given seat goes first), from the chain of that seat's own rolls.
    """

    players: int
    tie_break_dice: int
    tied: tuple[Fraction, ...]
    expected_rounds: Fraction
    expected_extra_dice: Fraction
    p_seat_first: Fraction

    @property
    def p_tie(self) -> Fraction:
        """P(a tie for the highest first roll)."""
        return 1 - self.tied[0]

    @property
    def p_settled(self) -> Fraction:
        """P(the first roll settles the order): one player highest; the rest follow clockwise (line 57)."""
        return self.tied[0]

    @property
    def rounds_if_tied(self) -> Fraction:
        """E[tie-break rounds | a tie on the first roll]."""
        return self.expected_rounds / self.p_tie


def turn_order(players: int, rulings: UberDrakesRulings) -> TurnOrder:
    """Turn order at a table of ``players`` (>= 2): the first roll on 2d6, then tie-break rounds among the
    players still tied for the highest, each rolling :func:`tie_break_dice` d6."""
    if players < 2:
        raise ValueError(f"turn order needs at least 2 players, not {players}")
    dice = tie_break_dice(rulings)
    first, again = dice_pmf(2), dice_pmf(dice)
    step = [[], [], *(top_ties(k, again) for k in range(2, players + 1))]
    seat_step = [[], [], *(seat_top_ties(k, again) for k in range(2, players + 1))]
    tied = top_ties(players, first)
    return TurnOrder(
        players=players, tie_break_dice=dice, tied=tuple(tied),
        expected_rounds=_absorb(step, [Fraction(1)] * (players + 1), tied),
        expected_extra_dice=_absorb(step, [Fraction(k * dice) for k in range(players + 1)], tied),
        p_seat_first=_win_chance(seat_step, seat_top_ties(players, first)))


def turn_order_rows(rulings: UberDrakesRulings, players: Iterable[int] = PLAYERS) -> list[TurnOrder]:
    """:func:`turn_order` for each table size in ``players`` (default 2..6)."""
    return [turn_order(n, rulings) for n in players]


# --- Caves (lines 215, 859) -----------------------------------------------------------------------------


def cave_entry(rulings: UberDrakesRulings, roosting: bool = False) -> Pmf:
    """Coins from the first entry into the caves in a round: 1d6 (line 215) or 3 (line 859) under UD-caves,
    +3 when roosting there (lines 215, 859)."""
    base = dice_pmf(1) if rulings.caves == "1d6" else {CAVE_FIXED_COINS: Fraction(1)}
    return convolve(base, {CAVE_ROOST_COINS if roosting else 0: Fraction(1)})


def cave_total(rulings: UberDrakesRulings, rounds: int, roosting: bool = False) -> Pmf:
    """Total coins from ``rounds`` first entries (one per round, each independent): the rounds-fold
    convolution of :func:`cave_entry`."""
    if rounds < 0:
        raise ValueError(f"rounds must be 0 or more, not {rounds}")
    entry, out = cave_entry(rulings, roosting), {0: Fraction(1)}
    for _ in range(rounds):
        out = convolve(out, entry)
    return out


# --- Ancient Urn (line 756) -----------------------------------------------------------------------------


def urn_magic() -> Pmf:
    """Magic tokens found in the Ancient Urn: one die (line 756)."""
    return dice_pmf(1)


def p_urn_pays(cost: int) -> Fraction:
    """P(the Urn alone yields at least ``cost`` Magic)."""
    return p_at_least(urn_magic(), cost)


@dataclass(frozen=True)
class UrnSpell:
    """A combat spell with a fixed Magic cost and P(one Ancient Urn pays for it); ``dragon``: its dragon's
    name."""

    dragon: str
    key: str
    name: str
    cost: int
    p_pays: Fraction


def urn_spells(catalog=None) -> list[UrnSpell]:
    """Each combat spell (a ``combat`` effect on its card) with a fixed cost, in catalog order, with
    P(one Urn pays for it). ``catalog``: a rulesets.uberdrakes.catalog.Catalog (default: the packaged
    one). Spells with a range or formula cost (Plate Armor X + 1) are left out."""
    if catalog is None:
        from rulesets.uberdrakes.catalog import load

        catalog = load()
    return [UrnSpell(catalog.dragons[s.dragon].name, s.key, s.name, s.cost, p_urn_pays(s.cost))
            for s in catalog.spells.values() if s.combat and s.cost is not None]
