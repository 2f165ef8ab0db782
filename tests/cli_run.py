"""Running the `balance` command in-process for tests."""

from __future__ import annotations

import io

import pandas as pd

from reports.cli import main


def run(capsys, *args: str) -> tuple[int, str, str]:
    """Run `balance ARGS` in-process: (exit code, stdout, stderr)."""
    try:
        main(list(args))
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    out, err = capsys.readouterr()
    return code, out, err


def csv(text: str) -> pd.DataFrame:
    """A CSV report as a DataFrame."""
    return pd.read_csv(io.StringIO(text))


def assert_one_line_error(capsys, args, code: int, named: str) -> None:
    """`balance ARGS` fails with exit ``code``, prints nothing on stdout and one line on stderr that
    starts with "balance: error: " and names ``named``, with no traceback."""
    got, out, err = run(capsys, *args)
    assert got == code, err
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("balance: error: ")
    assert named in lines[0], err
    assert "Traceback" not in err


def ok(capsys, *args: str) -> str:
    """`balance ARGS` succeeds (exit 0, something on stdout, no traceback): its stdout. Tests that compare
    two outputs use this, so a failing command's empty output can never pass as "different"."""
    code, out, err = run(capsys, *args)
    assert code == 0, f"balance {' '.join(args)} exited {code}: {err}"
    assert out.strip(), f"balance {' '.join(args)} printed nothing"
    assert "Traceback" not in err
    return out
