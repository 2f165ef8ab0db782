"""Test-wide settings: numba compiles each kernel once per version of the source and test worker, not once
per test process.

numba's on-disk cache does not notice edits to helpers imported from other files (a kernel in rulesets/
inlines primitives from simcore/), so the tests never trust the cache next to the sources. They cache into
``.pytest_cache/numba/<hash>/<worker>`` instead, where the hash covers every Python file of the project (and
the numba version): any edit gives a new folder, so a stale kernel is never reused. Older folders are
removed. BALANCE_NUMBA_CACHE=0 compiles afresh without any cache.

Each pytest-xdist worker (``gw0``, ``gw1``, ...; ``main`` without xdist) has a folder of its own. numba
writes each cache file whole, under a temporary name first, but saving a new signature of a function reads
the function's index, picks a free data file and rewrites the index: two processes saving two signatures of
one function at once could both pick the same data file, and the index would then send one signature to
the other's machine code. One writer per folder rules that out with numba's public configuration alone
(``NUMBA_CACHE_DIR``); the price is that a kernel both workers need is compiled by both on a first run.
Repeated runs of an unchanged tree reuse each worker's folder (xdist names its workers the same each run).

Hypothesis runs under one of two profiles: "ci" derandomizes (the same examples on every run, so a CI
failure is never a new draw; no example database), chosen when the environment sets CI or by
``--hypothesis-profile=ci`` (the Makefile's test targets, which .ci/run calls); "dev", Hypothesis's usual
random search, everywhere else.
"""

import hashlib
import os
import shutil
from importlib import metadata
from pathlib import Path

from hypothesis import settings

ROOT = Path(__file__).resolve().parent.parent

# one BLAS thread, as in a `balance` process: OpenBLAS's spinning threads would take the cores the tests'
# worker processes run on (effective only before numpy is imported; the command tree imports none of it)
from reports.cli import one_blas_thread  # noqa: E402

one_blas_thread()

# both from Hypothesis's defaults (its own "ci" profile, loaded on import where CI is set, is replaced)
settings.register_profile("ci", settings.get_profile("default"), derandomize=True, database=None,
                          print_blob=True)
settings.register_profile("dev", settings.get_profile("default"))
settings.load_profile("ci" if os.environ.get("CI") else "dev")


def _source_hash() -> str:
    digest = hashlib.sha256(metadata.version("numba").encode())
    for folder in ("simcore", "rulesets", "reports", "tests", "benchmarks"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            digest.update(str(path.relative_to(ROOT)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


_caches = ROOT / ".pytest_cache" / "numba"
# a worker inherits the controller's environment, the controller's folder (``main``) with it: replaced here
_inherited = os.environ.get("NUMBA_CACHE_DIR", "").startswith(str(_caches))
if os.environ.setdefault("BALANCE_NUMBA_CACHE", "1") != "0" and ("NUMBA_CACHE_DIR" not in os.environ
                                                                 or _inherited):
    _current = _caches / _source_hash()
    if _caches.is_dir():
        for old in _caches.iterdir():
            if old != _current:
                shutil.rmtree(old, ignore_errors=True)
    os.environ["NUMBA_CACHE_DIR"] = str(_current / os.environ.get("PYTEST_XDIST_WORKER", "main"))
