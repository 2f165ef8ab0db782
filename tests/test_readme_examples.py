"""Every `balance ...` example in the README's command blocks runs as printed (exit 0, no traceback), in a
temporary folder so that the files they write (out/, tables/, crows.png) land there. Slow: some are whole
balance reports."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from cli_run import run

README = Path(__file__).resolve().parent.parent / "README.md"


def examples() -> list[str]:
    blocks = re.findall(r"```sh\n(.*?)```", README.read_text(encoding="utf-8"), flags=re.S)
    lines = [line.split("  #")[0].strip() for block in blocks for line in block.splitlines()]
    return [line for line in lines if line.startswith("balance ")]


def test_the_readme_has_examples_for_every_game_under_way():
    found = examples()
    assert len(found) >= 20
    assert any(" drakerys" in e for e in found) and any(" dragonbond" in e for e in found)


@pytest.mark.slow
@pytest.mark.parametrize("line", examples())
def test_readme_example_runs_as_printed(capsys, tmp_path, monkeypatch, line):
    monkeypatch.chdir(tmp_path)
    for folder in ("out", "tables"):
        (tmp_path / folder).mkdir()
    code, out, err = run(capsys, *shlex.split(line)[1:])
    assert code == 0, f"{line}\n{err}"
    assert "Traceback" not in err
    assert out.strip() or any(tmp_path.rglob("*")), line
