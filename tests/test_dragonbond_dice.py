"""Dragonbond dice, pools and exact maths (seed 000, "Dice" 146-216, "Performing an Attack" 691-757): the
printed tables and examples, RULES.md §2's reference numbers, and icepool asked for the same
distributions."""

from __future__ import annotations

from fractions import Fraction

import icepool
import numpy as np
import pytest
from icepool import Die, Vector

from rulesets.base import RulesError
from rulesets.dragonbond.dice import (
    ACTION,
    DEFENSE,
    Pool,
    action_face_probabilities,
    block_probability,
    modified,
    parse_pool,
)
from rulesets.dragonbond.exact import (
    Defense,
    attack_distribution,
    casualty_order,
    charge_reach,
    damage_tokens,
    face_off,
    pool_distribution,
)
from rulesets.dragonbond.rules import DragonbondRulings

R = DragonbondRulings()
F = Fraction


# --- faces (176-201, DB-faces) ------------------------------------------------------------------------

def test_action_face_probabilities_as_the_standard_die_table_prints_them():
    # (blank, ◇, ◇◇, ◆) for white, grey, black
    assert action_face_probabilities(2, R) == (F(3, 10), F(2, 5), F(1, 5), F(1, 10))
    assert action_face_probabilities(1, R) == (F(1, 2), F(3, 10), F(1, 10), F(1, 10))
    assert action_face_probabilities(0, R) == (F(7, 10), F(1, 5), F(0), F(1, 10))


def test_block_probabilities_black_white_red():
    assert [block_probability(k, R) for k in (2, 1, 0)] == [F(2, 3), F(1, 2), F(1, 3)]


def test_weakest_first_reads_the_columns_the_other_way():
    other = DragonbondRulings(faces="weakest-first")
    assert action_face_probabilities(0, other) == action_face_probabilities(2, R)
    assert block_probability(0, other) == F(2, 3)


# --- pools and the Upgrade / Downgrade algebra (203-216) -----------------------------------------------

def test_pool_notation_round_trip_and_repeats():
    assert parse_pool("2B 4G 1W") == Pool(ACTION, (1, 4, 2))
    assert parse_pool("2b,4g").notation() == "2B 4G"
    assert parse_pool("1B 2W 1R", DEFENSE) == Pool(DEFENSE, (1, 2, 1))
    assert parse_pool("1G 1G") == Pool(ACTION, (0, 2, 0))


@pytest.mark.parametrize(("text", "kind", "named"), [
    ("2X", ACTION, "'2X'"), ("", ACTION, "empty"), ("-1B", ACTION, "'-1B'"), ("B", ACTION, "'B'"),
    ("0B", ACTION, "no dice"), ("2G", DEFENSE, "'2G'"), ("1R", ACTION, "'1R'"),
])
def test_bad_pools_name_the_value(text, kind, named):
    with pytest.raises(RulesError, match=named):
        parse_pool(text, kind)


def test_the_printed_examples():
    # "a roll has 3 downgrades and 1 upgrade ... leaving the roll with 2 downgrades" (216)
    pool = parse_pool("3G 3W")
    assert modified(pool, up=1, down=3) == modified(pool, down=2)
    # Gore-Lancers: 3 grey + 3 white, 2 fatigue tokens beside them: 4 downgrades, 5 white dice (562)
    for mode in ("per-die", "cascade"):
        assert modified(pool, down=4, rulings=DragonbondRulings(step_mode=mode)).notation() == "5W"
    # the table (211-214): black up -> black + white; grey up -> black; white up -> grey; downs
    assert modified(parse_pool("1B"), up=1).notation() == "1B 1W"
    assert modified(parse_pool("1G"), up=1).notation() == "1B"
    assert modified(parse_pool("1W"), up=1).notation() == "1G"
    assert modified(parse_pool("1B"), down=1).notation() == "1G"
    assert modified(parse_pool("1G"), down=1).notation() == "1W"
    assert modified(parse_pool("2W"), down=1).notation() == "1W"


def test_step_modes_differ_as_ruled():
    cascade = DragonbondRulings(step_mode="cascade")
    bw = parse_pool("1B 1W")
    assert modified(bw, up=2).notation() == "1B 1G 1W"
    assert modified(bw, up=2, rulings=cascade).notation() == "2B"
    assert modified(bw, down=2).notation() == "1G"
    assert modified(bw, down=2, rulings=cascade).notation() == "2W"
    # per-die: a new pass when X exceeds the dice
    assert modified(parse_pool("1W"), up=3).notation() == "1B 1W"  # W->G, then G->B, then B->B+W
    assert modified(parse_pool("2G"), up=3).notation() == "2B 1W"  # G,G->B,B, then B->B+W


def test_never_zero_dice_and_the_defense_floor():
    assert modified(parse_pool("2W"), down=9).notation() == "1W"  # "roll one white die instead" (209)
    assert modified(parse_pool("2W", DEFENSE), down=9).notation() == "1R"
    assert modified(parse_pool("2W", DEFENSE), down=9,
                    rulings=DragonbondRulings(defense_floor="white")).notation() == "1W"
    # an upgraded black defense die adds a red die, or "another white die" (literal-white)
    assert modified(parse_pool("1B", DEFENSE), up=1).notation() == "1B 1R"
    assert modified(parse_pool("1B", DEFENSE), up=1,
                    rulings=DragonbondRulings(defense_tiers="literal-white")).notation() == "1B 1W"
    with pytest.raises(RulesError, match="whole numbers >= 0"):
        modified(parse_pool("1B"), up=-1)


# --- exact distributions: RULES.md §2's reference numbers ---------------------------------------------

def test_four_grey_two_black_two_hits_and_a_critical():
    joint = pool_distribution(parse_pool("4G 2B"), R).hits_and_criticals(2)
    assert joint[2, 1] == pytest.approx(1719 / 25000, abs=1e-15)
    assert joint.sum() == pytest.approx(1.0, abs=1e-14)


@pytest.mark.parametrize(("strength", "down", "expected"), [
    (2, 0, 1.8), (1, 0, 2.4), (0, 0, 3.0), (1, 1, 2.5632), (1, 2, 2.7126)])
def test_expected_wounds_against_one_defense_die_per_hit(strength, down, expected):
    """4 grey + 2 black: E[hits] = 4 x 0.5 + 2 x 0.8 = 3.6, E[◆] = 0.6; a die blocks 2/3, 1/2, 1/3:
    3.6 x (1 - p) + 0.6 = 1.8, 2.4, 3.0; with 1 or 2 flanking downgrades on the white pool (tiered)."""
    a = attack_distribution(parse_pool("4G 2B"), Defense(1, strength, down=down), rulings=R)
    assert a.mean_wounds() == pytest.approx(expected, abs=5e-5)
    if down == 0:
        assert a.mean_wounds() == pytest.approx(3.6 * (1 - float(block_probability(strength, R))) + 0.6,
                                                abs=1e-12)


def test_blades_against_the_phalanx_collect_one_die_per_non_critical_hit():
    """2 hits and a ◆ against defense 1: 2 defense dice; 1 block leaves 1 hit + the ◆ = 2 wounds (726-753)."""
    assert Defense(1, 1).pool(2, R).size == 2
    assert Defense(1, 1).pool(0, R).size == 0
    assert Defense(1, 1, down=3).pool(2, R).notation() == "1R"


@pytest.mark.parametrize(("down", "expected"), [(0, 0.838), (1, 0.769), (2, 0.680)])
def test_three_black_at_least_two_successes(down, expected):
    reach = charge_reach(9, 0, R)  # Duelists: speed 9 + 2 successes reach 11" (490-492)
    if down == 0:
        assert reach[11:].sum() == pytest.approx(expected, abs=1e-12)
    from rulesets.dragonbond.exact import counted_successes
    s = counted_successes(modified(parse_pool("3B"), down=down), R)
    assert s[2:].sum() == pytest.approx(expected, abs=1e-12)


def test_charge_reach_loses_an_inch_per_token_beside_the_unit():
    reach = charge_reach(8, 2, R)  # Blades: speed 8, 2 tokens: 6" (424), then the dice, downgraded 2 x 2
    assert reach[:6].sum() == 0 and reach[6] > 0
    assert charge_reach(8, 2, DragonbondRulings(exhaustion_other_rolls="0/0"))[6] < reach[6]


def test_face_off_two_players():
    f = face_off(2, R)
    assert f.stages["successes"] == pytest.approx(0.75718, abs=1e-12)
    assert f.stages["reroll"] == pytest.approx(0.115968, abs=1e-12)
    assert sum(f.stages.values()) == pytest.approx(1.0, abs=1e-14)
    assert f.expected_rolls == pytest.approx(1 / (1 - 0.115968), abs=1e-12)
    assert face_off(3, R).p_win == pytest.approx(1 / 3)
    with pytest.raises(RulesError, match="between 2 and 4"):
        face_off(5, R)


def test_damage_tokens_per_reading():
    assert damage_tokens(1, rulings=R).tolist() == pytest.approx([0.3, 0.7])
    assert damage_tokens(1, rulings=DragonbondRulings(damage_token="non-critical")).tolist() == \
        pytest.approx([0.4, 0.6])
    # two tokens, a die removing 0 (0.3), 1 (◇ or ◆: 0.5) or 2 (◇◇, DB-double-hits=2: 0.2), at most 2 in all
    assert damage_tokens(2, rulings=R).tolist() == pytest.approx([0.09, 0.30, 0.61], abs=1e-15)
    # a Double Success one hit: one token per die
    assert damage_tokens(2, rulings=DragonbondRulings(double_hits=1)).tolist() == \
        pytest.approx([0.09, 0.42, 0.49], abs=1e-15)


def test_models_killed_fill_one_model_then_the_next():
    target = casualty_order(3, 2, None, R)
    a = attack_distribution(parse_pool("4G 2B"), Defense(1, 1), target, R)
    expected = np.zeros(4)
    for w, q in enumerate(a.wounds):
        expected[min(3, w // 2)] += q
    np.testing.assert_allclose(a.killed, expected, atol=1e-15)
    # a captain of Health 3 among Health 1 troops: last, first, or by Health
    assert casualty_order(3, 1, 3, R).health == (1, 1, 3)
    assert casualty_order(3, 1, 3, DragonbondRulings(casualty_order="captain-first")).health == (3, 1, 1)
    by_health = DragonbondRulings(casualty_order="fewest-health-first")
    assert casualty_order(3, 4, 3, by_health).health == (3, 4, 4)


def test_defense_zero_rolls_nothing_and_says_so():
    a = attack_distribution(parse_pool("2B"), Defense(0, 1), rulings=R)
    assert a.notes and "every hit wounds" in a.notes[0]
    plain = pool_distribution(parse_pool("2B"), R).hits_and_criticals(2)
    direct = np.zeros(a.wounds.size)
    for (h, c), q in np.ndenumerate(plain):
        if q > 0:
            direct[h + c] += q
    np.testing.assert_allclose(a.wounds, direct, atol=1e-15)


# --- Sharp (859, DB-sharp) -----------------------------------------------------------------------------

def test_sharp_extra_die_adds_a_geometric_chain_of_criticals():
    one = pool_distribution(parse_pool("1B"), R, sharp=True)
    crits = one.joint.sum(axis=(0, 1))
    np.testing.assert_allclose(crits[:3], [0.9, 0.09, 0.009], rtol=1e-14)
    assert one.tail < 1e-15
    # the ◆ is kept and the rerolled face counts too: E[◆] = 1/9 and E[◇] = 0.4 / 0.9
    assert float(np.arange(crits.size) @ crits) == pytest.approx(1 / 9, abs=1e-14)


def test_sharp_reroll_replaces_has_no_criticals():
    one = pool_distribution(parse_pool("1B"), DragonbondRulings(sharp="reroll-replaces"), sharp=True)
    assert one.joint.shape[2] == 1
    assert one.joint[1, 0, 0] == pytest.approx(0.4 / 0.9)


# --- icepool asked for the same distributions ----------------------------------------------------------

def _icepool_die(strength: int, double_hits: int = 2) -> Die:
    faces = {}
    for symbol, p in enumerate(action_face_probabilities(strength, R)):
        if p:
            v = Vector(((0, 1, double_hits, 0)[symbol], (0, 0, 0, 1)[symbol]))
            faces[v] = faces.get(v, 0) + int(p * 10)
    return Die(faces)


@pytest.mark.parametrize("notation", ["4G 2B", "3B 1W", "6W", "2B 2G 2W"])
def test_hits_and_criticals_match_icepool(notation):
    pool = parse_pool(notation)
    dice = [_icepool_die(k) for k in range(3) for _ in range(pool.counts[k])]
    total = icepool.reduce(lambda a, b: a + b, dice) if len(dice) > 1 else dice[0]
    ours = pool_distribution(pool, R).hits_and_criticals(2)
    for outcome, p in zip(total.outcomes(), total.probabilities(), strict=True):
        assert ours[outcome[0], outcome[1]] == pytest.approx(float(p), abs=1e-15)
    assert ours.sum() == pytest.approx(1.0, abs=1e-14)


@pytest.mark.parametrize(("notation", "defense"), [("4G 2B", Defense(1, 1, down=1)),
                                                   ("2B 1G", Defense(2, 0, up=1)),
                                                   ("3W", Defense(1, 2))])
def test_wounds_match_icepool(notation, defense):
    pool = parse_pool(notation)
    dice = [_icepool_die(k) for k in range(3) for _ in range(pool.counts[k])]
    attack = icepool.reduce(lambda a, b: a + b, dice)

    def wounds(v):
        h, c = v
        block = defense.pool(h, R)
        if block.size == 0:
            return h + c
        blocks = icepool.reduce(lambda a, b: a + b, [Die([0] * (6 - round(6 * block_probability(k, R)))
                                                         + [1] * round(6 * block_probability(k, R)))
                                                     for k in range(3) for _ in range(block.counts[k])]
                                + [Die([0])])
        return blocks.map(lambda b: max(0, h - b) + c)

    expected = attack.map(wounds)
    ours = attack_distribution(pool, defense, rulings=R).wounds
    for w, p in zip(expected.outcomes(), expected.probabilities(), strict=True):
        assert ours[w] == pytest.approx(float(p), abs=1e-14)


def test_face_off_matches_icepool_for_two_players():
    die = Die({Vector((s, c, d)): n for (s, c, d), n in {
        (0, 0, 0): 5, (1, 0, 0): 3, (2, 0, 1): 1, (1, 1, 0): 1}.items()})  # grey: blank, ◇, ◇◇ (2), ◆ (1)
    player = 3 @ die
    stage = icepool.map(lambda a, b: 0 if a[0] != b[0] else 1 if a[1] != b[1] else 2 if a[2] != b[2] else 3,
                        player, player)
    ours = face_off(2, R).stages
    for k, name in enumerate(("successes", "criticals", "doubles", "reroll")):
        assert ours[name] == pytest.approx(float(stage.probability(k)), abs=1e-14)


@pytest.mark.parametrize(("notation", "defense"), [("4G 2B", Defense(1, 1)), ("2B 1G", Defense(2, 0, up=1)),
                                                   ("3W", Defense(1, 2, down=2)), ("1B", Defense(0, 1))])
def test_expected_wounds_by_linearity_equals_the_mean_of_the_distribution(notation, defense):
    from rulesets.dragonbond.exact import expected_wounds

    pool = parse_pool(notation)
    for rulings in (R, DragonbondRulings(double_hits=1), DragonbondRulings(sharp="reroll-replaces")):
        for sharp in (False, True):
            assert expected_wounds(pool, defense, rulings, sharp) == pytest.approx(
                attack_distribution(pool, defense, rulings=rulings, sharp=sharp).mean_wounds(), abs=1e-13)


def test_a_ranged_attack_into_a_melee_shares_criticals_first_then_hits():
    from rulesets.dragonbond.exact import shares, spread_attack

    # 2 criticals and 3 hits into two units: ◆ ◆ to units 1, 2; then hits to 1, 2, 1 (685-689)
    assert shares(3, 2, 2) == [(2, 1), (1, 1)]
    assert shares(5, 0, 3) == [(2, 0), (2, 0), (1, 0)]
    pool = parse_pool("4G 2B")
    alone = spread_attack(pool, [Defense(1, 1)], R)[0]
    np.testing.assert_allclose(alone[:attack_distribution(pool, Defense(1, 1), rulings=R).wounds.size],
                               attack_distribution(pool, Defense(1, 1), rulings=R).wounds, atol=1e-15)
    two = spread_attack(pool, [Defense(1, 1), Defense(1, 1)], R)
    means = [float(np.arange(w.size) @ w) for w in two]
    # the same defense on both: the nearest gets the odd hit, so at least as many wounds; together they
    # take what one unit alone would (blocks are per hit, so sharing does not change the total mean)
    assert means[0] >= means[1] > 0
    assert sum(means) == pytest.approx(2.4, abs=1e-12)


@pytest.mark.parametrize(("tokens", "colour"), [(0, "black"), (1, "black"), (0, "grey"), (2, "white")])
def test_charge_reach_matches_icepool(tokens, colour):
    """Speed 9 less a token each, + successes of 3 dice (◇ 1, ◇◇ 2, ◆ 1), downgraded 2 per token: icepool
    asked for the same sum."""
    rulings = DragonbondRulings(charge_dice=colour)
    from rulesets.dragonbond.exact import charge_dice

    pool = charge_dice(tokens, rulings)
    dice = []
    for k in range(3):
        p = action_face_probabilities(k, rulings)
        die = Die({0: int(p[0] * 10), 1: int(p[1] * 10) + int(p[3] * 10), 2: int(p[2] * 10)})
        dice += [die] * pool.counts[k]
    total = icepool.reduce(lambda a, b: a + b, dice) + (9 - tokens)
    ours = charge_reach(9, tokens, rulings)
    for d, p in zip(total.outcomes(), total.probabilities(), strict=True):
        assert ours[d] == pytest.approx(float(p), abs=1e-15)
    assert ours.sum() == pytest.approx(1.0, abs=1e-14)


@pytest.mark.parametrize("players", [3, 4])
def test_face_off_matches_icepool_for_three_and_four_players(players):
    """The stage at which a face-off of N players is decided: the leaders on successes, then the leaders
    among them on criticals, then on doubles, else a reroll; icepool enumerates the N players' rolls."""
    die = Die({Vector((s, c, d)): n for (s, c, d), n in {
        (0, 0, 0): 5, (1, 0, 0): 3, (2, 0, 1): 1, (1, 1, 0): 1}.items()})
    player = 3 @ die

    def stage(*rolls):
        tied = list(rolls)
        for level in range(3):
            best = max(r[level] for r in tied)
            tied = [r for r in tied if r[level] == best]
            if len(tied) == 1:
                return level
        return 3

    decided = icepool.map(stage, *([player] * players))
    ours = face_off(players, R).stages
    for k, name in enumerate(("successes", "criticals", "doubles", "reroll")):
        assert ours[name] == pytest.approx(float(decided.probability(k)), abs=1e-13)
