"""The terminal: every verb's default output fits 100 columns with the answer first (the click tree walked,
every game's fast commands run), and Monte Carlo estimates are shown to the digits their error bars
support."""

from __future__ import annotations

import math
import shlex

import click
import pytest
from cli_run import run

from reports.cli import GAMES, cli
from reports.formats import TABLE_WIDTH
from reports.tables import decimals_for, estimate_cells, share_text


@pytest.mark.parametrize("half, decimals", [(0.0218, 3), (0.0999, 3), (0.1, 2), (2.4, 1), (9.9, 1),
                                            (10.0, 0), (350.0, 0), (1e-9, 6)])
def test_an_estimate_shows_its_half_width_to_two_significant_digits(half, decimals):
    assert decimals_for(half) == decimals


@pytest.mark.parametrize("half", [0.0, -1.0, math.nan, math.inf])
def test_no_error_bar_gives_no_rounding_rule(half):
    assert decimals_for(half) is None


def test_estimate_cells_round_the_value_and_interval_alike():
    assert estimate_cells(0.441895, 0.420113, 0.463677) == ("0.442", "[0.420, 0.464]")
    assert estimate_cells(111.2, 108.576316, 113.823684) == ("111.2", "[108.6, 113.8]")
    assert estimate_cells(0.0, 0.0, 0.000768) == ("0", "[0, 0.00077]")  # none seen; Wilson's upper end
    assert estimate_cells(0.25, 0.25, 0.25) == ("0.25", "")  # exact: as it is, no interval
    assert estimate_cells(math.nan, math.nan, math.nan) == ("", "")


def test_share_text_is_a_percentage_rounded_as_its_interval_allows():
    assert share_text(0.4455, 0.011114) == "44.6% ± 2.2%"
    assert share_text(0.004, 0.0014) == "0.40% ± 0.27%"
    assert share_text(1 / 3, 0.0) == "33.3%"
    assert share_text(1.0, 0.0) == "100%"


# --- every verb's default output within 100 columns, the answer first --------------------------------------

#: The verbs walked here: their default commands are quick.
FAST = {"rulesets", "roll", "table", "units", "duel"}
#: The verbs whose reports are the generic balance layer (efficiency, what-if, sweep, points, army),
#: walked below with few trials, or a whole site (report: its terminal summary, tested on its own).
GENERIC = {"efficiency", "whatif", "sweep", "points", "army", "report"}
#: Trials of a Monte Carlo run here: enough to print every row, few enough to be quick.
TRIALS = "2000"
#: Options that say where the output goes or how it is encoded: taken out of an example.
_WHERE = {"--format", "--output", "-o", "--plot"}


def _leaves(command: click.Command, path: tuple[str, ...] = ()):
    if isinstance(command, click.Group):
        for name, sub in command.commands.items():
            yield from _leaves(sub, (*path, name))
    else:
        yield path, command


def _example(command: click.Command) -> list[str]:
    """The words of the command's Example (it may run over several lines), after `balance`."""
    lines = command.help.splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip().startswith("Example:"))
    text = [lines[start].strip().removeprefix("Example:")]
    for line in lines[start + 1:]:
        if not line.strip():
            break
        text.append(line.strip())
    return shlex.split(" ".join(text))[1:]


def _terminal(words: list[str]) -> list[str]:
    """``words`` without the options that send the output elsewhere."""
    out, skip = [], False
    for w in words:
        if skip:
            skip = False
        elif w in _WHERE:
            skip = True
        elif w.split("=")[0] not in _WHERE:
            out.append(w)
    return out


def _simulates_only(command: click.Command) -> bool:
    """Whether the command always runs a Monte Carlo simulation (its --trials does not switch one on)."""
    trials = next((p for p in command.params if p.name == "trials"), None)
    return trials is not None and "instead of the exact" not in (trials.help or "")


def default_runs() -> list[tuple[str, ...]]:
    """Every game's default command of each verb but the generic ones: a table or catalog as it is; a
    roll or duel as its help's example runs it, with few trials where it simulates."""
    runs = [("rulesets",)]
    for path, command in _leaves(cli):
        if path[0] not in FAST or path[0] == "rulesets" or path[-1] == "all":
            continue
        if path[0] in ("table", "units"):
            runs.append(path)
        words = _terminal(_example(command))
        if _simulates_only(command):
            words = [w for i, w in enumerate(words) if w != "--precision" and words[i - 1] != "--precision"]
            words += ["--trials", TRIALS]
        if tuple(words) not in runs:
            runs.append(tuple(words))
    return runs


RUNS = default_runs()


def test_every_verb_is_walked_here_or_said_to_be_slow():
    """A new verb is either quick (walked here) or named among the generic ones: never left out unseen."""
    assert set(cli.commands) <= FAST | GENERIC, set(cli.commands) - FAST - GENERIC


def test_the_walk_covers_every_game_under_every_fast_verb():
    for verb in ("roll", "table", "units", "duel"):
        assert {r[1] for r in RUNS if r[0] == verb} == set(GAMES), verb


@pytest.mark.parametrize("args", RUNS, ids=[" ".join(r) for r in RUNS])
def test_default_output_fits_100_columns_with_the_answer_first(capsys, args):
    code, out, err = run(capsys, *args)
    assert code == 0, f"balance {' '.join(args)} exited {code}: {err}"
    assert "Traceback" not in err
    lines = out.splitlines()
    wide = [line for line in lines if len(line) > TABLE_WIDTH]
    assert not wide, f"{len(wide)} lines over {TABLE_WIDTH} columns, e.g. {wide[0]!r}"
    # the answer first: the title, then a headline or a table; what the numbers rest on comes last
    assert lines[0] and not lines[0].startswith(" ")
    if "Provenance" in lines:
        first = lines.index("Provenance")
        assert first > 2 and not any(line.startswith("  ruleset:") for line in lines[:first])


# --- the generic verbs: each game's default command, few trials, each table row one line -------------------

#: Trials of an engagement in the generic verbs' runs: every row printed, quick.
GENERIC_TRIALS = "100"
#: The games whose battles are slow (and Dragoborne's whole-game contests, 78 s for its catalog): their
#: runs take a few units of the help's example.
FEW_UNITS = {"drakerys": ("crows", "warriors"), "dragonbond": ("bucentaur-blades", "ogerron-phalanx"),
             "dragoborne": ("pyre-drake", "magma-hound", "scorch-knight")}
#: The games whose battles are whole armies': the army search is walked for them.
ARMY_GAMES = {"drakerys", "dragonbond"}
#: What the answer's first line says, by verb: it comes before any table.
ANSWERS = {"efficiency": "verdicts: ", "whatif": "difference ", "sweep": "break-even cost: ",
           "points": "Proposed: ", "army": "Best army at "}


def generic_runs() -> list[tuple[str, ...]]:
    """Each game's default command of each generic verb: efficiency, points and army as they are, what-if
    and sweep as their help's example runs them (without its --plot or --format), with few trials and one
    step of points; the slow games on a few units (FEW_UNITS)."""
    runs = []
    for verb in ("efficiency", "whatif", "sweep", "points", "army"):
        for game, command in cli.commands[verb].commands.items():
            if verb == "army" and game not in ARMY_GAMES:
                continue
            words = [verb, game]
            if verb in ("whatif", "sweep"):
                words = [w for w in _terminal(_example(command))]
                words = [w for i, w in enumerate(words) if w != "--unit" and words[i - 1] != "--unit"]
            units = FEW_UNITS.get(game, ())
            for unit in units:
                words += ["--unit", unit]
            words += ["--trials", GENERIC_TRIALS] + (["--iterations", "1"] if verb == "points" else [])
            runs.append(tuple(words))
    return runs


GENERIC_RUNS = generic_runs()


def test_the_walk_covers_every_game_under_every_generic_verb():
    for verb in ("efficiency", "whatif", "sweep", "points"):
        assert {r[1] for r in GENERIC_RUNS if r[0] == verb} == set(GAMES), verb
    assert {r[1] for r in GENERIC_RUNS if r[0] == "army"} == ARMY_GAMES


@pytest.fixture
def table_rows(monkeypatch):
    """Every table the table format prints, as (its heading, the lines of each row), in parts when cut."""
    from reports import formats

    printed: list[list[tuple[list[str], list[list[str]]]]] = []
    blocks, lines = formats._table_blocks, formats._table_lines

    def spy(header, rows, right, width, keys, whole=()):
        printed.append(blocks(header, rows, right, width, keys, whole))
        return lines(header, rows, right, width, keys, whole)

    monkeypatch.setattr(formats, "_table_lines", spy)
    return printed


@pytest.mark.parametrize("args", GENERIC_RUNS, ids=[" ".join(r) for r in GENERIC_RUNS])
def test_generic_verbs_fit_100_columns_one_line_a_row_answer_first(capsys, table_rows, args):
    code, out, err = run(capsys, *args)
    assert code == 0, f"balance {' '.join(args)} exited {code}: {err}"
    lines = out.splitlines()
    wide = [line for line in lines if len(line) > TABLE_WIDTH]
    assert not wide, f"{len(wide)} lines over {TABLE_WIDTH} columns, e.g. {wide[0]!r}"
    assert table_rows, "no table printed"
    for parts in table_rows:
        assert len(parts) == 1, f"a table cut into {len(parts)} parts: {parts[0][0]}"
        split = [row for row in parts[0][1] if len(row) != 1]
        assert not split, f"{len(split)} of {len(parts[0][1])} rows over two lines or more, e.g. {split[0]}"
    # the answer first: its line among the first four, above the first table's title (a blank line)
    first_table = lines.index("")
    answer = next(i for i, line in enumerate(lines) if ANSWERS[args[0]] in line)
    assert answer < min(first_table, 4), f"the answer on line {answer + 1}: {lines[:6]}"
    if "Provenance" in lines:
        assert not any(line.startswith("  ruleset:") for line in lines[:lines.index("Provenance")])


@pytest.mark.parametrize("args", [("efficiency", "warbound", "--unit", "copp", "--unit", "analyst",
                                   "--trials", GENERIC_TRIALS)])
@pytest.mark.parametrize("fmt", ["csv", "json", "markdown"])
def test_wide_and_the_other_formats_keep_every_column(capsys, args, fmt):
    """--wide prints every column of the ranking and the win matrix; another format is not laid out for a
    terminal (no lead, no narrowed table)."""
    code, wide, _ = run(capsys, *args, "--wide")
    assert code == 0
    assert "fair cost [95%]" in wide and "Win probability of the row entry" in wide
    assert "not shown here" not in wide
    code, out, _ = run(capsys, *args, "--format", fmt)
    assert code == 0
    assert "not shown here" not in out and "value ± 95%" not in out


def test_the_report_summary_wraps_within_100_columns():
    from pathlib import PurePath

    import rulesets
    from reports.site import GamePage, summary

    offender = "Plate Armor (X = 5): under-costed, off by +31% [+27%, +35%] (6 Magic or coins today) " * 2
    page = GamePage(rulesets.get("uberdrakes"), 21, {"fair": 4, "under-costed": 6}, "exact", "yes", 3,
                    offenders=[offender.strip()])
    lines = summary([page], PurePath("out")).splitlines()
    assert lines[0] == "verdicts:"
    assert all(len(line) <= TABLE_WIDTH for line in lines), max(map(len, lines))
    assert len(lines) == 5  # the game, its offender over two lines, where the report is


# --- the reports of several budgets, the pricing rule and the rulings study --------------------------------

#: Each report on a small, quick case: its command, what its answer (the line under the title) begins
#: with, and a heading of its old layout that --wide and the other formats for reading keep.
SPECIAL_RUNS = {
    "budgets": (("efficiency", "drakerys", "--unit", "crows@6", "--unit", "warriors@6", "--trials", "200",
                 "--budget", "300", "--budget", "600"),
                "at 300 and 600 AP the best entry is ", "verdict at 300"),
    "rule": (("points", "warbound", "--rule", "--iterations", "1", "--trials", "50",
              "--unit", "copp", "--unit", "analyst", "--unit", "rohna", "--unit", "rahna"),
             "Pricing rule: ", "priced off the rule"),
    "rulings": (("points", "warbound", "--rulings", "--trials", "100",
                 "--unit", "copp", "--unit", "analyst", "--unit", "rohna"),
                "readings move an entry's fair cost by more than 10%", "moved beyond the tolerance"),
}


@pytest.fixture
def rendered(monkeypatch):
    """The reports the command line renders, as they are before rendering."""
    from reports import formats

    reports, render = [], formats.render

    def spy(report, fmt, *, wide=False):
        reports.append(report)
        return render(report, fmt, wide=wide)

    monkeypatch.setattr(formats, "render", spy)
    return reports


@pytest.mark.parametrize("case", list(SPECIAL_RUNS))
def test_budgets_rule_and_rulings_fit_100_columns_answer_first(capsys, table_rows, rendered, case):
    from reports.formats import render

    args, answer, old = SPECIAL_RUNS[case]
    code, out, err = run(capsys, *args)
    assert code == 0, f"balance {' '.join(args)} exited {code}: {err}"
    lines = out.splitlines()
    wide = [line for line in lines if len(line) > TABLE_WIDTH]
    assert not wide, f"{len(wide)} lines over {TABLE_WIDTH} columns, e.g. {wide[0]!r}"
    assert answer in lines[1], lines[:3]
    assert table_rows, "no table printed"
    for parts in table_rows:
        assert len(parts) == 1, f"a table cut into {len(parts)} parts: {parts[0][0]}"
        split = [row for row in parts[0][1] if len(row) != 1]
        assert not split, f"{len(split)} of {len(parts[0][1])} rows over two lines or more, e.g. {split[0]}"
    if case == "rule":  # asked for, the rule comes first; its old place is after the points table
        assert out.index("The pricing rule") < out.index("The proposed points table")
        wide_text = render(rendered[-1], "table", wide=True)
        assert wide_text.index("The pricing rule") > wide_text.index("The proposed points table")
    else:
        assert old not in out
    assert "Provenance" in lines and not any(line.startswith("  ruleset:") for line in
                                             lines[:lines.index("Provenance")])
    # --wide and the formats for reading: the old layout, every column of it
    report = rendered[-1]
    for text in (render(report, "table", wide=True), render(report, "markdown"), render(report, "html")):
        assert old in text, case


def test_several_budgets_compare_fair_costs_rounded_as_their_intervals_allow():
    """The comparison's fair costs are rounded, a column alike, to what its widest interval supports."""
    import numpy as np

    from reports.efficiency import _fair_cells

    cells = _fair_cells([298.04, 104.9, 56.44], [285.1, 102.0, 54.0], [311.2, 108.3, 59.0])
    assert cells == [("298", "[285, 311]"), ("105", "[102, 108]"), ("56", "[54, 59]")]
    assert _fair_cells([1.874, 3.712], [1.70, 3.65], [2.05, 3.77]) == [("1.87", "[1.70, 2.05]"),
                                                                       ("3.71", "[3.65, 3.77]")]
    assert _fair_cells([4.0], [4.0], [4.0]) == [("4.00", "")]  # exact: no interval
    assert _fair_cells([np.nan], [3.0], [np.inf]) == [("above 3", "")]  # the zero rule: a side of today's
    assert _fair_cells([2.5], [2.1], [np.inf]) == [("2.50", "[2.10, ∞]")]


def test_a_rulings_move_has_an_interval_from_both_runs_ends():
    """A reading's move of a fair cost: the ratio - 1, between the ratios of the intervals' ends; of a value
    (the zero rule): the difference ± 1.96 x the standard errors in quadrature; unbounded when the
    baseline's interval reaches 0 or the estimate lies outside its own interval."""
    import pandas as pd

    from reports.points import _move, _move_cells

    def row(f, lo, hi, value=0.0, stderr=0.0):
        return pd.Series({"fair_cost": f, "fair_cost_low": lo, "fair_cost_high": hi, "value": value,
                          "value_stderr": stderr})

    move, low, high = _move(row(2.0, 1.8, 2.2), row(3.0, 2.7, 3.3), zero=False)
    assert (move, low, high) == pytest.approx((0.5, 2.7 / 2.2 - 1, 3.3 / 1.8 - 1))
    assert _move_cells(100 * move, 100 * low, 100 * high) == ("50", "[23, 83]")
    move, low, high = _move(row(0, 0, 0, 0.10, 0.01), row(0, 0, 0, 0.13, 0.02), zero=True)
    assert move == pytest.approx(0.03) and high - move == pytest.approx(1.959964 * math.sqrt(5e-4), rel=1e-5)
    assert _move(row(2.0, 0.0, 4.0), row(3.0, 2.7, 3.3), zero=False)[1:] == (-math.inf, math.inf)
    assert _move(row(2.0, 1.8, 2.2), row(-180.0, -150.0, -90.0), zero=False)[1:] == (-math.inf, math.inf)
    assert _move_cells(-27030.0, -math.inf, math.inf) == ("-27030", "[-∞, ∞]")


def test_a_verdict_that_moves_with_the_budget_reads_in_budget_order():
    """Two budgets, two entries: the best entry named at each budget, a verdict that moves shown "under →
    fair" with a note saying the order, one that holds shown once."""
    from types import SimpleNamespace

    import pandas as pd

    from reports.efficiency import best_entries, budgets_terminal
    from reports.formats import Section, Table

    def rank(order, fair, verdicts):
        return pd.DataFrame({"key": ["a", "b"], "name": ["Ants (6)", "Bees (4)"], "cost": [80.0, 140.0],
                             "rank": order, "measured": [True, True], "fair_cost": fair,
                             "fair_cost_low": [f - 3 for f in fair], "fair_cost_high": [f + 3 for f in fair],
                             "verdict": verdicts})

    ranks = [rank([1, 2], [100.0, 150.0], ["under-costed", "fair"]),
             rank([2, 1], [85.0, 151.0], ["fair", "fair"])]
    ruleset = SimpleNamespace(cost_unit="AP")
    reports = [(b, SimpleNamespace(terminal=None, views=[Section("ranking", "r", Table({"x": [1]}))]))
               for b in (300, 600)]
    assert best_entries(ruleset, reports, ranks) == "at 300 AP the best entry is Ants (6), at 600 AP Bees (4)"
    comparison = budgets_terminal(ruleset, reports, ranks).views[0]
    assert list(comparison.data.columns) == ["entry", "AP", "at 300 [95%]", "at 600 [95%]", "verdict"]
    assert comparison.data["verdict"].tolist() == ["under → fair", "fair"]
    assert comparison.data["at 300 [95%]"].tolist() == ["100.0 [97.0, 103.0]", "150.0 [147.0, 153.0]"]
    assert comparison.notes == ["verdict: at 300, 600 in turn where it moves with the budget"]


def test_a_table_of_no_columns_prints_its_title_alone():
    """A study that found nothing to try (no reading to flip) gives a table of no columns: its title, no
    traceback, in the narrow and the wide layout."""
    import pandas as pd

    from reports.formats import Report, Section, render

    report = Report("Nothing", [], [Section("empty", "An empty table", pd.DataFrame())])
    for wide in (False, True):
        assert render(report, "table", wide=wide).splitlines() == ["Nothing", "", "An empty table"]
