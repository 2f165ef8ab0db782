"""SIGINT, SIGTERM and SIGHUP stop a run the same way (reports/cli/__init__.py): one line on stderr, exit 130,
143 or 129, and nothing left of the output folder the run created (no hidden temporary files either)."""

from __future__ import annotations

import contextlib
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

BALANCE = Path(sys.executable).with_name("balance")
#: How long a run may take to make its output folder (imports, the catalog) and then to stop: generous
#: bounds on a loaded machine, never waited out when the event comes.
APPEARS_WITHIN = 120.0
STOPS_WITHIN = 60.0

CASES = {
    "efficiency --save": lambda out: ["efficiency", "drakerys", "--save", str(out)],
    "report": lambda out: ["report", "drakerys", "--output", str(out)],
}


def _as_in_a_terminal() -> None:
    """A shell ignores SIGINT in the commands it starts in the background, and Python then never raises
    KeyboardInterrupt: each run here starts with SIGINT's default, as a command typed in a terminal, whatever
    started the tests."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _stop_once_started(args: list[str], folder: Path, signum: int) -> subprocess.CompletedProcess:
    """Run `balance ARGS`, wait until it has made ``folder`` (its output: made before any work), send
    ``signum`` and wait for the process to end."""
    proc = subprocess.Popen([str(BALANCE), *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=_as_in_a_terminal)
    deadline = time.monotonic() + APPEARS_WITHIN
    while not folder.exists():
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            out, err = proc.communicate()
            pytest.fail(f"the run never made {folder} (exit {proc.returncode}): {err}")
        time.sleep(0.02)
    proc.send_signal(signum)
    out, err = proc.communicate(timeout=STOPS_WITHIN)
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def _check(done: subprocess.CompletedProcess, parent: Path, code: int, said: str) -> None:
    assert done.returncode == code, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"balance: error: {said}"), done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""
    assert list(parent.iterdir()) == [], "the run left files behind"


SIGNALS = [(signal.SIGTERM, 143, "terminated by SIGTERM"), (signal.SIGHUP, 129, "terminated by SIGHUP"),
           (signal.SIGINT, 130, "interrupted")]


@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize(("signum", "code", "said"), [
    pytest.param(*SIGNALS[0], id="SIGTERM"),
    pytest.param(*SIGNALS[1], id="SIGHUP", marks=pytest.mark.slow),
    pytest.param(*SIGNALS[2], id="SIGINT", marks=pytest.mark.slow),
])
def test_a_signal_stops_the_run_says_so_and_leaves_nothing(tmp_path, case, signum, code, said):
    parent = tmp_path / "parent"
    parent.mkdir()
    folder = parent / "out"
    done = _stop_once_started(CASES[case](folder), folder, signum)
    _check(done, parent, code, said)


@pytest.mark.slow
def test_a_report_stopped_after_its_first_game_leaves_no_hidden_file(tmp_path):
    """The case of a `timeout` on `balance report`: stopped once the first game's files are staged (files
    under the folder), while the second game runs."""
    parent = tmp_path / "parent"
    parent.mkdir()
    folder = parent / "out"
    proc = subprocess.Popen([str(BALANCE), "report", "uberdrakes", "dragoborne", "--output", str(folder)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 4 * APPEARS_WITHIN
    while not (folder.exists() and any(p.is_file() for p in folder.rglob("*"))):
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            pytest.fail(f"the report staged no file (exit {proc.returncode}): {proc.communicate()[1]}")
        time.sleep(0.05)
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=STOPS_WITHIN)
    _check(subprocess.CompletedProcess(proc.args, proc.returncode, out, err), parent, 143,
           "terminated by SIGTERM")


def test_the_handlers_before_a_run_are_put_back(capsys):
    from reports.cli import main

    before = signal.getsignal(signal.SIGTERM)
    with contextlib.suppress(SystemExit):
        main(["rulesets", "--format", "csv"])
    assert "drakerys" in capsys.readouterr().out
    assert signal.getsignal(signal.SIGTERM) is before


STOPPED_WHILE_A_CALL_RUNS = """
import threading
import time
import reports.cli as cli
from simcore import parallel

class Stopped:  # a command interrupted at once (as by Ctrl-C or a signal)
    def main(self, **_):
        raise KeyboardInterrupt

cli.cli = Stopped()
never = threading.Event()  # a call that never ends, as a compiled call or a compilation cannot be stopped
parallel._pool(2).submit(parallel._in_worker, never.wait, None)  # wait(timeout=None): forever
while not parallel.running():
    time.sleep(0.01)
cli.console_main()
"""


def test_a_stopped_run_does_not_wait_for_the_calls_still_running():
    """A compiled call, or a kernel's compilation, cannot be interrupted; the interpreter's exit would wait
    for it (a minute in CI, on a loaded machine). The console script ends the process once its line is out:
    here the call never ends, so a process that waited for it would never exit (the timeout is only a bound
    on a failure)."""
    done = subprocess.run([sys.executable, "-c", STOPPED_WHILE_A_CALL_RUNS], capture_output=True, text=True,
                          timeout=STOPS_WITHIN)
    assert done.returncode == 130, done.stderr
    assert done.stderr.startswith("balance: error: interrupted"), done.stderr


def _swallowed(signum: int) -> None:
    """A signal that arrives while a library swallows every exception (a compiled module being imported, e.g.
    pandas', runs the handler and clears the error it raised)."""
    try:
        signal.raise_signal(signum)
    except BaseException:  # noqa: BLE001 - the library's doing, not ours
        pass


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_stop_a_library_swallowed_is_raised_again_by_the_runner(signum):
    from reports.cli import Terminated, _signals_end_the_run
    from simcore import parallel

    calls = []
    expected = KeyboardInterrupt if signum == signal.SIGINT else Terminated
    with contextlib.ExitStack() as stack:
        if signum == signal.SIGINT:  # as in a terminal, whatever started the tests
            before = signal.signal(signal.SIGINT, signal.default_int_handler)
            stack.callback(signal.signal, signal.SIGINT, before)
        with _signals_end_the_run():
            _swallowed(signum)
            with pytest.raises(expected) as raised:
                parallel.map_ordered(calls.append, [1, 2, 3], 1)
            with pytest.raises(expected):
                parallel.map_ordered(calls.append, [1, 2, 3], 2)
        assert calls == []
        if expected is Terminated:
            assert raised.value.signum == signum
        parallel.map_ordered(calls.append, [1, 2], 1)  # the run is over: the stop is forgotten
    assert calls == [1, 2]


def test_a_stop_a_library_swallowed_writes_no_file(tmp_path):
    """Nothing is put in place after a swallowed stop: the set's files and folder and a single file."""
    from reports import files
    from simcore import parallel

    parent = tmp_path / "parent"
    parent.mkdir()
    try:
        with pytest.raises(KeyboardInterrupt):
            with files.OutputSet(parent / "out" / "deeper") as out:
                out.write_text("a/page.txt", "text")
                parallel.note_stop(KeyboardInterrupt())
        with pytest.raises(KeyboardInterrupt):
            files.write_text(parent / "one.txt", "text")
    finally:
        parallel.clear_stop()
    assert list(parent.iterdir()) == []


def test_a_stop_raised_where_python_cannot_pass_it_on_is_not_printed(capsys):
    """A signal arriving in a weakref callback or a ``__del__`` (CI met it in the import system's module lock
    callback): the stop is noted and taken up by the run, with no "Exception ignored" traceback on stderr;
    another exception there still reaches the hook that was in place."""
    import gc

    from reports.cli import Terminated, _signals_end_the_run, _stop
    from simcore import parallel

    class StoppedWhileCollected:
        def __del__(self):
            _stop(signal.SIGTERM, None)

    class FailsWhileCollected:
        def __del__(self):
            raise ValueError("not a stop")

    seen = []
    before = sys.unraisablehook
    def record(unraisable):
        seen.append(type(unraisable.exc_value))

    sys.unraisablehook = record
    try:
        with _signals_end_the_run():
            StoppedWhileCollected()
            gc.collect()
            with pytest.raises(Terminated):
                parallel.check_stop()
            FailsWhileCollected()
            gc.collect()
        assert sys.unraisablehook is record  # put back after the run
    finally:
        sys.unraisablehook = before
        parallel.clear_stop()
    assert seen == [ValueError]
    assert "Exception ignored" not in capsys.readouterr().err
