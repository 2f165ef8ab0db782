"""A helper process that draws a report's heatmaps while this process writes the rest of the report.

After the engagements of `balance efficiency --save` (or of each game of `balance report`), what is left is
serial Python: the ranking, the CSV, Markdown and JSON files (0.6 s for Drakerys then, 0.3 s now) and
the heatmap of the win matrix (1.0 s: matplotlib lays out 68 labels and a thousand cell values, draws twice
for the tight bounding box and encodes the PNG). With two cores the heatmap can be drawn beside the rest.
The helper (``python -m reports.drawer``) starts with the command, imports matplotlib while the engagements
run (this process then never imports it), and draws each heatmap it is sent with the same function this
process would call (:func:`reports.plots.plot_values`), into a temporary folder of its own; this process
copies the file into its output set. The bytes are those this process would write (tested).

It is started only where a second core helps: more than one thread (``--threads 1`` asks for one core) and
not switched off with ``BALANCE_DRAW_HELPER=0``. It writes nothing but its temporary folder, which
:meth:`Drawer.close` removes, and it exits when this process closes its standard input (or ends). When it
cannot start, fails on a drawing or ends early, this process draws that heatmap itself.

Protocol, a line each: a job is a JSON object (``id``, ``values`` with NaN as JSON's ``NaN``, ``rows``,
``columns``, ``style``: the keywords of plot_values, ``path``); the helper answers ``ok ID`` or
``failed ID: reason``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

#: ``BALANCE_DRAW_HELPER=0`` draws every heatmap in this process.
SWITCH = "BALANCE_DRAW_HELPER"


def wanted(threads: int | None) -> bool:
    """Whether a helper can help: more than one thread and not switched off."""
    from simcore import parallel

    try:
        several = parallel.check_threads(threads) > 1
    except ValueError:
        return False  # the run itself says what is wrong
    return several and os.environ.get(SWITCH, "1") != "0"


def drawer_for(threads: int | None) -> Drawer | None:
    """The helper for a run on ``threads`` threads, or None where it cannot help (:func:`wanted`)."""
    return Drawer() if wanted(threads) else None


class Drawing:
    """A heatmap on its way: :meth:`write` puts it at a path (the helper's file, or drawn here)."""

    def __init__(self, drawer: Drawer | None, job: int, made: Path | None, here: Callable[[Path], None]):
        self._drawer, self._job, self._made, self._here = drawer, job, made, here

    def write(self, path: Path) -> None:
        """Write the heatmap to ``path``: wait for the helper and copy its file, or draw it here when the
        helper failed on it or is gone."""
        if self._drawer is not None and self._drawer.result(self._job) and self._made is not None:
            shutil.copyfile(self._made, path)
            self._made.unlink(missing_ok=True)
            return
        self._here(Path(path))


class Drawer:
    """The helper process; :meth:`matrix` sends it a heatmap, :meth:`close` ends it."""

    def __init__(self, command: Sequence[str] | None = None):
        """``command``: the helper's command line instead of ``python -m reports.drawer`` (for tests)."""
        self._folder = Path(tempfile.mkdtemp(prefix="balance-draw-"))
        self._jobs = 0
        self._answers: dict[int, bool] = {}
        self._ended = False
        self._changed = threading.Condition()
        root = str(Path(__file__).resolve().parent.parent)
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join([root, *filter(None, [env.get("PYTHONPATH")])])
        try:
            self._proc = subprocess.Popen(list(command or [sys.executable, "-m", "reports.drawer"]),
                                          stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                          stderr=subprocess.DEVNULL, env=env, text=True)
        except OSError:
            self._proc = None
            self._ended = True
            return
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        for line in self._proc.stdout:
            word, _, rest = line.strip().partition(" ")
            job = rest.partition(":")[0]
            if job.isdigit():
                with self._changed:
                    self._answers[int(job)] = word == "ok"
                    self._changed.notify_all()
        with self._changed:
            self._ended = True
            self._changed.notify_all()

    def matrix(self, values, rows: Sequence[str], columns: Sequence[str], style: dict,
               here: Callable[[Path], None]) -> Drawing:
        """Send the heatmap of ``values`` (a float matrix, NaN for no value) to the helper;
        ``here(path)`` draws the same heatmap in this process when the helper cannot."""
        job = self._jobs
        self._jobs += 1
        if self._proc is None:
            return Drawing(None, job, None, here)
        made = self._folder / f"{job}.png"
        line = json.dumps({"id": job, "values": [[float(v) for v in row] for row in values],
                           "rows": [str(r) for r in rows], "columns": [str(c) for c in columns],
                           "style": style, "path": str(made)})
        try:
            self._proc.stdin.write(line + "\n")
            self._proc.stdin.flush()
        except OSError:  # it has ended
            return Drawing(None, job, None, here)
        return Drawing(self, job, made, here)

    def result(self, job: int) -> bool:
        """Whether the helper drew ``job`` (waits for its answer, or for its end)."""
        with self._changed:
            self._changed.wait_for(lambda: self._ended or job in self._answers)
            return self._answers.get(job, False)

    def close(self) -> None:
        """End the helper (closing its standard input), reap it and remove its folder."""
        if self._proc is not None:
            from reports.prewarm import end_helper

            end_helper(self._proc, self._reader)
        shutil.rmtree(self._folder, ignore_errors=True)


def _serve(lines, say: Callable[[str], None]) -> None:
    import numpy as np

    from reports import plots

    for line in lines:
        job = json.loads(line)
        try:
            plots.plot_values(np.array(job["values"], dtype=float), job["rows"], job["columns"],
                              Path(job["path"]), **job["style"])
        except Exception as exc:  # noqa: BLE001 - the report's process draws it itself
            say(f"failed {job['id']}: {type(exc).__name__}")
        else:
            say(f"ok {job['id']}")


def main() -> int:
    """``python -m reports.drawer``: import matplotlib, then draw each job read on standard input."""
    def say(text: str) -> None:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()

    import reports.plots  # noqa: F401 - matplotlib, loaded while the report's engagements run

    _serve(sys.stdin, say)
    return 0


if __name__ == "__main__":
    from simcore.config import fewer_collections

    fewer_collections()
    code = main()
    sys.stdout.flush()
    os._exit(code)
