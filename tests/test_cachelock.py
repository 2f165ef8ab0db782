"""simcore.cachelock: numba's on-disk cache shared by several processes at once stays consistent."""

import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from simcore import cachelock, config

fcntl = pytest.importorskip("fcntl")
caching = pytest.importorskip("numba.core.caching")

ROOT = Path(__file__).resolve().parent.parent

#: One process saving many signatures of one function into a shared cache folder, starting at a given time.
_SAVER = textwrap.dedent("""
    import sys, time
    from numba.core import caching
    from simcore import cachelock
    who, folder, n, start = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
    cachelock.install()
    while time.time() < start:
        pass
    for i in range(n):
        caching.IndexDataCacheFile(folder, "kernel", (1.0, 2)).save((who, i), (who, i, "x" * 1000))
""")


def test_kernels_modules_install_the_lock():
    config.JIT  # noqa: B018 - what every kernel module reads at import
    assert cachelock._installed == config.CACHE
    assert caching.IndexDataCacheFile.save.__name__ == "locked_save"


def test_two_processes_saving_signatures_of_one_function_keep_every_signature_with_its_own_code(tmp_path):
    """Without the lock (numba's own save) this loses or crosses hundreds of the 400 entries: both
    processes pick the same free data-file number for different signatures."""
    n = 200
    start = time.time() + 2.0  # both interpreters up before either saves
    procs = [subprocess.Popen([sys.executable, "-c", _SAVER, who, str(tmp_path), str(n), str(start)],
                              cwd=ROOT) for who in "AB"]
    assert [p.wait(timeout=120) for p in procs] == [0, 0]
    cache = caching.IndexDataCacheFile(str(tmp_path), "kernel", (1.0, 2))
    wrong = [(who, i) for who in "AB" for i in range(n) if (cache.load((who, i)) or ())[:2] != (who, i)]
    assert wrong == []


def test_a_save_waits_for_the_folder_lock(tmp_path):
    cachelock.install()
    cache = caching.IndexDataCacheFile(str(tmp_path), "kernel", (1.0, 2))
    with cachelock.folder_lock(str(tmp_path), exclusive=True):  # as another process would hold it
        saver = threading.Thread(target=cache.save, args=(("A", 0), "data"))
        saver.start()
        saver.join(0.5)
        assert saver.is_alive()  # blocked by the lock
        assert not (tmp_path / "kernel.nbi").exists()
    saver.join(30)
    assert not saver.is_alive()
    assert cache.load(("A", 0)) == "data"


def test_a_load_from_a_folder_not_made_yet_creates_nothing(tmp_path):
    cachelock.install()
    folder = tmp_path / "none"
    assert caching.IndexDataCacheFile(str(folder), "kernel", (1.0, 2)).load(("A", 0)) is None
    assert not folder.exists()


def test_a_cache_folder_where_the_lock_cannot_be_made_is_used_as_numba_would(tmp_path, monkeypatch):
    """A read-only cache folder numba only loads from: no lock, and no error."""
    cachelock.install()
    cache = caching.IndexDataCacheFile(str(tmp_path), "kernel", (1.0, 2))
    cache.save(("A", 0), "data")
    real_open = cachelock.os.open

    def refuse(path, *args, **kwargs):
        if str(path).endswith(cachelock.LOCK_NAME):
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(cachelock.os, "open", refuse)
    assert cache.load(("A", 0)) == "data"
    with cachelock.folder_lock(str(tmp_path), exclusive=True):
        pass
