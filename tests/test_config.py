"""simcore.config: LLVM's inlining threshold is raised before any kernel compiles (the kernels' per-trial
helpers are inlined by LLVM, not by numba's ``inline="always"``), and only by code that compiles kernels."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: Compiles a caller of a helper of about 360 LLVM instructions, called twice (above LLVM's default
#: threshold of 250, below ours), with or without reading simcore.config's JIT flags first; prints how many
#: calls to the helper are left in the optimised IR.
_PROBE = """
import re, sys
if sys.argv[1] == "ours":
    from simcore.config import JIT  # noqa: F401  (what every kernel module does at import)
import numba as nb
src = "def big(x):\\n" + "".join(f"    x = (x * {2 * k + 3}) ^ (x >> {k % 13 + 1})\\n" for k in range(120))
ns = {}
exec(src + "    return x\\n", ns)
big = nb.njit(cache=False)(ns["big"])

@nb.njit(cache=False)
def caller(x):
    return big(x) + big(x + 1)

caller(3)
print(len(re.findall(r"call [^\\n]*@[^\\n(]*big", caller.inspect_llvm(caller.signatures[0]))))
"""


def _calls_left(mode: str) -> int:
    done = subprocess.run([sys.executable, "-c", _PROBE, mode], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    return int(done.stdout)


def test_a_large_helper_is_inlined_once_the_jit_flags_are_read():
    assert _calls_left("ours") == 0
    assert _calls_left("default") == 2  # LLVM's own threshold leaves both calls: the check can fail


def test_reading_the_config_alone_does_not_load_llvm():
    code = ("import sys, simcore.config as c; c.CHUNK_TRIALS; c.CACHE; "
            "print(any(m.startswith('llvmlite') for m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "False", done.stderr


def test_a_trial_function_called_from_python_raises_instead_of_crashing():
    """TRIAL_JIT functions have no Python entry point (compiled faster); numba alone would jump to the
    wrapper it did not build and kill the interpreter. Called from an njit function they work."""
    import numba as nb
    import pytest

    from simcore.config import JIT, TRIAL_JIT

    assert TRIAL_JIT["no_cpython_wrapper"] and "no_cpython_wrapper" not in JIT

    def add_one(x):
        return x + 1

    inner = nb.njit(**{**TRIAL_JIT, "cache": False})(add_one)
    outer = nb.njit(**{**JIT, "cache": False})(lambda x: inner(x) * 2)
    assert outer(3) == 8
    with pytest.raises(TypeError, match="add_one is compiled for numba code only"):
        inner(3)
    assert outer(4) == 10  # a JIT function is called from Python as before


def test_a_constant_argument_compiles_one_copy_of_our_functions_not_one_per_value(monkeypatch):
    """numba compiles a function called from compiled code with constants once per distinct value (the
    control, on a function of this test module); ours are compiled once, for the arguments' types."""
    import numba as nb

    from simcore import config

    flags = {**config.JIT, "cache": False}

    def pair():
        callee = nb.njit(**flags)(lambda x, k: x + k)
        caller = nb.njit(**flags)(lambda x: callee(x, 1) + callee(x, 2) + callee(x, 2))
        return callee, caller

    callee, caller = pair()
    assert caller(1) == 8
    assert len(callee.overloads) == 2  # numba's own: Literal[int](1) and Literal[int](2)

    monkeypatch.setattr(config, "_OURS", (*config._OURS, callee.py_func.__module__.split(".")[0]))
    callee, caller = pair()
    assert caller(1) == 8
    assert [str(t) for t in next(iter(callee.overloads))] == ["int64", "int64"]
    assert len(callee.overloads) == 1
