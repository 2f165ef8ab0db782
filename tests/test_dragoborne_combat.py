"""Dragoborne's combat phase (rulesets.dragoborne.combat), one rule at a time, on hand-built boards whose
outcomes are derived by hand from game.py's spec (step 7) and the rulebook (lines 228-249, 306-321)."""

from __future__ import annotations

import pytest

from rulesets.dragoborne.catalog import CrossBonus, DiceCondition, Keyword
from rulesets.dragoborne.combat import (
    CROSS,
    DISCARDED,
    SHIELD,
    ZONE,
    Board,
    Creature,
    Die,
    Fort,
    Side,
    block_choice,
    combat,
    end_phase,
    options,
)
from rulesets.dragoborne.rules import DragoborneRulings

RULINGS = DragoborneRulings()


def cr(atk: int, edr: int, fort: int, colour: str = "green", cost: int = 0, **kw) -> Creature:
    return Creature(f"{atk}/{edr}", atk, edr, cost, colour, fort=fort, **kw)


def side(barriers=(2, 2, 2), colours=("green", "green", "red"), creatures=(), dice=(), shields=None) -> Side:
    """Three forts; ``shields`` {fort: value} puts a dragoshield there (a die of the fort's colour)."""
    dice = list(dice)
    forts = [Fort(c, b) for c, b in zip(colours, barriers, strict=True)]
    for f, value in (shields or {}).items():
        dice.append(Die(colours[f], value, SHIELD, value))
        forts[f].shields.append(len(dice) - 1)
    return Side(forts, list(creatures), dice)


def labels(result) -> list[tuple[str, str, int]]:
    return [(a.attacker, a.kind, a.fort) for a in result.attacks]


# --- attack order -------------------------------------------------------------------------------------------


def test_attack_order_by_effective_atk_then_fort_slot():
    # Effective ATK 3 (fort 0 slot 1), 3 (fort 1), 2 (fort 0 slot 0): ties go by fort, slot order.
    a, c, b = cr(2, 2, 0, "red"), cr(3, 3, 0, "red"), cr(3, 1, 1, "red")
    p = side(creatures=[a, c, b], colours=("red", "red", "green"))
    o = side()
    after, result = combat(Board(p, o), RULINGS)
    # C first: every fort unblocked at 100 - 2 = 98, the first listed (fort 0) taken; then B: fort 0 has 1
    # barrier left (99 beats 98); then A: fort 0 has none left, fort 1 is the first at 98.
    assert labels(result) == [("3/3@0s1", "unblocked", 0), ("3/1@1s0", "unblocked", 0),
                              ("2/2@0s0", "unblocked", 1)]
    assert result.barriers_broken == 3
    assert [f.barriers for f in after.o.forts] == [0, 1, 2]
    assert all(c.rested for c in after.p.creatures)  # attackers rest (line 230)
    assert not any(c.rested for c in p.creatures)  # the board given is left as it was


def test_dragocross_counts_in_the_order():
    # A 2/2 dragocrossed is 3/3 (line 217) and at fort 0 slot 0 it goes before the 3/3 at fort 1.
    a = cr(2, 2, 0, "red", cross=0)
    b = cr(3, 3, 1, "red")
    p = side(creatures=[a, b], dice=[Die("red", 1, CROSS)], colours=("red", "red", "green"))
    _, result = combat(Board(p, side()), RULINGS)
    assert [x.attacker for x in result.attacks] == ["2/2@0s0", "3/3@1s0"]
    assert result.attacks[0].atk == 3


def test_zero_atk_creature_never_attacks():
    # 0/5: an unblocked fort would score 98 > 0, but only creatures with effective ATK >= 1 attack.
    z = cr(0, 5, 0, "red")
    after, result = combat(Board(side(creatures=[z]), side()), RULINGS)
    assert result.attacks == [] and result.held_back == []
    assert not after.p.creatures[0].rested and result.barriers_broken == 0


# --- option scores ------------------------------------------------------------------------------------------


def _score(attacker: Creature, o: Side, kind: str, fort: int) -> int:
    board = Board(side(creatures=[attacker]), o)
    found = [x for x in options(board.p.creatures[0], board, RULINGS) if x.kind == kind and x.fort == fort]
    assert len(found) == 1, found
    return found[0].score


def test_scores_shield_and_unblocked():
    o = side(barriers=(2, 1, 2), shields={0: 3})
    assert _score(cr(3, 3, 0), o, "shield", 0) == 40  # ATK >= its value
    assert _score(cr(2, 3, 0), o, "shield", 0) == 15
    assert _score(cr(2, 3, 0), o, "unblocked", 1) == 99  # 100 - 1 barrier
    assert _score(cr(2, 3, 0), o, "unblocked", 2) == 98


@pytest.mark.parametrize(("attacker", "blocker", "barriers", "score"), [
    # kills and survives 50: only a blocker that dies without killing does that, which blocks (d) only when
    # O has exactly 1 barrier left in all
    ((3, 3, 0), (1, 2, 0), (1, 0, 0), 50),
    # kills and dies: 20 if the blocker's cost >= the attacker's, else -1
    ((3, 2, 2), (2, 3, 2), (2, 0, 0), 20),
    ((3, 2, 2), (2, 3, 1), (2, 0, 0), -1),
    # survives without killing: 10 (the blocker survives, category b)
    ((1, 3, 0), (0, 2, 0), (2, 0, 0), 10),
    # dies without killing: -10 (the blocker survives and kills, category a)
    ((2, 2, 0), (2, 3, 0), (2, 0, 0), -10),
])
def test_scores_block(attacker, blocker, barriers, score):
    a = cr(attacker[0], attacker[1], 0, cost=attacker[2])
    b = cr(blocker[0], blocker[1], 0, cost=blocker[2])
    assert _score(a, side(barriers=barriers, creatures=[b]), "block", 0) == score


@pytest.mark.parametrize(("attacker", "target", "score"), [
    ((3, 3, 3), (1, 2, 0), 60),  # kills and survives
    ((3, 3, 3), (3, 3, 3), 25),  # kills and dies, its cost >= the attacker's
    ((3, 3, 3), (3, 3, 2), -1),  # kills and dies, cheaper
    ((3, 3, 3), (1, 5, 9), -10),  # does not kill
])
def test_scores_assassinate(attacker, target, score):
    a = cr(*attacker[:2], 0, cost=attacker[2], keywords=(Keyword("assassin", colour="green"),))
    r = cr(*target[:2], 2, cost=target[2], rested=True)
    assert _score(a, side(creatures=[r]), "assassinate", 2) == score


def test_ties_take_the_first_listed_and_nothing_above_zero_holds_back():
    # Forts 0 and 2 both unblocked at 98: fort 0 (listed first).
    _, result = combat(Board(side(creatures=[cr(1, 1, 0)]), side(barriers=(2, 0, 2))), RULINGS)
    assert labels(result) == [("1/1@0s0", "unblocked", 0)]
    # The only fort with barriers has a blocker that survives and kills it (-10): it does not attack and
    # stays standing.
    after, result = combat(Board(side(creatures=[cr(2, 2, 0)]), side(barriers=(2, 0, 0),
                                                                      creatures=[cr(2, 3, 0)])), RULINGS)
    assert result.attacks == [] and result.held_back == ["2/2@0s0"]
    assert not after.p.creatures[0].rested


# --- the block choice ---------------------------------------------------------------------------------------


def _blocker(attacker: Creature, o: Side) -> str | None:
    board = Board(side(creatures=[attacker]), o)
    a = board.p.creatures[0]
    b = block_choice(a, board.p.stats(a, RULINGS), board, 0, RULINGS)
    return None if b is None else b.label


def test_block_categories_in_order():
    attacker = cr(2, 2, 0)  # deals 2, has EDR 2

    def survives_kills():  # (a)
        return cr(2, 3, 0, cost=5)

    def survives():  # (b)
        return cr(0, 3, 0, cost=1)

    def trades():  # (c)
        return cr(2, 2, 0, cost=0)

    def chump():  # (d)
        return cr(0, 1, 0, cost=0)

    assert _blocker(attacker, side(creatures=[survives(), survives_kills()])) == "2/3@0s1"
    assert _blocker(attacker, side(creatures=[trades(), survives()])) == "0/3@0s1"
    assert _blocker(attacker, side(creatures=[chump(), trades()])) == "2/2@0s1"
    # (d) only when O has exactly 1 barrier left in all
    assert _blocker(attacker, side(creatures=[chump()])) is None
    assert _blocker(attacker, side(barriers=(1, 0, 0), creatures=[chump()])) == "0/1@0s0"
    # a rested creature does not block (line 238: a standing creature)
    assert _blocker(attacker, side(creatures=[cr(2, 3, 0, rested=True)])) is None


def test_block_lowest_cost_then_slot():
    attacker = cr(1, 5, 0)
    assert _blocker(attacker, side(creatures=[cr(0, 3, 0, cost=2), cr(0, 3, 0, cost=1)])) == "0/3@0s1"
    assert _blocker(attacker, side(creatures=[cr(0, 3, 0, cost=1), cr(0, 4, 0, cost=1)])) == "0/3@0s0"


def test_last_barrier_chump_block_saves_the_fort():
    attacker = cr(3, 3, 0)
    o = side(barriers=(1, 0, 0), creatures=[cr(1, 1, 0)])
    after, result = combat(Board(side(creatures=[attacker]), o), RULINGS)
    assert labels(result) == [("3/3@0s0", "block", 0)] and result.attacks[0].score == 50
    assert result.barriers_broken == 0 and result.destroyed_o == 1 and after.o.creatures == []
    # with 2 barriers left the 1/1 does not block: the barrier breaks
    o = side(barriers=(2, 0, 0), creatures=[cr(1, 1, 0)])
    after, result = combat(Board(side(creatures=[cr(3, 3, 0)]), o), RULINGS)
    assert labels(result) == [("3/3@0s0", "unblocked", 0)] and result.barriers_broken == 1
    assert len(after.o.creatures) == 1 and not after.o.creatures[0].rested


# --- dragoshields -------------------------------------------------------------------------------------------


def test_shield_absorbs_then_breaks_and_its_die_is_discarded():
    # Fort 0 the only fort with barriers, a dragoshield 4. ATK 3: 4 -> 1 left (RULES.md §5). ATK 1 (fort 1):
    # 1 -> 0, destroyed, its die discarded, nothing reaches the fort. ATK 1 (fort 2): unblocked, a barrier.
    p = side(creatures=[cr(3, 3, 0), cr(1, 1, 1), cr(1, 1, 2)])
    o = side(barriers=(2, 0, 0), shields={0: 4})
    after, result = combat(Board(p, o), RULINGS)
    assert labels(result) == [("3/3@0s0", "shield", 0), ("1/1@1s0", "shield", 0), ("1/1@2s0", "unblocked", 0)]
    assert [a.score for a in result.attacks] == [15, 40, 98]  # 3 < 4; 1 >= 1; 100 - 2 barriers
    assert result.shields_destroyed == 1 and result.dice_lost_o == 1 and result.barriers_broken == 1
    assert after.o.dice[0].place == DISCARDED and after.o.forts[0].shields == []
    assert after.o.forts[0].barriers == 1
    assert [c.damage for c in after.p.creatures] == [0, 0, 0]  # a shield deals nothing (0/X, line 15)


def test_shield_partly_worn():
    p = side(creatures=[cr(3, 3, 0)])
    after, result = combat(Board(p, side(barriers=(2, 0, 0), shields={0: 4})), RULINGS)
    assert after.o.dice[0].value == 1 and after.o.dice[0].place == SHIELD and result.dice_lost_o == 0
    assert after.o.forts[0].barriers == 2


def test_shield_damage_persists_or_is_restored_at_the_end_phase():
    after, _ = combat(Board(side(creatures=[cr(3, 3, 0)]), side(barriers=(2, 0, 0), shields={0: 5})), RULINGS)
    keep = after.copy()
    end_phase(keep, RULINGS)
    assert keep.o.dice[0].value == 2  # DG-shield-persist=true
    end_phase(after, DragoborneRulings(shield_persist=False))
    assert after.o.dice[0].value == 5


# --- keywords -----------------------------------------------------------------------------------------------


def test_deadly_destroys_whatever_the_edr():
    # A 1/1 Deadly blocker against a 5/5: it dies and kills (c), so it blocks; both are destroyed.
    p = side(creatures=[cr(5, 5, 0, cost=1)])
    o = side(barriers=(2, 0, 0), creatures=[cr(1, 1, 0, cost=1, keywords=(Keyword("deadly"),))])
    after, result = combat(Board(p, o), RULINGS)
    assert labels(result) == [("5/5@0s0", "block", 0)] and result.attacks[0].score == 20
    assert result.destroyed_p == 1 and result.destroyed_o == 1
    assert after.p.creatures == [] and after.o.creatures == []


def test_deadly_with_zero_atk_deals_nothing():
    # A 0/9 Deadly deals no damage (line 312): it survives without killing (b); the 5/5 survives.
    p = side(creatures=[cr(5, 5, 0)])
    o = side(barriers=(2, 0, 0), creatures=[cr(0, 9, 0, keywords=(Keyword("deadly"),))])
    after, result = combat(Board(p, o), RULINGS)
    assert labels(result) == [("5/5@0s0", "block", 0)] and result.attacks[0].score == 10
    assert result.destroyed_p == 0 and after.p.creatures[0].damage == 0 and after.o.creatures[0].damage == 5


def test_invade_passes_creatures_but_not_a_shield():
    invader = cr(2, 2, 0, "red", keywords=(Keyword("invade", colour="green"),))
    o = side(barriers=(2, 0, 0), creatures=[cr(5, 5, 0)])
    after, result = combat(Board(side(creatures=[invader]), o), RULINGS)
    assert labels(result) == [("2/2@0s0", "unblocked", 0)] and result.barriers_broken == 1
    assert not after.o.creatures[0].rested
    # without Invade the 5/5 would block and kill it (-10): no attack
    _, result = combat(Board(side(creatures=[cr(2, 2, 0, "red")]), side(barriers=(2, 0, 0),
                                                                         creatures=[cr(5, 5, 0)])), RULINGS)
    assert result.attacks == []
    # a dragoshield still blocks an invader (line 238; Invade names creatures, lines 320-321)
    after, result = combat(Board(side(creatures=[invader]), side(barriers=(2, 0, 0),
                                                                    creatures=[cr(5, 5, 0)], shields={0: 3})),
                           RULINGS)
    assert labels(result) == [("2/2@0s0", "shield", 0)] and result.barriers_broken == 0
    assert after.o.dice[0].value == 1


def test_assassin_attacks_a_rested_creature_of_its_colour():
    # O: shields of 6 on forts 0 and 1 (score 15 each for ATK 3); at fort 2 (destroyed) a rested green 2/2
    # and a rested red 1/1. Assassin (green) takes the green one: kills and survives, 60.
    assassin = cr(3, 3, 0, "red", keywords=(Keyword("assassin", colour="green"),))
    o = side(barriers=(1, 1, 0), shields={0: 6, 1: 6},
             creatures=[cr(2, 2, 2, rested=True), cr(1, 1, 2, "red", rested=True)])
    after, result = combat(Board(side(creatures=[assassin]), o), RULINGS)
    assert labels(result) == [("3/3@0s0", "assassinate", 2)] and result.attacks[0].score == 60
    assert [c.label for c in after.o.creatures] == ["1/1@2s1"] and result.destroyed_o == 1
    assert after.p.creatures[0].damage == 2  # the assassinated creature deals damage back (line 308)


def test_assassin_ignores_standing_and_other_colours():
    assassin = cr(3, 3, 0, "red", keywords=(Keyword("assassin", colour="green"),))
    o = side(barriers=(1, 1, 0), shields={0: 6, 1: 6},
             creatures=[cr(2, 2, 2), cr(1, 1, 2, "red", rested=True)])
    board = Board(side(creatures=[assassin]), o)
    assert [x.kind for x in options(board.p.creatures[0], board, RULINGS)] == ["shield", "shield"]


# --- damage, destruction and dice ---------------------------------------------------------------------------


def test_damage_accumulates_within_the_turn():
    # O's fort 0 (the only one with barriers): B 0/4 (cost 0) and C 3/9 (cost 5), standing.
    # A1 2/5 attacks fort 0: B and C both survive without killing (b); the cheaper, B, blocks and takes 2.
    # A2 2/3 Assassin green: fort 0 is blocked by C, which survives and kills it (-10); B is rested with 2
    # damage, and 2 >= 4 - 2 kills it while B deals nothing back: 60. B is destroyed by 2 + 2 >= 4.
    a1 = cr(2, 5, 0, "red")
    a2 = cr(2, 3, 1, "red", keywords=(Keyword("assassin", colour="green"),))
    o = side(barriers=(2, 0, 0), creatures=[cr(0, 4, 0), cr(3, 9, 0, cost=5)])
    after, result = combat(Board(side(creatures=[a1, a2]), o), RULINGS)
    assert labels(result) == [("2/5@0s0", "block", 0), ("2/3@1s0", "assassinate", 0)]
    assert [a.score for a in result.attacks] == [10, 60]
    assert result.attacks[1].destroyed_o == ("0/4@0s0",)
    assert [c.label for c in after.o.creatures] == ["3/9@0s1"] and result.barriers_broken == 0


@pytest.mark.parametrize(("ruling", "place", "lost"), [("return", ZONE, 0), ("discard", DISCARDED, 1)])
def test_destroyed_creatures_die_per_dg_cross_die(ruling, place, lost):
    # P's 2/1 dragocrossed by die 0 (red, 5) is 3/2; O's 3/3 (cost 5) dies and kills it (c): it blocks, the
    # attacker scores 20 (cost 5 >= 0); both are destroyed and the die returns or is discarded.
    x = cr(2, 1, 0, "red", cross=0)
    p = side(creatures=[x], dice=[Die("red", 5, CROSS), Die("red", 0), Die("green", 0)])
    o = side(barriers=(2, 0, 0), creatures=[cr(3, 3, 0, cost=5)])
    after, result = combat(Board(p, o), DragoborneRulings(cross_die=ruling))
    assert labels(result) == [("2/1@0s0", "block", 0)] and result.attacks[0].score == 20
    assert result.destroyed_p == 1 and result.destroyed_o == 1
    assert after.p.dice[0].place == place and after.p.dice[0].value == 5
    assert result.dice_lost_p == lost


def test_a_die_leaving_ends_a_dice_condition_and_the_creature_is_destroyed():
    # O's 0/1 with DICE green 3-6 +0/+3 is 0/4 while O's green dragoshield (3) stands (DG-condition-dice=any
    # counts a shield at its current value); it took 2 damage earlier in the turn. P's ATK 3 destroys the
    # shield (40), the die is discarded, the condition ends: EDR 1 <= 2 damage, destroyed after the attack.
    e = cr(0, 1, 1, dice=(DiceCondition("green", 3, 6, edr=3),), damage=2)
    o = side(barriers=(1, 0, 0), creatures=[e], shields={0: 3})
    assert o.stats(o.creatures[0], RULINGS).edr == 4
    after, result = combat(Board(side(creatures=[cr(3, 3, 0, "red")]), o), RULINGS)
    assert labels(result) == [("3/3@0s0", "shield", 0)] and result.attacks[0].score == 40
    assert result.destroyed_o == 1 and after.o.creatures == []
    # under DG-condition-dice=unassigned the shield never counted: the 0/1 with 2 damage is not a valid board,
    # but a fresh one shows EDR 1
    assert o.stats(o.creatures[0], DragoborneRulings(condition_dice="unassigned")).edr == 1


def test_cross_bonus_colour_and_white():
    bonuses = (CrossBonus("red", atk=2), CrossBonus("white", edr=1, keywords=(Keyword("deadly"),)))
    c = cr(1, 1, 0, dragocross=bonuses, cross=0)
    s = side(creatures=[c], dice=[Die("red", 2, CROSS)])
    assert tuple(s.stats(s.creatures[0], RULINGS))[:3] == (4, 3, True)  # 1+1+2 / 1+1+1, Deadly from white
    s.dice[0].colour = "green"
    s.creatures[0]._crossed.clear()
    assert tuple(s.stats(s.creatures[0], RULINGS))[:3] == (2, 3, True)


def test_an_attacker_whose_atk_is_now_0_is_skipped():
    # P: Y 2/1 dragocrossed by its green die (5): 3/2, attacks first; X 0/3 with DICE green 4-6 +1/+0 has
    # ATK 1 while that die counts. O's fort 0 (its only fort with barriers) has a 3/3 (cost 5) that dies and
    # kills Y (c): Y scores 20, both are destroyed. DG-cross-die=discard: the green die is gone, X's ATK is 0
    # now and it is skipped (step 7); return: the die is back in the zone at 5, X attacks the open fort.
    def board():
        y = cr(2, 1, 0, "red", cross=0)
        x = cr(0, 3, 1, "green", dice=(DiceCondition("green", 4, 6, atk=1),))
        p = side(creatures=[y, x], dice=[Die("green", 5, CROSS), Die("red", 1), Die("red", 1)])
        return Board(p, side(barriers=(2, 0, 0), creatures=[cr(3, 3, 0, cost=5)]))

    after, result = combat(board(), DragoborneRulings(cross_die="discard"))
    assert labels(result) == [("2/1@0s0", "block", 0)] and result.held_back == []
    assert result.barriers_broken == 0 and not after.p.creatures[0].rested
    after, result = combat(board(), DragoborneRulings(cross_die="return"))
    assert labels(result) == [("2/1@0s0", "block", 0), ("0/3@1s0", "unblocked", 0)]
    assert result.barriers_broken == 1


# --- against the plain-Python twin (tests/naive_dragoborne.py, written from game.py alone) ---------------


def _twin_boards(rulings: DragoborneRulings, n: int, seed: int):
    """``n`` random mid-game boards built twice: as the twin's Game and as combat's Board."""
    import random

    import naive_dragoborne as N

    from rulesets.dragoborne import catalog as catalog_io

    cat = catalog_io.load()
    cards, colours = N.table_for(cat, list(cat.decks.values()))
    pool = [i for i, c in enumerate(cards) if c.is_creature and c.cost is not None]
    rng = random.Random(seed)
    for _ in range(n):
        banners = [[rng.choice(["red", "green"]) for _ in range(3)] for _ in range(2)]
        game = N.blank_game(cards, colours, banners[0], banners[1], rulings)
        game.turn = 5
        sides = []
        for owner in (0, 1):
            player = game.players[owner]
            barriers = [rng.randint(0, 2) for _ in range(3)]
            if sum(barriers) == 0:
                barriers[rng.randrange(3)] = 1
            player.barriers = [[0] * b for b in barriers]
            mine: list[Creature] = []
            for f in range(3):
                for slot in range(rng.randint(0, 2)):
                    card = cards[index := rng.choice(pool)]
                    rested = rng.random() < (0.2 if owner == 0 else 0.4)
                    damage = rng.randint(0, 1) if card.edr >= 2 else 0
                    new = owner == 0 and rng.random() < 0.2
                    twin = N.put_creature(game, owner, index, f, slot, rested=rested, damage=damage,
                                          summoned_turn=5 if new else 0)
                    mine.append(Creature(card.name, card.atk, card.edr, card.cost, card.colour, card.keywords,
                                         card.dragocross, card.dice, fort=f, slot=slot, damage=damage,
                                         rested=rested, new=new, card=card.key))
                    mine[-1].twin = twin
            forts = [Fort(c, b) for c, b in zip(banners[owner], barriers, strict=True)]
            dice = []
            for i, colour in enumerate(banners[owner]):
                value = rng.randint(1, rulings.die)
                choice = rng.random()
                shield_forts = [f for f in range(3) if banners[owner][f] == colour and barriers[f]
                                and (rulings.shield_stack == "stack" or not forts[f].shields)]
                free = [c for c in mine if c.cross is None]
                if choice < 0.4 and shield_forts:
                    f = rng.choice(shield_forts)
                    N.put_shield(game, owner, i, f, value)
                    forts[f].shields.append(i)
                    dice.append(Die(colour, value, SHIELD, value))
                elif choice < 0.7 and free:
                    c = rng.choice(free)
                    N.put_cross(game, owner, i, c.twin, value)
                    c.cross = i
                    dice.append(Die(colour, value, CROSS))
                elif choice < 0.8:
                    player.dice[i].where = N.GONE
                    dice.append(Die(colour, value, DISCARDED))
                else:
                    player.dice[i].value = value
                    dice.append(Die(colour, value, ZONE))
            sides.append(Side(forts, mine, dice))
        yield game, Board(*sides)


def _twin_state(player) -> tuple:
    import naive_dragoborne as N

    return ([len(b) for b in player.barriers], [[d.index for d in s] for s in player.shields],
            sorted((c.fort, c.slot, c.damage, c.rested) for c in N.creatures(player)),
            [(d.where, d.value if d.where != N.GONE else None) for d in player.dice])


def _our_state(side: Side) -> tuple:
    return ([f.barriers for f in side.forts], [list(f.shields) for f in side.forts],
            sorted((c.fort, c.slot, c.damage, c.rested) for c in side.creatures),
            [(d.place, d.value if d.place != DISCARDED else None) for d in side.dice])


@pytest.mark.parametrize("rulings", [
    DragoborneRulings(),
    DragoborneRulings(condition_dice="unassigned", cross_die="discard", summoning_sickness=True),
    DragoborneRulings(shield_stack="stack", die=4),
], ids=["defaults", "unassigned-discard-sickness", "stack-d4"])
def test_combat_agrees_with_the_plain_python_twin(rulings):
    import naive_dragoborne as N

    attacks = 0
    for game, board in _twin_boards(rulings, 400, seed=7):
        p, o = game.players
        N.combat_phase(game, p, o)
        after, result = combat(board, rulings)
        attacks += len(result.attacks)
        assert (_our_state(after.p), _our_state(after.o)) == (_twin_state(p), _twin_state(o))
    assert attacks > 400  # the boards do fight
