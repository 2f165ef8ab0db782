"""The README is a short front door: at most 15 KB, its first screen gives the two commands a fresh machine
needs (`make run`, `make test`) and how long `make test` takes. Every `balance ...` example in its command
blocks parses (default suite: its --help, no simulation) and runs as printed (slow: exit 0, no traceback),
in a temporary folder so that the files they write (out/, tables/, crows.png) land there."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from cli_run import run

import rulesets

README = Path(__file__).resolve().parent.parent / "README.md"
MAX_BYTES = 15 * 1024
FIRST_SCREEN = 40  # lines


def examples() -> list[str]:
    blocks = re.findall(r"```sh\n(.*?)```", README.read_text(encoding="utf-8"), flags=re.S)
    lines = [line.split("  #")[0].strip() for block in blocks for line in block.splitlines()]
    return [line for line in lines if line.startswith("balance ")]


def test_the_readme_is_at_most_15_kb():
    size = len(README.read_bytes())
    assert size <= MAX_BYTES, f"README.md is {size} bytes; depth belongs in docs/, history in CHANGELOG.md"


def test_the_first_screen_gives_exactly_make_run_and_make_test():
    screen = README.read_text(encoding="utf-8").splitlines()[:FIRST_SCREEN]
    commands, inside = [], False
    for line in screen:
        if line.startswith("```"):
            inside = not inside
        elif inside and line.strip():
            commands.append(line.split("#")[0].strip())
    assert not inside, "a command block opened on the first screen closes on it"
    assert commands == ["make run", "make test"]
    text = " ".join(line.strip() for line in screen)
    assert re.search(r"`make test` takes about [\d.]+ minutes on 2 idle cores from a fresh clone, the "
                     r"install included", text)


def test_the_readme_has_examples_for_every_game():
    found = examples()
    assert len(found) >= 20
    for game in rulesets.names():
        assert any(e.split()[2:3] == [game] for e in found), game


@pytest.mark.parametrize("line", examples())
def test_readme_example_parses(capsys, line):
    args = shlex.split(line)[1:]
    code, out, err = run(capsys, *args, "--help")
    assert code == 0, f"`{line} --help` exited {code}: {err}"
    assert out.startswith("Usage: balance "), out
    for token in args:
        if token.startswith("--"):
            option = token.split("=")[0]
            assert re.search(rf"(?<![\w-]){re.escape(option)}(?![\w-])", out), \
                f"`{line}`: {option} is not an option of this command"


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
