"""simcore.config: numba's documented options only; LLVM's inlining threshold is raised before any kernel
compiles (the kernels' per-trial helpers are inlined by LLVM, not by numba's ``inline="always"``), and only
by code that compiles kernels."""

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


#: numba's documented options of ``numba.jit`` / ``numba.njit`` (its user manual, "Compiling Python code
#: with @jit" and the jit reference).
DOCUMENTED_OPTIONS = {"nopython", "nogil", "cache", "parallel", "fastmath", "error_model", "boundscheck",
                      "inline", "locals", "forceobj", "looplift"}


def test_the_jit_flags_are_documented_numba_options():
    from simcore.config import INLINE_JIT, JIT, TRIAL_JIT

    for flags in (JIT, TRIAL_JIT, INLINE_JIT):
        assert set(flags) <= DOCUMENTED_OPTIONS
        assert "fastmath" not in flags  # would change results bit for bit
