"""Every file the tool writes goes through here, so that writing never harms the user's files.

Rules, by what the output path is:

1. A regular file, or a path that does not exist yet, is replaced atomically: the content is written
   to a temporary file in the same folder, then renamed over the path with ``os.replace``. A failure or
   an exception (Ctrl-C included) removes the temporary file and leaves the old content intact; nothing
   half-written is ever seen under the path. A new file gets mode ``0o666 & ~umask``; a replaced file
   keeps its mode.
2. A symlink is followed: its final target is replaced atomically (the temporary file sits next to the
   target) and the link stays a link. A dangling symlink creates the file it names, if that file's
   folder exists; otherwise it is an ``OSError``.
3. A device, FIFO or other special file is opened and written in place, never replaced and never
   unlinked, even when running as root (``--output /dev/null`` keeps /dev/null a device). Writers that
   need a file path (matplotlib's ``savefig``) render into a temporary file first, whose bytes are then
   copied into the special file. A socket cannot be opened as a file and is refused. A FIFO that no
   process reads yet would block the write silently: :func:`fifo_waiting` says so (one line on stderr)
   before the write waits for a reader.
4. :func:`check_writable` raises ``OSError`` with a one-line reason when a path cannot be written, before
   any work is done.
5. :func:`check_distinct` raises :class:`SharedOutputError` when two outputs of one run name the same
   file, whether by the same text, through a symlink or a hard link.
6. :class:`OutputSet` writes several files into a folder whole or not at all: each is staged to a
   temporary file, all are renamed into place when the ``with`` block ends normally, and on any exception
   the staged files, any file it had already created and any folder it created are removed again.

There is no module-level registry of temporary files: each write and each :class:`OutputSet` cleans up
after itself on ``BaseException`` and re-raises. A stop (Ctrl-C, SIGTERM, SIGHUP) can come between any two
steps, so nothing is made before it is recorded for removal: the few steps from making a folder or a
temporary file to recording it hold the stop back (:func:`_stops_held`), and a file is recorded as
committed before it is renamed into place.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import signal
import stat
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePath

from simcore import parallel

Writer = Callable[[Path], object]
"""Writes the content to the path it is given (for example ``lambda tmp: fig.savefig(tmp)``)."""


class SharedOutputError(ValueError):
    """Two outputs of one run name the same file."""


#: The signals that stop a run (reports/cli turns SIGTERM and SIGHUP into a stop as Ctrl-C is one).
_STOPS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))


@contextlib.contextmanager
def _stops_held() -> Iterator[None]:
    """A stop that arrives during the block takes effect when the block ends, as it would have.

    For the few steps between making a folder or temporary file and recording it for removal: a stop
    raised between them would leave it behind. Only the main thread receives Python's signal handlers, so
    elsewhere the block runs as is; a signal whose handler Python did not install is left alone.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    held: list[int] = []
    before = {}
    try:
        for signum in _STOPS:
            if signal.getsignal(signum) is not None:
                before[signum] = signal.signal(signum, lambda number, _frame: held.append(number))
        yield
    finally:
        for signum, handler in before.items():
            signal.signal(signum, handler)
        for signum in held:
            signal.raise_signal(signum)  # now handled as it would have been: an exception here, usually


def _quoted(path: Path | str) -> str:
    return repr(str(path))


def _target(path: Path) -> Path:
    """The file a write to ``path`` lands in: ``path`` itself, or the final target of a symlink."""
    if not os.path.islink(path):
        return path
    target = Path(os.path.realpath(path))
    if os.path.islink(target):  # realpath stops on a loop and hands back a link
        raise OSError(f"output {_quoted(path)} is a symlink loop")
    return target


def _stat(path: Path) -> os.stat_result | None:
    """``os.stat(path)`` (following symlinks), or None when nothing is there yet."""
    try:
        return os.stat(path)
    except FileNotFoundError:
        return None
    except NotADirectoryError:
        raise OSError(f"output folder {_quoted(path.parent)} is not a folder") from None


def _folder(path: Path) -> Path:
    return path.parent if str(path.parent) else Path(".")


def check_writable(path: Path | str) -> None:
    """Raise ``OSError`` with a one-line reason unless ``path`` can be written by this module.

    Accepts regular files, new paths in an existing writable folder, symlinks (judged by their target),
    devices and FIFOs. Refuses directories, missing folders, sockets and anything not writable.
    """
    path = Path(path)
    target = _target(path)
    shown = _quoted(path) if target == path else f"{_quoted(path)} (a symlink to {_quoted(target)})"
    folder = _folder(target)
    info = _stat(target)
    if info is None:
        if not folder.is_dir():
            if target != path:
                raise OSError(f"output {shown} cannot be created: folder {_quoted(folder)} does not exist")
            raise OSError(f"output folder {_quoted(folder)} does not exist")
        if not os.access(folder, os.W_OK | os.X_OK):
            raise OSError(f"output {shown} is not writable: cannot create files in {_quoted(folder)}")
        _probe_folder(shown, folder)
        return
    mode = info.st_mode
    if stat.S_ISDIR(mode):
        raise OSError(f"output {shown} is a directory")
    if stat.S_ISSOCK(mode):
        raise OSError(f"output {shown} is a socket, which cannot be written as a file")
    if not os.access(target, os.W_OK):
        raise OSError(f"output {shown} is not writable")
    if stat.S_ISREG(mode) and not os.access(folder, os.W_OK | os.X_OK):
        raise OSError(f"output {shown} is not writable: its folder {_quoted(folder)} is read-only")
    if stat.S_ISREG(mode):
        _probe_folder(shown, folder)


def _probe_folder(shown: str, folder: Path) -> None:
    """Create and remove one empty file of a unique name in ``folder``: what writing the output will do
    first (some folders refuse it whatever their permissions say, e.g. /proc and /sys, and root passes
    every permission check)."""
    with _stops_held():
        try:
            fd, name = tempfile.mkstemp(prefix=".balance-probe.", dir=folder)
        except OSError as exc:
            raise OSError(f"output {shown} cannot be written: no file can be created in its folder "
                          f"{_quoted(folder)} ({exc.strerror or exc})") from None
        os.close(fd)
        os.unlink(name)


def fifo_waiting(path: Path) -> None:
    """Say that writing ``path``, a FIFO no process reads yet, waits for a reader (one line on stderr)."""
    print(f"balance: note: waiting for a reader of the FIFO {_quoted(path)} (read it, e.g. with cat, or "
          "press Ctrl-C)", file=sys.stderr, flush=True)


def _open_special(path: Path, target: Path):
    """``target``, a special file, opened for writing in place. A FIFO with no reader yet is announced
    (:func:`fifo_waiting`) before the open waits for one."""
    try:
        fd = os.open(target, os.O_WRONLY | os.O_NONBLOCK)
    except OSError as exc:
        if exc.errno != errno.ENXIO:  # ENXIO: a FIFO that nobody has open for reading
            raise
        fifo_waiting(path)
        return open(target, "wb")
    os.set_blocking(fd, True)
    return os.fdopen(fd, "wb")


def _umask() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return umask


@dataclass
class _Staged:
    """Content written to ``tmp``, waiting to be put at ``target`` (the real file behind ``path``)."""

    path: Path
    target: Path
    tmp: Path
    special: bool
    existed: bool

    def commit(self) -> None:
        """Put the content in place: rename over a regular file, copy into a special one; not when a stop
        was noted meanwhile (one a library swallowed, :func:`simcore.parallel.check_stop`)."""
        try:
            parallel.check_stop()
        except BaseException:
            self.discard()
            raise
        if self.special:
            try:
                with open(self.tmp, "rb") as src, _open_special(self.path, self.target) as dst:
                    shutil.copyfileobj(src, dst)
            finally:
                self.discard()
        else:
            try:
                os.replace(self.tmp, self.target)
            except BaseException:
                self.discard()
                raise

    def discard(self) -> None:
        self.tmp.unlink(missing_ok=True)


def _stage(path: Path, writer: Writer, keep: Callable[[_Staged], object]) -> None:
    """Check ``path``, then run ``writer`` on a temporary file suited to it (see the module rules).

    The temporary file keeps ``path``'s suffix, so writers that choose a format by suffix still work. It is
    handed to ``keep`` as soon as it exists, before the writer runs: whoever keeps it removes it if the run
    stops. On an exception here the temporary file is removed and the exception re-raised.
    """
    check_writable(path)
    target = _target(path)
    info = _stat(target)
    special = info is not None and not stat.S_ISREG(info.st_mode)
    # Next to the target so os.replace stays on one file system; a special file's folder (/dev) may be
    # read-only, and its content is copied, not renamed, so any temporary folder will do.
    folder = None if special else _folder(target)
    with _stops_held():
        fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=path.suffix, dir=folder)
        os.close(fd)
        tmp = Path(name)
        keep(_Staged(path, target, tmp, special, info is not None))
    try:
        writer(tmp)
        if not special:
            with open(tmp, "rb") as written:
                os.fsync(written.fileno())  # the content is on disk before the rename makes it visible
            if info is None:
                os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes the file private; the result should not be
            else:
                if (info.st_uid, info.st_gid) != (os.geteuid(), os.getegid()):
                    try:
                        os.chown(tmp, info.st_uid, info.st_gid)
                    except OSError:
                        pass  # only root may give a file away; the user then owns the new content
                os.chmod(tmp, stat.S_IMODE(info.st_mode))  # after chown, which may clear set-id bits
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def write_with(path: Path | str, writer: Writer) -> None:
    """Write ``path`` by calling ``writer`` with a temporary path, following the module rules.

    Args:
        path: the output file.
        writer: writes the whole content to the path it is given (for example matplotlib's ``savefig``).
    """
    staged: list[_Staged] = []
    try:
        _stage(Path(path), writer, staged.append)
    except BaseException:
        for each in staged:
            each.discard()
        raise
    staged[0].commit()


def write_bytes(path: Path | str, data: bytes) -> None:
    """Write ``data`` to ``path``: atomically for a regular file, in place for a special one."""
    path = Path(path)
    check_writable(path)
    target = _target(path)
    info = _stat(target)
    if info is not None and not stat.S_ISREG(info.st_mode):
        parallel.check_stop()
        with _open_special(path, target) as out:
            out.write(data)
    else:
        write_with(path, lambda tmp: tmp.write_bytes(data))


def write_text(path: Path | str, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path``: atomically for a regular file, in place for a special one."""
    write_bytes(path, text.encode("utf-8"))


def _paths(value: Path | str | Sequence[Path | str] | None) -> list[Path]:
    if value is None:
        return []
    if isinstance(value, str | os.PathLike):
        return [Path(value)]
    return [Path(p) for p in value]


def _identity(path: Path) -> tuple[int, int] | None:
    """(device, inode) of an existing file, as ``os.path.samefile`` compares them; None if absent."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_dev, info.st_ino


def check_distinct(outputs: Mapping[str, Path | str | Sequence[Path | str] | None]) -> None:
    """Raise :class:`SharedOutputError` if two outputs of one run name the same file.

    Args:
        outputs: option name → its path, a sequence of paths (a set of files, as ``--save`` writes) or
            None when the option is not given. Paths are the same file when their resolved real paths
            are equal or, for existing files, when they are the same file on disk.
    """
    by_real: dict[str, tuple[str, Path]] = {}
    by_inode: dict[tuple[int, int], tuple[str, Path]] = {}
    for option, value in outputs.items():
        for path in _paths(value):
            real = os.path.realpath(path)
            inode = _identity(path)
            seen = by_real.get(real) or (by_inode.get(inode) if inode is not None else None)
            if seen is not None:
                first_option, first = seen
                who = (f"{option} names" if first_option == option
                       else f"{first_option} and {option} both name")
                what = (_quoted(path) if str(first) == str(path)
                        else f"the same file ({_quoted(first)} and {_quoted(path)})")
                twice = " twice" if first_option == option else ""
                raise SharedOutputError(f"{who} {what}{twice}; give each output its own file")
            by_real[real] = (option, path)
            if inode is not None:
                by_inode[inode] = (option, path)


def _missing_folders(folder: Path) -> Iterator[Path]:
    """``folder`` and its parents that do not exist yet, outermost first."""
    missing = []
    while not os.path.lexists(folder) and folder != folder.parent:
        missing.append(folder)
        folder = folder.parent
    return reversed(missing)


def _remove_empty(folders: list[Path]) -> None:
    """Remove ``folders`` (outermost first in the list), innermost first, each only if it is empty."""
    for folder in reversed(folders):
        try:
            folder.rmdir()  # fails on a folder holding anything: never removes what others put there
        except OSError:
            pass


class OutputSet:
    """Several output files in one folder, written whole or not at all.

    Example::

        with OutputSet(folder) as out:
            out.write_text("efficiency.csv", csv_text)
            out.write_with("efficiency.png", lambda tmp: fig.savefig(tmp))

    Each write is staged to a temporary file; leaving the block normally renames them all into place.
    An exception (Ctrl-C included) removes the staged files, any file this set already created, and the
    folder and parents it created, if nothing else is in them; then the exception goes on.

    Attributes:
        folder: the folder the files go into (created on entry, with its parents).
        written: the final paths, in order of writing, once the block has ended normally.
    """

    def __init__(self, folder: Path | str) -> None:
        self.folder = Path(folder)
        self.written: list[Path] = []
        self._staged: list[_Staged] = []
        self._created: list[Path] = []  # folders this set made, outermost first

    def __enter__(self) -> OutputSet:
        try:
            for folder in _missing_folders(self.folder):
                with _stops_held():
                    folder.mkdir()
                    self._created.append(folder)
            if not self.folder.is_dir():
                raise NotADirectoryError("not a folder")
            if not os.access(self.folder, os.W_OK | os.X_OK):
                raise PermissionError("not writable")
        except OSError as exc:
            self._remove_folders()
            raise OSError(f"cannot write into output folder {_quoted(self.folder)}: "
                          f"{exc.strerror or exc}") from None
        except BaseException:
            self._remove_folders()
            raise
        return self

    def __exit__(self, exc_type, exc, tb) -> bool:
        if exc_type is None:
            self._commit()
        else:
            self._roll_back()
        return False

    def path(self, name: str | PurePath) -> Path:
        """The final path of ``name``: a file name or a relative sub-path inside the folder."""
        rel = PurePath(name)
        if rel.is_absolute() or ".." in rel.parts or not rel.parts:
            raise ValueError(f"output name {str(name)!r} must be a file name or a relative path inside "
                             f"{_quoted(self.folder)}")
        return self.folder / rel

    def write_with(self, name: str | PurePath, writer: Writer) -> Path:
        """Stage ``name`` by calling ``writer`` with a temporary path; returns the final path."""
        path = self.path(name)
        if any(s.path == path for s in self._staged):
            raise SharedOutputError(f"{_quoted(path)} is written twice in one output set")
        made = []
        try:
            for folder in _missing_folders(path.parent):
                with _stops_held():
                    folder.mkdir()
                    made.append(folder)
            _stage(path, writer, self._staged.append)
        except BaseException:
            if self._staged and self._staged[-1].path == path:
                self._staged.pop().discard()
            _remove_empty(made)
            raise
        self._created += made
        return path

    def write_bytes(self, name: str | PurePath, data: bytes) -> Path:
        """Stage ``data`` as ``name``; returns the final path."""
        return self.write_with(name, lambda tmp: tmp.write_bytes(data))

    def write_text(self, name: str | PurePath, text: str) -> Path:
        """Stage ``text`` (UTF-8) as ``name``; returns the final path."""
        return self.write_bytes(name, text.encode("utf-8"))

    def under(self, prefix: str | PurePath) -> OutputSubset:
        """A view that stages its files under the sub-folder ``prefix`` of this set (written with it)."""
        self.path(prefix)  # a relative path inside the folder
        return OutputSubset(self, PurePath(prefix))

    def _commit(self) -> None:
        try:
            for staged in self._staged:  # the list is left whole, so a stop at any step finds every file
                staged.commit()
        except BaseException:
            for staged in self._staged:
                # A regular file whose temporary file is gone was renamed into place: if it is new, it is
                # this run's, and goes; one that existed keeps the new content (the old one is gone).
                if not staged.existed and not staged.special and not staged.tmp.exists():
                    staged.target.unlink(missing_ok=True)
            self._roll_back()
            raise
        self.written = [s.path for s in self._staged]
        self._staged.clear()

    def _roll_back(self) -> None:
        for staged in self._staged:
            staged.discard()
        self._staged.clear()
        self._remove_folders()

    def _remove_folders(self) -> None:
        _remove_empty(self._created)
        self._created.clear()


class OutputSubset:
    """Part of an :class:`OutputSet`: names are taken inside the sub-folder ``prefix``; the files are written
    (or not) with the set."""

    def __init__(self, owner: OutputSet, prefix: PurePath) -> None:
        self.owner, self.prefix = owner, prefix
        self.folder = owner.folder / prefix

    def path(self, name: str | PurePath) -> Path:
        return self.owner.path(self.prefix / self._inside(name))

    def _inside(self, name: str | PurePath) -> PurePath:
        rel = PurePath(name)
        if rel.is_absolute() or ".." in rel.parts or not rel.parts:
            raise ValueError(f"output name {str(name)!r} must be a file name or a relative path inside "
                             f"{_quoted(self.folder)}")
        return rel

    def under(self, prefix: str | PurePath) -> OutputSubset:
        return OutputSubset(self.owner, self.prefix / self._inside(prefix))

    def write_with(self, name: str | PurePath, writer: Writer) -> Path:
        return self.owner.write_with(self.prefix / self._inside(name), writer)

    def write_bytes(self, name: str | PurePath, data: bytes) -> Path:
        return self.owner.write_bytes(self.prefix / self._inside(name), data)

    def write_text(self, name: str | PurePath, text: str) -> Path:
        return self.owner.write_text(self.prefix / self._inside(name), text)
