"""DG-move (seed 001, line 226: "You may switch the position of creatures, or move a creature from one fort to
another fort with an opening"): the kernel's and the twin's moves on one hand-built board, the default
playing none, and the whole game under guard.

In this game a creature attacks any fort of the opponent wherever it stands (lines 228-233), so a move
matters for defence only: a creature blocks at its own fort (line 238), and a fort with no barriers is never
attacked, so a creature left there can never block. DG-move=guard moves such creatures to a fort with
barriers and an opening.
"""

from __future__ import annotations

import naive_dragoborne as naive
import numpy as np
import pytest

from rulesets.dragoborne import catalog as catalog_io
from rulesets.dragoborne import kernels as K
from rulesets.dragoborne import simulate as S
from rulesets.dragoborne.catalog import Card
from rulesets.dragoborne.rules import DragoborneRulings

# The board of player 0: fort 0 destroyed, holding two creatures (the second dragocrossed by die 1,
# damaged and rested); fort 1: 2 barriers, 1 creature; fort 2: 1 barrier, no creature.
BARRIERS = (0, 2, 1)
# guard: fort 0 slot 0 goes to fort 2 (the fewest creatures); then forts 1 and 2 hold one each and fort 2
# has fewer barriers: fort 0 slot 1 goes to fort 2 slot 1. Fort 1 keeps its creature.
AFTER_GUARD = {(1, 0): "c", (2, 0): "a", (2, 1): "b"}
BEFORE = {(0, 0): "a", (0, 1): "b", (1, 0): "c"}


# Cover: every fort has barriers; fort 0 holds two, fort 1 none, fort 2 one: fort 0's slot-1 creature
# (dragocrossed, damaged, rested) goes to fort 1 so that every fort can block.
COVER_BARRIERS = (2, 2, 1)
COVER_BEFORE = {(0, 0): "a", (0, 1): "b", (2, 0): "c"}
COVER_AFTER = {(0, 0): "a", (1, 0): "b", (2, 0): "c"}
CASES = [(BARRIERS, BEFORE, AFTER_GUARD, (2, 1)), (COVER_BARRIERS, COVER_BEFORE, COVER_AFTER, (1, 0))]


def _kernel_board(before, barriers=BARRIERS):
    st = np.zeros((2, K.DK + 1), np.int64)
    for p in range(2):
        for s in range(K.PLACES):
            st[p, K.CRB + s * K.N_PLACE + K.CR_CARD] = -1
            st[p, K.CRB + s * K.N_PLACE + K.CR_DIE] = -1
    for f, b in enumerate(barriers):
        st[0, K.FB + f * K.N_FORT + K.F_BARRIERS] = b
    cards = {"a": 0, "b": 1, "c": 2}
    for (f, slot), name in before.items():
        st[0, K.CRB + (f * K.PER_FORT + slot) * K.N_PLACE + K.CR_CARD] = cards[name]
    b = K.CRB + (0 * K.PER_FORT + 1) * K.N_PLACE
    st[0, b + K.CR_DIE], st[0, b + K.CR_DMG], st[0, b + K.CR_RESTED] = 1, 2, 1
    st[0, K.DB + 1 * K.N_DIE + K.D_LOC] = K.DieAt.CROSS
    st[0, K.DB + 1 * K.N_DIE + K.D_SLOT] = 1
    return st, {v: k for k, v in cards.items()}


@pytest.mark.parametrize(("barriers", "before", "after", "b_at"), CASES)
def test_kernel_guard_moves(barriers, before, after, b_at):
    st, names = _kernel_board(before, barriers)
    K._move(st, 0)
    board = {}
    for s in range(K.PLACES):
        c = st[0, K.CRB + s * K.N_PLACE + K.CR_CARD]
        if c >= 0:
            board[(s // K.PER_FORT, s % K.PER_FORT)] = names[c]
    assert board == after
    place = b_at[0] * K.PER_FORT + b_at[1]
    moved = K.CRB + place * K.N_PLACE  # "b", where it went
    assert (st[0, moved + K.CR_DIE], st[0, moved + K.CR_DMG], st[0, moved + K.CR_RESTED]) == (1, 2, 1)
    assert st[0, K.DB + 1 * K.N_DIE + K.D_SLOT] == place  # the die follows its creature


def test_kernel_guard_moves_nothing_without_an_opening():
    # with no fort with barriers and an opening, nothing moves
    st, _ = _kernel_board(BEFORE)
    st[0, K.FB + 2 * K.N_FORT + K.F_BARRIERS] = 0
    st[0, K.CRB + (1 * K.PER_FORT + 1) * K.N_PLACE + K.CR_CARD] = 2
    before = st.copy()
    K._move(st, 0)
    assert np.array_equal(st, before)


def _twin_game(move, barriers=BARRIERS, before=BEFORE):
    cards = [Card(k, k, "creature", "red", 1, 1, 1) for k in ("a", "b", "c")]
    game = naive.blank_game(cards, ["green", "red"], ["red", "green", "green"], ["red", "green", "green"],
                            DragoborneRulings().with_assignments([f"DG-move={move}"]))
    p = game.players[0]
    p.barriers = [[0] * b for b in barriers]
    made = {}
    for (f, slot), name in before.items():
        made[name] = naive.put_creature(game, 0, "abc".index(name), f, slot)
    b, die = made["b"], p.dice[1]
    b.damage, b.rested, b.cross = 2, True, die
    die.where, die.creature = naive.CROSS, b
    return game, made


@pytest.mark.parametrize("move", ["none", "guard"])
@pytest.mark.parametrize(("barriers", "before", "after", "b_at"), CASES)
def test_twin_moves_as_the_ruling_says(move, barriers, before, after, b_at):
    game, made = _twin_game(move, barriers, before)
    naive.move_step(game, game.players[0])
    board = {(f, s): "abc"[c.card] for f in range(naive.FORTS) for s, c in
             enumerate(game.players[0].board[f]) if c is not None}
    assert board == (after if move == "guard" else before)
    b = made["b"]
    assert (b.damage, b.rested, b.cross is game.players[0].dice[1]) == (2, True, True)
    if move == "guard":
        assert (b.fort, b.slot) == b_at


def test_the_default_plays_the_moves_and_they_change_games():
    """DG-move=guard is the default (the free moves a player makes); none, creatures staying where they
    were summoned, plays some games otherwise (a creature left at a destroyed fort is rare: games mostly
    end soon after a fort falls)."""
    cat = catalog_io.load()
    assert DragoborneRulings().move == "guard"
    guard = S.run(S.matchup(cat, "red-blaze", "green-grove"), 3000, 21, threads=1).records
    base = S.run(S.matchup(cat, "red-blaze", "green-grove",
                           rulings=DragoborneRulings().with_assignments(["DG-move=none"])), 3000, 21,
                 threads=1).records
    changed = (base[:, :K.Record.BASE_WINNER_0] != guard[:, :K.Record.BASE_WINNER_0]).any(axis=1).mean()
    assert 0 < changed < 0.5
