"""The heatmap helper (reports.drawer): the same bytes as drawing here, a fallback for every failure, nothing
left behind, started only where a second core helps."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from reports import drawer, plots

ROOT = Path(__file__).resolve().parent.parent
STYLE = dict(label="P(row entry wins)", title="a title\nits second line", cmap="RdBu", ylabel="entry",
             annotate=True)


def _matrix():
    values = np.random.default_rng(7).random((5, 5))
    np.fill_diagonal(values, np.nan)
    names = [f"unit {k}" for k in range(5)]
    return values, names, names


def _here(calls: list, values, rows, columns, style):
    def here(path: Path) -> None:
        calls.append(path)
        plots.plot_values(values, rows, columns, path, **style)
    return here


def test_the_helper_draws_the_bytes_this_process_draws(tmp_path):
    values, rows, columns = _matrix()
    plots.plot_values(values, rows, columns, tmp_path / "here.png", **STYLE)
    calls = []
    d = drawer.Drawer()
    try:
        d.matrix(values, rows, columns, STYLE, _here(calls, values, rows, columns, STYLE)).write(
            tmp_path / "helper.png")
        folder = d._folder
        assert folder.is_dir()
    finally:
        d.close()
    assert calls == []  # drawn by the helper, not here
    assert (tmp_path / "helper.png").read_bytes() == (tmp_path / "here.png").read_bytes()
    assert not folder.exists() and d._proc.returncode == 0


@pytest.mark.parametrize("command", [
    [sys.executable, "-c", "import sys; sys.exit(3)"],  # ends at once
    [sys.executable, "-c", "import sys\nfor line in sys.stdin: print('failed 0: ValueError', flush=True)"],
    ["/nonexistent/python"],  # cannot start
])
def test_a_helper_that_fails_leaves_the_drawing_to_this_process(tmp_path, command):
    values, rows, columns = _matrix()
    calls = []
    d = drawer.Drawer(command)
    try:
        d.matrix(values, rows, columns, STYLE, _here(calls, values, rows, columns, STYLE)).write(
            tmp_path / "a.png")
    finally:
        d.close()
    assert calls == [tmp_path / "a.png"]
    plots.plot_values(values, rows, columns, tmp_path / "b.png", **STYLE)
    assert (tmp_path / "a.png").read_bytes() == (tmp_path / "b.png").read_bytes()


def test_a_drawing_the_helper_cannot_make_is_made_here_and_the_next_one_by_the_helper(tmp_path):
    values, rows, columns = _matrix()
    calls = []
    d = drawer.Drawer()
    try:
        bad = d.matrix(values, rows, columns, {**STYLE, "no_such_keyword": 1},
                       _here(calls, values, rows, columns, STYLE))
        good = d.matrix(values, rows, columns, STYLE, _here(calls, values, rows, columns, STYLE))
        bad.write(tmp_path / "bad.png")
        good.write(tmp_path / "good.png")
    finally:
        d.close()
    assert calls == [tmp_path / "bad.png"]
    assert (tmp_path / "bad.png").read_bytes() == (tmp_path / "good.png").read_bytes()


def test_the_helper_is_wanted_on_several_threads_unless_switched_off(monkeypatch):
    monkeypatch.delenv(drawer.SWITCH, raising=False)
    assert drawer.wanted(2) and not drawer.wanted(1) and not drawer.wanted(0)
    monkeypatch.setenv(drawer.SWITCH, "0")
    assert not drawer.wanted(2)


#: `balance efficiency drakerys` of two units with --save in this process; prints whether matplotlib was
#: imported here (argv[1]: the folder).
_PROBE = """
import contextlib, io, json, sys
from reports.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    try:
        main(["efficiency", "drakerys", "--unit", "crows", "--unit", "warriors", "--trials", "300",
              "--threads", "2", "--save", sys.argv[1]])
    except SystemExit as exc:
        assert exc.code in (0, None), exc.code
print(json.dumps("matplotlib" in sys.modules))
"""


def _matplotlib_imported(folder: Path, env: dict) -> bool:
    done = subprocess.run([sys.executable, "-c", _PROBE, str(folder)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_efficiency_save_draws_its_heatmap_in_the_helper_with_the_same_bytes(tmp_path):
    import os

    env = {k: v for k, v in os.environ.items() if k != drawer.SWITCH}
    assert not _matplotlib_imported(tmp_path / "helper", env)
    assert _matplotlib_imported(tmp_path / "here", {**env, drawer.SWITCH: "0"})  # the control
    names = sorted(p.name for p in (tmp_path / "here").iterdir())
    assert "efficiency.png" in names and names == sorted(p.name for p in (tmp_path / "helper").iterdir())
    for name in names:
        assert (tmp_path / "helper" / name).read_bytes() == (tmp_path / "here" / name).read_bytes(), name
