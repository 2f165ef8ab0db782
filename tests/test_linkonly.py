"""simcore.linkonly: functions with no entry point of their own are compiled once, in the kernel that calls
them; their results, their cache entries and their environments are as numba's own."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: A kernel at the root of a chain of two trial functions, and a second root calling the same chain; a
#: chain whose leaf raises an exception carrying a run-time value (numba keeps what it needs to raise it in
#: the function's environment).
_MODULE = textwrap.dedent("""
    import numba as nb
    from simcore.config import JIT, TRIAL_JIT

    @nb.njit(**TRIAL_JIT)
    def leaf(x):
        return x * 3 + 1

    @nb.njit(**TRIAL_JIT)
    def mid(n):
        s = 0
        for i in range(n):
            s += leaf(i)
        return s

    @nb.njit(**JIT)
    def root(n):
        return mid(n)

    @nb.njit(**JIT)
    def root2(n):
        return mid(n) + 1

    BARE = dict(no_cpython_wrapper=True, no_cfunc_wrapper=True)

    @nb.njit(**BARE)
    def check(x):
        if x > 5:
            raise ValueError("too big", x)
        return x

    @nb.njit(**BARE)
    def above(x):
        return check(x) + 1

    @nb.njit(**JIT)
    def guarded(x):
        return above(x)
""")

_PROBE = textwrap.dedent("""
    import ctypes, json, sys
    from numba.core import codegen
    finalized = []
    finalize = codegen.CPUCodeLibrary.finalize
    def counting(self):
        finalized.append(self.name)
        finalize(self)
    codegen.CPUCodeLibrary.finalize = counting
    import chain
    from simcore import linkonly

    def lib(f):
        (cres,) = f.overloads.values()
        return cres.library

    out = {}
    if sys.argv[1] == "first":
        out["root"] = chain.root(10)
        out["link_only"] = {f: bool(getattr(lib(getattr(chain, f)), "_link_only", False))
                            for f in ("leaf", "mid", "root")}
        out["finalized"] = sorted(n for n in finalized if n in ("leaf", "mid", "root"))
        out["guarded"] = chain.guarded(3)
        try:
            chain.guarded(7)
        except ValueError as exc:
            out["raised"] = list(exc.args)
        # the leaf's environment, written into the root's machine code that holds its global
        engine = lib(chain.guarded)._codegen._engine
        names = [n for n in linkonly._envs if ".check" in n or "5check" in n]
        out["envs"] = [ctypes.c_void_p.from_address(engine.get_global_value_address(n)).value
                       == id(linkonly._envs[n]) for n in names]
    else:
        out["root2"] = chain.root2(10)
        out["mid_cache_hits"] = sum(chain.mid.stats.cache_hits.values())
        out["mid_link_only"] = bool(getattr(lib(chain.mid), "_link_only", False))
        out["root"] = chain.root(10)
        out["root_cache_hits"] = sum(chain.root.stats.cache_hits.values())
        # a link-only library asked for the address of a function it defines is compiled then
        mid = lib(chain.mid)
        name = next(f.name for f in mid._final_module.functions if not f.is_declaration and "3mid" in f.name)
        out["address"] = mid.get_pointer_to_function(name) != 0
        out["compiled_after"] = not getattr(mid, "_link_only", False)
    print(json.dumps(out))
""")


def _run(tmp_path: Path, step: str) -> dict:
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"), BALANCE_NUMBA_CACHE="1",
               PYTHONPATH=os.pathsep.join([str(tmp_path), str(ROOT)]))
    done = subprocess.run([sys.executable, "-c", _PROBE, step], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.splitlines()[-1])


def test_trial_functions_are_linked_into_their_kernel_and_compiled_once_there(tmp_path):
    (tmp_path / "chain.py").write_text(_MODULE)
    first = _run(tmp_path, "first")
    assert first["root"] == sum(3 * i + 1 for i in range(10))
    # numba alone finalizes (optimizes and compiles to machine code) all three: leaf, mid, then root
    assert first["finalized"] == ["root"]
    assert first["link_only"] == {"leaf": True, "mid": True, "root": False}
    assert first["guarded"] == 4
    assert first["raised"] == ["too big", 7]
    assert first["envs"] == [True]

    # a second process: the chain comes back from numba's cache as link-only code, a new kernel links it
    second = _run(tmp_path, "second")
    assert second["root2"] == sum(3 * i + 1 for i in range(10)) + 1
    assert second["mid_cache_hits"] == 1 and second["mid_link_only"]
    assert second["root"] == first["root"] and second["root_cache_hits"] == 1
    assert second["address"] and second["compiled_after"]


def test_the_cache_key_names_the_link_only_kind():
    """numba without simcore.linkonly cannot read a link-only entry: entries of ours are keyed apart from
    numba's own (a checkout from before it, sharing the cache folder, compiles instead of failing)."""
    from numba.core.registry import cpu_target

    from simcore import config, linkonly

    config.JIT  # noqa: B018 - what every kernel module reads at import
    key = cpu_target.target_context.codegen().magic_tuple()
    assert key[-1] == linkonly.LINK_ONLY and len(key) == 4
