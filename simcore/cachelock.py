"""numba's on-disk cache made safe for several processes at once (pytest-xdist workers, the compile helper
of `balance report`).

numba keeps one index per function (signature -> data file) and one data file per signature. Saving an
overload reads the index, picks the first free data-file number, writes the index, then the data
(numba.core.caching.IndexDataCacheFile.save). Each file is written whole under a temporary name, but the
three steps are not atomic together: two processes saving two signatures of one function at once can both
pick ``.1.nbc``, and the index then sends one signature to the other's machine code, which a later process
loads without any check. Loading, for its part, can read an index that names a data file not written yet,
or one left from an older version of the source.

:func:`install` puts every save under an exclusive lock and every load under a shared one: one lock file
per cache folder (``balance-cache.lock``), taken with ``flock`` (released by the kernel if the process
dies). Where ``fcntl`` does not exist (Windows) numba's own behaviour is kept.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX
    fcntl = None

#: The lock file's name in each numba cache folder.
LOCK_NAME = "balance-cache.lock"

_installed = False


@contextlib.contextmanager
def folder_lock(folder: str, exclusive: bool) -> Iterator[None]:
    """Hold the cache folder's lock (exclusive or shared) while inside; without it (numba's own behaviour)
    where the lock file cannot be made, as in a read-only cache folder that numba only loads from."""
    if fcntl is None:
        yield
        return
    try:
        os.makedirs(folder, exist_ok=True)
        fd = os.open(os.path.join(folder, LOCK_NAME), os.O_RDWR | os.O_CREAT, 0o644)
    except OSError:
        yield
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
        yield
    finally:
        os.close(fd)  # releases the lock


def install() -> None:
    """Make numba's cache files' save and load hold the folder lock (once per process)."""
    global _installed
    if _installed or fcntl is None:
        return
    from numba.core import caching

    cls = caching.IndexDataCacheFile
    save, load = cls.save, cls.load

    def locked_save(self, key, data):
        with folder_lock(self._cache_path, exclusive=True):
            return save(self, key, data)

    def locked_load(self, key):
        if not os.path.isdir(self._cache_path):
            return None  # nothing cached yet: no lock file to create
        with folder_lock(self._cache_path, exclusive=False):
            return load(self, key)

    cls.save, cls.load = locked_save, locked_load
    _installed = True
