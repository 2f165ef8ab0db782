"""Reports of Drakerys Fights, Shootings and engagements (tidy rows with standard errors)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pandas as pd

from reports.formats import Report, Section
from reports.tables import estimates_view, share_text
from rulesets.drakerys.fight import modelling_notes
from simcore.stats import Z95, Estimate

if TYPE_CHECKING:
    from rulesets.drakerys import simulate


def _method(run) -> tuple[str, str]:
    text = (f"Monte Carlo, {run.trials:,} trials, seed {run.seed}; stderr is the standard error, "
            f"95% interval = estimate ± {Z95:.2f} stderr")
    if run.precision is not None:
        how = "reached" if run.stopped_by_precision else "not reached within the trial cap"
        text += f"; precision target {run.precision:g}: {how}"
    return "method", text


def _est(e: Estimate) -> str:
    return f"{e.value:.4f} ± {Z95 * e.stderr:.4f} (95%)"


def _row(measure: str, outcome, e: Estimate) -> dict:
    return {"measure": measure, "outcome": str(outcome), "probability": e.value, "stderr": e.stderr}


def _distribution(measure: str, estimates: list[Estimate]) -> list[dict]:
    return [_row(measure, k, e) for k, e in enumerate(estimates)]


def fight_report(result: simulate.FightResult, ap_a: int, ap_b: int, desc_a: str, desc_b: str) -> Report:
    """`balance roll drakerys fight`: outcome, morale and casualty distributions."""
    run = result.run
    rows = [
        _row("winner", "A", result.p_wins(0)),
        _row("winner", "B", result.p_wins(1)),
        _row("winner", "both (draw)", result.p_draw()),
        _row("winner", "none (both destroyed)", result.p_both_destroyed()),
    ]
    for letter, side in (("B", 1), ("A", 0)):
        rows += [_row(f"morale_{letter}", name, e) for name, e in result.morale(side).items()]
    rows += _distribution("casualties_A", result.casualty_distribution(0))
    rows += _distribution("casualties_B", result.casualty_distribution(1))
    meta = [
        ("ruleset", "drakerys (seed 002, FIGHTING, MORALE)"),
        ("A", desc_a + (" (charging)" if result.charge else " (Attack action)")),
        ("B", desc_b),
        _method(run),
        ("rulings", result.rulings.describe()),
        ("injuries inflicted by A", _est(result.injuries_inflicted(0))),
        ("injuries inflicted by B", _est(result.injuries_inflicted(1))),
        ("AP destroyed by A", _est(result.ap_destroyed(1, ap_b))),
        ("AP destroyed by B", _est(result.ap_destroyed(0, ap_a))),
    ]
    notes = ["casualties count warriors removed by strikes and by a scatter; 'winner A' means A won "
             "alone (a draw makes both winners)"]
    notes += modelling_notes(result.attacker.unit, result.target.unit)
    if result.overflow():
        notes.append(f"{result.overflow()} values fell beyond the histogram (left in its last column)")
    return Report("Drakerys: one Fight", meta, [Section("fight", "Outcomes", pd.DataFrame(rows))],
                  notes=notes)


def shooting_report(result: simulate.ShootingResult, ap_b: int, desc_a: str, desc_b: str) -> Report:
    """`balance roll drakerys shoot`: casualties, injuries and the target's morale."""
    run = result.run
    rows = [_row("morale_B", k, e) for k, e in result.morale().items()]
    rows += _distribution("casualties_B", result.casualty_distribution())
    rows += _distribution("removed_B", result.removed_distribution())
    w = result.weapon
    meta = [
        ("ruleset", "drakerys (seed 002, SHOOTING, MORALE)"),
        ("shooter", desc_a),
        ("target", desc_b),
        ("shot", f"{w.name} (range {w.max_range_cm} cm, Saturation {w.saturation}) "
                 f"from {result.distance_cm} cm"),
        _method(run),
        ("rulings", result.rulings.describe()),
        ("injuries inflicted", _est(result.injuries_inflicted())),
        ("AP destroyed", _est(result.ap_destroyed(ap_b))),
    ]
    notes = ["casualties count warriors removed by the shot and, when the target scatters, all the others "
             "(as in the Fight and the duel); removed_B counts the shot's alone"]
    notes += modelling_notes(result.shooter.unit, result.target.unit)
    return Report("Drakerys: one Shooting", meta, [Section("shooting", "Outcomes", pd.DataFrame(rows))],
                  notes=notes)


def engagement_report(result: simulate.EngagementResult, ap_a: int, ap_b: int, desc_a: str,
                      desc_b: str) -> Report:
    """`balance duel drakerys`: who wins an engagement fought to the end, and at what cost."""
    run = result.run
    summary = [
        ("P(A wins)", result.p_wins(0)),
        ("P(B wins)", result.p_wins(1)),
        ("P(neither: the game ends first)", result.p_neither()),
        ("P(both destroyed)", result.p_both_destroyed()),
        ("injuries suffered by A", result.injuries_suffered(0)),
        ("injuries suffered by B", result.injuries_suffered(1)),
        ("AP destroyed of A", result.ap_destroyed(0, ap_a)),
        ("AP destroyed of B", result.ap_destroyed(1, ap_b)),
        ("warriors lost by A", result.casualties(0)),
        ("warriors lost by B", result.casualties(1)),
        ("Time Sections spent by A", result.ts_spent(0)),
        ("Time Sections spent by B", result.ts_spent(1)),
        ("activations", result.activations()),
    ]
    table = pd.DataFrame({
        "quantity": [q for q, _ in summary],
        "value": [e.value for _, e in summary],
        "stderr": [e.stderr for _, e in summary],
        "ci_low": [e.ci95[0] for _, e in summary],
        "ci_high": [e.ci95[1] for _, e in summary],
    })
    opening = (f"A shoots first from {result.shoot_from_cm} cm" if result.shoot_from_cm is not None
               else f"the units start {result.start_cm} cm apart, A acting first, every Action the unit's "
                    "best available one" if result.start_cm is not None else "A charges B")
    meta = [
        ("ruleset", "drakerys (seed 002, FIGHTING, SHOOTING, MORALE, THE TIMEPATH)"),
        ("A", desc_a), ("B", desc_b), ("opening", opening),
        ("game", f"{result.rounds} rounds of 16 Time Sections; "
                 + ("each activation takes up to the Leader's Actions (DK-actions=all), at most 16 TS"
                    if result.rulings.actions == "all" else "one Action per activation (DK-actions=one)")),
        _method(run), ("rulings", result.rulings.describe()),
    ]
    notes = ["after the opening, a unit not yet engaged charges when the enemy is within its Charge, "
             "else shoots when it can, else marches; engaged units make Attack actions; an activation takes "
             "its Actions one after the other while both units stand",
             "each Action costs its TS + 1 per Stress marker + 1 per Heroic Action die (Quick Shot: 1 less, "
             "minimum 1); an activation spends at most the TimePath's 16 TS and gives one Stress marker; a "
             "Headquarters Phase removes one each time a token passes START"]
    notes += modelling_notes(result.a.unit, result.b.unit)
    view = estimates_view(table["quantity"], table["value"], table["ci_low"], table["ci_high"], "quantity")
    wins = [share_text(e.value, e.stderr) for e in (result.p_wins(0), result.p_wins(1))]
    headline = [f"A ({result.a.unit.name}) wins {wins[0]}, B ({result.b.unit.name}) {wins[1]} (95% "
                f"intervals, {run.trials:,} engagements)"]
    return Report("Drakerys: engagement to the end", meta, [Section("duel", "Engagement", table)],
                  [Section("duel", "Engagement (estimates rounded to what their 95% interval supports)",
                           view)], notes=notes, headline=headline)
