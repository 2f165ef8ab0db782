"""reports.files: atomic replacement, symlinks followed, special files written in place, distinct outputs,
and OutputSet's whole-or-nothing folders. Everything happens inside pytest's tmp_path."""

from __future__ import annotations

import os
import signal
import stat
import tempfile
import threading
from pathlib import Path

import pytest

from reports import files
from tests.cli_run import run

ROLL = ("roll", "drakerys", "--dice", "3", "--threshold", "6")


class FifoReader:
    """A thread that opens a FIFO for reading (blocking until a writer comes) and reads it to the end."""

    def __init__(self, path: Path) -> None:
        self.data: bytes | None = None
        self._thread = threading.Thread(target=self._read, args=(path,), daemon=True)
        self._thread.start()

    def _read(self, path: Path) -> None:
        with open(path, "rb") as fifo:
            self.data = fifo.read()

    def received(self) -> bytes:
        self._thread.join(timeout=30)
        assert not self._thread.is_alive(), "the FIFO's reader never saw a writer"
        assert self.data is not None
        return self.data


def listing(folder: Path) -> list[str]:
    """Every file and folder under ``folder``, relative, sorted (temporary files included)."""
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


def make_fifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


def is_fifo(path: Path) -> bool:
    return stat.S_ISFIFO(os.lstat(path).st_mode)


@pytest.fixture
def umask_022():
    old = os.umask(0o022)
    yield
    os.umask(old)


# --- regular files -------------------------------------------------------------------------------------


def test_new_file_is_created_with_umask_mode(tmp_path, umask_022):
    path = tmp_path / "report.csv"
    files.write_text(path, "a,b\n1,2\n")
    assert path.read_text(encoding="utf-8") == "a,b\n1,2\n"
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o644
    assert listing(tmp_path) == ["report.csv"]


def test_regular_file_is_replaced_by_rename_and_keeps_its_mode(tmp_path, umask_022):
    path = tmp_path / "report.txt"
    path.write_text("old\n")
    os.chmod(path, 0o600)
    inode = os.stat(path).st_ino
    files.write_text(path, "new ≥ 6\n")
    assert path.read_bytes() == "new ≥ 6\n".encode()
    assert os.stat(path).st_ino != inode  # a new file renamed over the old one, not rewritten in place
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert listing(tmp_path) == ["report.txt"]


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can give a file to another user")
def test_root_replacing_another_users_file_keeps_its_owner_and_mode(tmp_path):
    path = tmp_path / "theirs.csv"
    path.write_text("old")
    os.chown(path, 12345, 12345)
    os.chmod(path, 0o640)
    files.write_text(path, "new")
    info = os.stat(path)
    assert (info.st_uid, info.st_gid, stat.S_IMODE(info.st_mode)) == (12345, 12345, 0o640)
    assert path.read_text() == "new"


def test_failing_writer_leaves_old_content_and_no_temporary_file(tmp_path):
    path = tmp_path / "plot.png"
    path.write_bytes(b"old plot")
    seen = []

    def writer(tmp: Path) -> None:
        seen.append(tmp)
        tmp.write_bytes(b"half a pl")
        raise RuntimeError("renderer crashed")

    with pytest.raises(RuntimeError, match="renderer crashed"):
        files.write_with(path, writer)
    assert path.read_bytes() == b"old plot"
    assert listing(tmp_path) == ["plot.png"]
    assert seen[0].parent == tmp_path and seen[0].suffix == ".png"  # beside the file, same suffix
    assert not seen[0].exists()


def test_keyboard_interrupt_in_writer_leaves_no_temporary_file(tmp_path):
    path = tmp_path / "new.csv"

    def writer(tmp: Path) -> None:
        tmp.write_text("partial")
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        files.write_with(path, writer)
    assert listing(tmp_path) == []


def test_write_bytes_replaces_content(tmp_path):
    path = tmp_path / "data.bin"
    path.write_bytes(b"0123456789")
    files.write_bytes(path, b"\x00\xff")
    assert path.read_bytes() == b"\x00\xff"


# --- symlinks ------------------------------------------------------------------------------------------


def test_symlink_in_another_folder_is_followed_and_stays_a_link(tmp_path):
    (tmp_path / "data").mkdir()
    (tmp_path / "links").mkdir()
    target = tmp_path / "data" / "real.txt"
    target.write_text("old")
    link = tmp_path / "links" / "report.txt"
    link.symlink_to(target)
    files.write_text(link, "new content")
    assert os.path.islink(link)
    assert os.readlink(link) == str(target)
    assert target.read_text() == "new content"
    assert listing(tmp_path) == ["data", "data/real.txt", "links", "links/report.txt"]


def test_chain_of_relative_symlinks_reaches_the_final_target(tmp_path):
    target = tmp_path / "real.txt"
    target.write_text("old")
    (tmp_path / "one.txt").symlink_to("real.txt")
    (tmp_path / "two.txt").symlink_to("one.txt")
    files.write_text(tmp_path / "two.txt", "through two links")
    assert target.read_text() == "through two links"
    assert os.path.islink(tmp_path / "one.txt") and os.path.islink(tmp_path / "two.txt")


def test_write_with_through_symlink_keeps_the_links_suffix(tmp_path):
    (tmp_path / "blob").write_bytes(b"old")
    link = tmp_path / "plot.svg"
    link.symlink_to("blob")
    suffixes = []

    def writer(tmp: Path) -> None:
        suffixes.append(tmp.suffix)  # matplotlib picks the format from it
        tmp.write_bytes(b"<svg/>")

    files.write_with(link, writer)
    assert suffixes == [".svg"]
    assert (tmp_path / "blob").read_bytes() == b"<svg/>"
    assert os.path.islink(link)


def test_dangling_symlink_creates_its_target(tmp_path):
    link = tmp_path / "out.txt"
    link.symlink_to("made.txt")
    files.write_text(link, "created")
    assert os.path.islink(link)
    assert (tmp_path / "made.txt").read_text() == "created"


def test_dangling_symlink_into_missing_folder_is_an_oserror(tmp_path):
    link = tmp_path / "out.txt"
    link.symlink_to(tmp_path / "nowhere" / "made.txt")
    with pytest.raises(OSError, match="does not exist") as err:
        files.write_text(link, "x")
    assert "\n" not in str(err.value) and "out.txt" in str(err.value)
    assert listing(tmp_path) == ["out.txt"]


def test_symlink_loop_is_an_oserror(tmp_path):
    (tmp_path / "a").symlink_to("b")
    (tmp_path / "b").symlink_to("a")
    with pytest.raises(OSError, match="symlink loop"):
        files.write_text(tmp_path / "a", "x")


# --- special files -------------------------------------------------------------------------------------


def test_fifo_receives_the_text_and_stays_a_fifo(tmp_path):
    fifo = make_fifo(tmp_path / "pipe")
    reader = FifoReader(fifo)
    files.write_text(fifo, "successes,p\n0,0.125\n")
    assert reader.received() == b"successes,p\n0,0.125\n"
    assert is_fifo(fifo)
    assert listing(tmp_path) == ["pipe"]


def test_write_with_renders_to_a_temporary_file_then_copies_into_the_fifo(tmp_path):
    fifo = make_fifo(tmp_path / "plot.png")
    payload = bytes(range(256)) * 300  # larger than a pipe's buffer
    used = []

    def writer(tmp: Path) -> None:
        used.append(tmp)
        assert tmp.suffix == ".png"
        tmp.write_bytes(payload)

    reader = FifoReader(fifo)
    files.write_with(fifo, writer)
    assert reader.received() == payload
    assert is_fifo(fifo)
    assert not used[0].exists()
    assert listing(tmp_path) == ["plot.png"]


@pytest.mark.parametrize("write", [lambda p: files.write_text(p, "x" * 100_000),
                                   lambda p: files.write_with(p, lambda tmp: tmp.write_text("x" * 100_000))],
                         ids=["write_text", "write_with"])
def test_fifo_without_a_reader_says_so_before_waiting(tmp_path, monkeypatch, write):
    """No reader yet: one note (the reader starts only once it is said), then the write waits for it."""
    fifo = make_fifo(tmp_path / "pipe")
    readers: list[FifoReader] = []
    monkeypatch.setattr(files, "fifo_waiting", lambda path: readers.append(FifoReader(fifo)))
    write(fifo)
    assert len(readers) == 1
    assert readers[0].received() == b"x" * 100_000
    assert is_fifo(fifo) and listing(tmp_path) == ["pipe"]


def test_fifo_with_a_reader_is_written_without_a_note(tmp_path, monkeypatch):
    fifo = make_fifo(tmp_path / "pipe")
    monkeypatch.setattr(files, "fifo_waiting", lambda path: pytest.fail("a reader was there"))
    fd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # a reader, before the write
    try:
        files.write_text(fifo, "abc")
        assert os.read(fd, 10) == b"abc"
    finally:
        os.close(fd)


def test_fifo_waiting_is_one_line_naming_the_fifo(capsys, tmp_path):
    files.fifo_waiting(tmp_path / "pipe")
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "waiting for a reader" in err and "pipe" in err


def test_symlink_to_fifo_writes_into_the_fifo(tmp_path):
    fifo = make_fifo(tmp_path / "pipe")
    link = tmp_path / "out.txt"
    link.symlink_to("pipe")
    reader = FifoReader(fifo)
    files.write_text(link, "via link\n")
    assert reader.received() == b"via link\n"
    assert os.path.islink(link) and is_fifo(fifo)


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can make a device node")
def test_device_node_is_written_in_place_as_root(tmp_path):
    null = tmp_path / "null"  # a null device of our own, in tmp_path
    try:
        os.mknod(null, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
        with open(null, "wb") as probe:
            probe.write(b"")
    except OSError as exc:
        pytest.skip(f"device nodes are not usable here: {exc}")
    files.write_text(null, "discarded\n")
    files.write_with(null, lambda tmp: tmp.write_bytes(b"also discarded"))
    assert stat.S_ISCHR(os.lstat(null).st_mode)
    assert os.lstat(null).st_rdev == os.makedev(1, 3)
    assert listing(tmp_path) == ["null"]


# --- check_writable ------------------------------------------------------------------------------------


def test_check_writable_refuses_a_directory(tmp_path):
    with pytest.raises(OSError, match="is a directory") as err:
        files.check_writable(tmp_path)
    assert "\n" not in str(err.value)


def test_check_writable_refuses_a_missing_folder(tmp_path):
    with pytest.raises(OSError, match=r"output folder '.*missing' does not exist"):
        files.check_writable(tmp_path / "missing" / "x.csv")
    with pytest.raises(OSError, match="does not exist"):
        files.write_text(tmp_path / "missing" / "x.csv", "x")
    assert listing(tmp_path) == []


def test_check_writable_refuses_a_file_used_as_folder(tmp_path):
    (tmp_path / "file").write_text("")
    with pytest.raises(OSError, match="not a folder"):
        files.check_writable(tmp_path / "file" / "x.csv")


@pytest.mark.skipif(os.geteuid() == 0, reason="root can write anywhere")
def test_check_writable_refuses_an_unwritable_folder(tmp_path):
    folder = tmp_path / "locked"
    folder.mkdir()
    (folder / "old.csv").write_text("old")
    folder.chmod(0o500)
    try:
        with pytest.raises(OSError, match="not writable"):
            files.check_writable(folder / "new.csv")
        with pytest.raises(OSError, match="not writable"):
            files.write_text(folder / "old.csv", "new")
        assert (folder / "old.csv").read_text() == "old"
    finally:
        folder.chmod(0o700)


def test_check_writable_accepts_files_new_paths_fifos_and_symlinks(tmp_path):
    (tmp_path / "old.csv").write_text("")
    make_fifo(tmp_path / "pipe")
    (tmp_path / "link").symlink_to("pipe")
    (tmp_path / "dangling").symlink_to("new.txt")
    for name in ("old.csv", "new.csv", "pipe", "link", "dangling"):
        files.check_writable(tmp_path / name)  # must not raise, nor block on the FIFO
    assert listing(tmp_path) == ["dangling", "link", "old.csv", "pipe"]


def test_check_writable_refuses_a_symlink_to_a_directory(tmp_path):
    (tmp_path / "dir").mkdir()
    (tmp_path / "link").symlink_to("dir")
    with pytest.raises(OSError, match="is a directory"):
        files.check_writable(tmp_path / "link")


# --- check_distinct ------------------------------------------------------------------------------------


def test_same_path_twice_is_refused_with_one_line(tmp_path):
    x = tmp_path / "x.png"
    with pytest.raises(files.SharedOutputError) as err:
        files.check_distinct({"--output": x, "--plot": x})
    assert str(err.value) == f"--output and --plot both name {str(x)!r}; give each output its own file"
    assert isinstance(err.value, ValueError)


def test_same_file_through_symlink_and_relative_spelling(tmp_path, monkeypatch):
    (tmp_path / "real.png").write_bytes(b"")
    (tmp_path / "link.png").symlink_to("real.png")
    with pytest.raises(files.SharedOutputError, match="--output and --plot both name the same file"):
        files.check_distinct({"--output": tmp_path / "link.png", "--plot": tmp_path / "real.png"})
    monkeypatch.chdir(tmp_path)
    with pytest.raises(files.SharedOutputError, match="--output and --plot"):
        files.check_distinct({"--output": Path("sub/../new.png"), "--plot": tmp_path / "new.png"})


def test_same_file_through_hard_link(tmp_path):
    (tmp_path / "a.csv").write_text("")
    os.link(tmp_path / "a.csv", tmp_path / "b.csv")
    with pytest.raises(files.SharedOutputError):
        files.check_distinct({"--output": tmp_path / "a.csv", "--plot": tmp_path / "b.csv"})


def test_distinct_paths_and_none_are_fine(tmp_path):
    files.check_distinct({"--output": tmp_path / "a.csv", "--plot": tmp_path / "a.png"})
    files.check_distinct({"--output": None, "--plot": None})
    files.check_distinct({"--output": tmp_path / "a.csv", "--plot": None, "--save": None})
    files.check_distinct({"--output": None, "--save": [tmp_path / "s.csv", tmp_path / "s.md"]})


def test_sequences_are_checked_within_and_against_single_outputs(tmp_path):
    save = [tmp_path / "d" / "efficiency.csv", tmp_path / "d" / "efficiency.md",
            tmp_path / "d" / "efficiency.png"]
    with pytest.raises(files.SharedOutputError, match="--plot and --save both name"):
        files.check_distinct({"--output": tmp_path / "out.csv", "--plot": save[2], "--save": save})
    with pytest.raises(files.SharedOutputError, match="--save names .* twice"):
        files.check_distinct({"--save": [save[0], save[1], save[0]]})
    files.check_distinct({"--output": tmp_path / "out.csv", "--plot": tmp_path / "m.png", "--save": save})


# --- OutputSet -----------------------------------------------------------------------------------------


def test_output_set_commits_every_file(tmp_path, umask_022):
    folder = tmp_path / "new" / "exports"
    with files.OutputSet(folder) as out:
        assert out.folder == folder and folder.is_dir()
        out.write_text("a.csv", "x,y\n1,2\n")
        out.write_bytes("b.bin", b"\x01\x02")
        out.write_with("figs/c.png", lambda tmp: tmp.write_bytes(b"PNG"))
        assert not (folder / "a.csv").exists()  # staged, not yet in place
        assert out.written == []
    assert out.written == [folder / "a.csv", folder / "b.bin", folder / "figs" / "c.png"]
    assert (folder / "a.csv").read_text() == "x,y\n1,2\n"
    assert (folder / "b.bin").read_bytes() == b"\x01\x02"
    assert (folder / "figs" / "c.png").read_bytes() == b"PNG"
    assert stat.S_IMODE(os.stat(folder / "a.csv").st_mode) == 0o644
    assert listing(tmp_path) == ["new", "new/exports", "new/exports/a.csv", "new/exports/b.bin",
                                 "new/exports/figs", "new/exports/figs/c.png"]


def test_output_set_replaces_existing_files_and_keeps_others(tmp_path):
    (tmp_path / "a.csv").write_text("old a")
    (tmp_path / "keep.txt").write_text("mine")
    with files.OutputSet(tmp_path) as out:
        out.write_text("a.csv", "new a")
    assert (tmp_path / "a.csv").read_text() == "new a"
    assert (tmp_path / "keep.txt").read_text() == "mine"


@pytest.mark.parametrize("error", [RuntimeError("midway"), KeyboardInterrupt()])
def test_exception_midway_removes_the_folders_it_created(tmp_path, error):
    with pytest.raises(type(error)):
        with files.OutputSet(tmp_path / "new" / "deeper") as out:
            out.write_text("a.csv", "a")
            out.write_text("sub/b.csv", "b")
            raise error
    assert listing(tmp_path) == []


@pytest.mark.parametrize("error", [RuntimeError("midway"), KeyboardInterrupt()])
def test_exception_midway_keeps_existing_folder_and_files(tmp_path, error):
    folder = tmp_path / "existing"
    folder.mkdir()
    (folder / "a.csv").write_text("old a")
    (folder / "notes.txt").write_text("the user's")
    with pytest.raises(type(error)):
        with files.OutputSet(folder) as out:
            out.write_text("a.csv", "new a")
            out.write_text("b.csv", "new b")
            raise error
    assert listing(tmp_path) == ["existing", "existing/a.csv", "existing/notes.txt"]
    assert (folder / "a.csv").read_text() == "old a"
    assert (folder / "notes.txt").read_text() == "the user's"


def test_writer_failing_inside_the_set_rolls_everything_back(tmp_path):
    def writer(tmp: Path) -> None:
        tmp.write_bytes(b"half")
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        with files.OutputSet(tmp_path / "out") as out:
            out.write_text("a.csv", "a")
            out.write_with("plots/p.png", writer)
    assert listing(tmp_path) == []


def test_created_folder_holding_someone_elses_file_is_kept(tmp_path):
    folder = tmp_path / "out"
    with pytest.raises(RuntimeError):
        with files.OutputSet(folder) as out:
            out.write_text("a.csv", "a")
            (folder / "other.txt").write_text("not ours")
            raise RuntimeError
    assert listing(tmp_path) == ["out", "out/other.txt"]


def test_failed_commit_removes_the_files_it_created(tmp_path):
    folder = tmp_path / "out"
    folder.mkdir()
    (folder / "old.csv").write_text("old")
    with pytest.raises(OSError):
        with files.OutputSet(folder) as out:
            out.write_text("new.csv", "new")
            out.write_text("old.csv", "replaced")
            out.write_text("blocked.csv", "never")
            (folder / "blocked.csv").mkdir()  # the rename onto it will fail
    # new.csv, created by this set, is gone again; old.csv had been replaced whole before the failure
    assert listing(tmp_path) == ["out", "out/blocked.csv", "out/old.csv"]
    assert (folder / "old.csv").read_text() == "replaced"


@pytest.mark.parametrize("name", ["../x.csv", "a/../../x.csv", "/tmp/x.csv", "", "."])
def test_output_set_rejects_names_outside_the_folder(tmp_path, name):
    with pytest.raises(ValueError, match="inside"):
        with files.OutputSet(tmp_path / "out") as out:
            out.write_text(name, "x")
    assert listing(tmp_path) == []


def test_output_set_refuses_one_name_written_twice(tmp_path):
    with pytest.raises(files.SharedOutputError):
        with files.OutputSet(tmp_path) as out:
            out.write_text("a.csv", "1")
            out.write_text("./a.csv", "2")
    assert listing(tmp_path) == []


def test_output_set_folder_that_is_a_file_is_a_one_line_oserror(tmp_path):
    (tmp_path / "taken").write_text("a file")
    with pytest.raises(OSError, match="cannot write into output folder .*taken.*not a folder") as err:
        with files.OutputSet(tmp_path / "taken"):
            pass
    assert "\n" not in str(err.value)
    with pytest.raises(OSError, match="cannot write into output folder"):
        with files.OutputSet(tmp_path / "taken" / "sub"):
            pass
    assert listing(tmp_path) == ["taken"]


def test_output_set_writes_into_a_fifo_at_commit(tmp_path):
    make_fifo(tmp_path / "stream.csv")
    reader = FifoReader(tmp_path / "stream.csv")
    with files.OutputSet(tmp_path) as out:
        out.write_text("stream.csv", "streamed\n")
        out.write_text("plain.csv", "plain\n")
    assert reader.received() == b"streamed\n"
    assert is_fifo(tmp_path / "stream.csv")
    assert listing(tmp_path) == ["plain.csv", "stream.csv"]


# --- the command line ----------------------------------------------------------------------------------


def test_cli_output_and_plot_on_one_file_is_a_usage_error(capsys, tmp_path):
    x = tmp_path / "x.png"
    code, out, err = run(capsys, *ROLL, "--output", str(x), "--plot", str(x))
    assert code == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("balance: error: ")
    assert "--output" in lines[0] and "--plot" in lines[0] and "x.png" in lines[0]
    assert not x.exists()
    assert listing(tmp_path) == []


def test_cli_output_into_fifo(capsys, tmp_path):
    code, expected, err = run(capsys, *ROLL)
    assert code == 0, err
    assert "successes" in expected
    fifo = make_fifo(tmp_path / "report.txt")
    reader = FifoReader(fifo)
    code, out, err = run(capsys, *ROLL, "--output", str(fifo))
    assert code == 0, err
    assert out == ""
    assert reader.received().decode("utf-8") == expected
    assert is_fifo(fifo)
    assert listing(tmp_path) == ["report.txt"]


def test_cli_output_onto_symlink_writes_the_target(capsys, tmp_path):
    code, expected, err = run(capsys, *ROLL, "--format", "csv")
    assert code == 0, err
    (tmp_path / "data").mkdir()
    target = tmp_path / "data" / "roll.csv"
    target.write_text("old")
    link = tmp_path / "latest.csv"
    link.symlink_to(target)
    code, out, err = run(capsys, *ROLL, "--format", "csv", "--output", str(link))
    assert code == 0, err
    assert out == ""
    assert target.read_text(encoding="utf-8") == expected
    assert os.path.islink(link)


@pytest.fixture
def ctrl_c_after(monkeypatch):
    """``ctrl_c_after(module, name, call)``: the ``call``-th call of ``module.name`` does its work, then
    Ctrl-C arrives (SIGINT, raising KeyboardInterrupt as in a terminal) before the caller's next step."""
    def raise_interrupt(_signum, _frame):
        raise KeyboardInterrupt

    before = signal.signal(signal.SIGINT, raise_interrupt)

    def arrange(module, name: str, call: int) -> None:
        real = getattr(module, name)
        calls = []

        def then_stop(*args, **kwargs):
            result = real(*args, **kwargs)
            calls.append(1)
            if len(calls) == call:
                signal.raise_signal(signal.SIGINT)
            return result

        monkeypatch.setattr(module, name, then_stop)

    yield arrange
    signal.signal(signal.SIGINT, before)


@pytest.mark.parametrize(("where", "call"), [
    pytest.param("mkdir", 1, id="a parent folder made"),
    pytest.param("mkdir", 2, id="the set's folder made"),
    pytest.param("mkdir", 3, id="a sub-folder made"),
    pytest.param("mkstemp", 1, id="the probe made"),
    pytest.param("mkstemp", 2, id="a temporary file made"),
    pytest.param("replace", 1, id="the first file renamed into place"),
    pytest.param("replace", 2, id="the last file renamed into place"),
])
def test_a_stop_right_after_any_step_leaves_nothing(tmp_path, ctrl_c_after, where, call):
    """A signal can arrive between any two steps: whatever the set made just before it is removed too."""
    module = {"mkdir": Path, "mkstemp": tempfile, "replace": os}[where]
    ctrl_c_after(module, where, call)
    with pytest.raises(KeyboardInterrupt):
        with files.OutputSet(tmp_path / "a" / "out") as out:
            out.write_text("plots/p.csv", "p")
            out.write_text("q.csv", "q")
    assert listing(tmp_path) == []


def test_a_stop_right_after_a_single_file_is_staged_leaves_nothing(tmp_path, ctrl_c_after):
    ctrl_c_after(tempfile, "mkstemp", 2)  # the first is the folder's probe
    with pytest.raises(KeyboardInterrupt):
        files.write_text(tmp_path / "out.csv", "x")
    assert listing(tmp_path) == []


def test_a_stop_held_back_takes_effect_when_the_step_ends(ctrl_c_after):
    steps = []
    with pytest.raises(KeyboardInterrupt):
        with files._stops_held():
            signal.raise_signal(signal.SIGINT)
            steps.append("recorded")
    assert steps == ["recorded"]
