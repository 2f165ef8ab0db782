"""A corpus of bad inputs: each is refused with one line on stderr naming what is wrong, the exit code of the
house rule (2 for usage, 1 for the domain), nothing on stdout and nothing written (ENGINEERING.md §6).

Each case runs in-process (tests/cli_run.py); the few that need a real process (a FIFO) are below it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from cli_run import assert_one_line_error, run

FAST = ("--trials", "200")
ROLL = ("roll", "drakerys", "--dice", "3", "--threshold", "4")

#: (args, exit code, a word the one-line message contains). ``{tmp}`` is a fresh folder, ``{full}`` a
#: folder holding one file, ``{fifo}`` a FIFO.
CASES = [
    # folder outputs: checked before any work, one rule for every folder output
    (("efficiency", "drakerys", "--unit", "crows", *FAST, "--save", "{fifo}"), 2, "FIFO"),
    (("table", "drakerys", "all", "--output", "{fifo}"), 2, "FIFO"),
    (("report", "drakerys", "--output", "{fifo}"), 2, "FIFO"),
    (("efficiency", "drakerys", "--unit", "crows", *FAST, "--save", "{full}"), 2, "--force"),
    (("table", "drakerys", "all", "--output", "{full}"), 2, "--force"),
    (("report", "drakerys", "--output", "{full}"), 2, "--force"),
    (("efficiency", "drakerys", "--unit", "crows@7", *FAST), 1, "6, 9, 12"),
    (("whatif", "dragoborne", "--set", "pyre-drake.foo=3", *FAST), 1, "unknown stat 'foo'"),
    (("report", "--output", ""), 2, "empty"),
    (("table", "drakerys", "all", "--output", ""), 2, "empty"),
    (("efficiency", "drakerys", "--unit", "crows", *FAST, "--save", ""), 2, "empty"),
    ((*ROLL, "--output", ""), 2, "empty"),
    ((*ROLL, "--plot", ""), 2, "empty"),
    (("efficiency", "drakerys", "--unit", "crows", *FAST, "--save", "{tmp}/a", "--save", "{tmp}/b"), 2,
     "given 2 times"),
    ((*ROLL, "--output", "{tmp}/a.csv", "--output", "{tmp}/b.csv"), 2, "b.csv"),
    # a value that is no curve is a usage error (2); a deck the regulations refuse is a domain error (1)
    (("table", "dragoborne", "opening-hand", "--curve", "10,12,10,10,8", "--deck", "5"), 2, "sums to 50"),
    (("table", "dragoborne", "opening-hand", "--curve", "10,12,-10,10,8"), 2, "negative"),
    (("table", "dragoborne", "mulligan", "--curve", "10,12,10"), 2, "3 counts"),
    (("table", "dragoborne", "early-play", "--curve", "10,12,x,10,8"), 2, "10,12,x,10,8"),
    (("table", "dragoborne", "opening-hand", "--curve", "8,8,8,8,8"), 1, "50 cards"),
    # the Action Table's values are characteristics, 0..20 (the threshold is clamped to 2..10 beyond them)
    (("roll", "drakerys", "--dice", "3", "--action", "99", "--opposition", "1"), 2, "99"),
    (("roll", "drakerys", "--dice", "3", "--action", "3", "--opposition", "-4"), 2, "-4"),
    (("roll", "drakerys", "action", "--dice", "3", "--action", "-1", "--opposition", "4"), 2, "0..20"),
    # one ruling, two values
    ((*ROLL, "--ruling", "DK-frontage=all", "--ruling", "DK-frontage=3"), 2, "'DK-frontage=3'"),
    (("table", "drakerys", "morale", "--ruling", "DK-frontage=all", "--ruling", "dk-frontage=2"), 2,
     "'DK-frontage=all'"),
    (("whatif", "drakerys", "--unit", "crows", *FAST, "--set", "crows.combat=4", "--baseline-ruling",
      "DK-frontage=1", "--baseline-ruling", "DK-frontage=2"), 2, "DK-frontage=2"),
    (("units", "drakerys", "--catalog", "{fifo}"), 2, "FIFO"),
    (("efficiency", "drakerys", "--unit", "crows", *FAST, "--catalog", "{fifo}"), 2, "FIFO"),
    # messages: the file, the bad value, long values cut
    (("units", "drakerys", "--catalog", "{deep}"), 1, "deep.toml"),
    (("efficiency", "dragoborne", "--unit", "cinder-whelp", *FAST, "--catalog", "{deep}"), 1, "nested"),
    (("units", "dragoborne", "--deck", "x" * 100_000), 1, "(100,000 characters)"),
    (("roll", "drakerys", "--dice", "9" * 100_000, "--threshold", "4"), 2, "(100,000 characters)"),
    (("whatif", "drakerys", "--unit", "crows", *FAST, "--set", "crows.combat=4", "--baseline-ruling",
      "DK-frontage=banana"), 2, "'banana'"),
    ((*ROLL, "--trials", "1e999999999"), 2, "1e999999999"),
    ((*ROLL, "--seed", "10**99999999"), 2, "10**99999999"),
    (("efficiency", "drakerys", "--unit", "crows", *FAST, "--summary", "--format", "csv"), 2, "--summary"),
    (("efficiency", "drakerys", "--unit", "crows", *FAST, "--summary", "--output", "{tmp}/x.csv"), 2,
     "--summary"),
    # a name with an '@' and nothing after it (the catalogs' lookup ignores punctuation: it was COPP)
    (("duel", "warbound", "copp@", "roh-na", *FAST), 2, "'copp@'"),
    (("duel", "warbound", "copp", "roh-na@2", *FAST), 2, "NAME@formation"),
    (("efficiency", "warbound", "--unit", "copp@", *FAST), 2, "nothing after '@'"),
    (("army", "drakerys", "--unit", "@6", *FAST), 2, "nothing before '@'"),
]


@pytest.fixture
def places(tmp_path):
    full = tmp_path / "full"
    full.mkdir()
    (full / "keep.txt").write_text("mine")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    new = tmp_path / "new"
    new.mkdir()
    deep = tmp_path / "deep.toml"
    deep.write_text("x = " + "[" * 500 + "]" * 500 + "\n")
    return {"tmp": str(new), "full": str(full), "fifo": str(fifo), "deep": str(deep)}


@pytest.mark.parametrize(("args", "code", "word"), CASES, ids=[" ".join(c[0])[:60] for c in CASES])
def test_bad_input_is_one_line_and_writes_nothing(capsys, places, args, code, word):
    args = tuple(a.format(**places) for a in args)
    assert_one_line_error(capsys, args, code, word)
    assert os.listdir(places["tmp"]) == []
    assert os.listdir(places["full"]) == ["keep.txt"]


def test_long_values_are_cut_in_the_message(capsys):
    """A 1 MB name gives a line a terminal shows: the value's first 80 characters, "…" and its length."""
    from reports.cli import shorten

    line = shorten(f"unknown deck {'x' * 1_000_000!r}; known: a, b")
    assert line == f"unknown deck '{'x' * 80}… (1,000,000 characters)'; known: a, b"
    assert shorten("short 'abc' and /a/path/of/sixty/characters/is/kept/whole/as/it/is.csv") == (
        "short 'abc' and /a/path/of/sixty/characters/is/kept/whole/as/it/is.csv")
    assert len(shorten(" ".join(["ab"] * 100_000))) < 2100
    code, _, err = run(capsys, "units", "dragoborne", "--deck", "y" * 100_000)
    assert code == 1 and len(err) < 300, err[:300]


def test_a_die_colour_no_card_has_is_said(capsys):
    """`roll dragoborne condition --dice red,red,purple`: a colour the catalog's cards do not have (a typo?)
    is named in a note; the odds stand (a die's colour is a label)."""
    condition = ("roll", "dragoborne", "condition", "--range", "1-3", "--format", "json")
    code, out, err = run(capsys, *condition, "--dice", "red,red,purple", "--color", "red")
    assert code == 0, err
    doc = json.loads(out)
    assert any("purple" in n and "green, red" in n for n in doc["notes"]), doc["notes"]
    assert doc["sections"]["conditions"][0]["p_met"] == 0.75  # 1 - (1/2)^2: two red dice of six faces
    code, out, _ = run(capsys, *condition, "--dice", "red,red,green", "--color", "white")
    assert code == 0 and not any("no card" in n for n in json.loads(out)["notes"])


def test_force_writes_into_a_folder_holding_files(capsys, tmp_path):
    (tmp_path / "keep.txt").write_text("mine")
    code, _, err = run(capsys, "table", "dragoborne", "all", "--output", str(tmp_path), "--force")
    assert code == 0, err
    assert (tmp_path / "keep.txt").read_text() == "mine" and (tmp_path / "index.md").exists()


# --- a real process: a FIFO --------------------------------------------------------------------------------

BALANCE = [str(Path(sys.executable).with_name("balance"))]


def test_output_to_a_fifo_without_a_reader_says_it_waits_then_writes(tmp_path):
    """`--output FIFO` with no reader: one line on stderr saying so (the test waits on that line, not on a
    clock), then the report goes to the reader that comes."""
    fifo = tmp_path / "report.fifo"
    os.mkfifo(fifo)
    proc = subprocess.Popen([*BALANCE, *ROLL, "--output", str(fifo)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stderr.readline()  # blocks until balance says it waits
        assert "waiting for a reader" in line and str(fifo) in line
        with open(fifo) as reader:
            assert "successes" in reader.read()
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
        proc.wait()
    assert proc.returncode == 0, err
    assert out == "" and err == ""


def test_plot_to_a_fifo_without_a_reader_says_it_waits_then_draws(tmp_path):
    """`--plot FIFO.png` with no reader: the same line on stderr, then the PNG goes to the reader."""
    fifo = tmp_path / "plot.png"
    os.mkfifo(fifo)
    proc = subprocess.Popen([*BALANCE, *ROLL, "--plot", str(fifo)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    try:
        line = proc.stderr.readline().decode()  # blocks until balance says it waits
        assert "waiting for a reader" in line and str(fifo) in line
        with open(fifo, "rb") as reader:
            assert reader.read(8) == b"\x89PNG\r\n\x1a\n"
            reader.read()
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
        proc.wait()
    assert proc.returncode == 0, err
    assert b"successes" in out and err == b""
