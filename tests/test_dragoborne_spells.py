"""DG-spells (seed 001, line 207: "Play Spells ... Once played, the card will go to your discard pile"): each
packaged removal spell cast by the kernel and by the twin on one hand-built board, with the same outcome;
spells the game does not read stay in hand; the default casts none.

Player 0 casts at player 1's creatures in its Main Phase (game.py step 5, Spells): the payable spell and
target destroying the most opposing cost, while one destroys a creature.
"""

from __future__ import annotations

import naive_dragoborne as naive
import numpy as np
import pytest

from rulesets.dragoborne import catalog as catalog_io
from rulesets.dragoborne import kernels as K
from rulesets.dragoborne import simulate as S
from rulesets.dragoborne.catalog import Card, Keyword
from rulesets.dragoborne.rules import DragoborneRulings

REMOVAL = DragoborneRulings().with_assignments(["DG-spells=removal"])
NONE = DragoborneRulings().with_assignments(["DG-spells=none"])
# creatures: (cost, ATK, EDR); "imm" is Immune to red (line 316)
CREATURES = {"w1": (1, 1, 1), "k3": (3, 3, 2), "big": (5, 5, 4), "tough": (4, 2, 4), "imm": (2, 1, 1)}


def _cards():
    cat = catalog_io.load()
    spells = [cat.card(k) for k in ("spark-bolt", "fire-rain", "natures-wrath", "volcanic-wrath",
                                    "blazing-fury")]
    made = [Card(k, k, "creature", "green", cost, atk, edr,
                 keywords=(Keyword("immune", "red"),) if k == "imm" else ())
            for k, (cost, atk, edr) in CREATURES.items()]
    return sorted(spells + made, key=lambda c: c.key)


# (case, player 0's banners, extra resources, its hand, its red die's value, player 1's board) ->
# (player 1's board after: (fort, slot) -> (creature, damage), player 0's hand after, unrested resources)
CASES = [
    # Spark Bolt: w1 dies (imm, costlier, is Immune to red; k3 survives 1); the second bolt destroys
    # nothing then and stays in hand
    ("spark-bolt", ("red", "green", "green"), (), ("spark-bolt", "spark-bolt"), 0,
     {(0, 0): "w1", (1, 0): "imm", (2, 0): "k3"},
     {(1, 0): ("imm", 0), (2, 0): ("k3", 0)}, ["spark-bolt"], {"red": 0, "green": 2}),
    # Fire Rain: at k3 (2 damage) with 1 to w1 beside it destroys both (cost 3 + 1); big survives
    ("fire-rain", ("red", "green", "green"), (), ("fire-rain",), 0,
     {(0, 0): "k3", (0, 1): "w1", (1, 0): "big"},
     {(1, 0): ("big", 0)}, [], {"red": 0, "green": 0}),
    # Nature's Wrath: ATK 3 or less; tough (cost 4) before w1 (cost 1); big (ATK 5) cannot be chosen
    ("natures-wrath", ("green", "green", "red"), ("green",), ("natures-wrath",), 0,
     {(0, 0): "big", (1, 0): "tough", (2, 0): "w1"},
     {(0, 0): ("big", 0), (2, 0): ("w1", 0)}, [], {"red": 0, "green": 0}),
    # Volcanic Wrath with a red die at 5 (red 4-6: 4 damage): fort 0 (tough + k3, cost 7) before fort 1
    ("volcanic-wrath-4", ("red", "green", "green"), ("red", "red", "green"), ("volcanic-wrath",), 5,
     {(0, 0): "tough", (0, 1): "k3", (1, 0): "big"},
     {(1, 0): ("big", 0)}, [], {"red": 0, "green": 0}),
    # ... at 2 (3 damage): fort 0 still (k3 dies, tough keeps 3 damage); fort 1's big would survive
    ("volcanic-wrath-3", ("red", "green", "green"), ("red", "red", "green"), ("volcanic-wrath",), 2,
     {(0, 0): "tough", (0, 1): "k3", (1, 0): "big"},
     {(0, 0): ("tough", 3), (1, 0): ("big", 0)}, [], {"red": 0, "green": 0}),
    # a pump spell is never cast, and nothing destroyable: the bolt stays too
    ("not-cast", ("red", "green", "green"), (), ("blazing-fury", "spark-bolt"), 0,
     {(0, 0): "big"},
     {(0, 0): ("big", 0)}, ["blazing-fury", "spark-bolt"], {"red": 1, "green": 2}),
]
IDS = [c[0] for c in CASES]


def _kernel(banners, extra, hand, red_die, board):
    cards = _cards()
    table = S.card_table(cards, banners)
    ct = K.kernel_table(table.tab, S.rulings_row(REMOVAL))
    colours = table.colours
    st = np.zeros((2, K.DK + 1), np.int64)
    for p in range(2):
        st[p, K.LB:K.LB + K.N_RULINGS] = S.rulings_row(REMOVAL)
        for s in range(K.PLACES):
            st[p, K.CRB + s * K.N_PLACE + K.CR_CARD] = -1
            st[p, K.CRB + s * K.N_PLACE + K.CR_DIE] = -1
        for f in range(K.FORTS):
            st[p, K.FB + f * K.N_FORT + K.F_COLOUR] = colours.index(banners[f])
            st[p, K.FB + f * K.N_FORT + K.F_BARRIERS] = 2
            st[p, K.DB + f * K.N_DIE + K.D_COLOUR] = colours.index(banners[f])
    st[0, K.DB + banners.index("red") * K.N_DIE + K.D_VALUE] = red_die
    for colour in (*banners, *extra):
        st[0, K.FRB + colours.index(colour)] += 1
    for i, key in enumerate(hand):
        st[0, K.HB + i] = table.index[key]
    st[0, K.PL_HAND] = len(hand)
    for (f, slot), key in board.items():
        st[1, K.CRB + (f * K.PER_FORT + slot) * K.N_PLACE + K.CR_CARD] = table.index[key]
    K._cast(st, 0, ct, len(colours))
    after = {}
    for s in range(K.PLACES):
        c = st[1, K.CRB + s * K.N_PLACE + K.CR_CARD]
        if c >= 0:
            after[(s // K.PER_FORT, s % K.PER_FORT)] = (table.keys[c], int(st[1, K.CRB + s * K.N_PLACE +
                                                                                K.CR_DMG]))
    left = sorted(table.keys[st[0, K.HB + i]] for i in range(st[0, K.PL_HAND]))
    free = {c: int(st[0, K.FRB + colours.index(c)]) for c in ("red", "green")}
    return after, left, free


def _twin(banners, extra, hand, red_die, board, rulings=REMOVAL):
    cards = _cards()
    keys = [c.key for c in cards]
    game = naive.blank_game(cards, ["green", "red"], list(banners), list(banners), rulings)
    me, them = game.players
    me.resources += list(extra)
    me.rested += [False] * len(extra)
    me.dice[banners.index("red")].value = red_die
    me.hand = [keys.index(k) for k in hand]
    for (f, slot), key in board.items():
        naive.put_creature(game, 1, keys.index(key), f, slot)
    naive.cast_step(game, me, them)
    after = {(f, s): (keys[c.card], c.damage) for f in range(naive.FORTS)
             for s, c in enumerate(them.board[f]) if c is not None}
    free = naive.unrested_by_colour(me)
    return (after, sorted(keys[i] for i in me.hand), {c: free[c] for c in ("red", "green")},
            (len(me.discard), len(them.discard)))


@pytest.mark.parametrize(("case", "banners", "extra", "hand", "red_die", "board", "after", "left", "free"),
                         CASES, ids=IDS)
def test_kernel_and_twin_cast_as_the_policy_says(case, banners, extra, hand, red_die, board, after, left,
                                                 free):
    assert _kernel(banners, extra, hand, red_die, board) == (after, left, free)
    t_after, t_left, t_free, discards = _twin(banners, extra, hand, red_die, board)
    assert (t_after, t_left, t_free) == (after, left, free)
    # the spells cast go to the caster's discard pile, the creatures destroyed to their owner's
    assert discards == (len(hand) - len(left), len(board) - len(after))


@pytest.mark.parametrize(("case", "banners", "extra", "hand", "red_die", "board", "after", "left", "free"),
                         CASES, ids=IDS)
def test_the_twin_casts_nothing_under_none(case, banners, extra, hand, red_die, board, after, left, free):
    t_after, t_left, t_free, _ = _twin(banners, extra, hand, red_die, board, NONE)
    assert t_after == {place: (key, 0) for place, key in board.items()}
    assert (t_left, sum(t_free.values())) == (sorted(hand), len(banners) + len(extra))


def test_the_default_casts_removal_spells_and_they_change_games():
    """DG-spells=removal is the default (the rulebook plays spells, line 207); casting none instead changes
    most games' course."""
    cat = catalog_io.load()
    assert DragoborneRulings().spells == "removal"
    base = S.run(S.matchup(cat, "red-blaze", "green-grove"), 3000, 21, threads=1).records
    held = S.run(S.matchup(cat, "red-blaze", "green-grove", rulings=NONE), 3000, 21, threads=1).records
    changed = (base[:, :K.Record.BASE_WINNER_0] != held[:, :K.Record.BASE_WINNER_0]).any(axis=1).mean()
    assert 0.3 < changed < 1


def test_only_the_removal_texts_are_read():
    cat = catalog_io.load()
    read = {k: S.spell_effect(c)[0] for k, c in cat.cards.items() if not c.is_creature}
    assert {k for k, e in read.items() if e != K.Spell.NONE} == {
        "spark-bolt", "fire-rain", "natures-wrath", "volcanic-wrath"}
    assert S.spell_effect(cat.card("fire-rain")) == (K.Spell.SPLASH, (2, 1))


def test_immune_is_played_under_removal_only():
    """A printed Immune of a colour is decisive and unplayed under none; under removal it is played (the
    removal spells neither choose nor damage it), so the card's contest is measured."""
    from rulesets import get

    rs = get("dragoborne")
    cat = rs.load_catalog()
    for key, colour in (("grove-warden", "red"), ("inferno-wyrm", "green")):
        entry = next(c for c in rs.contestants(cat) if c.key == key)
        none, removal = rs.coverage(entry, NONE), rs.coverage(entry, REMOVAL)
        assert none.decisive[0].startswith(f"Immune ({colour}) (no effect") and not none.measured
        assert f"Immune ({colour})" in removal.played and removal.decisive == () and removal.measured
