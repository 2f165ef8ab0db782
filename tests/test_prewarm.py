"""reports.prewarm: the helper process that compiles the later games' kernels during `balance report`."""

import json
import os
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from reports import prewarm
from simcore import config, parallel

ROOT = Path(__file__).resolve().parent.parent


# --- when it is started -----------------------------------------------------------------------------------


def test_a_helper_is_wanted_for_several_games_on_several_threads(monkeypatch):
    monkeypatch.delenv(prewarm.SWITCH, raising=False)
    monkeypatch.delenv("NUMBA_DISABLE_JIT", raising=False)
    monkeypatch.setattr(config, "CACHE", True)
    assert prewarm.wanted(5, 2)
    assert not prewarm.wanted(1, 2)  # nothing to overlap
    assert not prewarm.wanted(5, 1)  # one core asked for
    assert not prewarm.wanted(5, 0)  # a bad count: the run says what is wrong
    monkeypatch.setattr(parallel, "_backend", lambda *a: [])
    assert not prewarm.wanted(5, 2)  # a Dask cluster's workers compile
    monkeypatch.setattr(parallel, "_backend", None)
    monkeypatch.setattr(config, "CACHE", False)
    assert not prewarm.wanted(5, 2)  # nothing shared between the processes
    monkeypatch.setattr(config, "CACHE", True)
    monkeypatch.setenv("NUMBA_DISABLE_JIT", "1")
    assert not prewarm.wanted(5, 2)
    monkeypatch.delenv("NUMBA_DISABLE_JIT")
    monkeypatch.setenv(prewarm.SWITCH, "0")
    assert not prewarm.wanted(5, 2)


# --- what it judges cold ----------------------------------------------------------------------------------


def _dispatcher(folder: Path, name: str, source: str, state: str):
    """A stand-in for a numba dispatcher whose cache index is missing, current or out of date."""
    index = folder / f"{name}.nbi"
    if state != "missing":
        index.write_text(state)
    # numba's index keys: (signature, the machine's key, hashes of the bytecode); "old-key": written by code
    # from before simcore.linkonly (numba's own key), whose entries this code cannot load
    config.JIT  # noqa: B018 - installs simcore.linkonly, as every kernel module does at import
    entries = {"current": {("sig", prewarm._key(), ("h", "h")): 1},
               "old-key": {("sig", prewarm._key()[:3], ("h", "h")): 1}}
    cache_file = SimpleNamespace(_index_path=str(index), _load_index=lambda: entries.get(state, {}))
    return SimpleNamespace(_cache=SimpleNamespace(_cache_file=cache_file, _cache_path=str(folder)),
                           py_func=SimpleNamespace(__code__=SimpleNamespace(co_filename=source)))


@pytest.mark.parametrize("states, cold", [
    ({}, False),  # a game without kernels
    ({"a": ("k.py", "missing")}, True),  # nothing compiled yet
    ({"a": ("k.py", "current"), "b": ("k.py", "missing")}, False),
    ({"a": ("k.py", "stale")}, True),  # the source edited since
    ({"a": ("k.py", "stale"), "b": ("k.py", "current")}, False),  # a kernel the runs since did not need
    ({"a": ("k.py", "current"), "b": ("m.py", "stale")}, True),  # m.py edited since
    ({"a": ("k.py", "old-key")}, True),  # only entries this code cannot load
])
def test_a_game_is_cold_when_nothing_of_it_is_cached_or_a_file_of_it_is_all_out_of_date(
        tmp_path, monkeypatch, states, cold):
    found = [_dispatcher(tmp_path, name, source, state) for name, (source, state) in states.items()]
    monkeypatch.setattr(prewarm, "_dispatchers", lambda game: found)
    monkeypatch.setattr(prewarm, "_stamp", lambda game: "stamp")
    assert prewarm.cold("game") is cold


def test_a_game_the_helper_warmed_for_its_source_is_warm_and_any_surprise_counts_as_cold(tmp_path,
                                                                                        monkeypatch):
    # a game whose report compiles none of its kernels
    found = [_dispatcher(tmp_path, "a", "k.py", "missing")]
    monkeypatch.setattr(prewarm, "_dispatchers", lambda game: found)
    stamp = {"now": "source 1"}
    monkeypatch.setattr(prewarm, "_stamp", lambda game: stamp["now"])
    assert prewarm.cold("game")
    prewarm.mark("game")
    assert (tmp_path / "balance-warmed-game.json").read_text() == "source 1"
    assert not prewarm.cold("game")
    stamp["now"] = "source 2"  # edited since
    assert prewarm.cold("game")

    def broken(game):
        raise AttributeError("numba changed")

    monkeypatch.setattr(prewarm, "_dispatchers", broken)
    assert prewarm.cold("game")


def test_the_mark_holds_numba_s_version_and_every_source_file_of_the_game():
    stamp = json.loads(prewarm._stamp("warbound"))
    assert stamp["numba"] == __import__("numba").__version__
    assert {"kernels.py", "contest.py", "__init__.py"} <= set(stamp["sources"])
    assert all(len(v) == 2 for v in stamp["sources"].values())


# --- talking to it ----------------------------------------------------------------------------------------

#: A helper that says: a cold (and starts it), b warm, c cold; writes what it hears into argv[1]; finishes a
#: when told to (a second line on its standard input).
_FAKE = textwrap.dedent("""
    import sys
    print("cold a", "warm b", "cold c", "start a", sep="\\n", flush=True)
    heard = sys.stdin.readline()
    open(sys.argv[1], "w").write(heard)
    sys.stdin.readline()
    print("done a", flush=True)
    sys.stdin.readline()
""")


def test_the_report_waits_for_a_game_the_helper_has_started_and_claims_one_it_has_not(tmp_path):
    heard = tmp_path / "heard"
    helper = prewarm.Helper([("a", []), ("b", []), ("c", [])],
                            command=[sys.executable, "-c", _FAKE, str(heard)])
    try:
        with helper._changed:
            assert helper._changed.wait_for(lambda: len(helper.said) == 3, timeout=60)
        helper.wait_for("b")  # warm: at once
        helper.wait_for("not the helper's")
        helper.wait_for("c")  # cold and not started: claimed, this process compiles it
        assert helper.claimed == {"c"}
        waiter = threading.Thread(target=helper.wait_for, args=("a",))
        waiter.start()
        waiter.join(0.5)
        assert waiter.is_alive()  # a is being warmed
        assert heard.read_text() == "mine c\n"
        helper._proc.stdin.write("go\n")
        helper._proc.stdin.flush()
        waiter.join(30)
        assert not waiter.is_alive()
        assert helper.said == {"a": "done", "b": "warm", "c": "cold"}
        assert helper.claimed == {"c"}
    finally:
        helper.close()
    assert helper._proc.returncode == 0  # closing its stdin let it end


#: The helper's main() with three cold stand-in games; warming takes 1 s each; prints what warm() was given.
_MAIN = textwrap.dedent("""
    import sys, time
    from reports import prewarm
    prewarm.cold = lambda game: True
    prewarm.mark = lambda game: None
    def warm(game, rulings):
        print("warming", game, *rulings, file=sys.stderr, flush=True)
        time.sleep(1)
    prewarm.warm = warm
    prewarm.main(['[["x", []], ["y", ["k=v"]], ["z", ["a=b"]]]'])
""")


def test_the_helper_warms_the_cold_games_last_first_and_leaves_a_claimed_one():
    proc = subprocess.Popen([sys.executable, "-c", _MAIN], cwd=ROOT, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    proc.stdin.write("mine y\n")  # the report got to y first
    proc.stdin.flush()
    out = proc.stdout.read()
    err = proc.stderr.read()
    proc.stdin.close()
    assert proc.wait(timeout=60) == 0
    assert out.splitlines() == ["cold x", "cold y", "cold z", "start z", "done z", "left y", "start x",
                                "done x"]
    assert err.splitlines() == ["warming z a=b", "warming x"]


def test_a_helper_that_dies_in_the_middle_of_a_game_does_not_hold_the_report_up():
    helper = prewarm.Helper([("a", [])], command=[sys.executable, "-c", "print('start a', flush=True)"])
    try:
        with helper._changed:
            assert helper._changed.wait_for(lambda: helper.said, timeout=60)
        helper.wait_for("a")  # it ended without finishing a
        assert helper.said == {"a": "start"}
        assert helper.claimed == set()
    finally:
        helper.close()


def test_the_helper_ends_when_the_report_s_process_ends(tmp_path):
    """Its standard input closes: it exits at once, in the middle of its work."""
    script = textwrap.dedent("""
        import threading, time
        from reports import prewarm
        threading.Thread(target=prewarm._listen, args=(set(), threading.Lock()), daemon=True).start()
        print("working", flush=True)
        time.sleep(60)
    """)
    proc = subprocess.Popen([sys.executable, "-c", script], cwd=ROOT, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline() == "working\n"
    start = time.monotonic()
    proc.stdin.close()
    assert proc.wait(timeout=30) == 0
    assert time.monotonic() - start < 30


# --- what it compiles -------------------------------------------------------------------------------------

#: After the helper: the game's efficiency field, as the report plays it, in a fresh process; prints how many
#: kernels numba compiled there (cache misses).
_FIELD = textwrap.dedent("""
    import gc, sys
    from numba.core.dispatcher import Dispatcher
    from reports import api
    api._efficiency(sys.argv[1], (), (), None, None, None, None, 2, (), None)
    print(sum(sum(d.stats.cache_misses.values()) for d in gc.get_objects() if isinstance(d, Dispatcher)))
""")


def _helper_run(games, env):
    """What the helper says; its standard input stays open (closed, it would end at once)."""
    proc = subprocess.Popen([sys.executable, "-m", "reports.prewarm", json.dumps([[g, []] for g in games])],
                            cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    said = proc.stdout.read()  # until it exits
    proc.stdin.close()
    assert proc.wait(timeout=900) == 0
    return said.splitlines()


def _compiled_by_the_field(game, env):
    out = subprocess.run([sys.executable, "-c", _FIELD, game], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=900)
    assert out.returncode == 0, out.stderr
    return int(out.stdout.split()[-1])


def _fresh_cache(tmp_path):
    return {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba"), "BALANCE_NUMBA_CACHE": "1"}


def test_after_the_helper_the_game_s_field_compiles_nothing(tmp_path):
    env = _fresh_cache(tmp_path)
    assert _helper_run(["warbound"], env) == ["cold warbound", "start warbound", "done warbound"]
    assert _helper_run(["warbound"], env) == ["warm warbound"]  # the next run costs nothing
    assert _compiled_by_the_field("warbound", env) == 0


def test_without_the_helper_the_field_compiles_its_kernels(tmp_path):
    """The measure above can fail: a cold cache makes the field compile."""
    assert _compiled_by_the_field("warbound", _fresh_cache(tmp_path)) > 0


@pytest.mark.slow
@pytest.mark.parametrize("game", ["drakerys", "dragonbond", "uberdrakes", "dragoborne"])
def test_after_the_helper_every_game_s_field_compiles_nothing(tmp_path, game):
    env = _fresh_cache(tmp_path)
    assert _helper_run([game], env) == [f"cold {game}", f"start {game}", f"done {game}"]
    assert _helper_run([game], env) == [f"warm {game}"]
    assert _compiled_by_the_field(game, env) == 0


_REPORT = ("import sys; from reports.cli import console_main; sys.argv = ['balance', *sys.argv[1:]]; "
           "console_main()")


@pytest.mark.slow
def test_a_report_with_the_helper_is_the_same_bytes_as_without(tmp_path):
    """Two games from an empty numba cache, with the helper and then without it (its cache warm by then)."""
    outputs = []
    for switch in ("1", "0"):
        env = {**_fresh_cache(tmp_path), prewarm.SWITCH: switch}
        folder = tmp_path / f"site{switch}"
        done = subprocess.run([sys.executable, "-c", _REPORT, "report", "warbound", "dragonbond", "--output",
                               str(folder), "--threads", "2"], cwd=ROOT, env=env, capture_output=True,
                              text=True, timeout=900)
        assert done.returncode == 0, done.stderr
        outputs.append({p.relative_to(folder): p.read_bytes() for p in sorted(folder.rglob("*"))
                        if p.is_file()})
    assert outputs[0] == outputs[1]
    assert len(outputs[0]) > 10


# --- the first game's side kernels ------------------------------------------------------------------------

#: The helper's main() with a cold first game whose side kernels it compiles first, then one later game.
_SIDE = textwrap.dedent("""
    import sys
    from reports import prewarm
    prewarm.cold = lambda game: game in sys.argv[1]
    prewarm.mark = lambda game: None
    prewarm.warm = lambda game, rulings: print("warming", game, file=sys.stderr, flush=True)
    prewarm.warm_side = lambda game, rulings: print("side", game, *rulings, file=sys.stderr, flush=True)
    prewarm.main(['[["y", []]]', '["x", ["k=v"]]'])
""")


@pytest.mark.parametrize("cold, said, did", [
    ("xy", ["side x", "side-done x", "cold y", "start y", "done y"], ["side x k=v", "warming y"]),
    ("y", ["cold y", "start y", "done y"], ["warming y"]),  # the first game is cached: nothing to do for it
])
def test_the_helper_compiles_the_first_game_s_side_kernels_before_the_later_games(cold, said, did):
    proc = subprocess.Popen([sys.executable, "-c", _SIDE, cold], cwd=ROOT, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)  # stdin open: it works
    out, err = proc.stdout.read(), proc.stderr.read()
    proc.stdin.close()
    assert proc.wait(timeout=60) == 0, err
    assert out.splitlines() == said
    assert err.splitlines() == did


def test_only_drakerys_auto_blocking_has_side_kernels(monkeypatch):
    from reports import api

    monkeypatch.setattr(prewarm, "cold", lambda game: True)  # as on a first run

    for game in ("drakerys", "dragonbond", "warbound", "uberdrakes", "dragoborne"):
        rs = api._ruleset(game)
        job = prewarm.side_job(rs, api._rulings(rs, []))
        assert (job is not None) == (game == "drakerys")
    rs = api._ruleset("drakerys")
    assert prewarm.side_job(rs, api._rulings(rs, ["DK-blocking=always"])) is None
    name, rulings = prewarm.side_job(rs, api._rulings(rs, []))
    assert name == "drakerys" and "DK-blocking=auto" in rulings
    monkeypatch.setattr(prewarm, "cold", lambda game: False)
    assert prewarm.side_job(rs, api._rulings(rs, [])) is None  # cached: nothing for a helper to do


def test_a_side_helper_starts_only_for_a_cold_game_on_several_threads(monkeypatch):
    from reports import api

    started = []
    monkeypatch.setattr(prewarm, "Helper", lambda games, side=None: started.append((games, side)) or "h")
    rs = api._ruleset("drakerys")
    in_force = api._rulings(rs, [])
    monkeypatch.setattr(prewarm, "cold", lambda game: False)
    assert prewarm.side_helper(rs, in_force, 2) is None  # cached already: no process at all
    monkeypatch.setattr(prewarm, "cold", lambda game: True)
    assert prewarm.side_helper(rs, in_force, 1) is None  # one core asked for
    warbound = api._ruleset("warbound")
    assert prewarm.side_helper(warbound, api._rulings(warbound, []), 2) is None  # no side kernels
    assert prewarm.side_helper(rs, in_force, 2) == "h"
    assert started == [([], prewarm.side_job(rs, in_force))]


#: The Blocking choices of a Crows entry, as a field makes them; prints how many Fight kernels were compiled.
_BLOCKING = textwrap.dedent("""
    from rulesets.drakerys import catalog, combat, kernels_fight
    from rulesets.drakerys.fight import Combatant
    from rulesets.drakerys.rules import DrakerysRulings
    units = catalog.load()
    combat.auto_block_mask(Combatant(units.unit("gold-keepers"), 6), Combatant(units.unit("crows"), 12),
                           DrakerysRulings())
    print(sum(kernels_fight._fight_chunks.stats.cache_misses.values()))
""")


def _fight_kernels_compiled(env):
    out = subprocess.run([sys.executable, "-c", _BLOCKING], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=900)
    assert out.returncode == 0, out.stderr
    return int(out.stdout.split()[-1])


def test_after_the_side_job_the_blocking_choices_compile_no_fight_kernel(tmp_path):
    cold = _fresh_cache(tmp_path / "control")
    assert _fight_kernels_compiled(cold) == 1  # the measure can fail: a cold cache compiles it
    env = _fresh_cache(tmp_path)
    side = "from reports import prewarm; prewarm.warm_side('drakerys', [])"  # what the helper runs first
    done = subprocess.run([sys.executable, "-c", side], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=900)
    assert done.returncode == 0, done.stderr
    assert _fight_kernels_compiled(env) == 0
