"""The `balance` command: every verb, option and format, and one-line errors for bad input."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from cli_run import assert_one_line_error, csv, ok, run

from rulesets import drakerys
from simcore import exact, runner

ROLL = ("roll", "drakerys", "--dice", "12", "--action", "3", "--opposition", "4")


# --- balance rulesets ---------------------------------------------------------------------------

def test_rulesets_lists_all_five_with_rulings_and_status(capsys):
    code, out, _ = run(capsys, "rulesets", "--format", "csv")
    assert code == 0
    df = csv(out)
    assert set(df["ruleset"]) == {"drakerys", "dragonbond", "warbound", "uberdrakes", "dragoborne"}
    status = df.groupby("ruleset")["status"].first()
    assert set(status.index) == {"drakerys", "dragonbond", "warbound", "uberdrakes", "dragoborne"}
    assert set(status.values) == {"implemented"}
    defaults = dict(zip(df["ruling"], df["default"].astype(str), strict=True))
    assert defaults["DK-crit-chain"] == "true"
    assert defaults["DB-charge-dice"] == "black"
    assert defaults["UD-camouflage"] == "3"
    assert defaults["UD-policy"] == "greedy"
    assert defaults["DG-die"] == "6"
    assert df["meaning"].str.len().min() > 20


def test_rulesets_table_says_which_are_not_implemented(capsys, monkeypatch):
    code, out, _ = run(capsys, "rulesets")
    assert code == 0
    assert out.count("not implemented yet") == 0  # all five fulfil the contract
    assert "DK-crit-chain" in out and "WB-aim-stress" in out and "DG-cross-die" in out
    from test_api import unimplemented_game

    unimplemented_game(monkeypatch)
    code, out, _ = run(capsys, "rulesets")
    assert code == 0 and out.count("not implemented yet") == 1


def test_a_verb_names_an_unimplemented_ruleset_as_such(capsys, monkeypatch):
    from test_api import unimplemented_game

    unimplemented_game(monkeypatch)
    assert_one_line_error(capsys, ("efficiency", "chess"), 1, "not implemented yet")
    # a game with neither a balance layer nor a reports side has no duel to offer
    assert_one_line_error(capsys, ("duel", "chess", "a", "b"), 1, "chess has no reports side")


# --- balance roll drakerys: exact ----------------------------------------------------------------

def test_roll_exact_default_matches_library_and_hand_numbers(capsys):
    code, out, _ = run(capsys, *ROLL, "--format", "csv")
    assert code == 0
    df = csv(out)
    assert list(df.columns) == ["successes", "probability", "p_at_least"]
    expected = exact.at_least(drakerys.exact_action_roll(drakerys.ActionRoll(12, 7)).successes)
    assert df["p_at_least"].to_numpy() == pytest.approx(expected[: len(df)], abs=1e-15)
    # mean = 12 * (0.4 + 0.1 * 0.4 / 0.9) at threshold 7 (3 vs 4)
    mean = (df["successes"] * df["probability"]).sum()
    assert mean == pytest.approx(12 * (0.4 + 0.1 * 0.4 / 0.9), abs=1e-10)
    assert df["probability"].sum() == pytest.approx(1.0, abs=1e-11)


def test_roll_table_format_states_roll_method_and_rulings(capsys):
    code, out, _ = run(capsys, *ROLL)
    assert code == 0
    assert "threshold 7+" in out and "method: exact" in out
    assert "DK-crit-chain=true" in out
    assert "mean successes: 5.333333" in out
    assert "Criticals" in out


@pytest.mark.parametrize(
    ("options", "roll"),
    [
        (("--swashbuckler",), drakerys.ActionRoll(12, 7, swashbuckler=True)),
        (("--rerolls", "3"), drakerys.ActionRoll(12, 7, rerolls=3)),
        (("--heroic", "2"), drakerys.ActionRoll(12, 7, heroic=2)),
        (("--crits", "parry"), drakerys.ActionRoll(12, 7, crits="parry")),
        (("--crits", "expert-parry"), drakerys.ActionRoll(12, 7, crits="expert-parry")),
    ],
)
def test_roll_modifiers_reach_the_computation(capsys, options, roll):
    code, out, _ = run(capsys, *ROLL, *options, "--format", "json")
    assert code == 0
    rows = json.loads(out)["sections"]["successes"]
    got = [r["probability"] for r in rows]
    want = drakerys.exact_action_roll(roll).successes
    assert got == pytest.approx(want[: len(got)], abs=1e-15)
    plain = drakerys.exact_action_roll(drakerys.ActionRoll(12, 7)).successes
    assert abs(exact.mean(want) - exact.mean(plain)) > 0.05


def test_roll_threshold_option_equals_action_opposition(capsys):
    a = ok(capsys, *ROLL, "--format", "csv")
    b = ok(capsys, "roll", "drakerys", "--dice", "12", "--threshold", "7", "--format", "csv")
    assert a == b


def test_ruling_crit_chain_false_changes_criticals(capsys):
    code, out, _ = run(capsys, *ROLL, "--ruling", "DK-crit-chain=false", "--show", "criticals",
                       "--format", "csv")
    assert code == 0
    df = csv(out)
    # without the chain only the 12 first dice can be critical: Binomial(12, 0.1)
    assert df["criticals"].max() == 12
    assert df["probability"].to_numpy() == pytest.approx(exact.binomial_pmf(12, 0.1), abs=1e-14)
    table = ok(capsys, *ROLL, "--ruling", "DK-crit-chain=false")
    assert "DK-crit-chain=false" in table


def test_roll_show_joint(capsys):
    code, out, _ = run(capsys, "roll", "drakerys", "--dice", "3", "--threshold", "6", "--show", "joint",
                       "--format", "csv")
    assert code == 0
    df = csv(out)
    assert list(df.columns) == ["successes", "criticals", "probability"]
    assert (df["criticals"] <= df["successes"]).all()
    assert df["probability"].sum() == pytest.approx(1.0, abs=1e-11)


def test_csv_with_two_tables_says_which_it_holds(capsys):
    code, _, err = run(capsys, *ROLL, "--format", "csv")
    assert code == 0
    assert "CSV holds the 'successes' table only" in err and "criticals" in err


# --- balance roll drakerys: Monte Carlo ------------------------------------------------------------

def test_roll_monte_carlo_has_stderr_and_trials(capsys):
    code, out, _ = run(capsys, *ROLL, "--trials", "200000", "--seed", "3", "--format", "json")
    assert code == 0
    doc = json.loads(out)
    assert "200,000 trials" in doc["meta"]["method"] and "seed 3" in doc["meta"]["method"]
    rows = pd.DataFrame(doc["sections"]["successes"])
    assert {"successes", "probability", "stderr", "p_at_least", "p_at_least_stderr"} <= set(rows.columns)
    want = drakerys.exact_action_roll(drakerys.ActionRoll(12, 7)).successes[: len(rows)]
    z = (rows["probability"] - want) / rows["stderr"].where(rows["stderr"] > 0, 1.0)
    assert z.abs().max() < 5.5
    assert rows["stderr"].max() == pytest.approx((0.2 * 0.8 / 200000) ** 0.5, rel=0.1)


def test_roll_monte_carlo_csv_columns(capsys):
    code, out, _ = run(capsys, *ROLL, "--trials", "1e4", "--format", "csv")
    assert code == 0
    assert out.splitlines()[0] == "successes,probability,stderr,p_at_least,p_at_least_stderr"


def test_same_seed_same_output_any_threads_and_different_seeds_differ(capsys):
    args = (*ROLL, "--trials", "100000", "--seed", "11", "--format", "csv")
    one = ok(capsys, *args, "--threads", "1")
    again = ok(capsys, *args, "--threads", str(runner.available_threads()))
    other = ok(capsys, *ROLL, "--trials", "100000", "--seed", "12", "--format", "csv")
    assert one == again
    assert one != other


def test_precision_stops_early_and_says_so(capsys):
    code, out, _ = run(capsys, *ROLL, "--precision", "0.02", "--format", "json")
    assert code == 0
    meta = json.loads(out)["meta"]
    assert "reached" in meta["precision"] and "not reached" not in meta["precision"]
    trials = int(meta["method"].split(" trials")[0].split()[-1].replace(",", ""))
    assert trials < 10**9
    half = float(meta["mean successes"].split("±")[1].split()[0])
    assert half < 0.02


def test_seed_alone_runs_monte_carlo(capsys):
    out = ok(capsys, *ROLL, "--seed", "5", "--format", "json")
    assert "1,000,000 trials" in json.loads(out)["meta"]["method"]


# --- formats, --output and --plot ------------------------------------------------------------------

@pytest.mark.parametrize("fmt", ["table", "csv", "json", "markdown", "latex", "html"])
def test_every_format_of_every_verb(capsys, fmt):
    for args in (("rulesets",), ROLL, ("table", "drakerys", "action", "--max-dice", "4")):
        code, out, _ = run(capsys, *args, "--format", fmt)
        assert code == 0, args
        if fmt == "json":
            assert json.loads(out)["sections"]
        elif fmt == "csv":
            assert len(csv(out)) > 3
        elif fmt == "markdown":
            assert out.startswith("# ") and ("|---:" in out or "|:---" in out)
        elif fmt == "latex":
            assert r"\begin{tabular}" in out and r"\bottomrule" in out
        elif fmt == "html":
            assert out.startswith("<!DOCTYPE html>") and "<table>" in out and out.rstrip().endswith("</html>")
        else:
            assert len(out.splitlines()) > 3


def test_output_file_written_and_nothing_on_stdout(capsys, tmp_path):
    target = tmp_path / "roll.csv"
    code, out, _ = run(capsys, *ROLL, "--format", "csv", "--output", str(target))
    assert code == 0 and out == ""
    assert list(csv(target.read_text()).columns[:3]) == ["successes", "probability", "p_at_least"]
    assert [p.name for p in tmp_path.iterdir()] == ["roll.csv"]


def test_plot_files(capsys, tmp_path):
    png, svg = tmp_path / "roll.png", tmp_path / "table.svg"
    assert run(capsys, *ROLL, "--trials", "1e4", "--plot", str(png))[0] == 0
    assert run(capsys, "table", "drakerys", "action", "--max-dice", "5", "--plot", str(svg))[0] == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert b"<svg" in svg.read_bytes()[:2000]


def test_failed_run_leaves_no_file(capsys, tmp_path):
    target = tmp_path / "out.csv"
    code, _, _ = run(capsys, *ROLL, "--ruling", "DK-crit-chain=perhaps", "--output", str(target))
    assert code == 2
    code, _, _ = run(capsys, *ROLL, "--plot", str(tmp_path / "plot.gif"), "--output", str(target))
    assert code == 2
    assert list(tmp_path.iterdir()) == []


# --- balance table drakerys action ---------------------------------------------------------------

def test_action_table_tidy_csv(capsys):
    code, out, _ = run(capsys, "table", "drakerys", "action", "--format", "csv")
    assert code == 0
    df = csv(out)
    assert {"dice", "threshold", "successes", "p_at_least", "mean"} <= set(df.columns)
    assert sorted(df["dice"].unique()) == list(range(1, 21))
    assert sorted(df["threshold"].unique()) == list(range(2, 11))
    row = df[(df.dice == 1) & (df.threshold == 7) & (df.successes == 1)]
    assert row["p_at_least"].item() == pytest.approx(0.4, abs=1e-15)
    # with the crit chain, 1 die at 2+ averages exactly one success: 0.9 + 0.1 * (0.9 / 0.9)
    assert df[(df.dice == 1) & (df.threshold == 2)]["mean"].iloc[0] == pytest.approx(1.0, abs=1e-12)
    first = df.groupby(["dice", "threshold"])["p_at_least"].first().to_numpy()
    assert first == pytest.approx([1.0] * 180, abs=1e-12)


def test_action_table_options(capsys):
    code, out, _ = run(capsys, "table", "drakerys", "action", "--max-dice", "3", "--threshold", "6",
                       "--threshold", "9", "--swashbuckler", "--format", "csv")
    assert code == 0
    df = csv(out)
    assert sorted(df["dice"].unique()) == [1, 2, 3] and sorted(df["threshold"].unique()) == [6, 9]
    one = df[(df.dice == 1) & (df.threshold == 6) & (df.successes == 1)]["p_at_least"].item()
    assert one == pytest.approx(0.75, abs=1e-15)  # 0.5 + 0.5 * 0.5
    code, out, _ = run(capsys, "table", "drakerys", "action", "--max-dice", "2", "--threshold", "10",
                       "--crits", "expert-parry", "--format", "csv")
    assert code == 0 and csv(out)["p_at_least"].tolist() == [1.0, 1.0]  # only k = 0 remains


# --- bad input: one line, right exit code, no traceback ------------------------------------------

BAD = [
    (("roll", "drakerys", "--dice", "0", "--threshold", "6"), 2, "--dice"),
    (("roll", "drakerys", "--dice", "1001", "--threshold", "6"), 2, "1001"),
    (("roll", "drakerys", "--dice", "3.5", "--threshold", "6"), 2, "3.5"),
    (("roll", "drakerys", "--dice", "5", "--threshold", "2.5"), 2, "2.5"),
    (("roll", "drakerys", "--dice", "5", "--threshold", "11"), 2, "11"),
    (("roll", "drakerys", "--dice", "5", "--action", "x", "--opposition", "3"), 2, "'x'"),
    (("roll", "drakerys", "--dice", "5"), 2, "--threshold"),
    (("roll", "drakerys", "--dice", "5", "--threshold", "6", "--action", "3"), 2, "not both"),
    (("roll", "drakerys", "--dice", "5", "--threshold", "6", "--trials", "0"), 2, "--trials"),
    (("roll", "drakerys", "--dice", "5", "--threshold", "6", "--trials", "1000000000001"), 2, "10**12"),
    (("roll", "drakerys", "--dice", "5", "--threshold", "6", "--trials", "many"), 2, "many"),
    (("roll", "drakerys", "--dice", "5", "--threshold", "6", "--precision", "0"), 2, "--precision"),
    (("roll", "drakerys", "--dice", "5", "--threshold", "6", "--precision", "-1"), 2, "--precision"),
    (("roll", "drakerys", "--dice", "5", "--threshold", "6", "--seed", "-1"), 2, "--seed"),
    (("roll", "drakerys", "--dice", "5", "--threshold", "6", "--threads", "0"), 2, "--threads"),
    (("roll", "drakerys", "--dice", "5", "--threshold", "6", "--heroic", "6"), 2, "--heroic"),
    (("roll", "drakerys", "--dice", "5", "--threshold", "6", "--ruling", "DK-nope=1"), 2, "DK-crit-chain"),
    (("roll", "drakerys", "--dice", "5", "--threshold", "6", "--ruling", "DK-crit-chain=maybe"), 2,
     "true|false"),
    (("roll", "drakerys", "--dice", "5", "--threshold", "6", "--ruling", "novalue"), 2, "NAME=VALUE"),
    (("roll", "drakerys", "--dice", "5", "--threshold", "6", "--crits", "block"), 2, "block"),
    (("roll", "drakerys", "--dice", "5", "--threshold", "6", "--format", "xml"), 2, "xml"),
    (("roll", "drakerys", "--dice", "5", "--threshold", "6", "--output", "/no/such/dir/x.csv"), 2,
     "/no/such/dir"),
    (("roll", "drakerys", "--dice", "5", "--threshold", "6", "--output", "/tmp"), 2, "directory"),
    (("roll", "drakerz", "--dice", "5"), 2, "drakerys"),
    (("table", "dragoborne", "odds"), 2, "odds"),
    (("table", "drakerys", "nosuchtable"), 2, "nosuchtable"),
    (("table", "drakerys", "action", "--max-dice", "0"), 2, "--max-dice"),
    (("frobnicate",), 2, "frobnicate"),
    (("roll", "drakerys", "frob", "--dice", "2"), 2, "'frob'"),
]


@pytest.mark.parametrize(("args", "code", "named"), BAD, ids=[" ".join(a) for a, _, _ in BAD])
def test_bad_input_is_one_clear_line(capsys, args, code, named):
    assert_one_line_error(capsys, args, code, named)


def test_installed_command_exit_codes():
    exe = shutil.which("balance", path=str(Path(sys.executable).parent))
    assert exe is not None
    ok = subprocess.run([exe, "roll", "drakerys", "--dice", "2", "--threshold", "6", "--format", "csv"],
                        capture_output=True, text=True, check=False)
    assert ok.returncode == 0 and ok.stdout.startswith("successes,probability,p_at_least")
    bad = subprocess.run([exe, "roll", "drakerys", "--dice", "0", "--threshold", "6"],
                         capture_output=True, text=True, check=False)
    assert bad.returncode == 2 and bad.stdout == "" and len(bad.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("args", [[], ["roll"], ["table"], ["efficiency"], ["roll", "drakerys"],
                                  ["table", "drakerys"]], ids=" ".join)
def test_nothing_chosen_yet_prints_the_help(capsys, args):
    """`balance`, a verb or a game with nothing after it: its help on stdout, exit 0, never an error."""
    code, out, err = run(capsys, *args)
    assert code == 0, err
    assert err == ""
    assert out.startswith(f"Usage: balance {' '.join(args)}".rstrip() + " [OPTIONS]")
    assert "Commands:" in out


@pytest.mark.parametrize(("value", "says"), [
    ("nan", "'nan' is not a finite number"), ("inf", "'inf' is not a finite number"),
    ("1e-400", "'1e-400' is too small to be told from 0"), ("0", "'0' is not above 0"),
    ("-0.1", "'-0.1' is not above 0"), ("abc", "'abc' is not a number"),
])
def test_precision_refused_naming_what_was_typed(capsys, value, says):
    args = ["roll", "drakerys", "--dice", "3", "--threshold", "6", "--precision", value]
    assert_one_line_error(capsys, args, 2, says)


def test_precision_above_one_half_refused_only_for_a_probability(capsys):
    """A probability's 95% half-width never exceeds 0.5; a mean's can."""
    assert_one_line_error(capsys, ["duel", "drakerys", "crows", "gold-keepers", "--precision", "0.6"], 2,
                          "'0.6' is above 0.5: the target is a probability")
    assert_one_line_error(capsys, ["efficiency", "drakerys", "--precision", "0.51"], 2, "'0.51' is above 0.5")
    code, out, err = run(capsys, "roll", "drakerys", "--dice", "3", "--threshold", "6", "--precision", "0.6",
                         "--format", "csv")
    assert code == 0, err
    assert csv(out)["probability"].sum() == pytest.approx(1.0)


def test_more_threads_than_cores_are_allowed_said_and_change_nothing(capsys):
    from simcore.parallel import available_threads

    args = ["roll", "drakerys", "--dice", "4", "--threshold", "6", "--trials", "20000", "--format", "csv"]
    code, one, _ = run(capsys, *args, "--threads", "1")
    assert code == 0
    many = available_threads() + 3
    code, out, err = run(capsys, *args, "--threads", str(many))
    assert code == 0, err
    assert out == one
    assert f"--threads {many} is more than the {available_threads()} core" in err
    assert_one_line_error(capsys, [*args, "--threads", "257"], 2, "--threads")


def test_help_of_always_simulated_verbs_does_not_promise_an_exact_computation(capsys):
    for args in (["duel", "drakerys"], ["efficiency", "drakerys"], ["roll", "drakerys", "fight"]):
        code, out, _ = run(capsys, *args, "--help")
        assert code == 0
        text = " ".join(out.split())
        assert "instead of the exact computation" not in text
        assert "95%%" not in text and "95% interval half-width of" in text
    code, out, _ = run(capsys, "roll", "drakerys", "action", "--help")
    assert "instead of the exact computation" in " ".join(out.split())


@pytest.mark.parametrize(("output", "says"), [
    ("", "'' is empty: give a file name"),
    ("/proc/version", "no file can be created in its folder '/proc'"),
])
def test_output_that_cannot_be_written_is_refused_before_the_run(capsys, output, says):
    """Named with the option and the path the user gave (never a temporary file's name), exit 2."""
    if not Path("/proc/version").exists() and output.startswith("/proc"):
        pytest.skip("no /proc on this system")
    args = ["roll", "drakerys", "--dice", "3", "--threshold", "6", "--output", output]
    assert_one_line_error(capsys, args, 2, says)


def test_checking_the_output_folder_leaves_nothing_behind(capsys, tmp_path):
    out = tmp_path / "roll.csv"
    code, _, err = run(capsys, "roll", "drakerys", "--dice", "3", "--threshold", "6", "--format", "csv",
                       "--output", str(out))
    assert code == 0, err
    assert [p.name for p in tmp_path.iterdir()] == ["roll.csv"]


def _reports(monkeypatch, clock, label="simulating", unit="trials", **kw):
    """A progress reporter whose clock reads the times given, one per call."""
    import time

    from reports.cli.options import progress_reporter

    times = iter(clock)
    monkeypatch.setattr(time, "perf_counter", lambda: next(times))
    return progress_reporter(label, unit, **kw)


def test_a_long_run_says_so_once_its_pace_is_known(capsys, monkeypatch):
    """The pace is the median between successive reports, known once there are 8 of them and 2 s have
    passed since the first (compiling before the first is not counted); a run whose time left exceeds a
    minute says so on stderr once, a short one says nothing; no bar off a terminal."""
    report = _reports(monkeypatch, [k * 0.5 for k in range(12)], may_stop_early=True)
    for k in range(12):
        report(1_000 * (k + 1), 10**9)  # 2,000 trials/s: the 9th report has 8 paces, 4 s after the first
    err = capsys.readouterr().err
    assert err.count("balance: note:") == 1
    assert "999,991,000 trials left at about 2,000 trials/s: 6 days at most" in err
    short = _reports(monkeypatch, [k * 0.5 for k in range(12)], "fighting")
    for k in range(12):
        short(1_000 * (k + 1), 100_000)  # 2,000 trials/s, 45.5 s left at the 9th report
    assert capsys.readouterr().err == ""


def test_the_pace_leaves_out_a_slow_start_and_a_compile_in_the_middle(capsys, monkeypatch):
    """A second thread's first engagement waits a second for the kernels, and a kernel that only later
    matchups need compiles for 10 s in the middle: one slow interval each among fast ones, so the pace is
    about 100 a second, 1,000 engagements take about 10 s, and no note (the mean pace would say minutes)."""
    clock = [0.0, 1.0, 1.01, 1.02, 1.03, 11.03, 11.04, 11.05, 11.06, 11.07, 11.08]
    report = _reports(monkeypatch, clock, "engagements", "engagements")
    for k in range(len(clock)):
        report(k + 1, 1_000)
    assert capsys.readouterr().err == ""


def test_a_slow_steady_run_is_judged_on_what_it_has_after_30_seconds(capsys, monkeypatch):
    report = _reports(monkeypatch, [0.0, 30.0], "engagements", "engagements")
    report(1, 10)
    report(2, 10)  # one engagement every 30 s: 8 left, 4 minutes
    assert "8 engagements left at about one every 30 seconds: 4 minutes" in capsys.readouterr().err


@pytest.mark.parametrize("args, same_words", [
    (("efficiency", "drakerys", "--unit", "crows", "--unit", "warriors", "--trials", "300"), False),
    (("duel", "drakerys", "crows", "gold-keepers", "--trials", "2000"), True),
    (("rulesets",), True),
], ids=["efficiency", "duel", "rulesets"])
def test_the_table_format_fits_100_columns_and_wide_keeps_one_line_per_row(capsys, args, same_words):
    code, out, err = run(capsys, *args)
    assert code == 0, err
    assert max(len(line) for line in out.splitlines()) <= 100
    code, wide, _ = run(capsys, *args, "--wide")
    assert code == 0
    if same_words:  # the same words, only the line breaks differ (two wrapped columns interleave their lines)
        assert sorted(wide.split()) == sorted(out.split())
    else:  # the generic verbs' terminal layout: the answer first, fewer columns (test_terminal_width.py)
        assert wide != out and "rank" in wide
    assert max(len(line) for line in wide.splitlines()) > 100


def _on_a_terminal(monkeypatch):
    """capsys's stderr stands for a terminal; the bar is drawn at every update."""
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    monkeypatch.setenv("TQDM_MININTERVAL", "0")


def test_the_bar_counts_whole_engagements_and_estimates_once_its_pace_is_known(capsys, monkeypatch):
    """Counts read 1/40, not 1.00/40; no rate and no time left while the first engagements (compiling the
    kernels) would set them; both once 8 reports and 2 s have passed since the first."""
    _on_a_terminal(monkeypatch)
    report = _reports(monkeypatch, [k * 0.5 for k in range(12)], "engagements", "engagements")
    for k in range(8):
        report(k + 1, 40)
    early = capsys.readouterr().err
    assert " 1/40 " in early and " 8/40 " in early and "1.00" not in early
    assert "estimating the time left" in early and "engagement/s" not in early
    for k in range(8, 12):
        report(k + 1, 40)
    late = capsys.readouterr().err
    assert "12/40" in late and "estimating" not in late.split("9/40")[-1]
    assert "engagement/s" in late or "s/engagement" in late
    report.close()


def test_large_counts_keep_their_si_prefixes(capsys, monkeypatch):
    _on_a_terminal(monkeypatch)
    report = _reports(monkeypatch, [0.0], "simulating", "trials")
    report(250_000, 1_000_000)
    assert "250k/1.00M" in capsys.readouterr().err
    report.close()


def test_a_terminal_hears_that_a_run_started_when_nothing_completes_at_first(capsys, monkeypatch):
    """Nothing completed after STARTING_NOTE_SECONDS (a first run compiling): one line says the run has
    started and the bar follows; a run whose first report comes sooner says nothing of it."""
    from reports.cli import options

    _on_a_terminal(monkeypatch)
    monkeypatch.setattr(options, "STARTING_NOTE_SECONDS", 0.0)
    slow = options.progress_reporter("engagements", "engagements")
    slow.timer.join()  # the note has been written
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "balance: note: engagements: started; the progress bar follows" in err
    slow.close()
    monkeypatch.setattr(options, "STARTING_NOTE_SECONDS", 3600.0)
    quick = options.progress_reporter("engagements", "engagements")
    quick(1, 2)
    quick.timer.join()  # cancelled by the first report: ends at once
    assert "started" not in capsys.readouterr().err
    quick.close()


def test_no_starting_note_and_no_bar_off_a_terminal(capsys, monkeypatch):
    from reports.cli import options

    monkeypatch.setattr(options, "STARTING_NOTE_SECONDS", 0.0)
    report = options.progress_reporter("engagements", "engagements")
    assert report.timer is None
    report(1, 2)
    assert capsys.readouterr().err == ""
