"""The project uses numba's public API only: no module imports or reads a private part of numba.

numba's private modules (``numba.core``, ``numba.np``, ``numba.cpython``, ``numba._*``) change between
releases without notice; code that patched them pinned numba to one release line. Public: ``numba.njit``,
``numba.jit``, ``numba.prange``, ``numba.typed``, ``numba.types``, ``numba.extending`` and numba's
documented configuration (``NUMBA_*`` environment variables).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: The folders scanned: the package, its tests and its benchmarks.
FOLDERS = ("simcore", "rulesets", "reports", "tests", "benchmarks")
#: numba's private top-level names (besides any name starting with one underscore).
PRIVATE = frozenset({"core", "np", "cpython"})


def _private(dotted: str) -> bool:
    """Whether ``dotted`` (``numba.core.registry``, ``numba._helperlib``) names a private part of numba."""
    parts = dotted.split(".")
    if parts[0] != "numba" or len(parts) < 2:
        return False
    name = parts[1]
    return name in PRIVATE or (name.startswith("_") and not name.endswith("__"))  # __version__ is public


def private_uses(source: str) -> list[str]:
    """Every private numba name ``source`` imports or reads, as ``line: name``."""
    tree = ast.parse(source)
    aliases = set()  # local names bound to the numba module itself
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if _private(alias.name):
                    found.append(f"{node.lineno}: {alias.name}")
                elif alias.name == "numba":
                    aliases.add(alias.asname or "numba")
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if _private(node.module):
                found.append(f"{node.lineno}: {node.module}")
            elif node.module == "numba":
                found += [f"{node.lineno}: numba.{a.name}" for a in node.names if _private(f"numba.{a.name}")]
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in aliases:
            if _private(f"numba.{node.attr}"):
                found.append(f"{node.lineno}: numba.{node.attr}")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "__import__":
            if node.args and isinstance(node.args[0], ast.Constant) and _private(str(node.args[0].value)):
                found.append(f"{node.lineno}: {node.args[0].value}")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and _private(node.value):
            found.append(f"{node.lineno}: {node.value}")  # importlib.import_module("numba.core..."), patches
    return sorted(set(found))


@pytest.mark.parametrize("folder", FOLDERS)
def test_no_module_uses_a_private_numba_name(folder):
    offenders = {}
    for path in sorted((ROOT / folder).rglob("*.py")):
        if path.name == Path(__file__).name:
            continue  # this file names them to find them
        uses = private_uses(path.read_text(encoding="utf-8"))
        if uses:
            offenders[str(path.relative_to(ROOT))] = uses
    assert offenders == {}


@pytest.mark.parametrize("source", [
    "from numba.core.registry import CPUDispatcher",
    "import numba.np.arraymath",
    "from numba import core",
    "from numba import _helperlib",
    "import numba as nb\nnb.core.dispatcher.Dispatcher.get_call_template = None",
    "import numba\nx = numba.cpython.unicode",
    "import importlib\nimportlib.import_module('numba.core.caching')",
    "__import__('numba.core.codegen')",
])
def test_the_scan_finds_each_kind_of_private_use(source):
    assert private_uses(source), source  # the control: the scan can fail


@pytest.mark.parametrize("source", [
    "import numba as nb\nf = nb.njit(cache=True)(len)\nnb.prange(3)",
    "from numba import njit, prange, typed, types\nfrom numba.extending import intrinsic",
    "import numba\nnumba.__version__",
    "import numpy as np\nnp.core",  # numpy's, not numba's
])
def test_public_numba_passes_the_scan(source):
    assert private_uses(source) == []
