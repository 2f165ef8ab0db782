"""Where a report's numbers come from: ruleset, rulings, catalog files with a content hash, the overrides
typed by the user, seed, trials and the package version. Every report states it (header, JSON ``meta``,
and the Python API's ``DataFrame.attrs``)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from rulesets.base import Ruleset, Rulings


@cache
def version() -> str:
    """The installed package's version."""
    from importlib import metadata  # ~10 ms to import: when a report is made, not when --help is built

    try:
        return metadata.version("balance")
    except metadata.PackageNotFoundError:
        return "unknown (not installed)"


def catalog_text(files: Sequence[tuple[str, str]]) -> str:
    """``file (sha256 abcdef012345), ...``: each file read and the start of the hash of its content."""
    return ", ".join(f"{name} (sha256 {digest[:12]})" for name, digest in files) or "none"


def provenance(ruleset: Ruleset, rulings: Rulings, *, catalog_files: Sequence[tuple[str, str]] = (),
               overrides: Sequence[str] = (), method: str | None = None) -> list[tuple[str, str]]:
    """The provenance lines of a report, in the order they are shown."""
    out = [("ruleset", f"{ruleset.name} ({ruleset.title}, seed {ruleset.seed})"),
           ("rulings", rulings.describe())]
    if catalog_files:
        out.append(("catalog", catalog_text(catalog_files)))
    out.append(("overrides", "; ".join(overrides) if overrides else "none"))
    if method:
        out.append(("method", method))
    out.append(("version", f"balance {version()}"))
    return out
