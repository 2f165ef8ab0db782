"""The compiled Dragoborne game (rulesets/dragoborne/kernels.py): reproducibility, common random numbers,
the card tables, every ruling, and the balance layer's engagement.

Agreement with the plain-Python twin is tests/test_naive_dragoborne_kernel.py's.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from rulesets.base import OptionError, RulesError, StatChange
from rulesets.dragoborne import catalog as catalog_io
from rulesets.dragoborne import kernels as K
from rulesets.dragoborne import simulate as S
from rulesets.dragoborne.rules import DragoborneRulings


@pytest.fixture(scope="module")
def cat():
    return catalog_io.load()


def _run(cat, trials=4000, seed=7, threads=1, rulings=None, replace=(None, None), baselines=False):
    m = S.matchup(cat, "red-blaze", "green-grove", replace, baselines, rulings)
    return S.run(m, trials, seed, threads=threads).records


def test_records_are_games(cat):
    r = _run(cat)
    assert r.shape == (4000, K.N_RECORD)
    assert set(np.unique(r[:, K.Record.WINNER])) <= {0, 1}
    assert set(np.unique(r[:, K.Record.FIRST])) == {0, 1}
    # six barriers fall one attack at a time, none on game turn 1: a game lasts at least 4 game turns
    assert r[:, K.Record.TURNS].min() >= 4
    ended = r[:, K.Record.END] == K.End.BARRIERS
    loser = 1 - r[ended, K.Record.WINNER]
    assert (r[ended][np.arange(ended.sum()), K.Record.BARRIERS_0 + loser] == 0).all()
    winner = r[ended, K.Record.WINNER]
    assert (r[ended][np.arange(ended.sum()), K.Record.BARRIERS_0 + winner] > 0).all()
    assert (r[:, K.Record.DICE_LOST_0:K.Record.DICE_LOST_1 + 1] <= 3).all()
    assert (r[:, K.Record.BASE_WINNER_0] == -1).all()


def test_same_seed_same_games_any_threads_any_batching(cat):
    a = _run(cat, 5000, seed=3, threads=1)
    b = _run(cat, 5000, seed=3, threads=2)
    assert np.array_equal(a, b)
    m = S.matchup(cat, "red-blaze", "green-grove")
    c = S.run(m, 5000, 3, threads=2, block_trials=333).records
    assert np.array_equal(a, c)
    assert np.array_equal(a[:1000], _run(cat, 1000, seed=3))
    assert not np.array_equal(a, _run(cat, 5000, seed=4))


def test_first_player_is_a_fair_coin_and_decks_differ(cat):
    r = _run(cat, 20000, seed=11, threads=2)
    first = r[:, K.Record.FIRST].mean()
    assert abs(first - 0.5) < 4 * np.sqrt(0.25 / len(r))
    # the mirror match is fair: P(side 0 wins) = 1/2 within noise
    m = S.matchup(cat, "red-blaze", "red-blaze")
    mirror = S.run(m, 20000, 5, threads=2).records
    assert abs((mirror[:, K.Record.WINNER] == 0).mean() - 0.5) < 4 * np.sqrt(0.25 / 20000)


def test_baselines_are_the_same_games_without_the_replacement(cat):
    """Common random numbers: with no replacement the baseline games are the variant game itself; with a
    replacement, most games are unchanged (one card of fifty) and the baselines equal an unreplaced run."""
    plain = _run(cat, 3000, seed=9)
    same = _run(cat, 3000, seed=9, baselines=True)
    assert np.array_equal(same[:, K.Record.BASE_WINNER_0], same[:, K.Record.WINNER])
    assert np.array_equal(same[:, K.Record.BASE_WINNER_1], same[:, K.Record.WINNER])
    assert np.array_equal(plain[:, :K.Record.BASE_WINNER_0], same[:, :K.Record.BASE_WINNER_0])
    drake = cat.card("pyre-drake")
    paired = _run(cat, 3000, seed=9, replace=(drake, None), baselines=True)
    # side 1 holds no replacement
    assert (paired[:, K.Record.BASE_WINNER_1] == paired[:, K.Record.WINNER]).all()
    changed = (paired[:, K.Record.BASE_WINNER_0] != paired[:, K.Record.WINNER]).mean()
    assert 0 < changed < 0.3


def test_a_replacement_takes_a_card_of_its_cost_class(cat):
    drake = cat.card("pyre-drake")
    m = S.matchup(cat, "red-blaze", "green-grove", (drake, None))
    arr, sizes, _, _, swaps, swap_n, rep, *_ = m.args_head
    keys = [m.table.keys[arr[0, i]] for i in swaps[0, :swap_n[0]]]
    assert set(keys) == {"magma-hound", "natures-wrath"}  # cost 4, not Pyre Drake itself
    assert len(keys) == 4 + 2
    assert m.table.keys[rep[0]] == "pyre-drake" and rep[1] == -1


def test_card_table_folds_white_bonus_and_masks(cat):
    t = S.card_table([cat.card(k) for k in ("magma-hound", "canopy-hunter", "ash-scout", "inferno-wyrm")],
                     ["red", "green"])
    assert t.colours == ("green", "red")
    hound, hunter = t.index["magma-hound"], t.index["canopy-hunter"]
    red, green = t.colours.index("red"), t.colours.index("green")
    cross = t.cross()
    assert cross[hound, red, K.X_ATK] == 1 and cross[hound, red, K.X_DEADLY] == 1
    assert cross[hound, green].sum() == 0
    assert cross[hunter, green, K.X_DEADLY] == 1
    assert t.tab[hunter, K.C_ASSASSIN] == 1 << red
    assert t.tab[t.index["ash-scout"], K.C_INVADE] == 1 << green
    wyrm = t.index["inferno-wyrm"]
    cond = t.conditions()
    assert t.tab[wyrm, K.C_NCOND] == 1 and tuple(cond[wyrm, 0, :5]) == (-1, 6, 6, 2, 0)


def test_summon_and_discard_keys_order_by_cost_then_base_then_index_within_their_bits(cat):
    """The kernel packs cost, ATK + EDR and the card index into KEY_BITS bits each: the catalog's bounds
    (MAX_COST, MAX_STAT) must fit, and the keys must order as step 5 (summon) and step 8 (discard) say."""
    limit = 1 << K.KEY_BITS
    assert catalog_io.MAX_COST < limit and 2 * catalog_io.MAX_STAT < limit
    tab = np.zeros((4, K.XB), np.int64)
    tab[:, K.C_CREATURE] = 1
    tab[:, K.C_COST] = [catalog_io.MAX_COST, catalog_io.MAX_COST, catalog_io.MAX_COST - 1, -1]
    tab[:, K.C_ATK] = [catalog_io.MAX_STAT, 0, catalog_io.MAX_STAT, 3]
    tab[:, K.C_EDR] = [catalog_io.MAX_STAT, 0, catalog_io.MAX_STAT, 3]
    rl = np.zeros(K.N_RULINGS, np.int64)
    ct = K.kernel_table(tab, rl)
    summon = ct[:, K.G_SUMMON]
    # highest cost first, then the higher ATK + EDR (40 against 0 at the top of both ranges); '-': never
    assert summon[0] > summon[1] > summon[2] > 0 and summon[3] == -1
    discard = ct[:, K.G_DISCARD]
    assert discard[3] > discard[0] > discard[2]  # '-' cost goes before creatures, dearer creatures first
    many = np.zeros((2, K.XB), np.int64)
    many[:, K.C_CREATURE] = 1
    many[:, K.C_COST] = 5
    same = K.kernel_table(many, rl)[:, K.G_SUMMON]
    assert same[0] > same[1]  # equal cost and stats: the lower card index first


def test_a_catalog_with_more_cards_than_the_keys_hold_is_refused(cat, monkeypatch):
    cards = [cat.card(k) for k in ("magma-hound", "canopy-hunter", "ash-scout")]
    assert len(S.card_table(cards).keys) == 3
    monkeypatch.setattr(K, "KEY_BITS", 1)  # indices 0 and 1 only
    with pytest.raises(RulesError, match="^3 distinct cards: the game handles fewer than 2$"):
        S.card_table(cards)


@pytest.mark.parametrize("assignment", [
    {"DG-die": "8"}, {"DG-reroll-assigned": "all-keep"}, {"DG-reroll-assigned": "all-return"},
    {"DG-shield-persist": "false"}, {"DG-condition-dice": "unassigned"}, {"DG-shield-stack": "stack"},
    {"DG-cross-die": "discard"}, {"DG-first-turn": "each-player-first"}, {"DG-summoning-sickness": "true"},
    {"DG-move": "none"}, {"DG-move": "guard"}, {"DG-spells": "none"},
])
def test_every_ruling_plays_and_changes_games(cat, assignment):
    base = _run(cat, 3000, seed=21)
    rulings = DragoborneRulings().with_assignments(f"{k}={v}" for k, v in assignment.items())
    r = _run(cat, 3000, seed=21, rulings=rulings)
    assert set(np.unique(r[:, K.Record.WINNER])) <= {0, 1, 2}
    assert not np.array_equal(base[:, :K.Record.BASE_WINNER_0], r[:, :K.Record.BASE_WINNER_0])


def test_rulings_move_what_they_should(cat):
    base = _run(cat, 20000, seed=2, threads=2)
    sick = _run(cat, 20000, seed=2, threads=2,
                rulings=DragoborneRulings().with_assignments(["DG-summoning-sickness=true"]))
    # creatures that cannot attack the turn they arrive make games longer
    assert sick[:, K.Record.TURNS].mean() > base[:, K.Record.TURNS].mean() + 0.3
    each = _run(cat, 20000, seed=2, threads=2,
                rulings=DragoborneRulings().with_assignments(["DG-first-turn=each-player-first"]))
    # the second player loses its first combat too (it had one on game turn 2): going first is worth more
    first = (base[:, K.Record.WINNER] == base[:, K.Record.FIRST]).mean()
    first_each = (each[:, K.Record.WINNER] == each[:, K.Record.FIRST]).mean()
    assert first_each > first + 0.05
    discard = _run(cat, 20000, seed=2, threads=2,
                   rulings=DragoborneRulings().with_assignments(["DG-cross-die=discard"]))
    assert discard[:, K.Record.DICE_LOST_0].mean() > base[:, K.Record.DICE_LOST_0].mean()


def test_contract_contestants_and_engagement(cat):
    from rulesets import get

    rs = get("dragoborne")
    cs = rs.contestants(cat)
    keys = [c.key for c in cs]
    assert "pyre-drake" in keys and "spark-bolt" not in keys and "ruin-of-embers" not in keys
    assert all(c.cost >= 1 and c.illustrative for c in cs)
    drake, hound = (next(c for c in cs if c.key == k) for k in ("pyre-drake", "magma-hound"))
    assert dict(drake.labels)["deck"] == "Red Blaze"
    assert dict(next(c for c in cs if c.key == "elder-treant").labels)["deck"] == "Green Grove"
    e = rs.engage(drake, hound, DragoborneRulings(), seed=5, trials=2000)
    s = e.samples()
    assert s["win"].shape == (2, 2000)
    assert np.allclose(s["win"][0] + s["win"][1] + s["draw"][0], 1)
    assert np.allclose(s["net_win"][0], -s["net_win"][1])
    assert set(np.unique(s["win_gain"])) <= {-1.0, 0.0, 1.0}
    with pytest.raises(RulesError, match="spell"):
        rs.contestants(cat, ["spark-bolt"])
    with pytest.raises(RulesError, match="Ruin of Embers is a spell"):
        rs.contestants(cat, ["ruin-of-embers"])


def test_variant_changes_the_card_everywhere(cat):
    from rulesets import get

    rs = get("dragoborne")
    v = rs.variant(cat, [StatChange("pyre-drake", "atk", "=", "6")], [])
    assert v.card("pyre-drake").atk == 6 and cat.card("pyre-drake").atk == 4
    base = _run(cat, 3000, seed=1)
    changed = S.run(S.matchup(v, "red-blaze", "green-grove"), 3000, 1, threads=1).records
    assert not np.array_equal(base, changed)
    with pytest.raises(RulesError, match="unknown stat 'atak'"):
        rs.variant(cat, [StatChange("pyre-drake", "atak", "=", "6")], [])
    with pytest.raises(RulesError, match=r"^change 'pyre-drake.edr=21': edr 21 is outside 0..20$") as caught:
        rs.variant(cat, [StatChange("pyre-drake", "edr", "=", "21")], [])
    assert not isinstance(caught.value, OptionError)  # a whole number the rules do not take, as every game
    with pytest.raises(OptionError, match="spell"):
        rs.variant(cat, [StatChange("spark-bolt", "atk", "=", "1")], [])
    with pytest.raises(RulesError, match=r"^unknown card 'pyre-drak' \(did you mean pyre-drake\?\); known: "):
        rs.variant(cat, [StatChange("pyre-drak", "atk", "=", "1")], [])


def test_a_deck_of_spells_cannot_summon(cat):
    """A deck holding no creature never attacks: it loses, by barriers, every game."""
    spells = {k: 4 for k in ("spark-bolt", "blazing-fury", "fire-rain", "volcanic-wrath")}
    spells |= {k: 4 for k in ("verdant-growth", "wild-charge", "natures-wrath")}
    spells |= {"vine-snare": 4, "ruin-of-embers": 4}
    deck = dataclasses.replace(cat.deck("red-blaze"), key="spells", name="Spells",
                               cards=tuple(spells.items()))
    m = S.matchup(cat, deck, "green-grove")
    r = S.run(m, 500, 3, threads=1).records
    assert (r[:, K.Record.WINNER] == 1).all()
    assert (r[:, K.Record.SUMMONED_0] == 0).all()


def test_first_turn_summons_match_the_hypergeometric(cat):
    """With no mulligan, a player's first turn summons iff its 6 cards (5 dealt, 1 drawn: a uniform draw from
    the deck) hold a creature it can pay: cost <= 3 for the first player (3 banners, no resource step),
    cost <= 4 for the second (a resource card too). Red Blaze: 23 creatures of cost <= 3, 31 of cost <= 4;
    every colour of it is a banner's. Exact: 1 - C(50 - n, 6) / C(50, 6). Under DG-spells=none: a removal
    spell cast first may leave too little to summon."""
    from math import comb

    m = S.matchup(cat, "red-blaze", "green-grove", mulligan="none",
                  rulings=DragoborneRulings().with_assignments(["DG-spells=none"]))
    r = S.run(m, 60000, 13, threads=2).records
    summoned = (r[:, K.Record.CURVE_0] & 1).astype(bool)
    first = r[:, K.Record.FIRST] == 0
    for mask, n in ((first, 23), (~first, 31)):
        want = 1 - comb(50 - n, 6) / comb(50, 6)
        got = summoned[mask].mean()
        assert abs(got - want) < 5 * np.sqrt(want * (1 - want) / mask.sum()), (n, got, want)
    with pytest.raises(OptionError, match="curve"):
        S.matchup(cat, "red-blaze", "green-grove", mulligan="curve")


def test_a_card_alone_in_its_cost_class_replaces_any_card_and_reports_say_so(cat):
    from rulesets import get

    deck = cat.deck("red-blaze")
    cards = tuple((k, n) for k, n in deck.cards if k not in ("magma-hound", "natures-wrath"))
    lean = dataclasses.replace(cat, decks={**cat.decks, "red-blaze": dataclasses.replace(deck, cards=cards)})
    rs = get("dragoborne")
    drake = next(c for c in rs.contestants(lean) if c.key == "pyre-drake")
    notes = rs.notes(lean, [drake])
    assert any("replaces a copy of any card: Pyre Drake (in Red Blaze)" in n for n in notes)
    m = S.matchup(lean, "red-blaze", "green-grove", (cat.card("pyre-drake"), None))
    arr, sizes, _, _, swaps, swap_n, *_ = m.args_head
    assert swap_n[0] == sizes[0] - 4  # every card but Pyre Drake's own four copies
    assert S.run(m, 200, 1, threads=1).records.shape[0] == 200


def test_game_records_views_read_their_named_columns(cat):
    """simulate.GameRecords' views are the record's columns of that name, each side's its own; the early-play
    bits decode the CURVE column (bit t-1 summoned, bit CURVE_TURNS + t - 1 spent everything); a wrong side
    is refused."""
    r = _run(cat, trials=2000, seed=5, baselines=True, replace=(cat.card("pyre-drake"), None))
    games = S.GameRecords(r)
    assert len(games) == 2000
    assert np.array_equal(games.winner(), r[:, K.Record.WINNER])
    assert np.array_equal(games.first(), r[:, K.Record.FIRST])
    assert np.array_equal(games.turns(), r[:, K.Record.TURNS])
    assert np.array_equal(games.end(), r[:, K.Record.END])
    for s in (0, 1):
        views = (("barriers_left", "BARRIERS"), ("summoned", "SUMMONED"), ("dice_lost", "DICE_LOST"),
                 ("base_winner", "BASE_WINNER"))
        for view, column in views:
            assert np.array_equal(getattr(games, view)(s), r[:, K.Record[f"{column}_{s}"]]), (view, s)
        curve = r[:, K.Record.CURVE_0 + s]
        for t in range(1, K.CURVE_TURNS + 1):
            assert np.array_equal(games.summoned_on(s, t), (curve >> (t - 1)) & 1 == 1)
            assert np.array_equal(games.spent_all_on(s, t), (curve >> (K.CURVE_TURNS + t - 1)) & 1 == 1)
    # the views hold data: both sides summon, some game ends on barriers, side 0's replacement matters
    assert games.summoned(0).mean() > 1 and games.summoned(1).mean() > 1
    assert (games.end() == K.End.BARRIERS).any()
    assert (games.base_winner(0) != games.winner()).any()
    with pytest.raises(RulesError, match="side 2"):
        games.summoned(2)


def test_scores_and_categories_are_the_policy_the_game_states():
    """The attacker's scores and O's block categories (game.py step 7) are the numbers its specification
    states; the bad trade and the deaths score <= 0, so they are never taken ("if its score is > 0")."""
    import re

    from rulesets.dragoborne import game as G

    spec = " ".join(G.__doc__.split())
    stated = {
        rf"Score {G.SCORE_SHIELD_BROKEN} if ATK >= its value, else {G.SCORE_SHIELD_WORN}\.",
        rf"kills and survives {G.SCORE_KILLS_SURVIVES}; kills and dies {G.SCORE_TRADE} if B's cost >= the "
        rf"attacker's cost, else {G.SCORE_BAD_TRADE}; survives without killing {G.SCORE_SURVIVES}; dies "
        rf"without killing {G.SCORE_DIES}\.",
        rf"unblocked: {G.SCORE_UNBLOCKED} - f's barriers\.",
        rf"kills and survives {G.SCORE_ASSASSINATE}; kills and dies {G.SCORE_ASSASSIN_TRADE} if R's cost >= "
        rf"the attacker's cost, else {G.SCORE_BAD_TRADE}; does not kill {G.SCORE_DIES}\.",
        r"Six barriers, two on each fort",  # BARRIERS_PER_FORT
        rf"gain = \(1 \+ colour bonus ATK\) \+ \(1 \+ colour bonus EDR\) \+ {G.DEADLY_CROSS_GAIN} if",
    }
    for text in stated:
        assert re.search(text, spec), text
    assert G.BARRIERS_PER_FORT == 2 and G.CROSS_ATK == G.CROSS_EDR == 1
    never, taken = (G.SCORE_BAD_TRADE, G.SCORE_DIES), (G.SCORE_TRADE, G.SCORE_SURVIVES, G.SCORE_SHIELD_WORN)
    assert max(never) <= 0 < min(taken)
    assert [c.name for c in G.BlockCategory] == ["SURVIVES_AND_KILLS", "SURVIVES", "KILLS_AND_DIES", "DIES"]
    assert (K.CAT_SURVIVES_AND_KILLS, K.CAT_DIES, K.CAT_NONE) == (0, 3, 4)
