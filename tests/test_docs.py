"""The pages in docs/: every relative link resolves, every `balance ...` command of a ```sh block parses
(default suite: its --help, no simulation), and every such command run for real prints the first line
pasted in the ```text block that follows it (slow: some are balance reports).

A worked example pairs each command with its output: a ```sh block holding one `balance` command, then a
```text block holding what it printed (cut with `…` lines where a page says so)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from cli_run import run

import rulesets

DOCS = Path(__file__).resolve().parent.parent / "docs"
PAGES = sorted(DOCS.glob("*.md"))
FENCE = re.compile(r"^```([\w-]*)\n(.*?)^```$", flags=re.S | re.M)
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")


def _commands(body: str) -> list[str]:
    lines = [line.split("  #")[0].strip() for line in body.splitlines()]
    return [line for line in lines if line.startswith("balance ")]


def examples() -> list[tuple[str, str, str | None]]:
    """(page, command, the first line of the ```text block right after its ```sh block, or None)."""
    out = []
    for page in PAGES:
        blocks = [(m[1], m[2]) for m in FENCE.finditer(page.read_text(encoding="utf-8"))]
        for i, (lang, body) in enumerate(blocks):
            if lang != "sh":
                continue
            following = blocks[i + 1] if i + 1 < len(blocks) else None
            first = following[1].splitlines()[0] if following and following[0] == "text" else None
            out.extend((page.name, command, first) for command in _commands(body))
    return out


EXAMPLES = examples()
IDS = [f"{page}: {command}" for page, command, _ in EXAMPLES]


def test_the_docs_hold_a_page_per_game_and_the_guide():
    names = {p.name for p in PAGES}
    assert {"README.md", "adding-a-game.md"} <= names
    assert {f"{game}.md" for game in rulesets.names()} <= names
    assert {page for page, _, _ in EXAMPLES} == {f"{game}.md" for game in rulesets.names()}


def test_the_index_links_every_page():
    index = FENCE.sub("", (DOCS / "README.md").read_text(encoding="utf-8"))
    linked = {target.split("#")[0] for target in LINK.findall(index)}
    assert {p.name for p in PAGES} - {"README.md"} <= linked


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_every_relative_link_resolves(page):
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    for target in LINK.findall(text):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
            continue  # a web address or an anchor on the same page
        path = (page.parent / target.split("#")[0]).resolve()
        assert path.exists(), f"{page.name}: link {target!r} resolves to nothing ({path})"


@pytest.mark.parametrize(("page", "command", "first"), EXAMPLES, ids=IDS)
def test_every_command_parses_and_has_its_output_pasted(capsys, page, command, first):
    assert first, f"{page}: `{command}` is not followed by a ```text block of its output"
    assert len([c for p, c, _ in EXAMPLES if p == page and c == command]) == 1, "one block per command"
    args = shlex.split(command)[1:]
    code, out, err = run(capsys, *args, "--help")
    assert code == 0, f"{page}: `{command} --help` exited {code}: {err}"
    assert out.startswith("Usage: balance "), out
    for token in args:
        if token.startswith("--"):
            option = token.split("=")[0]
            assert re.search(rf"(?<![\w-]){re.escape(option)}(?![\w-])", out), \
                f"{page}: `{command}`: {option} is not an option of this command"
    game = rulesets.get(args[1])
    assignments = [args[i + 1] for i, token in enumerate(args[:-1]) if token == "--ruling"]
    game.rulings().with_assignments(assignments)  # an unknown ruling or value raises RulingError


@pytest.mark.slow
@pytest.mark.parametrize(("page", "command", "first"), EXAMPLES, ids=IDS)
def test_every_command_runs_and_prints_the_pasted_first_line(capsys, tmp_path, monkeypatch, page, command,
                                                             first):
    monkeypatch.chdir(tmp_path)  # anything a command writes lands in tmp_path
    code, out, err = run(capsys, *shlex.split(command)[1:])
    assert code == 0, f"{page}: `{command}` exited {code}: {err}"
    assert "Traceback" not in err
    assert out.splitlines()[0] == first, f"{page}: `{command}`"
