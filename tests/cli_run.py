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
