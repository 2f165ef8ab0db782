"""The calls of :func:`simcore.parallel.map_ordered` as tasks on a Dask distributed cluster.

While :func:`installed` is in force, every ``map_ordered(fn, items, threads, done)`` of this process (but
one nested in a call, which stays where it runs) sends ``items`` to the cluster instead of the thread pool:

- ``fn`` is pickled once (cloudpickle), into one task whose result the workers share (a worker that needs
  it fetches it from another; a lost copy is computed again), never once per task;
- ``items`` are cut into contiguous chunks, about :data:`TASKS_PER_THREAD` per worker thread of the
  cluster (at least one item each); each chunk is one task that runs ``fn`` over its items in order, with
  ``map_ordered`` local inside it (no recursion into the cluster), and returns their results;
- each task is retried :data:`RETRIES` times when it fails (the scheduler also moves a task whose worker
  was lost); one that still fails cancels the others and raises :class:`TaskFailed`: no partial list;
- ``done(k)`` is called in the calling thread as tasks finish, ``k`` the items finished so far;
- ``threads`` is ignored: the workers are the parallelism.

Each call of ``fn`` depends only on its item (a matchup on its own seeded streams), so the results are
byte-identical to a local run with the same seed, for any number of workers.

``distributed`` is an optional extra (``pip install 'balance[dask]'``), imported only here and only when a
cluster is asked for; :class:`DaskMissing` says how to install it. From Python::

    from reports import api
    from simcore.distributed import installed

    with installed("tcp://10.0.0.5:8786"):  # a running scheduler; installed() starts a local cluster
        tables = api.efficiency("dragonbond", units=["bucentaur-blades", "dragon-queen"], trials=10**5)

Workers need the same version of balance (and its dependencies) on the same Python as this process.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import uuid
from collections.abc import Callable, Iterator
from typing import Any

from simcore import parallel

#: Tasks per worker thread of the cluster a map is cut into: enough that a slow or lost worker holds up
#: little, few enough that scheduling them costs little beside a matchup.
TASKS_PER_THREAD = 4
#: Times a failed task is tried again before the map fails.
RETRIES = 2
#: Seconds to reach a scheduler before giving up.
CONNECT_TIMEOUT = 5.0
#: Seconds a map waits for the first worker of a scheduler that has none.
WORKER_WAIT = 60.0

#: The scheduler of a local cluster: no dashboard, and its HTTP server (health checks) on a free port, not on
#: 8787 (which another cluster may hold).
LOCAL_SCHEDULER = {"dashboard": False, "dashboard_address": ":0"}

INSTALL_HINT = "pip install 'balance[dask]' (from a checkout: pip install -e '.[dask]')"


class ClusterError(RuntimeError):
    """The cluster cannot be used or a task on it failed (one line)."""


class DaskMissing(ClusterError, ImportError):
    """The optional ``distributed`` package is not installed."""


class AddressError(ClusterError, ValueError):
    """The scheduler's address is not one Dask can connect to."""


class TaskFailed(ClusterError):
    """A task failed on every try; ``error`` is the last exception it raised."""

    def __init__(self, message: str, error: BaseException) -> None:
        super().__init__(message)
        self.error = error


def _distributed():
    """The ``distributed`` module, or :class:`DaskMissing` saying how to install it."""
    try:
        import distributed
    except ImportError as exc:
        raise DaskMissing(f"the Dask extra is not installed: {INSTALL_HINT}") from exc
    return distributed


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def check_address(address: str) -> str:
    """``address`` if it names a scheduler Dask can dial (``tcp://host:port``, ``host:port``, ``tls://``...),
    else :class:`AddressError`."""
    from distributed.comm.addressing import get_address_host_port, parse_address
    from distributed.comm.registry import get_backend

    try:
        scheme, _ = parse_address(address)
        get_backend(scheme)
        if scheme != "inproc":
            get_address_host_port(address)
    except ValueError as exc:
        raise AddressError(f"{address!r} is not a Dask scheduler address such as tcp://host:8786 "
                           f"({' '.join(str(exc).split())})") from None
    return address


def _probe(address: str, timeout: float) -> None:
    """Ask the scheduler at ``address`` who it is, within ``timeout`` seconds; :class:`ClusterError` if it
    cannot be reached or does not answer as a Dask scheduler.

    Done on its own event loop (in a thread, so that it works under a running loop too) before a Client is
    made: a Client that fails to connect lingers and blocks for seconds when collected.
    """
    import asyncio

    from distributed.comm import connect

    stage = {"connected": False}

    async def ask() -> Any:
        comm = await connect(address, timeout=timeout)
        stage["connected"] = True
        try:
            await comm.write({"op": "identity", "reply": True})
            return await comm.read()
        finally:
            comm.abort()

    outcome: dict = {}

    def run() -> None:
        try:
            outcome["reply"] = asyncio.run(asyncio.wait_for(ask(), timeout + 1))  # connect's own comes first
        except BaseException as exc:  # noqa: BLE001 - reported below, in the calling thread
            outcome["error"] = exc

    thread = threading.Thread(target=run, name="balance-dask-probe", daemon=True)
    thread.start()
    thread.join(timeout + 3)
    error = outcome.get("error")
    reply = outcome.get("reply")
    if "error" not in outcome and "reply" not in outcome:
        error = TimeoutError()
    if error is None and isinstance(reply, dict) and reply.get("type") == "Scheduler":
        return
    if error is None or stage["connected"] or not isinstance(error, OSError | TimeoutError):
        # connected, but the reply (or the handshake of connect itself) is not Dask's
        why = f" ({_one_line(error)})" if error is not None else ""
        raise ClusterError(f"{address} answered, but not as a Dask scheduler{why}")
    cause = error.__cause__ if isinstance(error, OSError) and error.__cause__ is not None else error
    if isinstance(cause, TimeoutError | asyncio.TimeoutError) and not str(cause):
        why = "no answer"
    else:
        why = _one_line(cause).split(">: ", 1)[-1]  # "... in <TCPConnector ...>: ConnectionRefusedError: ..."
    raise ClusterError(f"cannot reach the Dask scheduler at {address} within {timeout:g} s ({why})")


def _unpickled(blob: bytes) -> Callable:
    import cloudpickle

    return cloudpickle.loads(blob)


def _run_chunk(fn: Callable, chunk: list) -> list:
    """A task: ``fn`` over ``chunk`` in order; a ``map_ordered`` within runs here (as in a pool's worker)."""
    was = getattr(parallel._worker, "busy", False)
    parallel._worker.busy = True
    try:
        return [fn(x) for x in chunk]
    finally:
        parallel._worker.busy = was


def chunks(n_items: int, n_tasks: int) -> list[tuple[int, int]]:
    """(start, stop) of ``min(n_items, n_tasks)`` contiguous runs of items whose sizes differ by at most 1."""
    n_tasks = max(1, min(n_items, n_tasks))
    size, extra = divmod(n_items, n_tasks)
    out, start = [], 0
    for c in range(n_tasks):
        stop = start + size + (c < extra)
        out.append((start, stop))
        start = stop
    return out


class DaskBackend:
    """``map_ordered`` on a Dask cluster (installed as :data:`simcore.parallel._backend`): the one whose
    Client ``connect()`` returns, asked the first time the Client is needed."""

    def __init__(self, connect: Callable[[], Any]) -> None:
        self._connect = connect
        self._client = None
        self._lock = threading.Lock()

    @property
    def client(self):
        with self._lock:
            if self._client is None:
                self._client = self._connect()
            return self._client

    def threads(self) -> int:
        """Worker threads of the cluster, waiting up to :data:`WORKER_WAIT` seconds for a first worker."""
        n = sum(self.client.nthreads().values())
        if n == 0:
            try:
                self.client.wait_for_workers(1, timeout=WORKER_WAIT)
            except TimeoutError:
                address = self.client.scheduler.address
                raise ClusterError(f"the Dask scheduler at {address} has no workers (waited "
                                   f"{WORKER_WAIT:g} s): start some with `dask worker {address}`") from None
            n = sum(self.client.nthreads().values())
        return max(1, n)

    def __call__(self, fn: Callable, items: list, done: Callable[[int], None] | None) -> list:
        if not items:
            return []
        import cloudpickle

        distributed = _distributed()
        client = self.client
        spans = chunks(len(items), TASKS_PER_THREAD * self.threads())
        run = uuid.uuid4().hex
        shared = client.submit(_unpickled, cloudpickle.dumps(fn), key=f"balance-function-{run}", pure=False,
                               retries=RETRIES, priority=1)
        futures = [client.submit(_run_chunk, shared, items[start:stop], key=(f"balance-matchups-{run}", c),
                                 pure=False, retries=RETRIES) for c, (start, stop) in enumerate(spans)]
        index = {f.key: c for c, f in enumerate(futures)}
        results: list = [None] * len(futures)
        try:
            finished = 0
            completed = distributed.as_completed(futures, loop=client.loop, with_results=True,
                                                 raise_errors=False)
            for future, result in completed:
                if future.status == "error":
                    error = result[1] if isinstance(result, tuple) and len(result) == 3 else result
                    raise TaskFailed(_failure(error, distributed), error) from error
                if future.status == "cancelled":
                    raise ClusterError("a task on the Dask cluster was cancelled (the scheduler or its "
                                       "workers went away?)")
                c = index[future.key]
                results[c] = result
                finished += spans[c][1] - spans[c][0]
                if done is not None:
                    done(finished)
        except BaseException:
            with contextlib.suppress(Exception):  # a scheduler gone away: nothing left to cancel
                client.cancel([*futures, shared], force=True)
            raise
        finally:
            del shared, futures
        return [r for chunk in results for r in chunk]


def _failure(error: BaseException, distributed) -> str:
    """One line for a task that failed on every try."""
    if isinstance(error, distributed.KilledWorker):  # its workers died (the scheduler gave up moving it)
        return f"a task on the Dask cluster failed: {_one_line(error)}"
    hint = " (is the same balance installed on the workers?)" if isinstance(error, ImportError) else ""
    return f"a task on the Dask cluster failed {RETRIES + 1} times, the last with {_one_line(error)}{hint}"


@contextlib.contextmanager
def _client(address: str | None, workers: int | None, timeout: float) -> Iterator:
    """A Client of the scheduler at ``address``, or of a LocalCluster of ``workers`` one-thread processes
    made for the duration (all the cores this process may use by default); closed afterwards."""
    distributed = _distributed()
    if address is not None:
        _probe(address, timeout)
        try:
            client = distributed.Client(address, timeout=timeout, set_as_default=False)
        except Exception as exc:
            raise ClusterError(f"cannot reach the Dask scheduler at {address} within {timeout:g} s "
                               f"({_one_line(exc)})") from None
        try:
            yield client
        finally:
            client.close()
        return
    n = parallel.available_threads() if workers is None else workers
    with contextlib.ExitStack() as stack:
        cluster = stack.enter_context(distributed.LocalCluster(
            n_workers=n, threads_per_worker=1, processes=True, scheduler_port=0, silence_logs=logging.ERROR,
            dashboard_address=None, scheduler_kwargs=LOCAL_SCHEDULER))
        client = stack.enter_context(distributed.Client(cluster, set_as_default=False))
        yield client


@contextlib.contextmanager
def installed(address: str | None = None, *, workers: int | None = None, timeout: float = CONNECT_TIMEOUT,
              lazy: bool = False) -> Iterator[DaskBackend]:
    """While in force, :func:`simcore.parallel.map_ordered` runs its calls as tasks on the Dask cluster at
    ``address`` (``tcp://host:8786``), or on a LocalCluster started for the duration when ``address`` is
    None (``workers`` processes of one thread each, all the cores this process may use by default), closed
    afterwards. ``lazy``: connect (or start the cluster) at the first map, not at once: nothing is started
    for work that fails before it runs a map.

    Raises :class:`DaskMissing` without the extra and :class:`AddressError` for an address Dask cannot dial
    (at once), :class:`ClusterError` when the scheduler cannot be reached within ``timeout`` seconds.
    """
    _distributed()
    if address is not None:
        check_address(address)
    with contextlib.ExitStack() as stack:
        backend = DaskBackend(lambda: stack.enter_context(_client(address, workers, timeout)))
        if not lazy:
            backend.client  # noqa: B018 - connects now
        previous, parallel._backend = parallel._backend, backend
        try:
            yield backend
        finally:
            parallel._backend = previous
