"""Every UberDrakes ruling changes a result of the model, or its meaning says it has none (the issue: UD-
concede-total, UD-windblast-stack, UD-vp-escalation, UD-mulligan, UD-rocket-power-cost, UD-overflow-rage
and UD-furnace-ultimate changed nothing, silently). Each ruling is flipped from its default, one at a
time, and a fixed battery is computed under both: every standard table but `resources` (engagements of
a few resources stand for it: what pricing plays), a rolloff built from its sources, and small combats that
reach every counterattack resource and pre-combat spell, each solved as a single combat (greedy by default)
and as pricing plays it (optimal, for the value). A ruling of choices acts if any other value changes the
battery."""

from __future__ import annotations

import numpy as np
import pytest

from rulesets import get
from rulesets.uberdrakes.combat import Combat, Kit, solve
from rulesets.uberdrakes.exact import Side
from rulesets.uberdrakes.rules import INERT, UberDrakesRulings, pricing_rulings

RS = get("uberdrakes")
PAIRS = (("windblast", "dragon-lance"), ("plate-armor@2", "hide-shield"), ("camouflage", "rage-potion"),
         ("long-bow", "fire-breath"))
CONTESTANTS = {c.key: c for c in RS.contestants(RS.load_catalog(), sorted({k for p in PAIRS for k in p}))}
#: Another value than the default for the rulings whose ``accepted`` is not a list of choices.
OTHER = {"UD-camouflage": "2", "UD-damage-bp": "5", "UD-win-bp": "10"}
#: The rulings the issue found inert, and stay so in this model (marked in their meaning).
INERT_RULINGS = {"UD-concede-total", "UD-windblast-stack", "UD-vp-escalation", "UD-mulligan",
                 "UD-rocket-power-cost", "UD-overflow-rage", "UD-furnace-ultimate"}

COMBATS = (
    # Fire Breath (a spell to reply with), a Lance and a Rage Potion against Plate Armor and a Shield
    Combat(Side(0, 0), Side(1, 1), Kit(magic=4, fire_breath=True, lances=1, potions=1),
           Kit(magic=3, plate_armor=True, shields=1)),
    # Acid Rain against Fire Breath alone (UD-acid-scope)
    Combat(Side(0, 0), Side(0, 0), Kit(magic=4, acid_rain=True), Kit(magic=4, fire_breath=True)),
    # Acid Rain and Windblast against Fire Breath, a Rage Potion and a Lance
    Combat(Side(0, 0), Side(0, 0), Kit(magic=7, acid_rain=True, windblast=True),
           Kit(magic=4, fire_breath=True, potions=1, lances=1)),
    # a ranged attack with a Shield against Lances and a Shield; and a Lance replying to a Shield
    Combat(Side(0, 2), Side(0, 0), Kit(shields=1), Kit(lances=2, shields=1), ranged=True),
    Combat(Side(0, 0), Side(0, 0), Kit(lances=1), Kit(lances=1, shields=1)),
)


def _battery(rulings: UberDrakesRulings) -> list:
    """Every number of the battery, in a fixed order."""
    from reports.uberdrakes.api import roll
    from reports.uberdrakes.tables import table_report

    out = []
    for name, table in RS.tables().items():
        if name != "resources":
            report = table_report(name, table.compute(rulings))
            out += [section.data.to_csv() for section in report.sections]
    for a, b in PAIRS:
        samples = RS.engage(CONTESTANTS[a], CONTESTANTS[b], rulings, seed=0).samples()
        out += [np.round(samples[m], 12).tolist() for m in sorted(samples)]
    rolled = roll(rage=1, elemental=2, vs_elemental=3, fatigued=True, camouflage=True, vs_mountain=1,
                  rage_potions=1, rulings=rulings)
    out += [s.data.to_csv() for s in rolled.sections]
    for combat in COMBATS:
        for r in (rulings, pricing_rulings(rulings)):
            o = solve(combat, r)
            out.append(np.round(np.array([*o.p_win, *o.p_damage, *o.damage, *o.magic, *o.items, *o.spend,
                                          *o.blood_points, o.p_concede_unrolled]), 12).tolist())
    return out


def _others(spec) -> list[str]:
    """Every other value of a ruling of choices; one other value of a number."""
    if spec.key in OTHER:
        return [OTHER[spec.key]]
    default = spec.format(spec.default)
    return [c for c in spec.accepted.split("|") if c != default]


@pytest.fixture(scope="module")
def baseline():
    return _battery(UberDrakesRulings())


@pytest.mark.parametrize("spec", UberDrakesRulings.specs(), ids=lambda s: s.key)
def test_every_ruling_acts_or_says_it_does_not(baseline, spec):
    changed = [value for value in _others(spec)
               if _battery(UberDrakesRulings().with_assignments([f"{spec.key}={value}"])) != baseline]
    inert = INERT in spec.meaning
    found = f"changes a result ({', '.join(changed)})" if changed else "changes nothing"
    said = "yet says it has no effect" if inert else "and says nothing"
    assert bool(changed) != inert, (spec.key, found, said)
    assert inert == (spec.key in INERT_RULINGS)


def test_the_inert_mark_is_printed_by_balance_rulesets(capsys):
    from cli_run import csv, run

    code, out, err = run(capsys, "rulesets", "--format", "csv")
    assert code == 0, err
    df = csv(out).set_index("ruling")
    for key in INERT_RULINGS:
        assert "has no effect in the current model: " in df.loc[key, "meaning"], key
