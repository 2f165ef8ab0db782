"""Warbound's contest helpers read their state array last in one place, so that numba's reference-count
pruning removes the count each call takes on it (docs/performance.md, "An array argument used last in one
place"): a helper that uses ``W`` last inside an ``if`` with no ``else``, or leaves a loop by ``return`` or
``break``, leaves two atomic operations on every call, which took 39% of a Warbound run.

Each helper is called in a loop by a kernel compiled here; the kernel's own machine code (``inspect_llvm``,
numba's public API) must hold no more reference counting than the kernel's own entry and exit (at most
one ``NRT_incref`` and one ``NRT_decref`` of ``W``, which LLVM may remove too).
"""

from __future__ import annotations

import numba as nb
import pytest

from rulesets.warbound import kernels_contest as KC
from rulesets.warbound import kernels_warband as KW
from simcore.config import TRIAL_JIT


def _looping(helper, extra: int):
    """A kernel calling ``helper(W, k % 2, 1, ...)`` (``extra`` more arguments of 1) m times."""
    if extra == 0:
        @nb.njit(**TRIAL_JIT)
        def kernel(W, m):
            for k in range(m):
                helper(W, k % 2)
            return 0
    elif extra == 1:
        @nb.njit(**TRIAL_JIT)
        def kernel(W, m):
            for k in range(m):
                helper(W, k % 2, 1)
            return 0
    else:
        @nb.njit(**TRIAL_JIT)
        def kernel(W, m):
            for k in range(m):
                helper(W, k % 2, 1, 1)
            return 0
    return kernel


def _counting(kernel) -> int:
    """Calls to NRT_incref and NRT_decref in the kernel's own function (not its Python wrapper)."""
    kernel.compile((nb.int64[::1], nb.int64))
    ir = next(iter(kernel.inspect_llvm().values()))
    inside, calls = False, 0
    for line in ir.splitlines():
        if line.startswith("define"):
            inside = "kernel" in line and "cpython" not in line
        elif inside and "call" in line and ("@NRT_incref" in line or "@NRT_decref" in line):
            calls += 1
    return calls


@pytest.mark.parametrize(("name", "helper", "extra"), [
    ("_know", KC._know, 0),
    ("_plan", KC._plan, 1),
    ("pick", KW.pick, 1),
    ("approach", KW.approach, 2),
    ("flee", KW.flee, 1),
    ("measure", KW.measure, 0),
    ("char_dist", KW.char_dist, 1),
])
def test_a_warbound_helper_leaves_no_reference_count_in_its_caller(name, helper, extra):
    assert _counting(_looping(helper, extra)) <= 2, f"{name} reads W last in more than one place"
