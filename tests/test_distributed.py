"""The matchups of `efficiency`, `whatif` and `sweep` as tasks on a Dask cluster (simcore.distributed, the
--scheduler and --dask options): the same bytes as a local run, retries, progress, and one-line errors.

One LocalCluster of two one-thread worker processes serves the module; its workers inherit NUMBA_CACHE_DIR
(tests/conftest.py), so they load the kernels compiled by this process instead of compiling them again.
"""

from __future__ import annotations

import logging
import os
import socket
import sys

import pytest
from cli_run import assert_one_line_error, ok, run

from simcore import parallel

pytest.importorskip("distributed")

from simcore import distributed as dist  # noqa: E402 - after the skip

DRAGONBOND = ("dragonbond", "--unit", "bucentaur-blades", "--unit", "oathguard-duelists", "--unit",
              "dragon-queen")
MC = ("--trials", "2000", "--seed", "11")


@pytest.fixture(scope="module")
def scheduler(tmp_path_factory):
    """The address of a LocalCluster of two worker processes (Dask's scratch space in a temporary folder)."""
    import dask
    from distributed import LocalCluster

    with (dask.config.set({"temporary-directory": str(tmp_path_factory.mktemp("dask"))}),
          LocalCluster(n_workers=2, threads_per_worker=1, processes=True, silence_logs=logging.ERROR,
                       scheduler_kwargs=dist.LOCAL_SCHEDULER) as c):
        yield c.scheduler_address


def _same_on_cluster(capsys, scheduler, *args: str) -> str:
    """`balance ARGS` here and on the cluster print the same bytes; the output."""
    here = ok(capsys, *args)
    there = ok(capsys, *args, "--scheduler", scheduler)
    assert there == here
    return here


def test_efficiency_saved_files_are_the_same_bytes_on_the_cluster(capsys, scheduler, tmp_path):
    for where, extra in (("here", ()), ("there", ("--scheduler", scheduler))):
        code, _, err = run(capsys, "efficiency", *DRAGONBOND, *MC, "--save", str(tmp_path / where), *extra)
        assert code == 0, err
    for name in ("efficiency.csv", "metagame.csv", "matchups.csv", "efficiency.md", "efficiency.json"):
        assert (tmp_path / "there" / name).read_bytes() == (tmp_path / "here" / name).read_bytes(), name


def test_whatif_is_the_same_bytes_on_the_cluster(capsys, scheduler):
    out = _same_on_cluster(capsys, scheduler, "whatif", *DRAGONBOND, *MC, "--set", "dragon-queen.health=5",
                           "--format", "json")
    assert "dragon-queen" in out


@pytest.mark.parametrize("swept", [("--set", "dragon-queen.health=3..5"),
                                   ("--cost", "bucentaur-blades=60..140/40")], ids=["stat", "cost"])
def test_sweep_is_the_same_bytes_on_the_cluster(capsys, scheduler, swept):
    _same_on_cluster(capsys, scheduler, "sweep", *DRAGONBOND, *MC, *swept, "--format", "json")


@pytest.mark.slow  # the cluster's worker processes compile every kernel of two games' sites afresh
def test_report_site_is_the_same_bytes_on_the_cluster(capsys, scheduler, tmp_path):
    for where, extra in (("here", ()), ("there", ("--scheduler", scheduler))):
        code, _, err = run(capsys, "report", "dragonbond", "uberdrakes", "--trials", "300",
                           "--points-steps", "1", "--output",
                           str(tmp_path / where), *extra)
        assert code == 0, err
    here = sorted(p.relative_to(tmp_path / "here") for p in (tmp_path / "here").rglob("*") if p.is_file())
    there = sorted(p.relative_to(tmp_path / "there") for p in (tmp_path / "there").rglob("*") if p.is_file())
    assert here == there and len(here) > 20
    for rel in here:  # pages, CSVs, JSON and PNGs
        assert (tmp_path / "there" / rel).read_bytes() == (tmp_path / "here" / rel).read_bytes(), rel


def test_exact_efficiency_is_the_same_bytes_on_the_cluster(capsys, scheduler):
    out = _same_on_cluster(capsys, scheduler, "efficiency", "uberdrakes", "--unit", "fire-breath", "--unit",
                           "dragon-lance", "--unit", "plate-armor", "--format", "csv")
    assert "fire" in out.lower()


def test_dask_starts_a_local_cluster_for_the_run(capsys, tmp_path):
    import dask

    args = ("efficiency", "dragonbond", "--unit", "bucentaur-blades", "--unit", "dragon-queen", *MC,
            "--format", "csv")
    here = ok(capsys, *args)
    with dask.config.set({"temporary-directory": str(tmp_path)}):
        assert ok(capsys, *args, "--dask") == here
    assert parallel._backend is None


def test_progress_reaches_every_item_in_order(scheduler):
    seen = []
    with dist.installed(scheduler):
        assert parallel.map_ordered(lambda x: 3 * x, range(23), 1, seen.append) == [3 * x for x in range(23)]
    assert seen == sorted(seen) and seen[-1] == 23
    assert parallel._backend is None


def test_a_task_that_fails_once_is_tried_again(scheduler, tmp_path):
    marker = tmp_path / "failed-once"

    def flaky(x):
        if x == 4 and not marker.exists():
            marker.touch()
            raise RuntimeError("a worker hiccup")
        return x * x

    with dist.installed(scheduler):
        assert parallel.map_ordered(flaky, range(10), 1) == [x * x for x in range(10)]
    assert marker.exists()


def test_a_task_that_always_fails_raises_after_its_retries(scheduler, tmp_path):
    tries = tmp_path / "tries"

    def broken(x):
        if x == 5:
            with tries.open("a") as f:
                f.write("x")
            raise ValueError("no such matchup")
        return x

    got = None
    with dist.installed(scheduler), pytest.raises(dist.TaskFailed, match="ValueError: no such matchup"):
        got = parallel.map_ordered(broken, range(10), 1)
    assert got is None
    assert tries.read_text() == "x" * (dist.RETRIES + 1)


def test_a_task_whose_worker_dies_runs_again_on_another(scheduler, tmp_path):
    marker = tmp_path / "died"

    def fatal(x):
        if x == 1 and not marker.exists():
            marker.touch()
            os._exit(1)  # the worker process dies (its nanny starts another)
        return -x

    with dist.installed(scheduler):
        assert parallel.map_ordered(fatal, range(6), 1) == [-x for x in range(6)]
    assert marker.exists()


def test_a_map_within_a_task_runs_where_the_task_runs(monkeypatch):
    def refuse(fn, items, done):
        raise AssertionError("a nested map went to the cluster")

    monkeypatch.setattr(parallel, "_backend", refuse)
    inner = dist._run_chunk(lambda x: parallel.map_ordered(lambda y: x + y, range(3), 4), [10, 20])
    assert inner == [[10, 11, 12], [20, 21, 22]]


def test_chunks_are_contiguous_and_cover_every_item():
    assert dist.chunks(10, 4) == [(0, 3), (3, 6), (6, 8), (8, 10)]
    assert dist.chunks(3, 8) == [(0, 1), (1, 2), (2, 3)]
    assert dist.chunks(1, 8) == [(0, 1)]


def test_an_unreachable_scheduler_is_one_line(capsys):
    """The probe gives up after its timeout (5 s, said in the message); how long that takes on a loaded
    machine is not asserted."""
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    assert_one_line_error(capsys, ["efficiency", *DRAGONBOND, *MC, "--scheduler", f"tcp://127.0.0.1:{port}"],
                          1, f"cannot reach the Dask scheduler at tcp://127.0.0.1:{port} within 5 s")
    assert parallel._backend is None


@pytest.mark.parametrize("extra, named", [
    (("--scheduler", "tcp://127.0.0.1:8786", "--dask"), "--scheduler and --dask"),
    (("--scheduler", "foo://somewhere"), "not a Dask scheduler address"),
    (("--scheduler", "somewhere"), "missing port number"),
])
def test_bad_cluster_options_are_usage_errors(capsys, extra, named):
    assert_one_line_error(capsys, ["sweep", *DRAGONBOND, *MC, "--cost", "dragon-queen=100..200", *extra], 2,
                          named)


def test_without_the_dask_extra_the_error_says_how_to_install_it(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed: ImportError
    assert_one_line_error(capsys, ["whatif", *DRAGONBOND, *MC, "--set", "dragon-queen.health=5", "--dask"], 1,
                          "the Dask extra is not installed: pip install 'balance[dask]'")
