"""Dragoborne's dice assignment (rulesets.dragoborne.assign, reports.dragoborne.assign_tables and
reports.dragoborne.assign_cli): hand-derived values on tiny boards, a brute-force cross-check of the
enumeration and its shortcuts, the sums the fractions must meet, the board grammar, and the command through a
throwaway click group."""

from __future__ import annotations

import json
import sys
from fractions import Fraction
from itertools import product

import click
import pytest
from click.testing import CliRunner

from reports.dragoborne.assign_cli import roll_assign
from reports.dragoborne.assign_tables import assign_table
from rulesets.base import OptionError, RulesError
from rulesets.dragoborne.assign import (
    HELD,
    KEEP,
    analyse,
    assignments,
    cross_on,
    dice_step,
    parse_board,
    policy,
    shield_at,
)
from rulesets.dragoborne.combat import CROSS, DISCARDED, SHIELD, ZONE, end_phase, play_combat, stand
from rulesets.dragoborne.rules import DragoborneRulings

RULINGS = DragoborneRulings()
THEIRS_3 = ["green:2", "green:2", "green:2"]


def _rows(analysis):
    return {row.assignment: row for row in analysis.rows}


# --- hand-derived values ----------------------------------------------------------------------------------


def _one_die_board(rulings=RULINGS):
    # P: one red die (the two green ones lost), one barrier left (fort 0), no creature. O: a 3/3 (fort 0)
    # and a 2/2 (fort 1); they attack in O's turn, the 3/3 first (higher ATK).
    return parse_board(["red:1", "green:0", "green:0"], THEIRS_3, theirs=["3/3@0", "2/2@1"],
                       lost=["green", "green"], rulings=rulings)


def test_one_die_two_attackers_the_shield_value_exactly():
    # Zone: the 3/3 breaks P's last barrier (value -1, P loses); the 2/2 has no fort with barriers left.
    # Shield v: the 3/3 hits it (40 or 15, the only option); v <= 3 destroys it and the 2/2 then breaks the
    # barrier; v = 4, 5: 1 or 2 left, the 2/2 destroys it (40); v = 6: 3 left, the 2/2 leaves 1 (15). So
    # E[barriers lost] = 3/6, E[dice lost] = 5/6, value -1/2.
    a = analyse(_one_die_board(), RULINGS)
    rows = _rows(a)
    assert set(rows) == {(KEEP, HELD, HELD), (shield_at(0), HELD, HELD)}
    zone, shield = rows[(KEEP, HELD, HELD)], rows[(shield_at(0), HELD, HELD)]
    assert (zone.value, zone.lost, zone.dice_lost, zone.p_loss) == (-1, 1, 0, 1)
    assert (shield.value, shield.lost, shield.dice_lost, shield.p_loss) == (Fraction(-1, 2), Fraction(1, 2),
                                                                            Fraction(5, 6), Fraction(1, 2))
    assert shield.broken == 0 and shield.mine_destroyed == 0 and shield.theirs_destroyed == 0
    # After the roll: v <= 3 ties (-1 both, shared), v >= 4 the shield (0 > -1).
    assert a.best_after_roll == Fraction(-1, 2)
    assert (shield.p_best, zone.p_best) == (Fraction(3, 4), Fraction(1, 4))
    # Step 6: a shield candidate and no creature to dragocross: always the shield.
    assert (shield.p_policy, zone.p_policy) == (1, 0) and a.policy.value == Fraction(-1, 2)
    assert a.rolls == 6 and a.rolled == (0,)


def test_one_die_on_a_d8():
    # DG-die=8: v <= 3 loses the barrier (3/8); v = 4, 5 fall to the 2/2; v = 6..8 stand.
    rulings = DragoborneRulings(die=8)
    shield = _rows(analyse(_one_die_board(rulings), rulings))[(shield_at(0), HELD, HELD)]
    assert (shield.value, shield.dice_lost) == (Fraction(-3, 8), Fraction(5, 8))


def test_one_die_one_attacker_cross_or_shield():
    # P: a 2/2 at fort 0 (its last barrier), one red die. O: a 2/3 at its fort 0, O's only barrier.
    # Zone: the 2/2 would be blocked and killed by the 2/3 (survives and kills, -10): no attack. O's 2/3
    # attacks; P's 2/2 dies without killing but guards P's last barrier, so it blocks (d): destroyed.
    # Cross: a 3/3; the 2/3 dies without killing and it is O's last barrier, so it chump-blocks (50): O's
    # creature destroyed, O's turn has no attacker. Shield v: no attack by P; O's 2/3 hits the shield (P's
    # creature may not block it), destroying it when v <= 2.
    board = parse_board(["red:1", "green:0", "green:0"], ["green:1", "green:0", "green:0"], mine=["2/2@0"],
                        theirs=["2/3@0"], lost=["green", "green"])
    a = analyse(board, RULINGS)
    rows = _rows(a)
    zone, cross, shield = (rows[(t, HELD, HELD)] for t in (KEEP, cross_on(0), shield_at(0)))
    assert all(r.value == 0 and r.broken == 0 and r.lost == 0 for r in (zone, cross, shield))
    assert (zone.mine_destroyed, zone.theirs_destroyed, zone.dice_lost) == (1, 0, 0)
    assert (cross.mine_destroyed, cross.theirs_destroyed, cross.dice_lost) == (0, 1, 0)
    assert (shield.mine_destroyed, shield.theirs_destroyed, shield.dice_lost) == (0, 0, Fraction(1, 3))
    assert zone.p_best == cross.p_best == shield.p_best == Fraction(1, 3)  # always tied at 0
    # Step 6: v >= 3 the shield, else the dragocross (a cross candidate exists).
    assert (shield.p_policy, cross.p_policy, zone.p_policy) == (Fraction(2, 3), Fraction(1, 3), 0)
    assert a.policy.dice_lost == 0 and a.policy.theirs_destroyed == Fraction(1, 3)


def test_o_loses_at_the_end_of_p_turn():
    # O has one barrier left and nothing to guard it: P's 1/1 breaks it, O loses, O's turn never comes.
    board = parse_board(["red:2", "red:2", "green:2"], ["green:1", "green:0", "green:0"], mine=["1/1@0"],
                        theirs=["5/5@1"])
    a = analyse(board, RULINGS)
    keep = _rows(a)[(KEEP, KEEP, KEEP)]
    assert (keep.broken, keep.lost, keep.p_win, keep.value) == (1, 0, 1, 1)


# --- a brute-force cross-check -----------------------------------------------------------------------------


def _brute(board, rulings):
    """Every assignment against every roll, each played from scratch with combat's functions only."""
    base, rolled = dice_step(board, rulings)
    out = {}
    faces = range(1, rulings.die + 1)
    for combo in assignments(base, rulings):
        sums = [0] * 6
        rolls = list(product(faces, repeat=len(rolled)))
        for roll in rolls:
            b = base.copy()
            for i, v in zip(rolled, roll, strict=True):
                b.p.dice[i].value = v
                if b.p.dice[i].place == SHIELD:
                    b.p.dice[i].assigned = v
            for i in sorted(rolled, key=lambda i: (-b.p.dice[i].value, i)):
                if combo[i][0] == "shield":
                    b.p.dice[i].place, b.p.dice[i].assigned = SHIELD, b.p.dice[i].value
                    b.p.forts[combo[i][1]].shields.append(i)
                elif combo[i][0] == "cross":
                    b.p.dice[i].place = CROSS
                    b.p.creatures[combo[i][1]].cross = i
            first = play_combat(b, rulings)
            end_phase(b, rulings)
            sums[0] += first.barriers_broken
            sums[2] += first.destroyed_p
            sums[3] += first.destroyed_o
            sums[4] += first.dice_lost_p
            if b.o.barriers == 0:
                sums[5] += 1
                continue
            stand(b.o)
            second = play_combat(b.swapped(), rulings)
            sums[1] += second.barriers_broken
            sums[2] += second.destroyed_o
            sums[3] += second.destroyed_p
            sums[4] += second.dice_lost_o
        n = len(rolls)
        out[combo] = tuple(Fraction(s, n) for s in sums)
    return out


def _brute_board(faces: int = 6) -> dict:
    """Two red dice and a green one, DICE X-Y on both sides (the top two faces for P's), a held shield."""
    return dict(
        forts=["red:2", "red:1", "green:2"], their_forts=["green:1:2", "red:2", "green:2"],
        mine=[f"2/2@0,dice=red:{faces - 1}-{faces}:+1/+0", "1/3@2,cross-green=+1/+0,cross-white=deadly"],
        theirs=["2/2@1", "1/2@2,rested", "0/4@0,dice=green:1-3:+2/+0"], their_dice=["red:3"])


BRUTE_BOARD = _brute_board()


@pytest.mark.parametrize("rulings", [
    RULINGS,
    DragoborneRulings(die=4, condition_dice="unassigned", shield_persist=False, cross_die="discard"),
    DragoborneRulings(die=3, shield_stack="stack"),
], ids=["defaults", "d4-unassigned-nopersist-discard", "d3-stack"])
def test_brute_force_agrees(rulings):
    board = parse_board(**_brute_board(rulings.die), rulings=rulings)
    a = analyse(board, rulings)
    brute = _brute(board, rulings)
    assert len(a.rows) == len(brute) > 20
    for row in a.rows:
        want = brute[row.assignment]
        assert (row.broken, row.lost, row.mine_destroyed, row.theirs_destroyed, row.dice_lost, row.p_win) \
            == want, row.assignment
        assert row.value == want[0] - want[1]
    assert a.exchanges < len(a.rows) * a.rolls  # the shortcuts did save work


def test_held_dice_per_dg_reroll_assigned():
    # A red shield of 5 held at fort 0 and a green die crossing the 1/1: only die 1 (red) is in the zone.
    texts = dict(forts=["red:2:5", "red:2", "green:2"], their_forts=THEIRS_3, mine=["1/1@2,cross=green:4"],
                 theirs=["3/3@0"])
    held = parse_board(**texts)
    assert [d.place for d in held.p.dice] == [SHIELD, ZONE, CROSS]
    _, rolled = dice_step(held, RULINGS)
    assert rolled == (1,)
    keep = DragoborneRulings(reroll_assigned="all-keep")
    base, rolled = dice_step(held, keep)
    assert rolled == (0, 1, 2) and [d.place for d in base.p.dice] == [SHIELD, ZONE, CROSS]
    back = DragoborneRulings(reroll_assigned="all-return")
    base, rolled = dice_step(held, back)
    assert rolled == (0, 1, 2) and all(d.place == ZONE for d in base.p.dice) and not base.p.forts[0].shields
    a = analyse(held, keep)
    assert a.rolls == 216 and {row.assignment[0] for row in a.rows} == {HELD}
    brute = _brute(held, keep)
    assert all(row.dice_lost == brute[row.assignment][4] for row in a.rows)


# --- the sums -----------------------------------------------------------------------------------------------


def test_fraction_sums():
    board = parse_board(**BRUTE_BOARD)
    a = analyse(board, RULINGS)
    assert sum(r.p_best for r in a.rows) == 1
    assert sum(r.p_policy for r in a.rows) == 1
    assert a.best_after_roll >= a.best_value and a.best_after_roll >= a.policy.value
    assert all(0 <= r.p_best <= 1 and 0 <= r.p_win <= 1 for r in a.rows)
    assert 0 <= a.policy.p_best <= 1
    assert all(isinstance(r.value, Fraction) for r in a.rows)
    # the policy's figures average the chosen assignment roll by roll: at most the best after the roll
    assert min(r.value for r in a.rows) <= a.policy.value


def test_policy_step6_order_and_choices():
    # Dice by value from highest: red 5 (die 1) shields fort 0 (fewest barriers among red forts with none);
    # red 4 (die 0) shields fort 1; green 2 (die 2): fort 2 is a candidate but 2 < 3 and a creature can be
    # dragocrossed: the one gaining most, the 1/1 with cross-green +2/+0 (gain 4 > 2).
    board = parse_board(["red:1", "red:2", "green:2"], THEIRS_3, mine=["3/3@0", "1/1@1,cross-green=+2/+0"])
    base, rolled = dice_step(board, RULINGS)
    for i, v in zip(rolled, (4, 5, 2), strict=True):
        base.p.dice[i].value = v
    assert policy(base, RULINGS) == (shield_at(1), shield_at(0), cross_on(1))


def test_policy_gain_counts_a_deadly_bonus_even_when_printed():
    # Step 6: "+ 2 if the colour bonus gives Deadly": the Deadly 1/1 with cross-red=deadly gains 2 + 2 = 4,
    # the 3/3 with cross-red=+1/+0 gains 3. A red 2 (< 3, a creature to dragocross) crosses the 1/1.
    board = parse_board(["red:2", "green:2", "green:2"], THEIRS_3,
                        mine=["3/3@0,cross-red=+1/+0", "1/1@1,deadly,cross-red=deadly"],
                        lost=["green", "green"])
    base, rolled = dice_step(board, RULINGS)
    base.p.dice[0].value = 2
    assert policy(base, RULINGS) == (cross_on(1), HELD, HELD)


@pytest.mark.parametrize("rulings", [RULINGS, DragoborneRulings(shield_stack="stack")], ids=["one", "stack"])
def test_policy_agrees_with_the_plain_python_twin(rulings):
    import naive_dragoborne as N
    from test_dragoborne_combat import _twin_boards

    taken = set()
    for game, board in _twin_boards(rulings, 400, seed=11):
        p = game.players[0]
        zone = [d.where == N.ZONE for d in p.dice]
        N.assign_dice(game, p)
        order = N.creatures(p)
        twin = tuple(HELD if not was else KEEP if d.where == N.ZONE else shield_at(d.fort)
                     if d.where == N.SHIELD else cross_on(order.index(d.creature))
                     for d, was in zip(p.dice, zone, strict=True))
        assert policy(board, rulings) == twin
        taken.update(t[0] for t in twin)
    assert taken == {"held", "zone", "shield", "cross"}


def test_a_typical_board_of_six_a_side():
    board = parse_board(["red:2", "red:2", "green:2"], ["green:2", "green:1:3", "red:2"],
                        mine=["3/2@0", "pyre-drake@1", "2/3@2,cross-green=+1/+0", "1/1@0", "ember-raider@1",
                              "canopy-hunter@2"],
                        theirs=["2/2@0", "grove-warden@1,rested", "elder-treant@2", "3/1@0,rested",
                                "briar-stalker@1", "thorn-scout@2"])
    a = analyse(board, RULINGS)  # timed by no test (the standards): about 1 s on the bench machine
    assert len(a.rows) > 300 and sum(r.p_best for r in a.rows) == 1


# --- the board grammar ------------------------------------------------------------------------------------


def test_grammar():
    board = parse_board(["red:2", "red:1:4", "green:0"], ["green:2", "red:2", "green:1"],
                        mine=["3/2@0,deadly,cost=3,colour=green,cross-red=+1/+0,cross-white=invade:red",
                              "pyre-drake@1,new", "1/1@0,dice=white:5-6:+0/+2,damage=0"],
                        theirs=["2/2@1,rested,assassin:red,cross=red:6", "ancient-guardian@0"],
                        lost=["green"], their_dice=["green:5"])
    p, o = board.p, board.o
    assert [(f.colour, f.barriers, [p.dice[i].value for i in f.shields]) for f in p.forts] == \
        [("red", 2, []), ("red", 1, [4]), ("green", 0, [])]
    assert [d.place for d in p.dice] == [ZONE, SHIELD, DISCARDED]
    a, b, c = p.creatures
    assert (a.label, b.label, c.label) == ("3/2@0s0", "1/1@0s1", "Pyre Drake@1s0")
    assert (a.cost, a.colour, [k.text for k in a.keywords]) == (3, "green", ["deadly"])
    assert [(x.colour, x.atk, x.edr, [k.text for k in x.keywords]) for x in a.dragocross] == \
        [("red", 1, 0, []), ("white", 0, 0, ["invade:red"])]
    assert (b.dice[0].colour, b.dice[0].low, b.dice[0].high, b.dice[0].edr) == ("white", 5, 6, 2)
    assert (c.atk, c.edr, c.cost, c.new, c.card) == (4, 3, 4, True, "pyre-drake")
    x, y = o.creatures
    assert (x.label, y.label) == ("Ancient Guardian@0s0", "2/2@1s0")
    assert y.rested and o.dice[y.cross].colour == "red" and o.dice[y.cross].value == 6
    assert o.stats(x, RULINGS).atk == 5  # DICE green 5-6 +1/+1: O's green die in the zone shows 5
    assert [d.place for d in o.dice] == [ZONE, CROSS, DISCARDED]


@pytest.mark.parametrize(("kwargs", "named"), [
    (dict(forts=["red:2", "red:2"]), "3 forts"),
    (dict(forts=["red:2", "red:2", "green:3"]), "barriers '3'"),
    (dict(forts=["red:2", "red:2", "green"]), "COLOUR:BARRIERS"),
    (dict(forts=["red:2", "red:2", "green:2:7"]), "dragoshield value '7'"),
    (dict(forts=["red:2", "red:2", "green:0:3"]), "without barriers"),
    (dict(forts=["red:2", "red:2", "green:2:3+2"]), "DG-shield-stack"),
    (dict(forts=["red:0", "red:0", "green:0"]), "no barrier left"),
    (dict(forts=["white:2", "red:2", "green:2"]), "white"),
    (dict(mine=["3/2"]), "ATK/EDR@FORT"),
    (dict(mine=["3/2@3"]), "fort '3'"),
    (dict(mine=["3/2@0,flying"]), "unknown option 'flying'"),
    (dict(mine=["3/2@0,rested"]), "Stand Step"),
    (dict(theirs=["3/2@0,new"]), "summoned this turn"),
    (dict(mine=["3/2@0,colour=blu"]), "unknown colour 'blu'"),
    (dict(mine=["no-such-drake@0"]), "unknown card"),
    (dict(mine=["spark-bolt@0"]), "not a creature"),
    (dict(mine=["3/2@0", "3/2@0", "1/1@0"]), "at most 2"),
    (dict(mine=["3/2@0,cross=red:4", "1/1@1,cross=red:2", "1/1@1,cross=red:3"]), "no red die"),
    (dict(mine=["3/2@0,dice=red:5-9:+1/+0"]), "faces 1-6"),
    (dict(mine=["3/2@0,dice=red:5-6"]), "COLOUR:X-Y:GAIN"),
    (dict(mine=["3/2@0,cross-red=fast"]), "not a keyword"),
    (dict(mine=["3/2@0,damage=2"]), "reaches its EDR 2"),
    (dict(lost=["blue"]), "unknown colour"),
    (dict(their_dice=["green"]), "COLOUR:VALUE"),
    (dict(their_dice=["green:9"]), "value '9'"),
])
def test_grammar_errors(kwargs, named):
    texts = dict(forts=["red:2", "red:2", "green:2"], their_forts=THEIRS_3)
    texts.update(kwargs)
    with pytest.raises(OptionError) as err:
        parse_board(**texts)
    message = str(err.value)
    assert "\n" not in message and named in message, message


# --- the command, through a throwaway group -------------------------------------------------------------


class _Balance(click.Group):
    """The error mapping of reports.cli.main: one line on stderr, exit 2 for usage, 1 for the domain."""

    def main(self, args=None, **kwargs):
        kwargs.pop("standalone_mode", None)
        try:
            return super().main(args=args, standalone_mode=False, **kwargs)
        except click.ClickException as exc:
            click.echo(f"balance: error: {exc.format_message()}", err=True)
            sys.exit(exc.exit_code)
        except OptionError as exc:
            click.echo(f"balance: error: {exc}", err=True)
            sys.exit(2)
        except RulesError as exc:
            click.echo(f"balance: error: {exc}", err=True)
            sys.exit(1)


def _cli():
    top, roll, dragoborne = _Balance("balance"), _Balance("roll"), _Balance("dragoborne")
    dragoborne.add_command(roll_assign)
    roll.add_command(dragoborne)
    top.add_command(roll)
    return top


TINY = ["--fort", "red:1", "--fort", "green:0", "--fort", "green:0", "--lost", "green", "--lost", "green",
        *(x for t in THEIRS_3 for x in ("--their-fort", t)), "--theirs", "3/3@0", "--theirs", "2/2@1"]


def _run(*args):
    result = CliRunner().invoke(_cli(), ["roll", "dragoborne", "assign", *args])
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("fmt", ["table", "markdown", "csv", "latex", "html", "json"])
def test_cli_every_format(fmt):
    code, out, err = _run(*TINY, "--format", fmt)
    assert code == 0, err
    assert "Traceback" not in err
    if fmt == "json":
        data = json.loads(out)
        rows = data["sections"]["assignments"]
        assert [(r["die_0"], r["value_exact"], r["p_best_exact"]) for r in rows] == \
            [("shield f0", "-1/2", "3/4"), ("zone", "-1", "1/4")]
        assert data["meta"]["best_after_roll"] == -0.5
    elif fmt == "csv":
        lines = out.splitlines()
        assert lines[0].startswith("rank,die_0,die_1,die_2,value,value_exact")
        assert len(lines) == 3 and "shield f0" in lines[1]
    else:
        assert "shield f0" in out and "exact: every roll of the dice enumerated" in out
        assert "-1/2" in out and "not modelled" in out


def test_cli_table_view_and_rulings():
    code, out, err = _run(*TINY, "--ruling", "DG-die=8")
    assert code == 0, err
    assert "8 rolls of d8" in out and "DG-die=8" in out and "-3/8" in out
    assert "best" in out and "step 6's policy" in out


@pytest.mark.parametrize(("args", "named"), [
    (("--fort", "red:2"), "3 forts"),
    (("--mine", "3/2@7"), "fort '7'"),
    (("--mine", "3/2@0,sneaky"), "unknown option"),
    (("--theirs", "dragon@0"), "unknown card"),
    (("--fort", "red:2", "--fort", "red:2", "--fort", "green:2:0"), "dragoshield value '0'"),
    (("--ruling", "DG-die=1"), "DG-die"),
    (("--top", "-1"), "--top"),
])
def test_cli_bad_input_one_line_exit_2(args, named):
    base = TINY[6:] if args[0] == "--fort" else TINY  # "--fort" cases replace P's forts
    code, out, err = _run(*base, *args)
    assert code == 2, (code, err)
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("balance: error: ") and named in lines[0], err


def test_cli_missing_forts():
    code, out, err = _run("--their-fort", "green:2")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and "--fort" in err


def test_report_top_and_best_marker():
    a = analyse(parse_board(**BRUTE_BOARD), RULINGS)
    report = assign_table(a, top=5)
    view = report.views[0].table
    assert len(view.rows()) == 5 and len(report.sections[0].table.rows()) == len(a.rows)
    best = [r for r in report.sections[0].table.records() if r["best"] == "best"]
    assert best and all(Fraction(r["value_exact"]) == a.best_value for r in best)
    assert report.facts["best_after_roll"] == float(a.best_after_roll)
