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
