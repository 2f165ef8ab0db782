"""The plain-Python Dragoborne twin (tests/naive_dragoborne.py) on its own: hand-built tiny boards testing one
rule each with an exact expected outcome (rulesets/dragoborne/game.py's specification; "line N" of
shared/seeds/001_1c5696b006866d5d.txt), then whole games on the packaged decks (red-blaze against
green-grove): every game ends within bounds, every ruling value runs, and the outcome statistics are printed
(``pytest -s``) and checked loosely."""

from __future__ import annotations

import dataclasses
import math
import random
import statistics
from collections import Counter

import naive_dragoborne as N
import pytest

from rulesets.dragoborne import catalog
from rulesets.dragoborne.catalog import Card, CrossBonus, DiceCondition, Keyword
from rulesets.dragoborne.rules import DragoborneRulings

R = DragoborneRulings
COLOURS = ["green", "red"]
RGG = ["red", "green", "green"]  # banners: fort 0 red, forts 1 and 2 green


def kw(text: str) -> Keyword:
    name, _, colour = text.partition(":")
    return Keyword(name, colour)


def creature(key, colour="red", cost=1, atk=1, edr=1, keywords=(), cross=(), dice=()) -> Card:
    return Card(key, key, "creature", colour, cost, atk, edr, tuple(kw(k) for k in keywords), tuple(cross),
                tuple(dice))


def spell(key, colour="red", cost=1) -> Card:
    return Card(key, key, "spell", colour, cost)


def rulings(**changes) -> DragoborneRulings:
    return dataclasses.replace(R(), **changes)


def game_of(cards, banners0=RGG, banners1=RGG, first=0, turn=2, **changes) -> N.Game:
    """A hand-built game on game turn ``turn`` (combat allowed by default), player 0 active."""
    game = N.blank_game(cards, COLOURS, banners0, banners1, rulings(**changes), first=first)
    game.turn = turn
    return game


def only_fort(game: N.Game, owner: int, fort: int) -> None:
    """Destroy every fort of ``owner`` but ``fort`` (no barriers), so the only attack option is there."""
    for f in range(N.FORTS):
        if f != fort:
            game.players[owner].barriers[f] = []


# --- indices ---------------------------------------------------------------------------------------------


def test_table_and_deck_indices_of_the_packaged_decks():
    cat = catalog.load()
    red, green = cat.deck("red-blaze"), cat.deck("green-grove")
    cards, colours = N.table_for(cat, [red, green])
    keys = [c.key for c in cards]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)
    assert set(keys) == {cat.card(k).key for k, _ in red.cards} | {cat.card(k).key for k, _ in green.cards}
    assert "ruin-of-embers" not in keys  # in neither deck
    assert colours == ["green", "red"]
    for deck in (red, green):
        indices = N.deck_indices(deck, cards)
        assert len(indices) == deck.size == 50
        assert Counter(cards[i].key for i in indices) == Counter(deck.copies)


# --- combat: forts, shields, blockers (spec step 7, lines 228-249) --------------------------------------


@pytest.mark.parametrize("atk", [1, 3, 7])
def test_unblocked_attack_breaks_exactly_one_barrier_to_hand(atk):
    game = game_of([creature("a", atk=atk, edr=2), spell("bottom"), spell("top")])
    o = game.players[1]
    o.barriers = [[1, 2], [1, 2], [1, 2]]
    a = N.put_creature(game, 0, 0, fort=0)
    N.combat_phase(game, *game.players)
    assert N.total_barriers(o) == 5
    assert o.barriers[0] == [1]  # fort 0 first of the equal options; its top barrier left
    assert o.hand == [2]  # ... for the hand (line 246)
    assert a.rested and a.damage == 0


def test_unblocked_prefers_the_fort_with_fewer_barriers():
    game = game_of([creature("a", atk=2, edr=2)])
    o = game.players[1]
    o.barriers[2] = [0]
    N.put_creature(game, 0, 0, fort=0)
    N.combat_phase(game, *game.players)
    assert [len(b) for b in o.barriers] == [2, 2, 0]  # 100 - 1 beats 100 - 2


def test_shield_of_4_blocking_atk_3_keeps_1_then_breaks_then_the_fort_is_open():
    game = game_of([creature("a", atk=3, edr=3)])
    o = game.players[1]
    only_fort(game, 1, 0)
    shield = N.put_shield(game, 1, die=0, fort=0, value=4)
    first = N.put_creature(game, 0, 0, fort=0)
    N.combat_phase(game, *game.players)
    assert shield.value == 1 and shield.where == N.SHIELD  # RULES.md §5: shield 4 blocking ATK 3 -> 1
    assert o.barriers[0] == [0, 0] and o.hand == [] and first.damage == 0 and first.rested
    second = N.put_creature(game, 0, 0, fort=1)
    N.combat_phase(game, *game.players)
    assert shield.where == N.GONE and o.shields[0] == [] and o.dice_lost == 1  # destroyed (line 215)
    assert o.barriers[0] == [0, 0] and second.damage == 0  # nothing reaches the fort (line 246)
    N.put_creature(game, 0, 0, fort=2)
    N.combat_phase(game, *game.players)
    assert o.barriers[0] == [0] and o.hand == [0]


def test_shield_scores_40_when_atk_reaches_its_value_else_15():
    game = game_of([creature("a", atk=3, edr=3)])
    a = N.put_creature(game, 0, 0, fort=0)
    N.put_shield(game, 1, 0, 0, 3)
    N.put_shield(game, 1, 1, 1, 4)
    N.put_shield(game, 1, 2, 2, 2)
    scores = [o.score for o in N.attack_options(game, *game.players, a)]
    assert scores == [40, 15, 40]
    assert N.best_option(N.attack_options(game, *game.players, a)).fort == 0  # ties: the first listed


def test_deadly_kills_a_5_edr_blocker():
    # the blocker kills the Deadly attacker and dies (category c); cost 3 >= 2: the attack scores 20
    cards = [creature("deadly", cost=2, atk=1, edr=1, keywords=["deadly"]),
             creature("wall", cost=3, atk=1, edr=5)]
    game = game_of(cards)
    only_fort(game, 1, 0)
    a = N.put_creature(game, 0, 0, fort=0)
    b = N.put_creature(game, 1, 1, fort=0)
    assert [o.score for o in N.attack_options(game, *game.players, a)] == [20]
    N.combat_phase(game, *game.players)
    assert not N.on_board(game.players[1], b) and game.players[1].discard == [1]
    assert not N.on_board(game.players[0], a) and game.players[0].discard == [0]
    assert N.total_barriers(game.players[1]) == 2


def test_without_deadly_the_same_attacker_does_not_attack_and_stays_standing():
    cards = [creature("plain", cost=2, atk=1, edr=1), creature("wall", cost=3, atk=1, edr=5)]
    game = game_of(cards)
    only_fort(game, 1, 0)
    a = N.put_creature(game, 0, 0, fort=0)
    b = N.put_creature(game, 1, 1, fort=0)
    assert [o.score for o in N.attack_options(game, *game.players, a)] == [-10]  # dies without killing
    N.combat_phase(game, *game.players)
    assert not a.rested and a.damage == 0 and not b.rested and b.damage == 0


def test_kills_and_dies_against_a_cheaper_blocker_scores_minus_1():
    cards = [creature("big", cost=4, atk=2, edr=1), creature("small", cost=1, atk=1, edr=2)]
    game = game_of(cards)
    only_fort(game, 1, 0)
    a = N.put_creature(game, 0, 0, fort=0)
    N.put_creature(game, 1, 1, fort=0)
    assert [o.score for o in N.attack_options(game, *game.players, a)] == [-1]


def test_zero_atk_creature_never_attacks_until_dragocrossed():
    cards = [creature("sprite", colour="green", atk=0, edr=2)]
    game = game_of(cards)
    s = N.put_creature(game, 0, 0, fort=0)
    N.combat_phase(game, *game.players)
    assert N.total_barriers(game.players[1]) == 6 and not s.rested
    N.put_cross(game, 0, 0, s, 1)  # +1/+1 (line 217): ATK 1
    N.combat_phase(game, *game.players)
    assert N.total_barriers(game.players[1]) == 5 and s.rested


def test_invade_is_blocked_by_a_shield_but_not_by_a_creature():
    cards = [creature("invader", atk=1, edr=2, keywords=["invade:red"]), creature("guard", atk=3, edr=3)]
    # O's fort 0 is red (banners red, green, green)
    game = game_of(cards)
    only_fort(game, 1, 0)
    N.put_creature(game, 0, 0, fort=0)
    shield = N.put_shield(game, 1, die=0, fort=0, value=5)
    N.combat_phase(game, *game.players)
    assert shield.value == 4 and N.total_barriers(game.players[1]) == 2  # line 321
    # no shield: the standing guard (which would kill it and survive) cannot block it (line 320)
    game = game_of(cards)
    only_fort(game, 1, 0)
    N.put_creature(game, 0, 0, fort=0)
    guard = N.put_creature(game, 1, 1, fort=0)
    N.combat_phase(game, *game.players)
    assert N.total_barriers(game.players[1]) == 1 and not guard.rested and guard.damage == 0


def test_invade_of_another_colour_is_blocked():
    cards = [creature("invader", atk=1, edr=2, keywords=["invade:green"]), creature("guard", atk=3, edr=3)]
    game = game_of(cards)
    only_fort(game, 1, 0)  # fort 0 is red
    a = N.put_creature(game, 0, 0, fort=0)
    N.put_creature(game, 1, 1, fort=0)
    N.combat_phase(game, *game.players)
    assert N.total_barriers(game.players[1]) == 2 and not a.rested  # would die without killing: no attack


def _blockers(specs, barriers=6, attacker=(2, 2)):
    """(game, attacker, its stats) with O's creatures ``specs`` = [(cost, atk, edr, rested)] at fort 0."""
    cards = [creature("att", cost=2, atk=attacker[0], edr=attacker[1])]
    cards += [creature(f"b{i}", cost=c, atk=a, edr=e) for i, (c, a, e, _) in enumerate(specs)]
    game = game_of(cards)
    o = game.players[1]
    o.barriers = [[0, 0], [0, 0], [0, 0]]
    while N.total_barriers(o) > barriers:
        next(b for b in o.barriers if b).pop()
    for i, (_, _, _, rested) in enumerate(specs):
        N.put_creature(game, 1, 1 + i, fort=0, rested=rested)
    att = N.put_creature(game, 0, 0, fort=1)
    return game, att, N.stats(game, game.players[0], att)


def _chosen(specs, **kwargs):
    game, att, s = _blockers(specs, **kwargs)
    b = N.block_choice(game, game.players[1], 0, att, s)
    return None if b is None else b.slot


@pytest.mark.parametrize("specs, barriers, expected", [
    # attacker 2/2; (cost, atk, edr, rested)
    ([(1, 0, 5, False), (3, 2, 3, False)], 6, 1),  # (a) survives and kills, over (b) survives
    ([(3, 2, 3, False), (1, 3, 5, False)], 6, 1),  # two (a): the lowest cost
    ([(2, 2, 3, False), (2, 2, 3, False)], 6, 0),  # two (a) of one cost: the first in slot order
    ([(1, 2, 1, False), (3, 1, 3, False)], 6, 1),  # (b) survives (no kill) over (c) kills and dies
    ([(1, 2, 1, False)], 6, 0),  # (c) only
    ([(1, 0, 1, False)], 6, None),  # (d) dies without killing: not with 6 barriers
    ([(1, 0, 1, False)], 2, None),  # ... nor 2
    ([(1, 0, 1, False)], 1, 0),  # ... only with exactly 1 barrier left in all
    ([(1, 2, 3, True)], 6, None),  # a rested creature never blocks
])
def test_block_choice_categories(specs, barriers, expected):
    assert _chosen(specs, barriers=barriers) == expected


def test_block_choice_deadly_attacker_leaves_only_kill_and_die():
    # a Deadly 1/1 attacker kills anything; a blocker of ATK >= 1 kills it and dies (c), ATK 0 would be (d)
    cards = [creature("asp", atk=1, edr=1, keywords=["deadly"]), creature("big", cost=5, atk=0, edr=9),
             creature("small", cost=1, atk=1, edr=9)]
    game = game_of(cards)
    att = N.put_creature(game, 0, 0, fort=1)
    N.put_creature(game, 1, 1, fort=0)
    N.put_creature(game, 1, 2, fort=0)
    b = N.block_choice(game, game.players[1], 0, att, N.stats(game, game.players[0], att))
    assert b.card == 2


def test_assassin_attacks_a_rested_creature_of_its_colour_anywhere():
    cards = [creature("knight", cost=3, atk=3, edr=2, keywords=["assassin:green"]),
             creature("elf", colour="green", cost=3, atk=1, edr=2), creature("orc", cost=5, atk=1, edr=2)]
    game = game_of(cards)
    o = game.players[1]
    for f in range(3):
        N.put_shield(game, 1, f, f, 6)  # every fort attack scores 15
    elf = N.put_creature(game, 1, 1, fort=2, rested=True)
    N.put_creature(game, 1, 2, fort=1, rested=True)  # red: not a target
    knight = N.put_creature(game, 0, 0, fort=0)
    options = N.attack_options(game, *game.players, knight)
    assert [(o_.kind, o_.score) for o_ in options] == [("shield", 15)] * 3 + [("assassinate", 60)]
    N.combat_phase(game, *game.players)
    assert not N.on_board(o, elf) and o.discard == [1]
    assert knight.rested and knight.damage == 1 and N.on_board(game.players[0], knight)
    assert [d.value for d in o.dice] == [6, 6, 6]


def test_standing_creatures_are_no_assassin_targets():
    cards = [creature("knight", cost=3, atk=3, edr=2, keywords=["assassin:green"]),
             creature("elf", colour="green", cost=3, atk=1, edr=2)]
    game = game_of(cards)
    N.put_creature(game, 1, 1, fort=2)
    knight = N.put_creature(game, 0, 0, fort=0)
    assert all(o.kind != "assassinate" for o in N.attack_options(game, *game.players, knight))


def test_attack_order_by_effective_atk_and_damage_accumulates():
    # attackers 1/1 (fort 0) and 3/3 (fort 1): the 3/3 goes first and breaks the open fort's last barrier;
    # then only the fort with the 4/4 guard is left: the 1/1 would die without killing and stays standing
    cards = [creature("weak", atk=1, edr=1), creature("strong", atk=3, edr=3),
             creature("guard", atk=4, edr=4)]
    game = game_of(cards)
    o = game.players[1]
    o.barriers = [[0], [0, 0], []]
    N.put_creature(game, 1, 2, fort=1)
    weak = N.put_creature(game, 0, 0, fort=0)
    strong = N.put_creature(game, 0, 1, fort=1)
    N.combat_phase(game, *game.players)
    assert o.barriers == [[], [0, 0], []] and strong.rested and not weak.rested


@pytest.mark.parametrize("mode, later_attacks", [("return", True), ("discard", False)])
def test_an_attacker_whose_atk_is_now_0_is_skipped(mode, later_attacks):
    # "fed" is 0/1 with +1 ATK while a red die shows 5-6: the die crosses "crossed" (3/2), which attacks
    # first and dies against a cost-5 2/3 blocker (category c, score 20); under DG-cross-die=discard its die
    # is gone, "fed" has ATK 0 when its turn comes and is skipped (it stays standing)
    cond = DiceCondition("red", 5, 6, atk=1)
    cards = [creature("crossed", cost=2, atk=2, edr=1), creature("fed", atk=0, edr=1, dice=[cond]),
             creature("blocker", cost=5, atk=2, edr=3)]
    game = game_of(cards, cross_die=mode)
    only_fort(game, 1, 0)
    crossed = N.put_creature(game, 0, 0, fort=0)
    fed = N.put_creature(game, 0, 1, fort=1)
    N.put_cross(game, 0, 0, crossed, 5)
    N.put_creature(game, 1, 2, fort=0)
    assert N.stats(game, game.players[0], fed).atk == 1
    N.combat_phase(game, *game.players)
    assert not N.on_board(game.players[0], crossed) and game.players[1].board[0] == [None, None]
    assert fed.rested is later_attacks
    assert N.total_barriers(game.players[1]) == (1 if later_attacks else 2)


def test_destroyed_forts_are_no_options_and_the_game_ends_at_the_end_phase():
    game = game_of([creature("a", atk=2, edr=2)])
    o = game.players[1]
    only_fort(game, 1, 2)
    o.barriers[2] = [0]
    N.put_creature(game, 0, 0, fort=0)
    N.put_creature(game, 0, 0, fort=1)
    N.combat_phase(game, *game.players)
    assert N.total_barriers(o) == 0
    assert N.end_phase(game, *game.players) is True


# --- dragocross, DICE X-Y and destruction (spec "Cards", step 7) ---------------------------------------


def test_effective_stats_of_a_dragocross_with_colour_and_white_bonuses():
    c = creature("hound", atk=3, edr=4, cross=[CrossBonus("red", atk=1, keywords=(Keyword("deadly"),)),
                                               CrossBonus("white", edr=2)])
    game = game_of([c])
    h = N.put_creature(game, 0, 0, fort=0)
    p = game.players[0]
    assert N.stats(game, p, h)[:3] == (3, 4, False)
    N.put_cross(game, 0, 0, h, 2)  # die 0 is red
    assert N.stats(game, p, h)[:3] == (5, 7, True)
    h.cross.creature = None
    h.cross = None
    N.put_cross(game, 0, 1, h, 2)  # die 1 is green: +1/+1 and the white bonus only
    assert N.stats(game, p, h)[:3] == (4, 7, False)


@pytest.mark.parametrize("where, any_, unassigned", [
    ("zone", True, True), ("shield", True, False), ("cross", True, False), ("discarded", False, False)])
def test_dice_conditions_count_dice_per_ruling(where, any_, unassigned):
    cond = DiceCondition("red", 5, 6, atk=2, keywords=(Keyword("invade", "green"),))
    cards = [creature("raider", atk=2, edr=1, dice=[cond]), creature("other")]
    for mode, expected in (("any", any_), ("unassigned", unassigned)):
        game = game_of(cards, condition_dice=mode)
        r = N.put_creature(game, 0, 0, fort=0)
        die = game.players[0].dice[0]  # red
        if where == "zone":
            die.value = 5
        elif where == "shield":
            N.put_shield(game, 0, 0, 0, 5)
        elif where == "cross":
            N.put_cross(game, 0, 0, N.put_creature(game, 0, 1, fort=1), 6)
        else:
            die.value, die.where = 5, N.GONE
        s = N.stats(game, game.players[0], r)
        assert (s.atk == 4 and s.invade == {"green"}) is expected, (mode, where)
        assert (s.atk == 2) is (not expected)


def test_dice_condition_value_range_and_white():
    cards = [creature("w", atk=1, edr=1, dice=[DiceCondition("white", 6, 6, edr=3)])]
    game = game_of(cards)
    w = N.put_creature(game, 0, 0, fort=0)
    dice = game.players[0].dice
    dice[0].value, dice[1].value, dice[2].value = 5, 4, 1
    assert N.stats(game, game.players[0], w).edr == 1
    dice[2].value = 6  # a green die: white means any colour (line 282)
    assert N.stats(game, game.players[0], w).edr == 4
    # a damaged shield counts at its current value under DG-condition-dice=any (spec "Cards")
    N.put_shield(game, 0, 2, 1, 6)
    assert N.stats(game, game.players[0], w).edr == 4
    dice[2].value = 3
    assert N.stats(game, game.players[0], w).edr == 1


@pytest.mark.parametrize("mode", ["return", "discard"])
def test_cross_die_of_a_destroyed_creature(mode):
    # a 1/1 crossed (2/2) attacks the only fort; a cost-3 2/2 blocker kills it and dies (category c; the
    # attack scores 20): both are destroyed, and the attacker's dragocross die follows DG-cross-die
    cards = [creature("a", atk=1, edr=1), creature("wall", atk=2, edr=2, cost=3)]
    game = game_of(cards, cross_die=mode)
    only_fort(game, 1, 0)
    a = N.put_creature(game, 0, 0, fort=0)
    die = N.put_cross(game, 0, 0, a, 4)
    wall = N.put_creature(game, 1, 1, fort=0)
    N.combat_phase(game, *game.players)
    p = game.players[0]
    assert not N.on_board(p, a) and not N.on_board(game.players[1], wall) and a.cross is None
    if mode == "return":
        assert die.where == N.ZONE and die.value == 4 and p.dice_lost == 0  # at its value
    else:
        assert die.where == N.GONE and p.dice_lost == 1


def test_destruction_is_repeated_when_a_discarded_die_ends_a_condition():
    # a creature whose EDR comes from a DICE X-Y met only by a dragocross die: when the crossed creature
    # dies and its die is discarded (DG-cross-die=discard), the other one has damage >= EDR and dies too
    cond = DiceCondition("red", 4, 6, edr=3)
    cards = [creature("crossed", atk=1, edr=1), creature("fed", atk=1, edr=1, dice=[cond])]
    for mode, fed_dies in (("discard", True), ("return", False)):
        game = game_of(cards, cross_die=mode)
        crossed = N.put_creature(game, 0, 0, fort=0)
        fed = N.put_creature(game, 0, 1, fort=1)
        N.put_cross(game, 0, 0, crossed, 5)
        crossed.damage, fed.damage = 2, 1
        N.destroy_dead(game)
        assert not N.on_board(game.players[0], crossed)
        assert N.on_board(game.players[0], fed) is not fed_dies, mode


# --- end phase (spec step 8, lines 251-257) -------------------------------------------------------------


@pytest.mark.parametrize("persist, expected", [(True, 2), (False, 5)])
def test_shield_persist(persist, expected):
    game = game_of([creature("a", atk=3, edr=3)], shield_persist=persist)
    only_fort(game, 1, 0)
    shield = N.put_shield(game, 1, 0, 0, 5)
    N.put_creature(game, 0, 0, fort=0)
    N.combat_phase(game, *game.players)
    assert shield.value == 2
    N.end_phase(game, *game.players)
    assert shield.value == expected


def test_end_phase_removes_damage_on_every_creature():
    game = game_of([creature("a", atk=1, edr=9)])
    mine = N.put_creature(game, 0, 0, fort=0, damage=3)
    theirs = N.put_creature(game, 1, 0, fort=0, damage=4)
    assert N.end_phase(game, *game.players) is False
    assert mine.damage == theirs.damage == 0


def test_discard_to_seven_order():
    cards = [spell("s0"), spell("s1", cost=None), creature("dash", cost=None), creature("c1", cost=1),
             creature("c5a", cost=5), creature("c5b", cost=5), creature("c2", cost=2), creature("c3", cost=3),
             creature("c1b", cost=1), creature("c4", cost=4)]
    game = game_of(cards)
    p = game.players[0]
    p.hand = list(range(10))
    N.end_phase(game, *game.players)
    assert p.discard == [1, 0, 2]  # spells (highest index first), then the "-" creature
    assert sorted(p.hand) == list(range(3, 10))
    p.hand += [0, 3]  # 9 cards: the spell, then the costliest creature (ties: the higher index)
    p.discard = []
    N.end_phase(game, *game.players)
    assert p.discard == [0, 5]
    p.hand += [6]
    p.discard = []
    N.end_phase(game, *game.players)
    assert p.discard == [4] and len(p.hand) == 7
    p.hand = p.hand[:5]
    N.end_phase(game, *game.players)
    assert len(p.hand) == 5  # fewer than 8: nothing discarded


# --- draw, resources, summons (spec steps 3-5) ----------------------------------------------------------


def test_deck_out_loss_at_the_draw():
    game = game_of([spell("s")], turn=0)
    game.players[1].deck = [0] * 5
    assert N.play_turn(game) is True
    assert (game.winner, game.end, game.turn) == (1, "deck-out", 1)
    assert N.record(game)["winner"] == 1 and N.record(game)["end"] == "deck-out"


def test_the_last_card_is_drawn_without_losing():
    game = game_of([spell("s")], turn=0)
    game.players[0].deck = [0]
    game.players[0].resource_target = 9
    assert N.play_turn(game) is False
    assert game.players[0].hand == [0] and game.players[0].deck == []
    # the second player's deck is empty at its draw: it loses on game turn 2
    assert N.play_turn(game) is True and (game.winner, game.turn) == (0, 2)


def test_resource_step():
    cards = [creature("g", colour="green"), creature("r", colour="red")]
    game = game_of(cards, turn=1)
    p = game.players[0]
    p.deck, p.resource_target = [0, 1, 1], 5
    N.resource_step(game, p)
    assert p.resources == RGG and p.deck == [0, 1, 1]  # the first player's first turn: skipped
    game.turn = 2
    N.resource_step(game, p)
    assert p.resources == [*RGG, "red"] and p.rested[-1] is False
    game.turn = 3
    N.resource_step(game, p)
    assert p.resources == [*RGG, "red", "red"] and p.deck == [0]
    game.turn = 4
    N.resource_step(game, p)  # 5 resources: the target is reached
    assert len(p.resources) == 5 and p.deck == [0]


def test_resource_target_is_the_decks_costliest_playable_creature():
    cards = [creature("c2", cost=2), creature("dash", cost=None), spell("big", cost=9),
             creature("c6", cost=6)]
    game = game_of(cards)
    rng = random.Random(1)
    assert N.setup_player(game, 0, [0] * 20 + [1] * 10 + [2] * 10 + [3], RGG, rng).resource_target == 6
    assert N.setup_player(game, 0, [0] * 20 + [1] * 10 + [2] * 10, RGG, rng).resource_target == 2
    zero = [creature("z", cost=0), spell("s")]
    game = game_of(zero)
    assert N.setup_player(game, 0, [0] * 20 + [1] * 20, RGG, rng).resource_target == 1


def test_summon_the_costliest_payable_and_pay_by_colour():
    # resources red, green, green; hand: green 3-cost, red 3-cost 2/2, red 3-cost 3/3, red 1-cost
    cards = [creature("g3", colour="green", cost=3, atk=1, edr=1), creature("r3a", cost=3, atk=2, edr=2),
             creature("r3b", cost=3, atk=3, edr=3), creature("r1", cost=1)]
    game = game_of(cards)
    p = game.players[0]
    p.hand = [3, 0, 1, 2]
    N.summon_step(game, p)
    assert [c.card for c in N.creatures(p)] == [2]  # costliest, ties the higher base ATK + EDR
    assert p.rested == [True, True, True] and p.hand == [3, 0, 1]
    # a second turn with one red and two green resources but the red one rested: no red creature payable
    p.rested = [True, False, False]
    N.summon_step(game, p)
    assert [c.card for c in N.creatures(p)] == [2] and p.rested == [True, False, False]
    p.rested = [False, False, False]
    p.resources = ["red", "green", "green", "red", "red"]
    p.rested = [False] * 5
    p.hand = [0, 3]
    N.summon_step(game, p)  # g3: one green, then red (3 unrested) beats green (1); then r1 with the last red
    assert p.rested == [True, True, False, True, True]
    assert Counter(c for c, r in zip(p.resources, p.rested, strict=True) if not r) == Counter({"green": 1})
    assert p.hand == [] and p.summoned == 3


def test_payment_ties_go_to_the_lower_colour_index():
    cards = [creature("r3", cost=3)]
    game = game_of(cards)
    p = game.players[0]
    p.resources = ["red", "red", "green", "green"]
    p.rested = [False] * 4
    N.pay(game, p, cards[0])  # red first; then red 1 / green 2 -> green; then green 1 / red 1 -> green
    assert p.rested == [True, False, True, True]


def test_cost_zero_needs_no_resource():
    cards = [creature("free", colour="green", cost=0)]
    game = game_of(cards)
    p = game.players[0]
    p.resources, p.rested = [], []
    p.hand = [0, 0]
    N.summon_step(game, p)
    assert len(N.creatures(p)) == 2


def test_placement_fewest_creatures_then_fewer_barriers_then_destroyed_forts():
    cards = [creature("c")]
    game = game_of(cards)
    p = game.players[0]
    p.barriers = [[0, 0], [0], []]
    assert N.opening(p) == (1, 0)  # fort 2 destroyed; forts 0 and 1 empty: fewer barriers
    N.put_creature(game, 0, 0, fort=1)
    assert N.opening(p) == (0, 0)
    N.put_creature(game, 0, 0, fort=0)
    assert N.opening(p) == (1, 1)  # ties on creatures: fewer barriers
    N.put_creature(game, 0, 0, fort=1)
    N.put_creature(game, 0, 0, fort=0)
    assert N.opening(p) == (2, 0)  # no fort with barriers has an opening: the destroyed one
    p.board[0][0] = None
    assert N.opening(p) == (0, 0)


@pytest.mark.parametrize("cross_mode", ["return", "discard"])
def test_summoning_into_a_full_board(cross_mode):
    cards = [creature("w1", atk=1, edr=2), creature("w2", atk=2, edr=1), creature("mid", atk=2, edr=2),
             creature("strong", cost=2, atk=3, edr=3), creature("same", cost=2, atk=2, edr=1)]
    game = game_of(cards, cross_die=cross_mode)
    p = game.players[0]
    for f in range(3):
        N.put_creature(game, 0, 2, fort=f)
        N.put_creature(game, 0, 2, fort=f)
    p.board[1][1] = None
    w1 = N.put_creature(game, 0, 0, fort=1, slot=1)  # base 3, first in fort, slot order of the two 3s
    p.board[2][0] = None
    N.put_creature(game, 0, 1, fort=2, slot=0)  # base 3 too
    die = N.put_cross(game, 0, 0, w1, 5)
    p.resources, p.rested = ["red"] * 5, [False] * 5
    p.hand = [4, 3]
    N.summon_step(game, p)
    assert p.board[1][1].card == 3 and p.discard == [0]  # not destroyed: the discard pile (line 205)
    if cross_mode == "return":
        assert die.where == N.ZONE and die.value == 5 and p.dice_lost == 0
    else:
        assert die.where == N.GONE and p.dice_lost == 1
    # "same" (base 3) does not exceed the weakest left (w2, base 3): summoning stops, unpaid, in hand
    assert p.hand == [4] and p.summoned == 1
    assert p.rested == [True, True, False, False, False]


def test_summoning_sickness():
    cards = [creature("a", atk=2, edr=2)]
    for sick, broken in ((False, 1), (True, 0)):
        game = game_of(cards, summoning_sickness=sick, turn=5)
        N.put_creature(game, 0, 0, fort=0, summoned_turn=5)
        N.combat_phase(game, *game.players)
        assert 6 - N.total_barriers(game.players[1]) == broken
        N.put_creature(game, 0, 0, fort=1, summoned_turn=3)
        N.combat_phase(game, *game.players)
        assert 6 - N.total_barriers(game.players[1]) == broken + 1


def test_stand_step_stands_creatures_and_resources_of_the_active_player_only():
    game = game_of([creature("a")])
    mine = N.put_creature(game, 0, 0, fort=0, rested=True)
    theirs = N.put_creature(game, 1, 0, fort=0, rested=True)
    p0, p1 = game.players
    p0.rested = [True, True, False]
    p1.rested = [True, True, True]
    N.stand_step(game, p0)
    assert not mine.rested and p0.rested == [False, False, False]
    assert theirs.rested and p1.rested == [True, True, True]


# --- dice (spec steps 2 and 6) --------------------------------------------------------------------------


def test_assign_dice_shield_cross_and_order():
    cards = [creature("a", atk=1, edr=1)]
    game = game_of(cards)
    p = game.players[0]
    p.banners = p.resources = ["red", "red", "green"]
    p.dice = [N.Die(i, c) for i, c in enumerate(p.banners)]
    p.barriers = [[0, 0], [0], [0, 0]]
    a = N.put_creature(game, 0, 0, fort=0)
    p.dice[0].value, p.dice[1].value, p.dice[2].value = 2, 5, 1
    N.assign_dice(game, p)
    # red 5 first: the red fort with fewer barriers (1); red 2: < 3 and a cross candidate: crosses a;
    # green 1: no cross candidate left: a shield of 1
    assert (p.dice[1].where, p.dice[1].fort) == (N.SHIELD, 1)
    assert p.dice[0].where == N.CROSS and a.cross is p.dice[0]
    assert (p.dice[2].where, p.dice[2].fort, p.dice[2].value) == (N.SHIELD, 2, 1)


@pytest.mark.parametrize("value, where", [(3, N.SHIELD), (2, N.CROSS)])
def test_a_die_showing_shield_min_or_more_shields_even_with_a_cross_candidate(value, where):
    game = game_of([creature("a")])
    p = game.players[0]
    N.put_creature(game, 0, 0, fort=0)
    die = p.dice[0]  # red: fort 0
    die.value = value
    p.dice = [die]
    N.assign_dice(game, p)
    assert die.where == where and N.SHIELD_MIN == 3


def test_assign_dice_ties_by_die_index_and_no_candidate_stays():
    game = game_of([creature("a")])
    p = game.players[0]
    p.barriers = [[0], [0], [0]]
    d = p.dice
    d[0].value, d[1].value, d[2].value = 4, 4, 4  # red, green, green; green forts 1 and 2, red fort 0
    N.assign_dice(game, p)
    assert [(x.where, x.fort) for x in d] == [(N.SHIELD, 0), (N.SHIELD, 1), (N.SHIELD, 2)]
    game = game_of([creature("a")])
    p = game.players[0]
    p.barriers = [[], [0], []]
    d = p.dice
    d[0].value, d[1].value, d[2].value = 6, 2, 3  # red: no red fort with barriers, no creature
    N.assign_dice(game, p)
    assert d[0].where == N.ZONE
    assert (d[2].where, d[2].fort) == (N.SHIELD, 1)  # 3 before 2: green fort 1
    assert d[1].where == N.ZONE  # green fort 1 has its shield; fort 2 destroyed


def test_cross_candidate_gain():
    deadly_red = CrossBonus("red", keywords=(Keyword("deadly"),))
    cards = [creature("big", atk=4, edr=4), creature("hound", atk=1, edr=1, cross=[deadly_red]),
             creature("sprite", colour="green", atk=0, edr=2, cross=[CrossBonus("green", atk=1, edr=1)])]
    game = game_of(cards)
    p = game.players[0]
    big = N.put_creature(game, 0, 0, fort=0)
    hound = N.put_creature(game, 0, 1, fort=1)
    sprite = N.put_creature(game, 0, 2, fort=2)
    assert [N.cross_gain(game, c, "red") for c in (big, hound, sprite)] == [2, 4, 2]
    assert [N.cross_gain(game, c, "green") for c in (big, hound, sprite)] == [2, 2, 4]
    assert N.cross_candidate(game, p, p.dice[0]) is hound  # red
    assert N.cross_candidate(game, p, p.dice[1]) is sprite  # green
    sprite.cross = hound.cross = p.dice[2]
    assert N.cross_candidate(game, p, p.dice[0]) is big
    sprite.cross = hound.cross = None
    game.cards[2] = creature("sprite", colour="green", atk=0, edr=2)
    game.cards[1] = creature("hound", atk=1, edr=1)
    assert N.cross_candidate(game, p, p.dice[0]) is big  # all gain 2: the higher base ATK


@pytest.mark.parametrize("stack, expected", [("one", [N.SHIELD, N.CROSS, N.ZONE]),
                                             ("stack", [N.SHIELD, N.SHIELD, N.SHIELD])])
def test_shield_stack(stack, expected):
    cards = [creature("a", atk=1, edr=1)]
    game = game_of(cards, banners0=["red", "red", "red"], shield_stack=stack)
    p = game.players[0]
    p.barriers = [[0, 0], [], []]
    N.put_creature(game, 0, 0, fort=0)
    for die, value in zip(p.dice, (6, 5, 4), strict=True):
        die.value = value
    N.assign_dice(game, p)
    assert [d.where for d in p.dice] == expected
    if stack == "stack":
        # the oldest blocks first
        assert p.shields[0] == p.dice
        game.cards.append(creature("b", atk=6, edr=6))
        b = N.put_creature(game, 1, 1, fort=0)
        N.combat_phase(game, game.players[1], p)  # player 1 attacks: only fort 0 of player 0 is left
        assert [d.where for d in p.dice] == [N.GONE, N.SHIELD, N.SHIELD] and b.rested
        assert N.total_barriers(p) == 2


def test_dice_step_modes():
    cards = [creature("a", atk=1, edr=1)]
    for mode in ("unassigned-only", "all-keep", "all-return"):
        game = game_of(cards, reroll_assigned=mode, die=100)
        p = game.players[0]
        a = N.put_creature(game, 0, 0, fort=0)
        shield = N.put_shield(game, 0, 0, 0, 50)
        shield.value = 10  # damaged
        cross = N.put_cross(game, 0, 1, a, 60)
        free = p.dice[2]
        free.value = 70
        game.rng = random.Random(4)
        expected_rng = random.Random(4)
        N.dice_step(game, p, game.rng)
        if mode == "unassigned-only":
            assert (shield.value, shield.base, cross.value) == (10, 50, 60)
            assert free.value == N.roll(expected_rng, 100)
        elif mode == "all-keep":
            rolls = [N.roll(expected_rng, 100) for _ in range(3)]
            assert (shield.value, shield.base, shield.where) == (rolls[0], rolls[0], N.SHIELD)
            assert (cross.value, cross.where, a.cross) == (rolls[1], N.CROSS, cross)
            assert free.value == rolls[2]
        else:
            assert [d.where for d in p.dice] == [N.ZONE] * 3
            assert p.shields == [[], [], []] and a.cross is None
            assert [d.value for d in p.dice] == [N.roll(expected_rng, 100) for _ in range(3)]


def test_discarded_dice_are_never_rolled():
    game = game_of([creature("a")], reroll_assigned="all-return")
    p = game.players[0]
    p.dice[0].where, p.dice[0].value = N.GONE, -2
    N.dice_step(game, p, random.Random(0))
    assert p.dice[0].where == N.GONE and p.dice[0].value == -2


def test_die_faces_are_uniform():
    rng = random.Random(7)
    counts = Counter(N.roll(rng, 6) for _ in range(60000))
    assert sorted(counts) == [1, 2, 3, 4, 5, 6]
    chi2 = sum((n - 10000) ** 2 / 10000 for n in counts.values())
    assert chi2 < 25  # 5 degrees of freedom: p ~ 1e-4


# --- the first turn (DG-first-turn) ---------------------------------------------------------------------


@pytest.mark.parametrize("ruling, losses", [
    # barriers each player has lost after game turns 1, 2, 3 (player 0 first; one 1/1 creature each)
    ("game-turn-1", [(0, 0), (1, 0), (1, 1)]),
    ("each-player-first", [(0, 0), (0, 0), (0, 1)]),
])
def test_first_turn_ruling(ruling, losses):
    cards = [creature("a", atk=1, edr=1), spell("s", cost=9)]
    game = game_of(cards, turn=0, first_turn=ruling)
    for p in game.players:
        p.deck = [1] * 10
        p.dice = []
        p.barriers = [[1, 1] for _ in range(N.FORTS)]  # spells: a broken barrier is never summoned
    N.put_creature(game, 0, 0, fort=0)
    N.put_creature(game, 1, 0, fort=0, rested=True)  # stands at its owner's Stand Step
    got = []
    for _ in range(3):
        assert N.play_turn(game) is False
        got.append(tuple(6 - N.total_barriers(p) for p in game.players))
    assert got == losses


def test_combat_allowed():
    game = game_of([creature("a")], turn=1)
    p0, p1 = game.players
    p0.turns_taken = 1
    assert not N.combat_allowed(game, p0)
    game.turn, p1.turns_taken = 2, 1
    assert N.combat_allowed(game, p1)
    game.rulings = rulings(first_turn="each-player-first")
    assert not N.combat_allowed(game, p1)
    game.turn, p0.turns_taken = 3, 2
    assert N.combat_allowed(game, p0)


# --- setup (spec setup 1-4) ------------------------------------------------------------------------------


def test_setup_counts_and_forts():
    cat = catalog.load()
    red, green = cat.deck("red-blaze"), cat.deck("green-grove")
    cards, colours = N.table_for(cat, [red, green])
    deck = N.deck_indices(red, cards)
    game = N.Game(cards, colours, R(), [], 0)
    for seed in range(20):
        p = N.setup_player(game, 0, deck, list(red.banners), random.Random(seed))
        assert len(p.hand) == 5 and len(p.deck) == 39 and [len(b) for b in p.barriers] == [2, 2, 2]
        assert Counter(p.hand + p.deck + sum(p.barriers, [])) == Counter(deck)
        assert [d.colour for d in p.dice] == p.fort_colours == ["red", "red", "green"]
        assert p.resources == ["red", "red", "green"] and p.resource_target == 5
        assert all(d.where == N.ZONE and d.value == 0 for d in p.dice)


def test_mulligan_keeps_cheap_creatures_and_redraws_the_rest():
    cards = [creature("c1", cost=1), creature("c3", cost=3), creature("c4", cost=4), spell("s"),
             creature("dash", cost=None)]
    game = game_of(cards)
    for seed in range(50):
        p = N.Player(0, RGG)
        p.deck = [0] * 10 + [3] * 10
        p.hand = [1, 2, 3, 4, 0]
        N.mulligan(game, p, random.Random(seed))
        assert len(p.hand) == 5 and p.hand[:2] == [1, 0]  # kept: cost 3 and cost 1
        assert Counter(p.hand + p.deck) == Counter({0: 11, 3: 11, 1: 1, 2: 1, 4: 1})
    p = N.Player(0, RGG)
    p.deck, p.hand = [2, 3, 4, 1, 0], [0, 1, 0, 1, 0]
    N.mulligan(game, p, random.Random(0))
    assert p.hand == [0, 1, 0, 1, 0] and p.deck == [2, 3, 4, 1, 0]  # nothing returned: untouched


def test_mulligan_probability_of_a_cheap_creature():
    # RULES.md §5: 22 of 50 cards cost <= 2 and the rest are returned: P(>= 1 cheap card after the
    # mulligan) = p + (1 - p) p, p = 1 - C(28, 5) / C(50, 5) = 0.953614; 0.997848 with the mulligan
    cards = [creature("c1", cost=1), spell("s")]
    game = game_of(cards)
    deck = [0] * 22 + [1] * 28
    rng = random.Random(11)
    n = 12000
    hits = sum(0 in N.setup_player(game, 0, deck, RGG, rng).hand for _ in range(n))
    p = 1 - math.comb(28, 5) / math.comb(50, 5)
    want = p + (1 - p) * p
    assert abs(want - 0.997848) < 1e-6
    se = math.sqrt(want * (1 - want) / n)
    assert abs(hits / n - want) < 5 * se, (hits / n, want)


def test_shuffle_is_uniform():
    rng = random.Random(3)
    counts = Counter()
    for _ in range(24000):
        items = [0, 1, 2, 3]
        N.shuffle(rng, items)
        counts[tuple(items)] += 1
    assert len(counts) == 24
    chi2 = sum((c - 1000) ** 2 / 1000 for c in counts.values())
    assert chi2 < 60  # 23 degrees of freedom: p ~ 4e-5


# --- whole games on the packaged decks ------------------------------------------------------------------


@pytest.fixture(scope="module")
def packaged():
    cat = catalog.load()
    return cat, cat.deck("red-blaze"), cat.deck("green-grove")


def check_records(records):
    for r in records:
        assert set(r) == {"winner", "first", "turns", "end", "barriers", "summoned", "dice_lost"}
        assert r["first"] in (0, 1)
        assert 3 <= r["turns"] <= N.MAX_TURNS  # no barrier win before turn 3 (at most 4 attacks on turn 2)
        assert r["end"] in ("barriers", "deck-out"), r  # no 50-card game reaches MAX_TURNS
        assert r["winner"] in (0, 1)
        loser = 1 - r["winner"]
        if r["end"] == "barriers":
            assert r["barriers"][loser] == 0 and r["barriers"][r["winner"]] > 0
            # the winner was the active player: turns of the first player are odd
            assert (r["turns"] % 2 == 1) == (r["winner"] == r["first"])
        else:
            assert r["turns"] >= 60 and min(r["barriers"]) > 0
            assert (r["turns"] % 2 == 1) == (loser == r["first"])
        assert all(0 <= x <= 6 for x in r["barriers"])
        assert all(0 <= x <= 3 for x in r["dice_lost"])
        assert all(x >= 0 for x in r["summoned"]) and sum(r["summoned"]) >= 1


def test_packaged_games_end_and_statistics(packaged):
    cat, red, green = packaged
    n = 1000
    records = N.play_games(cat, red, green, R(), n, seed=1)
    check_records(records)
    p_deck0 = sum(r["winner"] == 0 for r in records) / n
    p_first = sum(r["winner"] == r["first"] for r in records) / n
    turns = [r["turns"] for r in records]
    deck_out = sum(r["end"] == "deck-out" for r in records) / n
    print(f"\n{n} games red-blaze (0) v green-grove (1): P(deck 0 wins) {p_deck0:.3f}, P(first wins) "
          f"{p_first:.3f}, P(deck 0 first) {sum(r['first'] == 0 for r in records) / n:.3f}, mean turns "
          f"{statistics.mean(turns):.2f} (sd {statistics.pstdev(turns):.2f}, {min(turns)}-{max(turns)}), "
          f"deck-out {deck_out:.3f}")
    print("turns:", dict(sorted(Counter(turns).items())))
    # the first player is chosen with probability 1/2 (line 170)
    assert abs(sum(r["first"] == 0 for r in records) / n - 0.5) < 5 * math.sqrt(0.25 / n)
    # loose sanity (not the balance result): neither deck nor seat wins (almost) always
    assert 0.05 < p_deck0 < 0.95 and 0.05 < p_first < 0.95
    assert 4 <= statistics.mean(turns) <= 60
    assert len(set(turns)) >= 3  # a distribution, not one length


def test_same_seed_same_games_other_seed_other_games(packaged):
    cat, red, green = packaged
    a = N.play_games(cat, red, green, R(), 30, seed=5)
    assert a == N.play_games(cat, red, green, R(), 30, seed=5)
    assert a != N.play_games(cat, red, green, R(), 30, seed=6)
    # the decks swapped: deck 0 is green-grove now
    swapped = N.play_games(cat, green, red, R(), 200, seed=5)
    check_records(swapped)


def _ruling_values():
    """(key, value text) of every accepted value of every ruling but the default (DG-die: 2, 4, 20, 100)."""
    out = []
    for spec in R.specs():
        if spec.key == "DG-die":
            values = ["2", "4", "20", "100"]
        elif spec.accepted == "true|false":
            values = ["true", "false"]
        else:
            values = spec.accepted.split("|")
        out += [(spec.key, v) for v in values if spec.parse(v) != spec.default]
    return out


RULING_VALUES = _ruling_values()


def test_every_ruling_is_listed():
    keys = {k for k, _ in RULING_VALUES}
    assert keys == {s.key for s in R.specs()} == {
        "DG-die", "DG-reroll-assigned", "DG-shield-persist", "DG-condition-dice", "DG-shield-stack",
        "DG-cross-die", "DG-first-turn", "DG-fort-burst", "DG-summoning-sickness", "DG-move",
        "DG-spells"}


RULING_GAMES = 150


@pytest.fixture(scope="module")
def default_records(packaged):
    cat, red, green = packaged
    return N.play_games(cat, red, green, R(), RULING_GAMES, seed=2)


@pytest.mark.parametrize("key, value", RULING_VALUES, ids=[f"{k}={v}" for k, v in RULING_VALUES])
def test_every_ruling_value_runs_and_matters(packaged, default_records, key, value):
    cat, red, green = packaged
    n = RULING_GAMES
    ruled = R().with_assignments([f"{key}={value}"])
    assert getattr(ruled, R.spec(key).field) == R.spec(key).parse(value)
    records = N.play_games(cat, red, green, ruled, n, seed=2)
    check_records(records)
    if key == "DG-fort-burst":
        # Fort Burst is never played: both readings put every broken barrier in hand (spec "Cards")
        assert records == default_records
    else:
        # (DG-spells=removal against all: the pumps and ambushes are cast with what summoning leaves, spec
        # step 6b; Flame Ambusher, a cost-3 creature, is often still in hand with 2 resources left on an
        # early turn and set as an ambush: 277 of 1,500 games of seed 2 change)
        assert records != default_records
    print(f"\n{key}={value}: P(deck 0) {sum(r['winner'] == 0 for r in records) / n:.3f}, P(first) "
          f"{sum(r['winner'] == r['first'] for r in records) / n:.3f}, mean turns "
          f"{statistics.mean(r['turns'] for r in records):.2f}")


def test_a_draw_after_max_turns(monkeypatch, packaged):
    cat, red, green = packaged
    monkeypatch.setattr(N, "MAX_TURNS", 2)
    records = N.play_games(cat, red, green, R(), 20, seed=1)
    assert all(r["winner"] == 2 and r["end"] == "draw" and r["turns"] == 2 for r in records)
