"""reports.formats: a JSON report holds every cell of its sections, and refuses what JSON cannot hold."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from reports import formats


def test_a_non_finite_number_is_refused_as_the_encoder_refuses_it():
    with pytest.raises(ValueError, match="Out of range float"):
        formats._record_lines(["x"], [[1.0, float("inf")]])


def test_a_json_report_holds_every_cell_of_its_sections():
    frame = pd.DataFrame({"unit": pd.array(["Crows", None, 'say "hi"'], dtype="string"),
                          "size": [12, 6, 3], "value": [0.1, np.nan, -np.inf], "won": [True, False, True]})
    table = formats.Table({"entry": ["a", "b"], "p": np.array([0.25, 1e-300]), "n": np.array([1, 2])})
    report = formats.Report("t", [("seed", "1")], [formats.Section("frame", "Frame", frame),
                                                   formats.Section("table", "Table", table)])
    parsed = json.loads(formats.render(report, "json"))
    assert parsed["sections"]["frame"] == [
        {"unit": "Crows", "size": 12, "value": 0.1, "won": True},
        {"unit": None, "size": 6, "value": None, "won": False},
        {"unit": 'say "hi"', "size": 3, "value": None, "won": True}]
    assert parsed["sections"]["table"] == [{"entry": "a", "p": 0.25, "n": 1},
                                           {"entry": "b", "p": 1e-300, "n": 2}]


# --- the table format: the answer first, within 100 columns ----------------------------------------------

def _report(table, **section) -> formats.Report:
    return formats.Report("A title", [("ruleset", "toy"), ("version", "balance 0")],
                          [formats.Section("s", "The answer", formats.Table(table), **section)],
                          notes=["a note"], headline=["the answer in a sentence"])


def test_the_table_format_gives_the_answer_first_and_the_provenance_last():
    lines = formats.render(_report({"x": [1, 2], "y": [0.5, 0.25]}), "table").splitlines()
    assert lines[:3] == ["A title", "  the answer in a sentence", ""]
    assert lines[3] == "The answer"
    assert lines.index("note: a note") < lines.index("Provenance") < lines.index("  ruleset: toy")
    assert lines[-1] == "  version: balance 0"


def test_meta_items_that_state_results_come_first_and_the_rest_last():
    report = formats.Report("A roll", [("ruleset", "toy"), ("mean successes", "2.5"), ("P(win)", "0.5")],
                            [formats.Section("s", "Successes", formats.Table({"k": [0, 1]}))])
    lines = formats.render(report, "table").splitlines()
    assert lines[:4] == ["A roll", "  mean successes: 2.5", "  P(win): 0.5", ""]
    assert lines[-2:] == ["Provenance", "  ruleset: toy"]
    assert "mean successes" in formats.render(report, "json")  # the other formats keep the meta whole


def test_a_table_too_wide_is_printed_in_parts_each_naming_its_rows():
    columns = {"dice": list(range(1, 4)), **{f"≥{k}": [f"{k * 10 + n}.5" for n in range(3)]
                                             for k in range(1, 31)}}
    text = formats.render(_report(columns), "table")
    assert max(map(len, text.splitlines())) <= formats.TABLE_WIDTH
    headers = [line for line in text.splitlines() if line.startswith("dice")]
    assert len(headers) >= 2  # the parts, each starting with the row's name
    cells = " ".join(text.split())
    for k in range(1, 31):
        assert f"≥{k} " in cells + " " and f"{k * 10 + 2}.5" in cells
    wide = formats.render(_report(columns), "table", wide=True)
    assert len([line for line in wide.splitlines() if line.startswith("dice")]) == 1


def test_a_row_with_nothing_in_a_later_part_is_left_out_of_it():
    columns = {"dice": [1, 2], **{f"c{k:02d}": ["" if (k > 5 and n == 0) else "99.9" for n in range(2)]
                                  for k in range(1, 31)}}
    lines = formats.render(_report(columns), "table").splitlines()
    parts = [i for i, line in enumerate(lines) if line.startswith("dice")]
    assert len(parts) == 2
    assert lines[parts[0] + 1].split()[0] == "1"
    assert lines[parts[1] + 1].split()[0] == "2" and lines[parts[1] + 2] == ""


def test_a_bracketed_interval_is_never_split_over_two_lines():
    text = "value 302 [301, 302] and more words " * 3
    columns = {"name": ["a", "b"], "ranking": [text, text], "other": [text, text]}
    out = formats.render(_report(columns), "table")
    assert max(map(len, out.splitlines())) <= formats.TABLE_WIDTH
    assert "[301," not in out.replace("[301, 302]", "")
    assert "\xa0" not in out


def test_narrow_columns_leave_the_others_to_wide_and_the_other_formats():
    columns = {"key": ["a"], "shown": [1], "hidden": ["x"]}
    narrow = formats.render(_report(columns, narrow=("key", "shown")), "table")
    assert "hidden" not in narrow.split("not shown here")[0]
    assert "not shown here: hidden (--wide or another --format shows every column)" in narrow
    assert "hidden" in formats.render(_report(columns, narrow=("key", "shown")), "table", wide=True)
    assert "hidden" in formats.render(_report(columns, narrow=("key", "shown")), "markdown")
    assert "not shown here" not in formats.render(_report(columns, narrow=("key", "shown")), "table",
                                                  wide=True)
