"""Starting at once: the command tree and the exact tables load neither numba nor pandas (nor scipy nor
matplotlib), which take most of a second to import; the command tree (every --help) loads no numpy and no
catalog either; and the plain-Python tables (reports.formats.Table) that let the exact tables print without
pandas print exactly what their DataFrames would.

Each command runs in a fresh interpreter, the only way to see what it imports. No timings are asserted.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import click
import numpy as np
import pytest

from reports import api
from reports.cli import BLAS_THREADS, cli
from reports.drakerys.magic import invocation_report, spell_report
from reports.drakerys.tables import roll_report
from reports.formats import FORMATS, Report, Section, Table, render
from reports.tables import rulesets_report
from rulesets import drakerys
from rulesets.drakerys import magic

ROOT = Path(__file__).resolve().parent.parent
HEAVY = ("numba", "llvmlite", "pandas", "scipy", "matplotlib")
#: What building the command tree loads none of either: numpy, and tomllib (the catalogs' reader).
TREE_HEAVY = ("numpy", "tomllib")

#: Runs `balance ARGS` for each ARGS of the JSON list in argv[1], in-process and successfully, then prints
#: which of the modules named in argv[2] were imported by then.
_PROBE = """
import contextlib, io, json, sys
from reports.cli import main
for args in json.loads(sys.argv[1]):
    with contextlib.redirect_stdout(io.StringIO()):
        try:
            main(args)
        except SystemExit as exc:
            assert exc.code in (0, None), (args, exc.code)
print(json.dumps([m for m in json.loads(sys.argv[2]) if m in sys.modules]))
"""


def heavy_imports(*commands: list[str], heavy: tuple[str, ...] = HEAVY) -> list[str]:
    """The ``heavy`` modules a fresh interpreter imported to run the ``commands`` (each `balance ARGS`)."""
    done = subprocess.run([sys.executable, "-c", _PROBE, json.dumps(list(commands)), json.dumps(heavy)],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def _every_help(command: click.Command, path: tuple[str, ...] = ()):
    yield [*path, "--help"]
    if isinstance(command, click.Group):
        for name, sub in command.commands.items():
            yield from _every_help(sub, (*path, name))


def test_balance_help_imports_nothing_heavy():
    assert heavy_imports(["--help"]) == []


def test_balance_help_loads_no_game():
    """The top-level help lists the verbs only: the games' subcommands are registered when a verb's
    commands are first read (reports.cli.verbs.when_needed), so no game package is imported."""
    assert heavy_imports(["--help"], heavy=("rulesets.drakerys", "reports.drakerys.cli")) == []
    assert heavy_imports(["table", "--help"], heavy=("reports.drakerys.cli",)) == ["reports.drakerys.cli"]


OTHER_GAMES = tuple(f"reports.{g}.cli" for g in ("dragonbond", "warbound", "uberdrakes", "dragoborne"))


@pytest.mark.parametrize("args", [["table", "drakerys", "action"], ["efficiency", "drakerys", "--help"],
                                  ["roll", "drakerys", "--dice", "3", "--action", "3", "--opposition", "3"]],
                         ids=["table", "efficiency --help", "roll"])
def test_a_games_command_registers_that_game_alone(args):
    """`balance VERB GAME ...` imports that game's commands, not the four others' (reports.cli.verbs); a
    verb's own help lists every game (the control: it imports them all)."""
    assert heavy_imports(args, heavy=("reports.drakerys.cli", *OTHER_GAMES)) == ["reports.drakerys.cli"]
    assert heavy_imports(["efficiency", "--help"], heavy=OTHER_GAMES) == list(OTHER_GAMES)


def test_every_help_of_the_tree_imports_nothing_heavy():
    assert heavy_imports(*_every_help(cli)) == []


@pytest.mark.parametrize("commands", [[["--help"]], list(_every_help(cli))],
                         ids=["balance --help", "every --help"])
def test_the_tree_imports_no_numpy_and_no_catalog(commands):
    assert heavy_imports(*commands, heavy=TREE_HEAVY) == []


#: The exact tables and rolls, in a few formats: printed without numba, scipy, matplotlib or pandas.
EXACT = [
    ["table", "drakerys", "action"],
    ["table", "drakerys", "action", "--format", "csv", "--swashbuckler", "--max-dice", "6"],
    ["table", "drakerys", "morale", "--format", "json"],
    ["table", "drakerys", "spell", "--format", "markdown"],
    ["table", "drakerys", "invocation", "--format", "html"],
    ["table", "drakerys", "weapons", "--format", "latex"],
    ["roll", "drakerys", "--dice", "12", "--action", "3", "--opposition", "4", "--show", "joint"],
    ["roll", "drakerys", "spell", "--level", "3", "--distance", "25", "--maelstroms", "1", "--mana", "4"],
    ["roll", "drakerys", "invocation", "--source", "maelstrom", "--format", "csv"],
    ["rulesets"],
]


@pytest.mark.parametrize("args", EXACT, ids=[" ".join(a) for a in EXACT])
def test_exact_tables_import_nothing_heavy(args):
    assert heavy_imports(args) == []


#: Prints the thread count of numpy's OpenBLAS after `balance --version` ran in this process (argv[1] "1") or
#: not, or "none" when numpy bundles no OpenBLAS of its own (another BLAS: nothing to count here).
_BLAS_PROBE = """
import contextlib, ctypes, glob, io, os, sys
if sys.argv[1] == "1":
    from reports.cli import main
    with contextlib.redirect_stdout(io.StringIO()):
        try:
            main(["--version"])
        except SystemExit:
            pass
import numpy
libs = glob.glob(os.path.join(os.path.dirname(numpy.__file__) + ".libs", "libscipy_openblas64_*.so"))
print(ctypes.CDLL(libs[0]).scipy_openblas_get_num_threads64_() if libs else "none")
"""


def _blas_threads(through_main: bool, env: dict[str, str]) -> str:
    done = subprocess.run([sys.executable, "-c", _BLAS_PROBE, "1" if through_main else "0"], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_the_command_runs_blas_on_one_thread_unless_the_user_sets_it():
    import os

    env = {k: v for k, v in os.environ.items() if k not in BLAS_THREADS}
    control = _blas_threads(False, env)
    if control == "none":
        pytest.skip("numpy bundles no OpenBLAS here")
    if os.cpu_count() > 1:
        assert int(control) > 1  # the control: OpenBLAS left alone takes every core
    assert _blas_threads(True, env) == "1"
    assert _blas_threads(True, {**env, "OPENBLAS_NUM_THREADS": "2"}) == "2"  # the user's choice is kept


def test_scipy_optimize_is_imported_only_for_a_meta_game():
    """HiGHS (scipy.optimize, ~0.35 s to import) is loaded by reports that solve a meta-game, not by a
    duel or a what-if (numba itself loads scipy.linalg for its BLAS bindings)."""
    mc = ["--trials", "300", "--seed", "1"]
    assert heavy_imports(["duel", "drakerys", "crows", "gold-keepers", *mc],
                         ["whatif", "drakerys", "--set", "crows.combat=4", "--unit", "crows", "--unit",
                          "warriors", *mc], heavy=("scipy.optimize",)) == []
    assert heavy_imports(["efficiency", "drakerys", "--unit", "crows", *mc],
                         heavy=("scipy.optimize",)) == ["scipy.optimize"]


def test_exporting_every_table_loads_no_numba(tmp_path):
    """`table drakerys all` goes through the Python API (pandas, scipy) and draws PNGs (matplotlib), but
    computes nothing by simulation."""
    assert "numba" not in heavy_imports(["table", "drakerys", "all", "--output", str(tmp_path / "tables")])


# ---------------------------------------------------------------------------------------------------
# the plain tables print exactly as their DataFrames
# ---------------------------------------------------------------------------------------------------

def _as_frames(report: Report) -> Report:
    """The same report with every table a DataFrame (printed by the pandas path)."""
    def framed(sections):
        return [Section(s.name, s.title, s.data, s.notes, narrow=s.narrow, keys=s.keys, whole=s.whole)
                for s in sections]

    return Report(report.title, report.meta, framed(report.sections), framed(report.views), report.notes,
                  report.facts, report.headline)


def _exact_reports() -> dict[str, Report]:
    reports = {name: api.table_report("drakerys", name) for name in drakerys.RULESET.tables()}
    reports["rulesets"] = rulesets_report()
    roll = drakerys.ActionRoll(6, 5, heroic=1, swashbuckler=True)
    reports["roll"] = roll_report(drakerys.exact_action_roll(roll, joint=True),
                                  ("successes", "criticals", "joint"))
    cast = magic.SpellCast(3, 25, vortexes=1, maelstroms=1, mana=4)
    reports["spell roll"] = spell_report(magic.spell_distribution(cast))
    reports["invocation roll"] = invocation_report(
        magic.invocation_distribution(magic.InvocationRoll(0, "maelstrom")))
    return reports


REPORTS = _exact_reports()


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("name", list(REPORTS))
def test_plain_tables_print_as_their_dataframes(name, fmt):
    report = REPORTS[name]
    assert all(s.table is not None for s in report.sections + report.views)
    assert render(report, fmt) == render(_as_frames(report), fmt)


def test_plain_table_kinds_of_column_print_as_pandas_infers_them():
    nan = float("nan")
    table = Table({
        "int": [1, 2, 3], "mixed numbers": [1, 2.5, np.float64(3)], "missing": [0.1, nan, 1e-7],
        "bool": [True, False, np.True_], "array": np.array([0.25, 1e20, -0.0]),
        "flags": np.array([True, False, True]), "text": ['a, "quoted"', "", "≥ 3"],
        "numeric text": ["1", "", ">99.9"], "ints and text": [1, "two", 3], "bools and ints": [True, 0, 1],
    })
    report = Report("kinds", [("k", "v")], [Section("kinds", "Kinds", table, ["a note"])], notes=["n"])
    for fmt in FORMATS:
        assert render(report, fmt) == render(_as_frames(report), fmt), fmt
    assert list(report.sections[0].data.dtypes.astype(str)[:2]) == ["int64", "float64"]


def test_plain_table_refuses_none():
    with pytest.raises(ValueError, match="None"):
        Table({"x": [1, None]})
