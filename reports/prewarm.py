"""A helper process that compiles the kernels of the later games of `balance report` while this process
works on the first ones.

numba compiles on one core. On a first run (an empty numba cache) `balance report` used to compile each
game's kernels when it reached the game, one after another, with the second core idle for all that time.
The helper is a second Python process (``python -m reports.prewarm``) given the later games. For each game
it first looks at numba's cache (:func:`cold`): a game whose kernels are cached for its current source is
left alone, so a warm run costs it an interpreter and a few imports. A cold game is warmed by playing the
game's own efficiency field with a few trials per engagement, which compiles every kernel the report's field
uses, with the same types, into the shared on-disk cache (:mod:`simcore.cachelock` keeps the cache
consistent between the two processes).

The two processes meet in the middle: the report goes through its games in order, the helper through the
cold ones from the last. When the report reaches a game, it runs it at once if the helper found it warm or
has warmed it (loading its kernels from the cache), waits if the helper is warming it, and otherwise claims
it (it compiles the game itself, and the helper skips it). So neither compiles what the other compiles,
and the report waits only for a game the helper has already started.

The helper changes no number: it writes nothing but numba's cache (and its mark, :func:`mark`), and a kernel
loaded from the cache is the same machine code as one compiled here. It is not started for one game (unless
that game is cold and has side kernels, below), with numba's cache off (``BALANCE_NUMBA_CACHE=0``,
``NUMBA_DISABLE_JIT=1``), on one thread (``--threads 1`` asks for one core), on a Dask cluster (the workers
compile), or with ``BALANCE_COMPILE_HELPER=0``. It exits when its work is done, and at once when the report's
process ends or is killed (its standard input closes).
When it fails on a game, the report compiles that game itself.

Protocol, a line each. The helper says ``cold GAME`` or ``warm GAME`` for every game once looked at, then
for each cold game, last first, ``start GAME`` and then ``done GAME`` or ``failed GAME: reason``, or
``left GAME`` for a game the report has claimed. The report says ``mine GAME`` on the helper's standard
input to claim a game.

Side kernels. A game's field may use kernels besides the engagement kernel its first engagement compiles
(``Ruleset.warm_ups``: Drakerys' Fight kernel, which its ``DK-blocking=auto`` choices simulate), and those
were compiled one after the other in one process. For the first game of a report, or the one game of
`balance efficiency`, when it is cold, the helper compiles them first (saying ``side GAME``, then
``side-done GAME`` or ``failed-side GAME: reason``) while the other process compiles the engagement kernel.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import Sequence
from pathlib import Path

#: Trials per engagement of the helper's warm-up field: the kernels' types do not depend on it.
WARM_TRIALS = 64

#: The environment variable that turns the helper off ("0").
SWITCH = "BALANCE_COMPILE_HELPER"


# --- in the helper ---------------------------------------------------------------------------------------


def _dispatchers(game: str) -> list:
    """Every numba dispatcher defined in the modules of ``rulesets.<game>`` that caches to disk."""
    import importlib
    import pkgutil

    from numba.core.dispatcher import Dispatcher

    package = importlib.import_module(f"rulesets.{game}")
    found = []
    for info in pkgutil.iter_modules(package.__path__, f"{package.__name__}."):
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if (isinstance(value, Dispatcher) and value.py_func.__module__ == module.__name__
                    and hasattr(value._cache, "_cache_file")):
                found.append(value)
    return found


def _sources(game: str) -> dict[str, list[int]]:
    """(modification time in ns, size) of every source file of ``rulesets.<game>``."""
    import importlib

    folder = Path(importlib.import_module(f"rulesets.{game}").__file__).parent
    return {p.name: [p.stat().st_mtime_ns, p.stat().st_size] for p in sorted(folder.glob("*.py"))}


def _marker(game: str, dispatchers: list) -> Path:
    """The file that says the helper warmed ``game`` (in the numba cache folder of the game's kernels)."""
    return Path(dispatchers[0]._cache._cache_path) / f"balance-warmed-{game}.json"


def _stamp(game: str) -> str:
    import numba

    return json.dumps({"numba": numba.__version__, "sources": _sources(game)}, sort_keys=True)


def _key() -> tuple:
    """What numba's cache keys of this machine (and of simcore.linkonly's entries) hold after a signature."""
    from numba.core.registry import cpu_target

    return cpu_target.target_context.codegen().magic_tuple()


def cold(game: str) -> bool:
    """Whether the game's kernels must be compiled.

    Warm: the game defines no kernel; or the helper warmed it for the game's current source files (its
    mark, :func:`mark`: a game whose report uses no kernel of its own is then not played again); or numba's
    cache holds the game's kernels for their current source. Cold: nothing of the game is cached, or a
    source file of the game has cached kernels that are all out of date (edited since, or another numba).
    A file with one current kernel counts as warm: its out-of-date ones are kernels the runs since the edit
    did not need. Only entries under this process's key count (an older code's, keyed apart by
    simcore.linkonly, cannot be loaded here). Reads numba's cache index (a private numba API: anything
    unexpected counts as cold, so the helper warms the game)."""
    try:
        dispatchers = _dispatchers(game)
        if not dispatchers:
            return False
        marker = _marker(game, dispatchers)
        if marker.is_file() and marker.read_text() == _stamp(game):
            return False
        current: dict[str, bool] = {}
        key = _key()
        for disp in dispatchers:
            index = disp._cache._cache_file
            if not os.path.exists(index._index_path):
                continue  # never compiled: not a kernel the runs so far have used
            source = disp.py_func.__code__.co_filename
            current[source] = current.get(source, False) or any(
                isinstance(k, tuple) and len(k) > 1 and k[1] == key for k in index._load_index())
    except Exception:  # noqa: BLE001 - an unexpected numba: warm the game
        return True
    return not current or not all(current.values())


def mark(game: str) -> None:
    """Note that ``game`` was warmed for its current source files (written whole, under a temporary name
    first)."""
    dispatchers = _dispatchers(game)
    if dispatchers:
        marker = _marker(game, dispatchers)
        marker.parent.mkdir(parents=True, exist_ok=True)
        partial = marker.with_name(f"{marker.name}.{os.getpid()}.tmp")
        partial.write_text(_stamp(game))
        os.replace(partial, marker)


def warm(game: str, rulings: Sequence[str]) -> None:
    """Compile (or load) every kernel of the game's efficiency field: the field played with
    :data:`WARM_TRIALS` trials per engagement on one thread."""
    from reports import api

    api._efficiency(game, (), (), list(rulings), None, None, WARM_TRIALS, 1, (), None)


def warm_side(game: str, rulings: Sequence[str]) -> None:
    """Compile (or load) the kernels the game's field uses besides its engagement kernel
    (``Ruleset.warm_ups``)."""
    from reports import api

    rs = api._ruleset(game)
    for call in rs.warm_ups(api._rulings(rs, list(rulings))):
        call()


def _listen(claimed: set[str], lock: threading.Lock) -> None:
    """Note every game the report claims (``mine GAME``); exit at once when standard input closes: the
    report's process has ended (or was killed)."""
    for line in sys.stdin:
        word, _, game = line.strip().partition(" ")
        if word == "mine":
            with lock:
                claimed.add(game)
    os._exit(0)


def main(argv: Sequence[str]) -> int:
    """``python -m reports.prewarm JSON [SIDE]``: JSON is ``[[game, [ruling, ...]], ...]`` in report order;
    SIDE, ``[game, [ruling, ...]]``: the game whose field the report's process plays first, whose other
    kernels (:func:`warm_side`) are compiled first, while that process compiles the game's engagement
    kernel."""
    claimed: set[str] = set()
    lock = threading.Lock()
    threading.Thread(target=_listen, args=(claimed, lock), daemon=True).start()
    if hasattr(os, "nice"):
        os.nice(5)  # the report's own threads first when both want a core
    games = json.loads(argv[0])

    def say(text: str) -> None:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()

    if len(argv) > 1:
        game, rulings = json.loads(argv[1])
        if cold(game):
            say(f"side {game}")
            try:
                warm_side(game, rulings)
            except Exception as exc:  # noqa: BLE001 - the report's process compiles them itself
                say(f"failed-side {game}: {type(exc).__name__}")
            else:
                say(f"side-done {game}")
    todo = []
    for game, rulings in games:
        is_cold = cold(game)
        say(f"{'cold' if is_cold else 'warm'} {game}")
        if is_cold:
            todo.append((game, rulings))
    for game, rulings in reversed(todo):  # the report comes from the first
        with lock:
            if game in claimed:
                say(f"left {game}")
                continue
            say(f"start {game}")
        try:
            warm(game, rulings)
        except Exception as exc:  # noqa: BLE001 - the report compiles the game itself
            say(f"failed {game}: {type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}")
        else:
            try:
                mark(game)
            except OSError:
                pass  # an unwritable cache folder: the game is judged from numba's index next time
            say(f"done {game}")
    return 0


# --- in the report's process -----------------------------------------------------------------------------


def wanted(games: int, threads: int | None) -> bool:
    """Whether a helper can help: several games (or jobs: a game's side kernels count as one), numba's cache
    on, more than one thread, no cluster."""
    from simcore import config, parallel

    try:
        several = parallel.check_threads(threads) > 1
    except ValueError:
        return False  # the run itself says what is wrong
    return (several and games > 1 and os.environ.get(SWITCH, "1") != "0" and config.CACHE
            and os.environ.get("NUMBA_DISABLE_JIT", "0") in ("", "0") and parallel._backend is None)


class Helper:
    """The helper process for ``games`` (``[(name, [ruling, ...]), ...]`` in report order) and what it has
    said; :meth:`close` ends it."""

    def __init__(self, games: Sequence[tuple[str, Sequence[str]]], command: Sequence[str] | None = None,
                 side: tuple[str, Sequence[str]] | None = None):
        """``command``: the helper's command line instead of ``python -m reports.prewarm`` (for tests);
        ``side``: the first game's (name, rulings), whose side kernels the helper compiles first."""
        self.games = [name for name, _ in games]
        self.said: dict[str, str] = {}  # game -> the helper's last word on it: cold, warm, start, done, ...
        self.failures: dict[str, str] = {}
        self.claimed: set[str] = set()  # games this process compiles itself
        self._ended = False
        self._changed = threading.Condition()
        root = str(Path(__file__).resolve().parent.parent)
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join([root, *filter(None, [env.get("PYTHONPATH")])])
        if command is None:
            command = [sys.executable, "-m", "reports.prewarm", json.dumps([[n, list(r)] for n, r in games])]
            if side is not None:
                command.append(json.dumps([side[0], list(side[1])]))
        self._proc = subprocess.Popen(list(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      stderr=subprocess.DEVNULL, env=env, text=True)
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        for line in self._proc.stdout:
            word, _, rest = line.strip().partition(" ")
            game, _, reason = rest.partition(": ")
            with self._changed:
                self.said[game] = word
                if word == "failed":
                    self.failures[game] = reason
                self._changed.notify_all()
        with self._changed:
            self._ended = True
            self._changed.notify_all()

    def wait_for(self, game: str) -> None:
        """Return when this process may run ``game``: the helper found it warm or warmed it, failed on it or
        ended; or, if the helper has not started it, once it is claimed (this process compiles it)."""
        if game not in self.games:
            return
        with self._changed:
            if self.said.get(game) not in ("start", "warm", "done", "failed") and not self._ended:
                try:
                    self._proc.stdin.write(f"mine {game}\n")
                    self._proc.stdin.flush()
                except OSError:
                    pass  # it has ended
                self.claimed.add(game)
                return
            self._changed.wait_for(lambda: self._ended or self.said.get(game) != "start")

    def close(self) -> None:
        """End the helper (closing its standard input) and reap it."""
        end_helper(self._proc, self._reader)


def end_helper(proc: subprocess.Popen, reader: threading.Thread) -> None:
    """End a helper process that reads its work from its standard input: close that, wait for it (killed
    after 10 s), and join the thread reading what it says (reports.drawer's helper too)."""
    if proc.stdin is not None and not proc.stdin.closed:
        try:
            proc.stdin.close()
        except OSError:
            pass
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    reader.join(timeout=10)


def side_job(rs, rulings) -> tuple[str, list[str]] | None:
    """``(game, rulings)`` for the helper when the game's field uses kernels besides its engagement kernel
    (``Ruleset.warm_ups``) and the game is not cached yet (:func:`cold`, 16 ms), else None."""
    if not rs.warm_ups(rulings) or not cold(rs.name):
        return None
    return rs.name, [f"{k}={v}" for k, v in rulings.in_force()]


def side_helper(rs, rulings, threads: int | None) -> Helper | None:
    """A helper compiling one game's side kernels while this process compiles its engagement kernel
    (`balance efficiency` of one game), or None where it cannot help: no side job (:func:`side_job`) or
    :func:`wanted` says no."""
    if not wanted(2, threads):
        return None
    side = side_job(rs, rulings)
    return None if side is None else Helper([], side=side)


if __name__ == "__main__":
    from simcore.config import fewer_collections

    fewer_collections()
    code = main(sys.argv[1:])
    sys.stdout.flush()
    os._exit(code)  # no teardown walk over numba's objects
