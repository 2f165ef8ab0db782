"""DG-first-turn (seed 001, line 233: "There is no combat phase on turn 1") in the compiled game and its
plain-Python twin: a game whose every turn is forced shows which game turns have a combat phase, and under
each-player-first the kernel and the twin give the same P(the first player wins) at a power that sees a
difference of 0.006 (the size of an outside simulation's disagreement with the project, 0.7384 against
0.7448; the kernel and the twin both play game.py's specification, so that disagreement is not this
game's).
"""

from __future__ import annotations

import dataclasses
import math

import naive_dragoborne as naive
import numpy as np
import pytest

from rulesets.dragoborne import catalog as catalog_io
from rulesets.dragoborne import kernels as K
from rulesets.dragoborne import simulate as S
from rulesets.dragoborne.rules import DragoborneRulings

EACH = "DG-first-turn=each-player-first"


@pytest.fixture(scope="module")
def cat():
    return catalog_io.load()


def _forced(cat):
    """Side 0 holds only spells (it never summons, so it never attacks or blocks; its three dice shield
    its three forts, one each, whatever they show: no creature to dragocross). Side 1 holds only a cost-0
    6/1 creature: its first turn summons its 6 cards (5 dealt, 1 drawn), a full board, and each of its
    combat phases breaks 3 of side 0's barriers and 3 shields (6 ATK >= any die's value: a broken shield's
    die is discarded) or, once the shields are gone, 6 barriers. Side 0 has 6 barriers: side 1 wins at
    the end of its second combat phase, every game."""
    spells = {k: 4 for k in ("spark-bolt", "blazing-fury", "fire-rain", "volcanic-wrath", "verdant-growth",
                             "wild-charge", "natures-wrath", "vine-snare", "ruin-of-embers")}
    spell_deck = dataclasses.replace(cat.deck("red-blaze"), key="spells", name="Spells",
                                     cards=tuple(spells.items()))
    giant = dataclasses.replace(cat.card("cinder-whelp"), key="zero-giant", name="Zero Giant", cost=0, atk=6,
                                edr=1, keywords=(), dragocross=(), dice=())
    giant_deck = dataclasses.replace(cat.deck("green-grove"), key="giants", name="Giants",
                                     cards=(("zero-giant", 50),))
    forced = dataclasses.replace(cat, cards={**cat.cards, "zero-giant": giant},
                                 decks={**cat.decks, "spells": spell_deck, "giants": giant_deck})
    return forced, spell_deck, giant_deck


# game turns played, by who goes first: side 1 attacks on its own turns 1+1 and 1+2 (game-turn-1) or from
# its own turn 2 (each-player-first); side 0 going first takes game turn 1, so side 1's own turn k is game
# turn 2k; side 1 going first, its own turn k is game turn 2k - 1 and its first turn is game turn 1 under
# both readings
TURNS_PLAYED = {
    "game-turn-1": {0: 4, 1: 5},  # side 0 first: side 1 attacks on game turns 2 and 4
    "each-player-first": {0: 6, 1: 5},  # side 0 first: side 1's first turn (game turn 2) has no combat
}


@pytest.mark.parametrize("reading", sorted(TURNS_PLAYED))
def test_which_turns_have_a_combat_phase(cat, reading):
    forced, spells, giants = _forced(cat)
    # DG-spells=removal: under all (the default) side 0's Vine Snares, set as ambushes, would take 2 ATK
    # from some giants' attacks and spare a shield or a barrier (game.py step 6b)
    rulings = DragoborneRulings().with_assignments([f"DG-first-turn={reading}", "DG-spells=removal"])
    r = S.run(S.matchup(forced, spells, giants, rulings=rulings), 400, 5, threads=1).records
    assert (r[:, K.Record.WINNER] == 1).all()
    assert (r[:, K.Record.END] == K.End.BARRIERS).all()
    assert (r[:, K.Record.DICE_LOST_0] == 3).all() and (r[:, K.Record.SUMMONED_0] == 0).all()
    assert set(np.unique(r[:, K.Record.FIRST])) == {0, 1}
    for first, turns in TURNS_PLAYED[reading].items():
        assert set(r[r[:, K.Record.FIRST] == first, K.Record.TURNS]) == {turns}, (reading, first)
    # the twin, written from the same text, plays the same forced games
    games = naive.play_games(forced, spells, giants, rulings, 60, 5)
    assert {g["first"] for g in games} == {0, 1}
    for g in games:
        assert g["winner"] == 1 and g["turns"] == TURNS_PLAYED[reading][g["first"]], (reading, g)


# Kernel against twin under each-player-first: a two-sided two-proportion z-test of P(the first player wins)
# at the 1% level. With p near 0.745, KERNEL_N and TWIN_N give a standard error of the difference of
# sqrt(p(1-p)(1/KERNEL_N + 1/TWIN_N)) = 0.00154, so a true difference of 0.006 is found with power
# Phi(0.006/0.00154 - 2.576) = 0.91 (100,000 games of the plain-Python twin: marked slow).
KERNEL_N, TWIN_N = 400_000, 100_000
Z_CRIT = 2.576
SHIFT, MIN_POWER = 0.006, 0.9


def _power(p: float) -> float:
    se = math.sqrt(p * (1 - p) * (1 / KERNEL_N + 1 / TWIN_N))
    return 0.5 * math.erfc(-(SHIFT / se - Z_CRIT) / math.sqrt(2))


def test_the_stated_power_holds():
    assert _power(0.745) >= MIN_POWER
    assert _power(0.5) < _power(0.745)  # the worst case p = 1/2 needs more games


@pytest.mark.slow
def test_kernel_and_twin_agree_under_each_player_first(cat):
    # the figures compared (0.7448, 0.7384) are of games without spells or moves (neither was played
    # then): DG-spells=none, DG-move=none
    rulings = DragoborneRulings().with_assignments([EACH, "DG-spells=none", "DG-move=none"])
    r = S.run(S.matchup(cat, "red-blaze", "green-grove", rulings=rulings), KERNEL_N, 17, threads=2).records
    k_first = int((r[:, K.Record.WINNER] == r[:, K.Record.FIRST]).sum())
    games = naive.play_games(cat, cat.deck("red-blaze"), cat.deck("green-grove"), rulings, TWIN_N, 5)
    t_first = sum(g["winner"] == g["first"] for g in games)
    pk, pt = k_first / KERNEL_N, t_first / TWIN_N
    pooled = (k_first + t_first) / (KERNEL_N + TWIN_N)
    z = (pk - pt) / math.sqrt(pooled * (1 - pooled) * (1 / KERNEL_N + 1 / TWIN_N))
    assert _power(pooled) >= MIN_POWER
    assert abs(z) < Z_CRIT, f"P(first wins): kernel {pk:.4f}, twin {pt:.4f}, z = {z:.2f}"
    # and both stand where the project's reports put it (0.7448), not at the outside simulation's 0.7384
    assert abs(pk - 0.7448) < 0.003
