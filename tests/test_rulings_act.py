"""Every ruling of every game does something, or says it does not (nothing silently inert).

Each ruling is flipped, one at a time, from its default to another accepted value, and a small fixed set of
the game's outputs is computed under both: a few entries' efficiency (every engagement and metric), every
standard rulebook table, and the game's probes below. A ruling must change some output, or its meaning must
say "no effect in the current model" (what `balance rulesets` and every report's rulings section print) and
then change none. Slow: five games' worth of small runs.
"""

from __future__ import annotations

import pytest
from cli_run import run

import rulesets

#: Each game's probes beyond its standard tables: `balance` arguments whose output (exit code and stdout)
#: a ruling may change. Small runs: a few entries' efficiency, a roll or a fight that reaches a ruling the
#: efficiency does not.
FAST = ("--trials", "200", "--seed", "1", "--format", "csv")
PROBES = {
    "drakerys": [
        ("efficiency", "drakerys", "--unit", "gold-keepers@6", "--unit", "crossbowmen@6", "--unit",
         "soldiers@6", "--unit", "rockthrowers@3", "--unit", "salik", "--unit", "spearmen", *FAST),
        ("roll", "drakerys", "fight", "crows", "salik", "--heroic-b", "2", *FAST),
        ("roll", "drakerys", "spell", "--level", "3", "--distance", "25", "--maelstroms", "1", "--mana", "4",
         "--format", "csv"),
    ],
    "dragonbond": [
        ("efficiency", "dragonbond", "--unit", "ogerron-phalanx", "--unit", "dreamshaper-casters", "--unit",
         "ferellon-fulgen", *FAST),
        # a Sharp attack into an upgraded black defense die (DB-sharp, DB-defense-tiers)
        ("roll", "dragonbond", "attack", "--dice", "2G 1B", "--models", "2", "--sharp", "--defense", "2",
         "--defense-die", "black", "--defense-up", "1", "--format", "csv"),
        # a charge and a Damage-token roll with fatigue beside (DB-fatigue-timing, DB-exhaustion-other-rolls,
        # DB-damage-token)
        ("roll", "dragonbond", "charge", "--speed", "6", "--fatigue-beside", "1", "--format", "csv"),
        ("roll", "dragonbond", "damage", "--tokens", "4", "--fatigue-beside", "1", "--format", "csv"),
        # javelins thrown while engaged draw an opportunity attack (DB-opportunity-fatigue)
        ("duel", "dragonbond", "skorpikon-reavers", "oathguard-duelists", *FAST),
    ],
    "warbound": [("efficiency", "warbound", "--unit", "copp", "--unit", "roh-na", *FAST)],
    "dragoborne": [
        ("efficiency", "dragoborne", "--unit", "pyre-drake", "--unit", "magma-hound", *FAST),
        ("roll", "dragoborne", "assign", "--fort", "red:2", "--fort", "red:2", "--fort", "green:2",
         "--their-fort", "green:2", "--their-fort", "green:1:3", "--their-fort", "red:2", "--mine", "3/2@0",
         "--mine", "pyre-drake@1", "--theirs", "2/2@0", "--theirs", "grove-warden@1,rested",
         "--format", "csv"),
        # whole games of the two decks: creatures move off destroyed forts (DG-move), removal spells are
        # cast (DG-spells)
        ("duel", "dragoborne", "red-blaze", "green-grove", *FAST),
    ],
}
#: Other values than the default, where `accepted` is not a plain list of choices.
ALTERNATIVE = {
    "DK-frontage": "2", "DK-engagement-start": "contact", "DK-budget": "500", "DG-die": "8",
    "DB-exhaustion-other-rolls": "1/1",
    # the field's non-hero entries as escorts in turn instead of the hero's faction's Guard units
    "DK-context": "field",
    # strike-first and always swap alike wherever the Hourglass can go on an Action the Hand cannot use
    "WB-hourglass-policy": "not-played",
}
#: The inert mark a ruling's meaning carries.
INERT = "no effect in the current model"


def _other_value(spec) -> str:
    if spec.key in ALTERNATIVE:
        return ALTERNATIVE[spec.key]
    default = spec.format(spec.default)
    choices = [c.strip() for c in spec.accepted.split("|")]
    if len(choices) > 1 and all(c and " " not in c for c in choices):
        return next(c for c in choices if c != default)
    if isinstance(spec.default, int) and not isinstance(spec.default, bool):
        for candidate in (spec.default + 1, spec.default - 1):
            try:
                spec.parse(str(candidate))
                return str(candidate)
            except ValueError:
                continue
    raise AssertionError(f"{spec.key}: give its other value in ALTERNATIVE (accepted: {spec.accepted})")


def _outputs(capsys, game: str, ruling: str | None) -> dict[str, str]:
    """Every probe of ``game`` (and each of its standard tables, as CSV) with ``ruling`` switched."""
    switch = ("--ruling", ruling) if ruling else ()
    tables = [("table", game, name, "--format", "csv") for name in rulesets.get(game).tables()]
    probes = [*PROBES[game], *tables]
    out = {}
    for args in probes:
        code, stdout, _ = run(capsys, *args, *switch)
        out[" ".join(args)] = f"exit {code}\n{stdout}"
    return out


#: UberDrakes is checked by tests/test_uberdrakes_rulings.py, over a battery of exact combats that reaches
#: every counterattack resource and pre-combat spell.
CASES = [(game, spec.key) for game in PROBES for spec in rulesets.get(game).rulings.specs()]


@pytest.fixture(scope="module")
def defaults() -> dict[str, dict[str, str]]:
    return {}


@pytest.mark.slow
@pytest.mark.parametrize(("game", "key"), CASES, ids=[f"{g}-{k}" for g, k in CASES])
def test_a_ruling_changes_an_output_or_says_it_changes_none(capsys, defaults, game, key):
    spec = rulesets.get(game).rulings.spec(key)
    if game not in defaults:
        defaults[game] = _outputs(capsys, game, None)
    flipped = _outputs(capsys, game, f"{key}={_other_value(spec)}")
    changed = [name for name in defaults[game] if flipped[name] != defaults[game][name]]
    if INERT in spec.meaning.lower():
        assert not changed, f"{key} says it has no effect, yet changes {changed}"
    else:
        assert changed, (f"{key}={_other_value(spec)} changes none of {list(flipped)}: make it act, give it "
                         f"a probe here, or say '{INERT}' in its meaning")


def test_every_ruling_has_another_value_to_flip_to():
    for game, key in CASES:
        spec = rulesets.get(game).rulings.spec(key)
        other = _other_value(spec)
        assert spec.parse(other) != spec.default, key
