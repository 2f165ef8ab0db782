"""API = CLI: every kind of roll of every game through reports.api.roll with the command's options as
keywords; an unknown keyword is one line naming the accepted ones; a walk of the `balance` command tree
finds an API counterpart, named the same, for every verb and option (the gaps left are listed, exactly)."""

from __future__ import annotations

import inspect

import click
import pytest

import rulesets
from reports import api
from reports.cli import cli
from reports.cli.verbs import _register_pending
from rulesets.base import OptionError

#: One call of every kind `balance roll <game>` has (15), exact where the command is.
KINDS = {
    ("drakerys", "action"): dict(dice=2, threshold=6),
    ("drakerys", "fight"): dict(a="crows", b="gold-keepers", charge=True, trials=400, seed=1),
    ("drakerys", "shoot"): dict(a="crossbowmen", b="crows", distance=35, trials=400, seed=1),
    ("drakerys", "spell"): dict(level=3, distance=25, vortexes=1, maelstroms=1, mana=4),
    ("drakerys", "invocation"): dict(source="maelstrom"),
    ("dragonbond", "pool"): dict(dice="3G"),
    ("dragonbond", "attack"): dict(dice="2G 1B", models=2, defense=1, health=2, target_models=3),
    ("dragonbond", "face-off"): dict(players=3),
    ("dragonbond", "charge"): dict(speed=9),
    ("dragonbond", "damage"): dict(tokens=2),
    ("warbound", "attack"): dict(dice=1, target=7),
    ("uberdrakes", "rolloff"): dict(rage=1),
    ("dragoborne", "condition"): dict(dice="red,red,green", color="red", range="4-6"),
    ("dragoborne", "shield"): dict(atk=3),
    ("dragoborne", "assign"): dict(forts=["red:2", "red:2", "green:2"],
                                   their_forts=["green:2", "green:1:3", "red:2"], mine=["3/2@0"]),
}


def test_every_kind_of_every_game_is_listed():
    """The kinds the API has are the kinds the command line has, the default first."""
    _register_pending()
    for game in rulesets.names()[:5]:
        group = cli.commands["roll"].commands[game]
        assert set(api.roll_kinds(game)) == set(group.commands), game
        default = getattr(group, "default", None) or next(iter(api.roll_kinds(game)))
        assert next(iter(api.roll_kinds(game))) == default
    assert sum(len(api.roll_kinds(g)) for g in rulesets.names()[:5]) == len(KINDS) == 15


@pytest.mark.parametrize("game, kind", list(KINDS), ids=[f"{g}-{k}" for g, k in KINDS])
def test_every_kind_runs_through_the_api(game, kind):
    frame = api.roll(game, kind, **KINDS[(game, kind)])
    assert len(frame) > 0 and frame.attrs["title"]
    if "probability" in frame.columns and kind not in ("fight", "shoot", "assign", "attack", "face-off"):
        assert frame.probability.sum() == pytest.approx(1.0, abs=1e-9) or len(frame) == 1


def test_the_numbers_of_some_kinds():
    # a Maelstrom invocation: 2d10 against 7+, P(fail) = 0.6^2
    assert api.roll("drakerys", "invocation", source="maelstrom").p_fail.iloc[0] == pytest.approx(0.36)
    # two red dice of three: P(a red die in 4-6) = 1 - (1/2)^2
    cond = api.roll("dragoborne", "condition", dice="red,red,green", color="red", range="4-6")
    assert cond.p_met.iloc[0] == pytest.approx(0.75)
    # a d6 shield against ATK 3 absorbs ceil(X / 3) attacks: 1 or 2, each half the time
    shield = api.roll("dragoborne", "shield", atk=3)
    assert dict(zip(shield.attacks_absorbed, shield.probability, strict=True)) == {1: 0.5, 2: 0.5}
    # a Fight reported as probabilities: the winners' add up to 1
    fight = api.roll("drakerys", "fight", **KINDS[("drakerys", "fight")])
    assert fight[fight.measure == "winner"].probability.sum() == pytest.approx(1.0)


def test_an_unknown_keyword_names_the_accepted_ones():
    with pytest.raises(OptionError) as caught:
        api.roll("drakerys", "spell", levle=3)
    message = str(caught.value)
    assert message.startswith("roll drakerys spell: unknown option 'levle' (did you mean level?); accepted: "
                              "level, distance, sources,")
    assert "\n" not in message
    with pytest.raises(OptionError, match=r"roll drakerys spell: give level; accepted: level,"):
        api.roll("drakerys", "spell")
    with pytest.raises(OptionError, match=r"kind of roll 'spel' for drakerys; accepted: action, fight"):
        api.roll("drakerys", "spel", level=3)
    with pytest.raises(OptionError, match=r"duel warbound: unknown option 'sizes'; accepted: leader_a, "
                                          r"leader_b, distance, range,"):
        api.duel("warbound", "a", "b", sizes=3)
    with pytest.raises(OptionError, match=r"units drakerys: unknown option 'profile' \(did you mean "
                                          r"profiled\?\); accepted: profiled, catalogs"):
        api.units("drakerys", profile=True)
    with pytest.raises(OptionError, match=r"roll warbound attack: unknown options 'x', 'y'; accepted: dice"):
        api.roll("warbound", dice=1, target=7, x=1, y=2)


# --- the command tree against the API ---------------------------------------------------------------------

#: Options that shape what the command prints or writes, not what is computed: the API returns DataFrames.
PRESENTATION = {"fmt", "output", "plot", "wide", "save_dir", "force", "summary"}

#: The verbs whose commands are per game, and the API function standing for `balance VERB GAME`.
GENERIC = {"efficiency": api.efficiency, "whatif": api.whatif, "sweep": api.sweep, "points": api.points,
           "army": api.army}

#: What the API does not have yet, by (verb, game or "", kind or ""): kept exact, so that a gap closed or a
#: new one opened fails here.
KNOWN_GAPS: set = set()


def _names(param: click.Parameter) -> set[str]:
    """The keywords an API counterpart of ``param`` may have: its flag without dashes, its click name, and
    the plural of either for a repeatable option."""
    names = {param.name}
    if isinstance(param, click.Option):
        names |= {o.lstrip("-").replace("-", "_") for o in param.opts if o.startswith("--")}
        if param.multiple:
            names |= {f"{n}s" for n in names}
    return names


def _accepted(function) -> set[str]:
    return set(inspect.signature(function).parameters)


def _gaps(path: str, command: click.Command, function, arguments: dict[str, str] | None = None) -> set:
    accepted = _accepted(function)
    out = set()
    for param in command.params:
        if param.name in PRESENTATION or param.name == "budget" and "budget" in accepted:
            continue
        if arguments is not None and arguments.get(param.name) in accepted:
            continue  # the two sides, A and B (UberDrakes' --dragon and --vs-dragon): a and b
        if param.name in ("only",) and "units" in accepted:  # --unit: the entries, `units` in the API
            continue
        if not _names(param) & accepted:
            side = param.name[-2:] in ("_a", "_b") and path == "duel drakerys"
            out.add((path, "side options" if side else param.name))
    return out


def test_every_verb_and_option_has_an_api_counterpart():
    _register_pending()
    gaps: set = set()
    # `points --rulings` is its own function, api.points_rulings (another table), with points' options
    assert _accepted(api.points_rulings) - {"progress", "ruleset"} <= _accepted(api.points)
    for verb, function in GENERIC.items():
        for game in rulesets.names()[:5]:
            gaps |= {(verb, name) for _, name in _gaps(verb, cli.commands[verb].commands[game], function)}
    for game in rulesets.names()[:5]:
        side = rulesets.game(game).load_api()
        for kind, command in cli.commands["roll"].commands[game].commands.items():
            gaps |= _gaps(f"roll {game} {kind}", command, side.ROLLS[kind],
                          {"unit_a": "a", "unit_b": "b", "dice": "dice"})
        duel_args = {p.name: n for p, n in zip(
            [p for p in cli.commands["duel"].commands[game].params if isinstance(p, click.Argument)], "ab",
            strict=False)} or {"dragon": "a", "vs_dragon": "b"}
        gaps |= _gaps(f"duel {game}", cli.commands["duel"].commands[game], side.duel, duel_args)
        gaps |= _gaps(f"units {game}", cli.commands["units"].commands[game], side.units)
        tables = cli.commands["table"].commands[game]
        # each table through api.table(game, name)
        assert set(tables.commands) - {"all"} == set(rulesets.get(game).tables()), game
        gaps |= _gaps(f"table {game} all", tables.commands["all"], api.export_tables)
    assert gaps == KNOWN_GAPS


# --- the balance package ------------------------------------------------------------------------------------

_IMPORTS = """
import json, sys
import balance
heavy = [m for m in ("numba", "pandas", "numpy", "scipy", "matplotlib", "reports.api") if m in sys.modules]
print(json.dumps([heavy, balance.__all__]))
"""


def test_import_balance_is_light_and_its_names_are_the_apis():
    import json
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", _IMPORTS], capture_output=True, text=True, timeout=120)
    heavy, names = json.loads(done.stdout)
    assert heavy == [] and {"efficiency", "whatif", "sweep", "points", "army", "roll", "duel", "units",
                            "table", "games"} <= set(names)
    import balance
    from reports.site import report

    assert balance.roll is api.roll and balance.report is report and balance.games() == rulesets.names()
    with pytest.raises(AttributeError, match="has no attribute 'effciency'; it has: EfficiencyTables"):
        balance.effciency  # noqa: B018
    ranking = balance.efficiency("uberdrakes", trials=200, seed=1).ranking
    assert len(ranking) > 1 and ranking["rank"].min() == 1


# --- the generic verbs' options -----------------------------------------------------------------------------


def test_budget_is_the_games_budget_ruling_and_refused_where_there_is_none():
    pair = dict(units=["bucentaur-blades", "ogerron-phalanx"], trials=200, seed=1)
    by_budget = api.efficiency("dragonbond", budget=400, **pair).ranking
    by_ruling = api.efficiency("dragonbond", rulings=["DB-budget=400"], **pair).ranking
    assert "DB-budget=400" in by_budget.attrs["rulings"]
    assert by_budget.equals(by_ruling) and len(by_budget) == 2
    for verb in (api.efficiency, api.sweep, api.points, api.points_rulings):
        with pytest.raises(OptionError, match=r"^budget 300: warbound's contests are not bought from a"):
            verb("warbound", budget=300)
    with pytest.raises(OptionError, match=r"^budget 300: warbound's"):
        api.whatif("warbound", sets=["copp.attack=5"], budget=300)


def test_scheduler_and_dask_are_checked_before_any_work():
    with pytest.raises(OptionError, match=r"^scheduler and dask cannot be used together: give one$"):
        api.sweep("uberdrakes", cost_range="fire-breath=1..3", scheduler="tcp://localhost:8786", dask=True)
    with pytest.raises(OptionError, match=r"^scheduler: 'nonsense' is not a Dask scheduler address"):
        api.army("drakerys", scheduler="nonsense")


def test_whatif_rulings_are_the_change_and_baseline_rulings_the_baseline():
    """As on the command line: --ruling (``rulings``) is the variant's, --baseline-ruling the baseline's."""
    pair = dict(units=["fire-breath", "acid-rain"], trials=200, seed=1)
    change = api.whatif("uberdrakes", rulings=["UD-policy=greedy"], **pair).attrs["change"]
    assert change == "ruling UD-policy greedy (its default, unset) → greedy"
    both = api.whatif("uberdrakes", baseline_rulings=["UD-policy=greedy"], rulings=["UD-policy=optimal"],
                      **pair)
    assert both.attrs["change"] == "ruling UD-policy greedy → optimal"
    assert "UD-policy=greedy" in both.attrs["rulings"]  # the provenance states the baseline's
    with pytest.raises(OptionError, match=r"^whatif: give at least one of sets, costs or rulings"):
        api.whatif("uberdrakes", baseline_rulings=["UD-policy=greedy"])


# --- report: the site (reports.site.report: the API of a layer above reports.api) -------------------------


def test_report_has_the_commands_options_and_writes_the_same_bytes(capsys, tmp_path):
    from reports.site import report
    from tests.cli_run import run

    command = cli.commands["report"]
    # GAME... as `games`, --output DIR as `output`, every other option by its name
    wanted = {p.name for p in command.params} - {"folder"} | {"output"}
    assert wanted <= _accepted(report), wanted - _accepted(report)
    args = dict(games=["uberdrakes"], trials=200, points_steps=0, seed=2)
    written = report(output=tmp_path / "api", **args)
    code, _, err = run(capsys, "report", "uberdrakes", "--trials", "200", "--points-steps", "0", "--seed",
                       "2", "--output", str(tmp_path / "cli"))
    assert code == 0, err
    files = sorted(p.relative_to(tmp_path / "cli") for p in (tmp_path / "cli").rglob("*") if p.is_file())
    assert sorted(p.relative_to(tmp_path / "api") for p in written) == files and len(files) > 10
    for rel in files:
        assert (tmp_path / "api" / rel).read_bytes() == (tmp_path / "cli" / rel).read_bytes(), rel
    with pytest.raises(OptionError, match=r"is not empty \(\d+ entries\); give force=True"):
        report(output=tmp_path / "api", **args)
    with pytest.raises(OptionError, match=r"unknown ruleset 'uberdrake'"):
        report(output=tmp_path / "new", games=["uberdrake"])
    assert not (tmp_path / "new").exists()


# --- duels and units: the command and the API are one implementation --------------------------------------

DUELS = {
    "drakerys": (("crows", "gold-keepers"), dict(rounds=2, size_a=9, stress_b=1),
                 ["--rounds", "2", "--size-a", "9", "--stress-b", "1"]),
    "dragonbond": (("bucentaur-blades", "ogerron-phalanx"), dict(rounds=2), ["--rounds", "2"]),
    "warbound": (("copp", "roh-na"), dict(leader_a="raiders-warlord", range="far"),
                 ["--leader-a", "raiders-warlord", "--range", "far"]),
    "dragoborne": (("red-blaze", "green-grove"), dict(mulligan="none"), ["--mulligan", "none"]),
}


@pytest.mark.parametrize("game", list(DUELS))
def test_a_duels_new_options_give_the_commands_numbers(capsys, game):
    from tests.cli_run import csv, run

    (a, b), keywords, flags = DUELS[game]
    frame = api.duel(game, a, b, trials=300, seed=3, **keywords)
    code, out, err = run(capsys, "duel", game, a, b, *flags, "--trials", "300", "--seed", "3", "--format",
                         "csv")
    assert code == 0, err
    typed = csv(out)
    numbers = list(frame.select_dtypes("number").columns)
    assert list(typed.columns) == list(frame.columns) and len(frame) > 3 and numbers
    assert typed[numbers].to_numpy(float) == pytest.approx(frame[numbers].to_numpy(float), abs=1e-9,
                                                           nan_ok=True)
    plain = api.duel(game, a, b, trials=300, seed=3)  # the options change the numbers
    assert not plain[numbers].to_numpy(float) == pytest.approx(frame[numbers].to_numpy(float), abs=1e-9,
                                                               nan_ok=True)


def test_units_checks_a_deck():
    listing = api.units("dragoborne")
    deck = api.units("dragoborne", deck="red-blaze", lenient=True)
    assert "red-blaze" in deck.attrs["title"].lower() or "red blaze" in deck.attrs["title"].lower()
    assert len(listing) > len(deck) > 0
    with pytest.raises(OptionError, match=r"^deck 'nowhere.toml': no such file"):
        api.units("warbound", deck="nowhere.toml")
