"""Games as plug-ins: the registry, the command line and the API find every game through the entry points
of the group ``balance.games`` (rulesets.games), the five built-in ones included; a sixth game (the toy
game of tests/toy_game.py) registered by a package of its own gets every generic verb; a plug-in that does
not load is one line naming it."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path

import pandas as pd
import pytest
from toy_game import FIELD, toy

import rulesets
from reports import api
from rulesets.base import RulesError
from rulesets.games import BUILTIN, Game

ROOT = Path(__file__).resolve().parent.parent
TESTS = Path(__file__).resolve().parent

#: A package of its own declaring the toy game (strengths and costs of toy_game.FIELD).
TOY_MODULE = """
from rulesets.games import Game
from toy_game import FIELD, toy

GAME = Game(lambda: toy(*FIELD))
"""

#: Runs `balance ARGS` for each ARGS of the JSON list in argv[1] in one interpreter; prints a JSON list of
#: [exit code, stdout, stderr] per command.
_RUN = """
import contextlib, io, json, sys
from reports.cli import main
out = []
for args in json.loads(sys.argv[1]):
    so, se = io.StringIO(), io.StringIO()
    code = 0
    with contextlib.redirect_stdout(so), contextlib.redirect_stderr(se):
        try:
            main(args)
        except SystemExit as exc:
            code = exc.code or 0
    out.append([code, so.getvalue(), se.getvalue()])
print(json.dumps(out))
"""


def plugin_folder(tmp_path: Path, name: str, value: str, module: str | None = None) -> Path:
    """A folder for sys.path holding a distribution's metadata (``name-0.1.dist-info``) whose only entry
    point is ``{name} = {value}`` in group balance.games, and the module ``{name}_plugin`` if given."""
    folder = tmp_path / name
    info = folder / f"{name}_plugin-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}-plugin\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[balance.games]\n{name} = {value}\n")
    if module is not None:
        (folder / f"{name}_plugin.py").write_text(module)
    return folder


def run_balance(folder: Path, *commands: list[str]) -> list[tuple[int, str, str]]:
    """Each `balance ARGS` run in a fresh interpreter that has ``folder`` (and tests/) on its path."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(folder), str(TESTS)])}
    done = subprocess.run([sys.executable, "-c", _RUN, json.dumps(list(commands))], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return [tuple(r) for r in json.loads(done.stdout)]


def _csv(text: str) -> pd.DataFrame:
    return pd.read_csv(io.StringIO(text))


def exact_win(key: str) -> float:
    """The toy entry ``key``'s P(win) against every other entry of FIELD, both roles, averaged."""
    strength = {k: s for k, s, _ in FIELD}
    own = strength[key]
    p = []
    for other, s in strength.items():
        if other != key:
            p += [min(1.0, own / (own + s) + 0.05), 1 - min(1.0, s / (own + s) + 0.05)]
    return sum(p) / len(p)


def test_the_five_games_are_this_packages_entry_points():
    declared = {p.name: p.value for p in entry_points(group=rulesets.GROUP)}
    assert {n: declared.get(n) for n in BUILTIN} == {n: f"rulesets.games:{n.upper()}" for n in BUILTIN}
    assert rulesets.names()[:5] == ("drakerys", "dragonbond", "warbound", "uberdrakes", "dragoborne")
    assert [rs.name for rs in rulesets.available()][:5] == list(BUILTIN)


def test_plugins_come_after_the_five_in_alphabetical_order(monkeypatch):
    points = {**rulesets.discover(),
              "zebra": EntryPoint("zebra", "test_plugins:ZEBRA", rulesets.GROUP),
              "toy": EntryPoint("toy", "test_plugins:TOY", rulesets.GROUP)}
    monkeypatch.setattr(rulesets, "discover", lambda: points)
    assert rulesets.names() == (*BUILTIN, "toy", "zebra")
    assert rulesets.get("Toy").name == "toy"
    with pytest.raises(RulesError, match="the game plug-in 'zebra' gives the ruleset 'toy'"):
        rulesets.get("zebra")
    # a game without a reports side: the generic verbs, and a clear line for the rest
    tables = api.efficiency("toy", trials=4000, seed=3)
    cat = tables.ranking.set_index("key").loc["cat"]
    assert abs(cat["win"] - exact_win("cat")) < 4 * cat["win_stderr"]
    with pytest.raises(RulesError, match="toy has no reports side of its own"):
        api.units("toy")


TOY = Game(lambda: toy(*FIELD))
ZEBRA = Game(lambda: toy(*FIELD))  # a ruleset named "toy" under the name "zebra": refused


@pytest.mark.parametrize("value, said", [
    ("no_such_module:GAME", "does not load: ModuleNotFoundError: No module named 'no_such_module'"),
    ("test_plugins:NOWHERE", "does not load: AttributeError"),
    ("test_plugins:ROOT", "gives a PosixPath, not a rulesets.games.Game or a Ruleset"),
])
def test_a_bad_entry_point_is_one_line_naming_it(monkeypatch, value, said):
    points = {**rulesets.discover(), "broken": EntryPoint("broken", value, rulesets.GROUP)}
    monkeypatch.setattr(rulesets, "discover", lambda: points)
    assert "broken" in rulesets.names()  # listed without loading it
    with pytest.raises(RulesError) as caught:
        rulesets.get("broken")
    message = str(caught.value)
    assert "\n" not in message and f"'broken' (entry point '{value}' in group balance.games)" in message
    assert said in message


def test_every_generic_verb_runs_for_a_plugin_game_on_the_command_line(tmp_path):
    folder = plugin_folder(tmp_path, "toy", "toy_plugin:GAME", TOY_MODULE)
    mc = ["--trials", "3000", "--seed", "2", "--format", "csv"]
    (eff, whatif, sweep, points, listing, roll, builtin) = run_balance(
        folder, ["efficiency", "toy", *mc], ["whatif", "toy", "--set", "bee.strength=3", *mc],
        ["sweep", "toy", "--cost", "bee=50..150/50", *mc], ["points", "toy", "--iterations", "1", *mc],
        ["efficiency", "--help"], ["roll", "toy"], ["table", "drakerys", "action", "--max-dice", "1"])
    assert eff[0] == 0, eff[2]
    rank = _csv(eff[1]).set_index("key")
    assert list(rank.index) == ["cat", "ant", "bee", "dog"]  # by value per cost: cat strongest at 100 gold
    for key in rank.index:
        assert abs(rank.loc[key, "win"] - exact_win(key)) < 4 * rank.loc[key, "win_stderr"], key
    assert whatif[0] == 0, whatif[2]
    diff = _csv(whatif[1]).set_index(["key", "metric"])
    # bee at strength 3 against ant: P(win) from 2/3 to 3/4 as the opener; its mean win rises
    assert diff.loc[("bee", "win"), "diff_low"] > 0 and diff.loc[("ant", "win"), "diff_high"] < 0
    assert sweep[0] == 0, sweep[2]
    assert set(_csv(sweep[1]).point) == {50, 100, 150}
    assert points[0] == 0, points[2]
    table = _csv(points[1])
    assert sorted(table.key) == ["ant", "bee", "cat", "dog"] and table.proposed_cost.notna().all()
    assert listing[0] == 0 and "  toy " in listing[1]
    assert roll[0] == 1 and roll[2].count("\n") == 1  # no reports side: no rolls, one line
    assert "toy has no reports side of its own, so no roll kinds" in roll[2]
    assert builtin[0] == 0 and "Action Table" in builtin[1]


def test_a_broken_plugin_fails_alone_on_the_command_line(tmp_path):
    folder = plugin_folder(tmp_path, "broken", "no_such_module:GAME")
    asked, listing, other = run_balance(folder, ["efficiency", "broken"], ["efficiency", "--help"],
                                        ["whatif", "drakerys", "--help"])
    assert asked[0] == 1 and asked[2].count("\n") == 1
    assert asked[2].startswith("balance: error: the game plug-in 'broken' (entry point 'no_such_module:GAME'")
    assert listing[0] == 0 and "broken" in listing[1] and "drakerys" in listing[1]
    assert other[0] == 0
