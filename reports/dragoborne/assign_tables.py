"""Dragoborne report for the dice assignment, exact (rulesets.dragoborne.assign): the expected value of each
way P can assign its dice for a board, over every roll, with the exchange that follows (P's combat phase,
then O's)."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from reports.formats import Report, Section, Table
from rulesets.dragoborne.assign import (
    Analysis,
    Row,
    analyse,
    die_label,
    parse_board,
    target_label,
)
from rulesets.dragoborne.combat import CROSS, DISCARDED, SHIELD, Board, Creature, Side
from rulesets.dragoborne.rules import DragoborneRulings

RULESET = "dragoborne (seed 001)"

#: The figures of a row, with their column names in the tidy table and in the views.
FIGURES = (("barriers_broken", "broken", "broken"), ("barriers_lost", "lost", "lost"),
           ("mine_destroyed", "mine_destroyed", "mine_dead"),
           ("theirs_destroyed", "theirs_destroyed", "their_dead"), ("dice_lost", "dice_lost", "dice_lost"),
           ("p_win", "p_win", "p_win"), ("p_loss", "p_loss", "p_loss"))

NOT_MODELLED = [
    "not modelled (as game.py): spells, abilities, Ambush, Fort Burst (a broken barrier goes to hand, as "
    "both DG-fort-burst readings do when none is played), Immune (spells and abilities only, line 316), "
    "trait conditions, other card text, moving creatures (line 226)",
    "not modelled (this exchange): O's Dice Step, Draw, Resource and Summon: O rolls no die, assigns no new "
    "die and summons nothing, its dice keep their places and values; O's dice not given are taken as "
    "discarded; neither turn is a game's first turn (both combat phases happen, DG-first-turn aside); "
    "nothing after O's turn",
    "a card's \"-\" cost counts as 0 where step 7 compares costs; a creature typed as ATK/EDR costs 0 unless "
    "given cost=N and has its fort's colour unless given colour=C",
]


def _fraction(x: Fraction) -> str:
    return str(x)


def _target(board: Board, i: int, target: tuple) -> str:
    return target_label(board, i, target).replace("shield fort ", "shield f")


def _keywords(c: Creature) -> list[str]:
    return [k.label for k in c.keywords]


def _creature_text(c: Creature, side: Side) -> str:
    parts = [f"ATK {c.atk} EDR {c.edr}, cost {c.cost}, {c.colour}"]
    parts += _keywords(c)
    parts += [f"dragocross {b.colour}: +{b.atk}/+{b.edr}" + "".join(f" {k.label}" for k in b.keywords)
              for b in c.dragocross]
    parts += [f"DICE {d.colour} {d.low}-{d.high}: +{d.atk}/+{d.edr}"
              + "".join(f" {k.label}" for k in d.keywords) for d in c.dice]
    if c.cross is not None:
        die = side.dice[c.cross]
        parts.append(f"dragocrossed by a {die.colour} die showing {die.value}")
    if c.damage:
        parts.append(f"damage {c.damage}")
    if c.rested:
        parts.append("rested")
    if c.new:
        parts.append("summoned this turn")
    if c.card:
        parts.append(f"card {c.card}")
    return "; ".join(parts)


def _board_table(board: Board, analysis: Analysis) -> Table:
    """The board as given: each player's forts, creatures and dice."""
    rows = []
    rolled = set(analysis.rolled)
    for who, side in (("P (you)", board.p), ("O (them)", board.o)):
        for f, fort in enumerate(side.forts):
            shields = ", ".join(str(side.dice[i].value) for i in fort.shields)
            plural = "" if fort.barriers == 1 else "s"
            rows.append((who, f"fort {f}", f"{fort.colour}, {fort.barriers} barrier{plural}"
                         + (f", dragoshield {shields}" if shields else "")))
        for c in side.creatures:
            rows.append((who, c.label, _creature_text(c, side)))
        for i, d in enumerate(side.dice):
            if side is board.p:
                place = {SHIELD: "a dragoshield", CROSS: "a dragocross die"}.get(d.place, "the Dice Zone")
                state = f"in {place}" if d.place != DISCARDED else "lost (discard pile)"
                if i in rolled:
                    state += ", rolled"
                elif d.place in (SHIELD, CROSS):
                    state += f", held at {d.value}"
            else:
                state = {SHIELD: f"a dragoshield at {d.value}", CROSS: f"a dragocross die showing {d.value}",
                         DISCARDED: "discarded (or not given)"}.get(d.place,
                                                                    f"in the Dice Zone showing {d.value}")
            rows.append((who, f"die {i}", f"{d.colour}: {state}"))
    return Table.from_rows(rows, ["player", "place", "what"])


def _row_record(rank: int, board: Board, row: Row, best: Fraction, n_dice: int) -> dict:
    out: dict = {"rank": rank}
    for i in range(n_dice):
        out[f"die_{i}"] = _target(board, i, row.assignment[i])
    out["value"] = float(row.value)
    out["value_exact"] = _fraction(row.value)
    for name, attr, _ in FIGURES:
        out[name] = float(getattr(row, attr))
        out[f"{name}_exact"] = _fraction(getattr(row, attr))
    out["p_best"] = float(row.p_best)
    out["p_best_exact"] = _fraction(row.p_best)
    out["p_policy"] = float(row.p_policy)
    out["p_policy_exact"] = _fraction(row.p_policy)
    out["best"] = "best" if row.value == best else ""
    return out


def _short(x: Fraction) -> str:
    return f"{float(x):.3f}"


def assign_table(analysis: Analysis, top: int = 20, catalog=None) -> Report:
    """The report of an :class:`~rulesets.dragoborne.assign.Analysis`: every assignment (tidy section), the
    ``top`` best in the views (0: all), the summary and the board."""
    board, rulings = analysis.board, analysis.rulings
    n_dice = len(board.p.dice)
    best = analysis.best_value
    order = sorted(range(len(analysis.rows)), key=lambda a: (-analysis.rows[a].value, a))
    ranked = [analysis.rows[a] for a in order]
    records = [_row_record(rank + 1, board, row, best, n_dice) for rank, row in enumerate(ranked)]
    dice_names = [die_label(board, i) for i in range(n_dice)]
    tidy = Table.from_records(records)
    shown = ranked if top == 0 else ranked[:top]
    view_main = Table.from_rows(
        [(rank + 1, *(_target(board, i, row.assignment[i]) for i in range(n_dice)), float(row.value),
          _fraction(row.value), float(row.p_best), "best" if row.value == best else "")
         for rank, row in enumerate(shown)],
        ["#", *dice_names, "value", "exact", "p_best", "best"])
    view_side = Table.from_rows(
        [(rank + 1, *(_short(getattr(row, attr)) for _, attr, _ in FIGURES), _short(row.p_policy))
         for rank, row in enumerate(shown)],
        ["#", *(v for _, _, v in FIGURES), "p_policy"])
    keep_all = next((r for r in analysis.rows if all(t[0] != "shield" and t[0] != "cross"
                                                     for t in r.assignment)), None)
    summary_rows = [
        ("best assignment, chosen before the roll", float(best), _fraction(best),
         "; ".join(f"die {i} {_target(board, i, t)}" for i, t in enumerate(ranked[0].assignment))),
        ("best assignment, chosen after seeing the roll", float(analysis.best_after_roll),
         _fraction(analysis.best_after_roll), "E over the rolls of the best value of that roll"),
        ("step 6's policy (game.py)", float(analysis.policy.value), _fraction(analysis.policy.value),
         f"the best after the roll with probability {_fraction(analysis.policy.p_best)}"),
    ]
    if keep_all is not None:
        summary_rows.append(("every die left in the Dice Zone", float(keep_all.value),
                             _fraction(keep_all.value), "no new dragoshield, no new dragocross"))
    summary = Table.from_rows(summary_rows, ["choice", "value", "exact", "detail"])
    policy = analysis.policy
    policy_table = Table.from_rows([(name, float(getattr(policy, attr)), _fraction(getattr(policy, attr)))
                                    for name, attr, _ in (("value", "value", ""), *FIGURES)],
                                   ["figure", "expected", "exact"])
    board_table = _board_table(board, analysis)
    rolled = ", ".join(die_label(board, i) for i in analysis.rolled) or "none"
    meta = [("ruleset", RULESET),
            ("dice rolled", f"{rolled}: {analysis.rolls} rolls of d{rulings.die} (DG-die), equally likely"),
            ("assignments", f"{len(analysis.rows)} (each die in the Dice Zone: a dragoshield at a fort of "
                            "its colour with barriers, the dragocross of a creature without one, or left in "
                            "the zone; lines 210-217)"),
            ("method", f"exact: every roll of the dice enumerated ({analysis.rolls} rolls x "
                       f"{len(analysis.rows)} assignments; {analysis.exchanges} distinct exchanges played, "
                       "game.py steps 7-8 for P then O)"),
            ("rulings", rulings.describe())]
    cards = sorted({c.card for side in (board.p, board.o) for c in side.creatures if c.card})
    if cards and catalog is not None:
        meta.insert(1, ("catalog", f"{catalog.source}, sha256 {catalog.sha256[:16]}"))
    view_note = ("" if top == 0 or top >= len(ranked) else
                 f"the {top} best of {len(ranked)} assignments (--top 0 shows every one; CSV and JSON hold "
                 "every one)")
    notes = [
        "the exchange: P's combat phase (game.py step 7, P active) and End Phase (step 8: damage on every "
        "creature removed, line 255; DG-shield-persist), then O's turn: O's creatures stand (line 182), P's "
        "that attacked stay rested, O's combat phase (step 7, O active) and End Phase; if O has no barrier "
        "after P's turn it loses (line 257) and the exchange ends (p_win); p_loss: P has none after O's",
        "value = E[barriers P breaks] - E[barriers O breaks] (broken - lost); mine_dead, their_dead: "
        "E[creatures destroyed] of P's and O's over the exchange; dice_lost: E[P's dice discarded] (a "
        "dragoshield destroyed, line 215; a dragocross die under DG-cross-die=discard)",
        "p_best: P(this assignment is the best for the roll), an assignment tied for the best sharing that "
        "roll equally (the column adds up to 1); p_policy: P(step 6's policy takes it); best: the highest "
        "value chosen before the roll",
        "step 6's policy (game.py): each die in the zone, by value from highest, a dragoshield at the "
        "candidate fort if the value >= 3 or no creature can be dragocrossed, else the dragocross of the "
        "creature gaining most, else the zone",
        f"P's dice: die i has fort i's colour (setup 3, lines 147-149); held dice: "
        f"DG-reroll-assigned={rulings.reroll_assigned}; shields a fort: "
        f"DG-shield-stack={rulings.shield_stack}; DICE X-Y count DG-condition-dice={rulings.condition_dice}",
        *NOT_MODELLED,
    ]
    if cards and catalog is not None and catalog.illustrative_note:
        notes.append(catalog.illustrative_note)
    sections = [Section("assignments", "Every assignment, best first", tidy),
                Section("summary", "Choosing the assignment", summary),
                Section("policy", "Step 6's policy, expected figures", policy_table),
                Section("board", "The board at P's Main Phase, after its Dice Step (DG-reroll-assigned)",
                        board_table)]
    views = [Section("assignments", "Assignments, best first: the value of each", view_main,
                     notes=[view_note] if view_note else []),
             Section("figures", "Assignments, best first: expected figures (the same # as above)", view_side),
             sections[1], sections[2], sections[3]]
    facts = {"best_value": float(best), "best_after_roll": float(analysis.best_after_roll),
             "policy_value": float(analysis.policy.value), "n_assignments": len(analysis.rows),
             "n_rolls": analysis.rolls}
    return Report("Dragoborne: the value of each dice assignment", meta, sections, views, notes, facts)


def assign_report(forts: Sequence[str], their_forts: Sequence[str], mine: Sequence[str] = (),
                  theirs: Sequence[str] = (), lost: Sequence[str] = (), their_dice: Sequence[str] = (),
                  top: int = 20, catalogs: Sequence = (), rulings: DragoborneRulings | None = None) -> Report:
    """Parse the board (rulesets.dragoborne.assign's grammar), analyse it exactly, and report."""
    from rulesets.dragoborne import catalog as catalog_io

    rulings = rulings or DragoborneRulings()
    catalog = catalog_io.load(user_paths=tuple(catalogs))
    board = parse_board(forts, their_forts, mine, theirs, lost, their_dice, rulings, catalog)
    return assign_table(analyse(board, rulings), top, catalog)

