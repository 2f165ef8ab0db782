"""`balance report --output DIR`: the static site of every game.

One site of all five games is built once (few trials: these tests check the site, not the numbers) and
every page is parsed as strict HTML5; every link and image must resolve inside the folder, with no network
address anywhere. Then the bad inputs, the --force rule, the routing of --ruling to its game, and that a
failing run leaves nothing behind.
"""

from __future__ import annotations

import contextlib
import io
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

import html5lib
import pytest

from reports import site
from reports.cli import GAMES, main
from tests.cli_run import assert_one_line_error, run

TRIALS = "200"


def _main(*args: str) -> tuple[int, str, str]:
    """`balance ARGS` in-process outside a test function (no capsys): (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    code = 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main(list(args))
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def whole(tmp_path_factory):
    """The site of every game: (folder, stdout)."""
    folder = tmp_path_factory.mktemp("site") / "out"
    code, out, err = _main("report", "--output", str(folder), "--trials", TRIALS, "--points-steps", "1")
    assert code == 0, err
    return folder, out


class _Page(HTMLParser):
    """The links, images, ids and headings of one page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.links: list[str] = []
        self.images: list[dict] = []
        self.ids: list[str] = []
        self.h1 = 0
        self.lang = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.append(a["id"])
        if tag == "a" and "href" in a:
            self.links.append(a["href"])
        if tag == "img":
            self.images.append(a)
        if tag in ("link", "script", "iframe", "object", "embed"):
            raise AssertionError(f"<{tag}> in a self-contained page")
        if tag == "h1":
            self.h1 += 1
        if tag == "html":
            self.lang = a.get("lang")


def _resolves(page: Path, target: str, root: Path, ids: dict[Path, list[str]]) -> None:
    parts = urlsplit(target)
    assert not parts.scheme and not parts.netloc, f"{page}: {target} leaves the folder"
    path = (page.parent / parts.path).resolve() if parts.path else page.resolve()
    assert path.is_relative_to(root.resolve()), f"{page}: {target} points outside the site"
    assert path.is_file(), f"{page}: {target} does not exist"
    if parts.fragment:
        assert parts.fragment in ids[path], f"{page}: no id {parts.fragment!r} in {path.name}"


def test_every_game_has_a_page_linked_from_the_index(whole):
    folder, out = whole
    index = (folder / "index.html").read_text(encoding="utf-8")
    for game in GAMES:
        assert f'href="{game}/index.html"' in index
        for name in ("index.html", "index.md", "efficiency.csv", "metagame.csv", "matchups.csv",
                     "efficiency.json", "efficiency.png", "tables/index.html"):
            assert (folder / game / name).is_file(), f"{game}/{name}"
        assert f"  {game}: " in out  # the verdicts' summary
    assert f"the report: {folder / 'index.html'}" in out
    assert (folder / "index.md").read_text(encoding="utf-8").count("/index.md)") == len(GAMES)


def test_every_page_is_strict_html5_and_every_link_and_image_resolves(whole):
    folder, _ = whole
    pages = sorted(folder.rglob("*.html"))
    assert len(pages) > 5 * 6  # the indexes, the game pages and every table's HTML
    parsed = {}
    for page in pages:
        text = page.read_text(encoding="utf-8")
        parser = html5lib.HTMLParser(strict=True)
        parser.parse(text)  # raises on any HTML5 parse error
        assert not parser.errors, (page, parser.errors[:3])
        p = _Page()
        p.feed(text)
        assert p.lang == "en" and p.h1 == 1, page
        assert len(p.ids) == len(set(p.ids)), f"{page}: repeated ids"
        assert not re.search(r"(?:https?:)?//", " ".join(p.links + [i.get("src", "") for i in p.images]))
        parsed[page.resolve()] = p
    ids = {k: v.ids for k, v in parsed.items()}
    for page in pages:
        p = parsed[page.resolve()]
        for href in p.links:
            _resolves(page, href, folder, ids)
        for img in p.images:
            assert img.get("alt"), f"{page}: an image without alt text"
            _resolves(page, img["src"], folder, ids)
            assert (page.parent / img["src"]).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_every_markdown_link_resolves(whole):
    folder, _ = whole
    for page in folder.rglob("*.md"):
        for target in re.findall(r"\]\(([^)]+)\)", page.read_text(encoding="utf-8")):
            assert not urlsplit(target).scheme, f"{page}: {target}"
            assert (page.parent / target).exists(), f"{page}: {target} does not exist"


def test_every_game_page_opens_with_its_proposed_points_table(whole):
    """Each page has the points table (before the ranking), its files, and the pricing rule when fitted."""
    folder, _ = whole
    for game in GAMES:
        page = (folder / game / "index.html").read_text(encoding="utf-8")
        assert 'id="points"' in page and page.index('id="points"') < page.index('id="ranking"'), game
        assert "Proposed:" in page and "Stopped:" in page, game
        for name in ("points.csv", "points.md", "points.json", "points.png"):
            assert (folder / game / name).is_file(), (game, name)
        markdown = (folder / game / "index.md").read_text(encoding="utf-8")
        assert "## The balanced points table" in markdown, game
    assert "The pricing rule" in (folder / "drakerys" / "index.html").read_text(encoding="utf-8")
    # the army a sharp player brings, where the game plays armies of several entries
    for game in ("drakerys", "dragonbond", "warbound", "dragoborne"):
        page = (folder / game / "index.html").read_text(encoding="utf-8")
        assert 'id="army"' in page and "Best army at" in page, game
        assert (folder / game / "army.md").is_file(), game
    assert "Best army at 7 cards" in (folder / "warbound" / "index.html").read_text(encoding="utf-8")
    assert "Best army at 50 cards" in (folder / "dragoborne" / "index.html").read_text(encoding="utf-8")
    assert not (folder / "uberdrakes" / "army.md").exists()


def test_illustrative_catalogs_are_marked_on_every_page(whole):
    folder, _ = whole
    import rulesets

    for game in GAMES:
        rank = (folder / game / "efficiency.csv").read_text(encoding="utf-8")
        header, *rows = rank.splitlines()
        illustrative = "illustrative" in (folder / game / "efficiency.json").read_text(encoding="utf-8")
        assert rows and header
        for page in ("index.html", "index.md"):
            text = (folder / game / page).read_text(encoding="utf-8")
            assert ("Illustrative data." in text) == illustrative, (game, page)
            # the rulings in force, each with its default, and the provenance
            for spec in rulesets.get(game).rulings().specs():
                assert spec.key in text
            assert "version" in text and "method" in text
    # every catalog but Drakerys' is (at least partly) illustrative: said on the index too
    index = (folder / "index.html").read_text(encoding="utf-8")
    assert index.count("illustrative data.</strong>") >= 4


@pytest.mark.slow  # two sites of two games; efficiency and every verb are checked the same way unmarked
def test_the_site_is_the_same_bytes_for_any_thread_count(tmp_path):
    args = ("report", "dragonbond", "warbound", "--trials", "300", "--points-steps", "2")
    for threads in ("1", "2"):
        code, _, err = _main(*args, "--threads", threads, "--output", str(tmp_path / threads))
        assert code == 0, err
    one = sorted(p.relative_to(tmp_path / "1") for p in (tmp_path / "1").rglob("*") if p.is_file())
    two = sorted(p.relative_to(tmp_path / "2") for p in (tmp_path / "2").rglob("*") if p.is_file())
    assert one == two and len(one) > 20
    for rel in one:
        assert (tmp_path / "1" / rel).read_bytes() == (tmp_path / "2" / rel).read_bytes(), rel


def test_a_ruling_goes_to_its_game_and_is_stated(capsys, tmp_path):
    code, _, err = run(capsys, "report", "dragonbond", "uberdrakes", "--trials", "200",
                       "--points-steps", "0", "--output",
                       str(tmp_path / "o"), "--ruling", "DB-double-hits=1")
    assert code == 0, err
    page = (tmp_path / "o" / "dragonbond" / "index.md").read_text(encoding="utf-8")
    assert "| DB-double-hits | 1 | 2 |" in page
    assert "DB-double-hits=1" in (tmp_path / "o" / "dragonbond" / "efficiency.md").read_text(encoding="utf-8")
    assert "DB-double-hits" not in (tmp_path / "o" / "uberdrakes" / "index.md").read_text(encoding="utf-8")


def test_split_rulings_routes_and_refuses():
    import rulesets

    games = [rulesets.get("dragonbond"), rulesets.get("warbound")]
    got = site.split_rulings(games, ["DB-double-hits=1"])
    assert got["dragonbond"].describe() != games[0].rulings().describe()
    assert got["warbound"].describe() == games[1].rulings().describe()
    with pytest.raises(rulesets.RulesError, match="DK-crit-chain"):
        site.split_rulings(games, ["DK-crit-chain=false"])


def test_force_writes_into_a_folder_and_leaves_other_files(capsys, tmp_path):
    folder = tmp_path / "o"
    folder.mkdir()
    (folder / "mine.txt").write_text("keep me", encoding="utf-8")
    assert_one_line_error(capsys, ("report", "uberdrakes", "--output", str(folder)), 2, "--force")
    assert [p.name for p in folder.iterdir()] == ["mine.txt"]
    code, _, err = run(capsys, "report", "uberdrakes", "--output", str(folder), "--force",
                       "--points-steps", "0")
    assert code == 0, err
    assert (folder / "mine.txt").read_text(encoding="utf-8") == "keep me"
    assert (folder / "uberdrakes" / "index.html").is_file()
    # an empty folder needs no --force
    (tmp_path / "empty").mkdir()
    assert run(capsys, "report", "uberdrakes", "--output", str(tmp_path / "empty"),
               "--points-steps", "0")[0] == 0


@pytest.mark.parametrize(("args", "code", "named"), [
    (("report", "chess", "--output", "{tmp}/o"), 2, "chess"),
    (("report", "--output", "{tmp}/o", "--ruling", "XX-nothing=1"), 2, "XX-nothing"),
    (("report", "--output", "{tmp}/o", "--ruling", "DB-double-hits=7"), 2, "DB-double-hits"),
    (("report", "--output", "{tmp}/file.txt"), 2, "is a file"),
    (("report", "--output", "{tmp}/o", "--trials", "0"), 2, "--trials"),
    (("report",), 2, "--output"),
])
def test_bad_input(capsys, tmp_path, args, code, named):
    (tmp_path / "file.txt").write_text("x", encoding="utf-8")
    assert_one_line_error(capsys, [a.replace("{tmp}", str(tmp_path)) for a in args], code, named)
    assert not (tmp_path / "o").exists()
    assert (tmp_path / "file.txt").read_text(encoding="utf-8") == "x"


def test_a_failing_run_leaves_nothing(capsys, tmp_path, monkeypatch):
    from reports import api

    real = api.export_tables

    def failing(ruleset, *args, **kwargs):
        if ruleset == "dragonbond":
            raise OSError("disk full")
        return real(ruleset, *args, **kwargs)

    monkeypatch.setattr(api, "export_tables", failing)
    code, _, err = run(capsys, "report", "uberdrakes", "dragonbond", "--trials", "100",
                       "--points-steps", "0", "--output",
                       str(tmp_path / "o" / "deeper"))
    assert code == 1 and "disk full" in err
    assert not (tmp_path / "o").exists()


def test_the_meta_game_is_said_in_a_sentence_and_a_whole_mix_is_explained():
    """A mix held by one entry names it and says what a Nash rating of 0 means; otherwise the count."""
    import pandas as pd

    from reports.formats import Report, Section
    from reports.site import _metagame_sentence, _ranking_sentence

    rank = pd.DataFrame({"key": ["a", "b", "c"], "name": ["Ant", "Bee", "Cat"]})

    def said(shares):
        meta = pd.DataFrame({"key": ["b", "a", "c"], "share": shares})
        sections = [Section("ranking", "r", rank), Section("metagame", "m", meta)]
        return _metagame_sentence(Report("t", [], sections))

    one = said([1.0, 0.0, 0.0])
    assert one.startswith("One entry, Bee, takes the whole equilibrium mix") and "Nash rating is 0" in one
    assert said([0.6, 0.4, 0.0]).startswith("2 of 3 entries have a share")

    text = _ranking_sentence(site.rulesets.get("drakerys"))
    assert text.startswith("Value: net AP per 100 AP of the budget") and "(the primary value)" not in text
