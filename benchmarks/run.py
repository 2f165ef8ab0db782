"""Benchmarks of the performance targets, measured side by side in one run.

Every figure in the table is measured by this script in the same run, on the same machine, so ratios
compare like with like. The results table in docs/performance.md is pasted from the output of
``make bench`` (which runs ``.venv/bin/python benchmarks/run.py`` from the repository root); the machine
line under it says where it was measured. Nothing here asserts a timing: a target that is not met shows
``no`` in the ``met`` column. Progress goes to stderr, the table to stdout. Every command-line run writes
only into temporary folders this script makes (and removes); numba caches for cold starts likewise.

Usage::

    .venv/bin/python benchmarks/run.py                       # every row (several minutes)
    .venv/bin/python benchmarks/run.py --only action,fight   # only these rows, in table order

Rows, by the name ``--only`` takes (comma-separated, repeatable):

* ``action``: simulated Action-Table rolls, ``simulate_action_roll`` against today's per-die kernel
  (a serial copy in this file) and, for information, the raw generator loop;
* ``fight``: a full Fight with morale, ``simulate.simulate_fight`` against the plain-Python twin
  (tests/naive_fight.py driven by ``random.Random``);
* ``table``: the exact Action Table against the fastest icepool formulation that agrees to 1e-12
  (every formulation tried is listed under the table);
* ``compile``: numba compile time of each public entry point, in a fresh process with an empty cache;
* ``make-run``: ``balance efficiency drakerys --save DIR`` (issue 7's ``make run`` workload), cold and
  warm cache;
* ``report``: ``balance report --output DIR`` (what ``make run`` does: every game's site), cold and
  warm cache;
* ``report-vs-baseline``: the same, warm, for this code and for the commit before the contests at equal
  points (BENCH_BASELINE), interleaved in one run;
* ``startup``: ``balance --help`` and ``balance table drakerys action``, whole process, warm;
* ``efficiency-threads``: ``balance efficiency drakerys`` (twelve entries) on 1 and 2 threads, idle and
  beside a CPU-bound process (two rows); the JSON reports must be bit-identical; the engagements alone (in one
  process) for comparison;
* ``threads``: ``simulate_action_roll`` on 1 and 2 threads; histograms must be bit-identical;
* ``memory``: peak RSS after 10^7 and 10^9 trials;
* ``whatif``, ``sweep``: those verbs, warm;
* ``metagame``: solving a 34-entry meta-game.
"""

from __future__ import annotations

import argparse
import datetime
import importlib.util
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numba as nb
import numpy as np

from rulesets.drakerys import (
    ActionRoll,
    DrakerysRulings,
    action_table,
    exact_action_roll,
    simulate_action_roll,
)
from simcore.config import JIT
from simcore.dice import TOP_EXPLODE, TOP_SUCCESS
from simcore.rng import roll_die, stream
from simcore.stats import Estimate, histogram_mean

REPO = Path(__file__).resolve().parent.parent
BALANCE = REPO / ".venv" / "bin" / "balance"

SIDES = 10
RAW_DRAWS = 2 * 10**8
#: Trials of today's per-die kernel (about 2 s); the project's functions get as many as fill TIMED_SECONDS.
ACTION_TRIALS = 2 * 10**7
TIMED_SECONDS = 1.0
FIGHT_TRIALS = 4 * 10**6
NAIVE_FIGHTS = 10_000
TABLE_MAX_DICE = 20
TABLE_THRESHOLDS = range(2, 11)
TABLE_TOLERANCE = 1e-12
#: Explosion depths tried for icepool: 11 does not reach 1e-12 against our table, 12 does, 16 is what an
#: icepool user might pick to be safe. The slow formulations are timed at the shallowest that agrees.
ICEPOOL_DEPTHS = (11, 12, 16)
ICEPOOL_SLOW_DEPTH = 12
#: icepool outcome of one die in the joint formulation: successes + CRIT_CODE * criticals.
CRIT_CODE = 1000
REPEATS = 3
STARTUP_REPEATS = 5
#: Runs of the efficiency report on each thread count (interleaved 1, 2, 1, 2; the best of each counts).
EFFICIENCY_REPEATS = 3

Row = tuple[str, str, str, bool | None]

#: Notes printed under the table (e.g. every icepool formulation tried), filled in by the rows.
NOTES: list[str] = []

#: Run in a fresh interpreter so that its peak RSS holds only this workload.
_MEMORY_PROBE = """
import json, resource, time
from rulesets.drakerys import ActionRoll, simulate_action_roll
roll = ActionRoll(1, 6)
out = {}
for trials in (10**7, 10**9):
    start = time.perf_counter()
    simulate_action_roll(roll, trials=trials, seed=1, threads=THREADS)
    out[trials] = (time.perf_counter() - start, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
print(json.dumps(out))
"""

#: Run in a fresh interpreter whose NUMBA_CACHE_DIR is an empty folder: the first call of each entry point
#: compiles its kernels (and runs 1000 trials), the second only runs them.
_COMPILE_PROBE = """
import json, time
from rulesets.drakerys import ActionRoll, catalog, simulate, simulate_action_roll
from rulesets.drakerys.fight import Combatant
from rulesets.drakerys.magic import SpellCast, simulate_spell
units = catalog.load()
crows, keepers = Combatant(units.unit("crows"), 12), Combatant(units.unit("gold-keepers"), 6)
bowmen = Combatant(units.unit("irosia-bowmen"), 10)
small = dict(trials=1000, seed=1, threads=1)
calls = {
    "action": lambda: simulate_action_roll(ActionRoll(12, 7, swashbuckler=True), **small),
    "fight": lambda: simulate.simulate_fight(crows, keepers, charge=True, **small),
    "shooting": lambda: simulate.simulate_shooting(bowmen, crows, distance_cm=30, weapons=units.weapons,
                                                 **small),
    "engagement": lambda: simulate.simulate_engagement(crows, keepers, weapons=units.weapons, **small),
    "records": lambda: simulate.engagement_records(crows, keepers, weapons=units.weapons, **small),
    "spell": lambda: simulate_spell(SpellCast(3, distance_cm=25), **small),
}
out = {}
for name, call in calls.items():
    times = []
    for _ in range(2):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    out[name] = times
print(json.dumps(out))
"""


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def best_times(fns: Sequence[Callable[[], object]], repeats: int = REPEATS) -> list[tuple[float, object]]:
    """Shortest wall time of ``repeats`` calls of each of ``fns`` and the result of its last call.

    The calls are interleaved (a, b, a, b, ...) so that a change in the machine's load during the run
    touches every side of a ratio alike.
    """
    best = [float("inf")] * len(fns)
    results: list[object] = [None] * len(fns)
    for _ in range(repeats):
        for i, fn in enumerate(fns):
            start = time.perf_counter()
            results[i] = fn()
            best[i] = min(best[i], time.perf_counter() - start)
    return list(zip(best, results, strict=True))


def cold(fn: Callable[[], object], *modules) -> Callable[[], object]:
    """``fn`` called with every ``functools.lru_cache`` of ``modules`` emptied first: an exact table timed
    from scratch, as the other side of its ratio computes it (a warm cache would time dictionary
    lookups)."""
    caches = [f for m in modules for f in vars(m).values() if hasattr(f, "cache_clear")]

    def call() -> object:
        for f in caches:
            f.cache_clear()
        return fn()

    return call


def calibrated_trials(run: Callable[[int], object], least: int, seconds: float = TIMED_SECONDS) -> int:
    """Trials (at least ``least``, a multiple of 10**6) that make ``run(trials)`` last about ``seconds``,
    judged from one run of ``least`` trials: a faster kernel gets more work, so its time stays measurable."""
    start = time.perf_counter()
    run(least)
    elapsed = time.perf_counter() - start
    return max(least, round(least * seconds / max(elapsed, 1e-9) / 10**6) * 10**6)


def usable_cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def yes_no(met: bool | None) -> str:
    return "n/a" if met is None else ("yes" if met else "no")


def z_score(a: Estimate, b: Estimate | float) -> float:
    """Difference of two estimates (or of an estimate and an exact value) in standard errors."""
    b_value, b_se = (b.value, b.stderr) if isinstance(b, Estimate) else (b, 0.0)
    se = (a.stderr**2 + b_se**2) ** 0.5
    if se == 0:
        return 0.0 if a.value == b_value else float("inf")
    return (a.value - b_value) / se


# ---------------------------------------------------------------------------------------------------
# 1. simulated Action-Table rolls against today's per-die kernel
# ---------------------------------------------------------------------------------------------------

@nb.njit(**JIT)
def _raw_d10_sum(state, n):
    """Sum of ``n`` d10 drawn one by one: the raw generator loop (information only)."""
    total = 0
    for _ in range(n):
        total += roll_die(state, 10)
    return total


# --- the per-die kernel before stage sampling, frozen here as the anchor (commit 17c74c2's simcore.dice) ---


@nb.njit(**JIT)
def _face_tables(sides, threshold, top_mode):
    """Per-face (success, explodes, failure) as int64 tables indexed by face 0..sides."""
    success = np.zeros(sides + 1, np.int64)
    explodes = np.zeros(sides + 1, np.int64)
    for face in range(threshold, sides):
        success[face] = 1
    if top_mode == TOP_EXPLODE:
        success[sides] = 1
        explodes[sides] = 1
    elif top_mode == TOP_SUCCESS:
        success[sides] = 1
    failure = 1 - success
    failure[0] = 0
    return success, explodes, failure


@nb.njit(inline="always", **JIT)
def _success_roll_tabled(state, n, sides, threshold, chain, reroll_failures, reroll_limit, success, explodes,
                         failure):
    """One roll die by die with its face tables: every die draws its reroll candidate up front and keeps it
    only if the first face failed (a select instead of an unpredictable branch)."""
    successes = 0
    criticals = 0
    if reroll_failures or reroll_limit > 0:
        budget = n if reroll_failures else reroll_limit
        for _ in range(n):
            first = roll_die(state, sides)
            again = roll_die(state, sides)
            use = failure[first] * (budget > 0)
            budget -= use
            face = first + use * (again - first)
            successes += success[face]
            criticals += explodes[face]
    else:
        for _ in range(n):
            face = roll_die(state, sides)
            successes += success[face]
            criticals += explodes[face]
    extra = criticals
    while extra > 0:
        extra -= 1
        face = roll_die(state, sides)
        if face == sides:
            successes += 1
            if chain:
                criticals += 1
                extra += 1
        elif face >= threshold:
            successes += 1
    return successes, criticals


@nb.njit(**JIT)
def _per_die_action_rolls(state, trials, n, threshold, top_mode, chain, reroll_failures, reroll_limit, out):
    """The per-die kernel before stage sampling (commit 17c74c2's ``_action_roll_chunks``), serial (every
    die rolled, rerolled and exploded one by one) on one stream, counted into ``out[S + 1, C + 1]`` (the
    last row and column collect overflow)."""
    s_last = out.shape[0] - 1
    c_last = out.shape[1] - 1
    success, explodes, failure = _face_tables(SIDES, threshold, top_mode)
    for _ in range(trials):
        s, c = _success_roll_tabled(state, n, SIDES, threshold, chain, reroll_failures, reroll_limit,
                                    success, explodes, failure)
        out[min(s, s_last), min(c, c_last)] += 1
    return out


def per_die_action_rolls(roll: ActionRoll, trials: int, seed: int) -> np.ndarray:
    """Joint histogram (successes, criticals) of ``trials`` rolls by today's per-die kernel, sized as
    simulate_action_roll sizes it, under the default rulings (chained criticals)."""
    c_max = exact_action_roll(roll).criticals.size
    out = np.zeros((roll.total_dice + c_max + 2, c_max + 2), np.int64)
    return _per_die_action_rolls(stream(seed), trials, roll.total_dice, roll.threshold, roll.top_mode,
                                 DrakerysRulings().crit_chain, roll.swashbuckler, roll.rerolls, out)


def dice_per_trial(roll: ActionRoll) -> float:
    """Expected d10 rolled per trial of a Swashbuckler roll: first dice, rerolled failures, and one extra
    die per critical (chained criticals included)."""
    rerolled = roll.total_dice * (roll.threshold - 1) / 10
    return roll.total_dice + rerolled + exact_action_roll(roll).mean("criticals").value


def bench_action() -> list[Row]:
    """Simulated Action-Table rolls (12d10 threshold 7 Swashbuckler), 1 thread, against the per-die kernel."""
    roll = ActionRoll(12, 7, swashbuckler=True)
    exact_mean = exact_action_roll(roll).mean().value
    per_trial = dice_per_trial(roll)
    _raw_d10_sum(stream(1), 1000)
    per_die_action_rolls(roll, 1000, 1)
    simulate_action_roll(roll, trials=1000, seed=1, threads=1)
    trials = calibrated_trials(lambda t: simulate_action_roll(roll, trials=t, seed=1, threads=1), 10**6)
    (raw_s, _), (per_die_s, per_die), (ours_s, ours) = best_times([
        lambda: _raw_d10_sum(stream(1), RAW_DRAWS),
        lambda: per_die_action_rolls(roll, ACTION_TRIALS, 1),
        lambda: simulate_action_roll(roll, trials=trials, seed=1, threads=1),
    ])
    raw_rate = RAW_DRAWS / raw_s
    per_die_rate, ours_rate = ACTION_TRIALS / per_die_s, trials / ours_s
    per_die_dice = per_die_rate * per_trial
    z_ours = z_score(ours.mean(), exact_mean)
    z_per_die = z_score(histogram_mean(per_die.sum(axis=1)), exact_mean)
    agree = max(abs(z_ours), abs(z_per_die)) <= 5
    ratio = ours_rate / per_die_rate
    measured = (f"simulate_action_roll {ours_rate / 1e6:.2f} M rolls/s; per-die kernel "
                f"{per_die_rate / 1e6:.2f} M rolls/s; {ratio:.1f}× (per-die: "
                f"{per_die_dice / 1e6:.0f} M dice/s at {per_trial:.3f} dice/roll = "
                f"{per_die_dice / raw_rate:.2f} of the raw SFC64 d10 loop, {raw_rate / 1e6:.0f} M d10/s); "
                f"mean successes vs exact: z = {z_ours:+.1f} and {z_per_die:+.1f}"
                f"{'' if agree else ' (DISAGREE)'}")
    label = ("Simulated Action-Table rolls, 12d10 threshold 7, Swashbuckler, chained criticals, 1 thread: "
             "`simulate_action_roll` vs today's per-die kernel (serial copy in benchmarks/run.py, "
             "`_success_roll_tabled` on one SFC64 stream)")
    return [(label, measured, "≥ 10×", ratio >= 10 and agree)]


# ---------------------------------------------------------------------------------------------------
# 2. a full Fight against the plain-Python twin
# ---------------------------------------------------------------------------------------------------

def bench_fight() -> list[Row]:
    """A full Fight with morale (12 Crows charge 6 Gold Keepers), 1 thread, against the plain-Python twin."""
    sys.path.insert(0, str(REPO / "tests"))
    from naive_fight import naive_fight

    from rulesets.drakerys import catalog, simulate
    from rulesets.drakerys.fight import Combatant, FightOutcome

    units = catalog.load()
    crows, keepers = Combatant(units.unit("crows"), 12), Combatant(units.unit("gold-keepers"), 6)
    simulate.simulate_fight(crows, keepers, charge=True, trials=1000, seed=1, threads=1)
    rng = random.Random(1)

    def twin() -> list[dict]:
        return [naive_fight(rng, crows, keepers, charge=True) for _ in range(NAIVE_FIGHTS)]

    (ours_s, ours), (twin_s, fights) = best_times([
        lambda: simulate.simulate_fight(crows, keepers, charge=True, trials=FIGHT_TRIALS, seed=1, threads=1),
        twin,
    ])
    ours_rate, twin_rate = FIGHT_TRIALS / ours_s, NAIVE_FIGHTS / twin_s
    ratio = ours_rate / twin_rate
    a_wins = {FightOutcome.A_WINS_SCATTER, FightOutcome.A_WINS_STRESS, FightOutcome.A_WINS_DOUBT,
              FightOutcome.A_WINS_STEADY, FightOutcome.B_DESTROYED}
    p_twin = sum(1 for f in fights if f["result"] in a_wins) / len(fights)
    twin_wins = Estimate(p_twin, (p_twin * (1 - p_twin) / len(fights)) ** 0.5, len(fights))
    kernel_wins = ours.p_wins(0)
    z = z_score(kernel_wins, twin_wins)
    agree = abs(z) <= 5
    measured = (f"simulate_fight {ours_rate / 1e6:.2f} M fights/s; plain-Python twin {twin_rate / 1e3:.1f} k "
                f"fights/s; {ratio:.0f}×; P(Crows win) {kernel_wins.value:.4f} vs twin {p_twin:.4f} "
                f"(z = {z:+.1f}){'' if agree else ' (DISAGREE)'}")
    label = ("Full Fight with morale, 12 Crows charge 6 Gold Keepers, 1 thread: `simulate.simulate_fight` vs "
             "the plain-Python twin (tests/naive_fight.py on `random.Random`)")
    return [(label, measured, "≥ 5 M/s and ≥ 300×", ours_rate >= 5e6 and ratio >= 300 and agree)]


# ---------------------------------------------------------------------------------------------------
# 3. the exact Action Table against icepool
# ---------------------------------------------------------------------------------------------------

def _again_die(threshold: int, depth: int):
    """Successes of one d10: 0 below the threshold, 1 from it to 9, and 1 plus another such die on a 10."""
    import icepool

    return icepool.Die([0] * (threshold - 1) + [1] * (SIDES - threshold) + [1 + icepool.Again],
                       again_depth=depth)


def _explode_die(threshold: int, depth: int):
    """Successes of one d10 from its exploded total: every 10 counts one, and the last face its own."""
    import icepool

    return icepool.d10.explode(depth=depth).map(lambda total: total // SIDES + (total % SIDES >= threshold))


def _joint_die(threshold: int, depth: int):
    """One d10 as successes + CRIT_CODE * criticals (a critical explodes): the joint distribution."""
    import icepool

    quantities = {0: threshold - 1, CRIT_CODE + 1: 1}
    if threshold < SIDES:
        quantities[1] = SIDES - threshold
    return icepool.Die(quantities).explode([CRIT_CODE + 1], depth=depth)


def _pmf(die, decode: Callable[[int], int] = int) -> np.ndarray:
    """Success PMF of an icepool die (exact integer quantities, rounded once); ``decode`` maps outcomes to
    successes."""
    denominator = die.denominator()
    by_successes: dict[int, int] = {}
    for value, quantity in die.items():
        successes = decode(value)
        by_successes[successes] = by_successes.get(successes, 0) + quantity
    pmf = np.zeros(max(by_successes) + 1)
    for successes, quantity in by_successes.items():
        pmf[successes] = quantity / denominator
    return pmf


def _icepool_table(make_die, depth: int, total: str, decode: Callable[[int], int] = int) -> dict:
    """The Action Table with icepool: one die per threshold, its sums for 1..20 dice built by ``total``:
    ``add`` (one die at a time), ``matmul`` (``n @ die`` for each n) or ``pool`` (``die.pool(n).sum()``)."""
    pmfs = {}
    for t in TABLE_THRESHOLDS:
        die = make_die(t, depth)
        running = die
        for n in range(1, TABLE_MAX_DICE + 1):
            if total == "add":
                running = die if n == 1 else running + die
                pmfs[n, t] = _pmf(running, decode)
            elif total == "matmul":
                pmfs[n, t] = _pmf(n @ die, decode)
            else:
                pmfs[n, t] = _pmf(die.pool(n).sum(), decode)
    return pmfs


def _icepool_formulations() -> list[tuple[str, Callable[[], dict]]]:
    """Every icepool formulation tried, by description."""
    again = "`Die([0]*(t-1) + [1]*(10-t) + [1 + Again], again_depth={d})`"
    explode = "`d10.explode(depth={d}).map(x // 10 + (x % 10 >= t))`"
    out = []
    for d in ICEPOOL_DEPTHS:
        out += [
            (f"{again.format(d=d)} summed one die at a time (`total + die`)",
             lambda d=d: _icepool_table(_again_die, d, "add")),
            (f"{explode.format(d=d)} summed one die at a time (`total + die`)",
             lambda d=d: _icepool_table(_explode_die, d, "add")),
            (f"{again.format(d=d)}, `n @ die` for each n",
             lambda d=d: _icepool_table(_again_die, d, "matmul")),
        ]
    d = ICEPOOL_SLOW_DEPTH
    out += [
        (f"{again.format(d=d)}, `die.pool(n).sum()` for each n",
         lambda: _icepool_table(_again_die, d, "pool")),
        (f"joint (successes, criticals) die `Die({{0, 1, 1001}}).explode([1001], depth={d})` summed one die "
         "at a time, criticals summed out (what this row timed before)",
         lambda: _icepool_table(_joint_die, d, "add", lambda v: v % CRIT_CODE)),
    ]
    return out


def _max_abs_diff(a: dict, b: dict) -> float:
    worst = 0.0
    for key, p in a.items():
        q = b[key]
        size = max(p.size, q.size)
        worst = max(worst, float(np.abs(np.pad(p, (0, size - p.size)) - np.pad(q, (0, size - q.size))).max()))
    return worst


def bench_table() -> list[Row]:
    """The exact Action Table (success PMFs, 1..20 dice x thresholds 2..10) against icepool."""
    label = ("Exact Action Table (success PMFs, chained criticals), 1..20 dice × thresholds 2..10: "
             "`action_table` from empty caches vs the fastest icepool formulation agreeing to 1e-12")
    target = "≥ 500×, diff ≤ 1e-12"
    if importlib.util.find_spec("icepool") is None:
        return [(label, "n/a (icepool not installed: `make setup` installs the dev extras)", target, None)]
    from simcore import exact as simexact

    action_table(TABLE_MAX_DICE)
    # a sub-millisecond call: the best of 100 (timeit's rule), icepool's second-long runs the best of three
    (ours_s, table), = best_times([cold(lambda: action_table(TABLE_MAX_DICE, TABLE_THRESHOLDS), simexact)],
                                  repeats=100)
    tried = []
    for description, build in _icepool_formulations():
        (first_s, pmfs), = best_times([build], repeats=1)
        # icepool's seconds against our milliseconds: formulations under a second get the best of three
        best_s = min(first_s, best_times([build], repeats=REPEATS - 1)[0][0]) if first_s < 1 else first_s
        diff = _max_abs_diff(table.pmfs, pmfs)
        tried.append((best_s, diff, description))
        log(f"  icepool {best_s:.3f} s, max abs diff {diff:.1e}: {description}")
    NOTES.append("icepool formulations tried for the exact-table row (best time; max abs diff from ours): "
                 + "; ".join(f"{d} {s:.2f} s ({diff:.1e})" for s, diff, d in sorted(tried)) + ".")
    agreeing = [t for t in tried if t[1] <= TABLE_TOLERANCE]
    if not agreeing:
        return [(label, "n/a (no icepool formulation agrees to 1e-12)", target, None)]
    ice_s, diff, description = min(agreeing)
    ratio = ice_s / ours_s
    measured = (f"ours {ours_s * 1e3:.1f} ms; icepool {ice_s:.2f} s with {description}; {ratio:.0f}×; "
                f"max abs diff {diff:.1e}")
    return [(label, measured, target, ratio >= 500 and diff <= TABLE_TOLERANCE)]


# ---------------------------------------------------------------------------------------------------
# 4-7. compile time and whole command-line runs
# ---------------------------------------------------------------------------------------------------

def _cli_missing() -> bool:
    if not os.access(BALANCE, os.X_OK):
        return True
    probe = subprocess.run([sys.executable, "-c", "import reports.cli"], capture_output=True, cwd=REPO)
    return probe.returncode != 0


def _failure(done: subprocess.CompletedProcess) -> str:
    last = (done.stderr.strip().splitlines() or [f"exit code {done.returncode}"])[-1]
    return f"n/a (failed: {last})"


#: Python's bytecode cache for the whole-process rows, in a folder of this run's own: `balance` runs as a
#: user has it (bytecode written once and reused), whatever PYTHONDONTWRITEBYTECODE the caller set, and
#: nothing is written beside the sources.
_BYTECODE = tempfile.TemporaryDirectory(prefix="bench-pycache-")


def _env(numba_cache: str | None = None) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = _BYTECODE.name
    if numba_cache is not None:
        env["NUMBA_CACHE_DIR"] = numba_cache
    return env


def _balance(args: Sequence[str], numba_cache: str | None = None
             ) -> tuple[float, subprocess.CompletedProcess]:
    """Wall time of the whole `balance ARGS` process (its output captured, never sent to a shared path)."""
    start = time.perf_counter()
    done = subprocess.run([str(BALANCE), *args], capture_output=True, text=True, cwd=REPO,
                          env=_env(numba_cache))
    return time.perf_counter() - start, done


def bench_compile() -> list[Row]:
    """numba compile time of each public entry point: first call minus second, fresh process, empty cache."""
    label = ("Compile time per entry point (first call − second call, 1000 trials, fresh process, empty "
             "NUMBA_CACHE_DIR; kernels compiled earlier in the list are reused by later ones)")
    with tempfile.TemporaryDirectory(prefix="bench-numba-") as cache:
        done = subprocess.run([sys.executable, "-c", _COMPILE_PROBE], capture_output=True, text=True,
                              cwd=REPO, env=_env(cache))
    if done.returncode != 0:
        return [(label, _failure(done), "information", None)]
    times = json.loads(done.stdout)
    compile_s = {name: first - second for name, (first, second) in times.items()}
    measured = "; ".join(f"{name} {s:.1f} s" for name, s in compile_s.items())
    return [(label, f"{measured}; total {sum(compile_s.values()):.1f} s", "information", None)]


def _cold_and_warm(args: Callable[[str], list[str]]) -> tuple[float, float] | subprocess.CompletedProcess:
    """Wall times of `balance ARGS(out)` with an empty NUMBA_CACHE_DIR, then again with the same cache, each
    writing into a fresh temporary folder ``out``; the failed process when one fails."""
    walls = []
    with tempfile.TemporaryDirectory(prefix="bench-numba-") as cache:
        for _ in ("cold", "warm"):
            with tempfile.TemporaryDirectory(prefix="bench-out-") as out:
                wall, done = _balance(args(out), numba_cache=cache)
            if done.returncode != 0:
                return done
            walls.append(wall)
    return walls[0], walls[1]


def bench_make_run() -> list[Row]:
    """`balance efficiency drakerys --save DIR` (issue 7's `make run` workload), cold and warm numba cache."""
    label = ("Drakerys efficiency report (issue 7's `make run` workload), `balance efficiency drakerys "
             "--save DIR`, whole process, all cores: cold (empty NUMBA_CACHE_DIR) then warm (same cache)")
    target = "cold ≤ 15 s, warm ≤ 4 s"
    if _cli_missing():
        return [(label, "n/a (balance command missing)", target, None)]
    walls = _cold_and_warm(lambda out: ["efficiency", "drakerys", "--save", out])
    if isinstance(walls, subprocess.CompletedProcess):
        return [(label, _failure(walls), target, None)]
    cold, warm = walls
    return [(label, f"cold {cold:.1f} s; warm {warm:.1f} s", target, cold <= 15 and warm <= 4)]


def bench_report() -> list[Row]:
    """`balance report --output DIR` (what `make run` does): every game's site, cold and warm numba cache."""
    label = ("`make run` workload, `balance report --output DIR` (the site of all five games), whole "
             "process, all cores: cold (empty NUMBA_CACHE_DIR) then warm (same cache)")
    target = "warm < 300 s"
    if _cli_missing():
        return [(label, "n/a (balance command missing)", target, None)]
    walls = _cold_and_warm(lambda out: ["report", "--output", str(Path(out) / "site")])
    if isinstance(walls, subprocess.CompletedProcess):
        return [(label, _failure(walls), target, None)]
    cold, warm = walls
    return [(label, f"cold {cold:.0f} s; warm {warm:.0f} s", target, warm < 300)]


#: The commit whose `make run` the ``report-vs-baseline`` row times beside this code's: the last one before
#: the contests at equal points (BENCH_BASELINE overrides it).
BASELINE = os.environ.get("BENCH_BASELINE", "ce8ffab")


def _baseline_tree(folder: Path) -> Path | None:
    """The baseline commit's files, unpacked into ``folder`` (git archive: nothing written to the repo)."""
    archive = subprocess.run(["git", "archive", "--format=tar", BASELINE], cwd=REPO, capture_output=True)
    if archive.returncode != 0:
        return None
    tree = folder / "tree"
    tree.mkdir()
    untar = subprocess.run(["tar", "-x", "-C", str(tree)], input=archive.stdout, capture_output=True)
    return tree if untar.returncode == 0 else None


def _report_at(tree: Path, cache: str) -> tuple[float, subprocess.CompletedProcess]:
    """Wall time of `balance report --output DIR` run from the sources in ``tree`` (this venv's packages)."""
    with tempfile.TemporaryDirectory(prefix="bench-out-") as out:
        env = _env(cache)
        env["PYTHONPATH"] = str(tree)
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-c", "from reports.cli import console_main; console_main()",
                               "report", "--output", str(Path(out) / "site")], capture_output=True, text=True,
                              cwd=tree, env=env)
        return time.perf_counter() - start, done


def bench_report_vs_baseline() -> list[Row]:
    """The warm `make run` workload of this code beside the baseline commit's, interleaved in this run."""
    label = (f"`make run` workload (`balance report`, every game's site), warm, this code against commit "
             f"{BASELINE} (one unit against one unit at unequal costs), interleaved, best of {REPEATS}")
    target = "this code ≤ 2x the baseline"
    with tempfile.TemporaryDirectory(prefix="bench-baseline-") as folder:
        base_tree = _baseline_tree(Path(folder))
        if base_tree is None:
            return [(label, f"n/a (commit {BASELINE} not in this repository)", target, None)]
        walls: dict[str, list[float]] = {"baseline": [], "this": []}
        with tempfile.TemporaryDirectory(prefix="bench-numba-") as base_cache, \
                tempfile.TemporaryDirectory(prefix="bench-numba-") as this_cache:
            trees = {"baseline": (base_tree, base_cache), "this": (REPO, this_cache)}
            for k in range(REPEATS + 1):  # the first round compiles into each cache and is not counted
                for name, (tree, cache) in trees.items():
                    wall, done = _report_at(tree, cache)
                    if done.returncode != 0:
                        return [(label, f"{name}: {_failure(done)}", target, None)]
                    if k:
                        walls[name].append(wall)
    base, this = min(walls["baseline"]), min(walls["this"])
    measured = f"this {this:.0f} s; baseline {base:.0f} s; {this / base:.2f}x"
    return [(label, measured, target, this <= 2 * base)]


def bench_startup() -> list[Row]:
    """`balance --help` and the exact `balance table drakerys action`, whole process, warm."""
    label = (f"Start-up, whole process, warm cache (best and median of {STARTUP_REPEATS}): `balance --help`; "
             "exact `balance table drakerys action`")
    target = "help ≤ 0.15 s, table ≤ 0.35 s (median)"
    if _cli_missing():
        return [(label, "n/a (balance command missing)", target, None)]
    commands = {"help": ["--help"], "table": ["table", "drakerys", "action"]}
    walls: dict[str, list[float]] = {name: [] for name in commands}
    for args in commands.values():  # warm the numba and bytecode caches and the file system
        _, done = _balance(args)
        if done.returncode != 0:
            return [(label, _failure(done), target, None)]
    for _ in range(STARTUP_REPEATS):
        for name, args in commands.items():
            wall, _ = _balance(args)
            walls[name].append(wall)
    help_median, table_median = statistics.median(walls["help"]), statistics.median(walls["table"])
    measured = (f"help best {min(walls['help']):.2f} s, median {help_median:.2f} s; table best "
                f"{min(walls['table']):.2f} s, median {table_median:.2f} s")
    return [(label, measured, target, help_median <= 0.15 and table_median <= 0.35)]


#: The engagements of `balance efficiency drakerys` alone, in one process whose kernels are loaded: what the
#: threads share, without the serial start-up (imports, loading the kernels) and report around it. Prints
#: [1-thread seconds, 2-thread seconds], each the best of two alternating runs.
_FIELD_PROBE = """
import json, time
from reports import api
api._efficiency("drakerys", ["crows"], (), None, None, None, None, 2, (), None)  # load the kernels
best = {1: [], 2: []}
for _ in range(2):
    for threads in (1, 2):
        start = time.perf_counter()
        api._efficiency("drakerys", UNITS, (), None, None, None, None, threads, (), None)
        best[threads].append(time.perf_counter() - start)
print(json.dumps([min(best[1]), min(best[2])]))
"""


#: The field of the threads row: twelve Drakerys entries of every kind, shooters and heroes' Guard units
#: among them (132 engagements, about a ninth of the whole catalog's): enough work to spread over two
#: threads, short enough to repeat twelve times.
THREADS_FIELD = ("crows@12", "crows@6", "blood-banes@8", "bloodseekers@12", "warriors@12", "warriors@6",
                 "crossbowmen@12", "crushers@4", "spearmen@10", "gold-keepers@12", "soldiers@12",
                 "rockthrowers@9")


def _field_alone() -> str:
    """The engagements alone on 1 and 2 threads (information beside the whole-process ratio)."""
    probe = f"UNITS = {list(THREADS_FIELD)!r}\n" + _FIELD_PROBE
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=REPO,
                          env=_env())
    if done.returncode != 0:
        return _failure(done)
    one, two = json.loads(done.stdout)
    return (f"the engagements alone (in one process, kernels loaded): 1 thread {one:.1f} s, 2 threads "
            f"{two:.1f} s, {one / two:.2f}×")


#: A CPU-bound loop of plain Python (about 1.5 s here): the machine's own ceiling for 2 threads is how much
#: faster two copies of it finish side by side than one after the other.
_BUSY = "x = 0\nfor i in range(20_000_000):\n    x += i"


def _busy(copies: int) -> float:
    """Wall time of ``copies`` copies of _BUSY started together (until the last ends)."""
    start = time.perf_counter()
    procs = [subprocess.Popen([sys.executable, "-c", _BUSY]) for _ in range(copies)]
    for p in procs:
        p.wait()
    return time.perf_counter() - start


def _efficiency_report(threads: int) -> tuple[float, bytes | str]:
    """Wall time of `balance efficiency drakerys --unit ... --threads N --format json --output
    TMP/efficiency.json` (the units of THREADS_FIELD) and the report it wrote (or why it failed): every
    section (ranking, meta-game, every engagement's metrics with standard errors and trials, win matrix) at
    full precision, so two runs compare byte for byte."""
    with tempfile.TemporaryDirectory(prefix="bench-out-") as out:
        path = Path(out) / "efficiency.json"
        units = [arg for key in THREADS_FIELD for arg in ("--unit", key)]
        wall, done = _balance(["efficiency", "drakerys", *units, "--threads", str(threads), "--format",
                               "json", "--output", str(path)])
        if done.returncode != 0:
            return wall, _failure(done)
        return wall, path.read_bytes()


def bench_efficiency_threads() -> list[Row]:
    """`balance efficiency drakerys` on 1 and 2 threads, idle and beside one CPU-bound process."""
    idle_label = ("`balance efficiency drakerys` with twelve entries of every kind (THREADS_FIELD, 132 "
                  "engagements; the whole report written as JSON to a temporary file), warm, whole process, "
                  "no load added (an idle machine wanted: see the load average): `--threads 2` vs "
                  "`--threads 1`, best of "
                  f"{EFFICIENCY_REPEATS} interleaved runs each; the reports compared byte for byte")
    loaded_label = ("The same beside one CPU-bound process (`python -c 'while True: pass'`): `--threads 2` "
                    "vs `--threads 1`")
    idle_target, loaded_target = "≥ 1.7×, identical", "2 threads not slower, identical"
    if usable_cores() < 2:
        return [(idle_label, "n/a (fewer than 2 cores)", idle_target, None),
                (loaded_label, "n/a (fewer than 2 cores)", loaded_target, None)]
    if _cli_missing():
        return [(idle_label, "n/a (balance command missing)", idle_target, None),
                (loaded_label, "n/a (balance command missing)", loaded_target, None)]
    with tempfile.TemporaryDirectory(prefix="bench-out-") as out:  # compile or load the kernels first
        _, done = _balance(["efficiency", "drakerys", "--unit", "crows", "--unit", "warriors", "--save", out])
    if done.returncode != 0:
        return [(idle_label, _failure(done), idle_target, None),
                (loaded_label, _failure(done), loaded_target, None)]
    runs: dict[tuple[str, int], list[tuple[float, dict | str]]] = {}

    ceiling: dict[int, list[float]] = {1: [], 2: []}

    def play(state: str) -> None:  # 1, 2, 1, 2 threads: a passing load touches both alike; the best counts
        for _ in range(EFFICIENCY_REPEATS):
            for threads in (1, 2):
                runs.setdefault((state, threads), []).append(_efficiency_report(threads))
            if state == "idle":  # the machine's own 2-core ceiling, measured between the same runs
                for copies in (1, 2):
                    ceiling[copies].append(_busy(copies))

    play("idle")
    alone = _field_alone()
    hog = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        play("loaded")
    finally:
        hog.kill()
        hog.wait()
    outputs = [csvs for done in runs.values() for _, csvs in done]
    failed = next((o for o in outputs if isinstance(o, str)), None)
    if failed is not None:
        return [(idle_label, failed, idle_target, None), (loaded_label, failed, loaded_target, None)]
    identical = bool(outputs[0]) and all(o == outputs[0] for o in outputs)
    same = f"the reports of all {len(outputs)} runs {'bit-identical' if identical else 'DIFFER'}"
    rows = []
    for state, label, target in (("idle", idle_label, idle_target), ("loaded", loaded_label, loaded_target)):
        one, two = (min(wall for wall, _ in runs[state, threads]) for threads in (1, 2))
        speedup = one / two
        met = identical and (speedup >= 1.7 if state == "idle" else two <= one)
        measured = f"1 thread {one:.1f} s; 2 threads {two:.1f} s; {speedup:.2f}×; {same}"
        if state == "idle":
            roof = 2 * min(ceiling[1]) / min(ceiling[2])
            measured += (f"; {alone}; the machine's own ceiling between these runs: two copies of a "
                         f"CPU-bound Python loop side by side {roof:.2f}× one at a time (best of "
                         f"{EFFICIENCY_REPEATS})")
        rows.append((label, measured, target, met))
    return rows


# ---------------------------------------------------------------------------------------------------
# rows kept from before: thread scaling, memory, what-if, sweep, meta-game
# ---------------------------------------------------------------------------------------------------

def bench_threads() -> list[Row]:
    """The same simulate_action_roll run on 1 and 2 threads; the histograms must be identical."""
    label = ("Thread scaling, `simulate_action_roll` 12d10 threshold 7 Swashbuckler (rolls for about 1 s on "
             "1 thread), 2 threads vs 1")
    if usable_cores() < 2 or nb.config.NUMBA_NUM_THREADS < 2:
        return [(label, "n/a (fewer than 2 cores)", "≥ 1.7×, identical", None)]
    roll = ActionRoll(12, 7, swashbuckler=True)
    simulate_action_roll(roll, trials=1000, seed=1, threads=2)
    trials = calibrated_trials(lambda t: simulate_action_roll(roll, trials=t, seed=1, threads=1), 10**6)
    (one_s, one), (two_s, two) = best_times([
        lambda: simulate_action_roll(roll, trials=trials, seed=1, threads=1),
        lambda: simulate_action_roll(roll, trials=trials, seed=1, threads=2),
    ])
    identical = np.array_equal(one.run.counts, two.run.counts)
    speedup = one_s / two_s
    measured = (f"{trials / 1e6:.0f} M rolls: 1 thread {one_s:.2f} s; 2 threads {two_s:.2f} s; "
                f"{speedup:.2f}×; histograms {'bit-identical' if identical else 'DIFFER'}")
    return [(label, measured, "≥ 1.7×, identical", speedup >= 1.7 and identical)]


def bench_memory() -> list[Row]:
    """Peak RSS of a fresh process after 10^7 and after 10^9 trials (2 threads where possible)."""
    threads = min(2, nb.config.NUMBA_NUM_THREADS)
    code = _MEMORY_PROBE.replace("THREADS", str(threads))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO)
    label = (f"Memory flat in trials, `simulate_action_roll` 1d10 threshold 6, {threads} threads "
             "(peak RSS of a fresh process, 10^7 → 10^9 trials)")
    if done.returncode != 0:
        return [(label, _failure(done), "growth < 10 MiB", None)]
    out = json.loads(done.stdout)
    (_, small_kib), (big_s, big_kib) = out[str(10**7)], out[str(10**9)]
    growth = (big_kib - small_kib) / 1024
    measured = (f"{small_kib / 1024:.0f} MiB → {big_kib / 1024:.0f} MiB (+{growth:.1f} MiB); "
                f"10^9 trials in {big_s:.1f} s")
    return [(label, measured, "growth < 10 MiB", growth < 10)]


def _warm() -> bool:
    """Compile (or load from numba's cache) the duel kernels before timing a command."""
    _, done = _balance(["duel", "drakerys", "crows", "warriors", "--trials", "1000"])
    return done.returncode == 0


def _cli_row(label: str, args: Sequence[str], limit_s: float) -> list[Row]:
    """A row timing `balance ARGS --format csv --output TMP/out.csv` (warm numba cache) against a limit."""
    target = f"< {limit_s:g} s"
    if _cli_missing() or not _warm():
        return [(label, "n/a (balance command missing or failing)", target, None)]
    with tempfile.TemporaryDirectory(prefix="bench-out-") as folder:
        wall, done = _balance([*args, "--format", "csv", "--output", str(Path(folder) / "out.csv")])
    if done.returncode != 0:
        return [(label, _failure(done), target, None)]
    return [(label, f"{wall:.1f} s", target, wall < limit_s)]


def bench_whatif() -> list[Row]:
    """A what-if of one stat: the field as baseline, every engagement of the Crows (3 sizes) as variant."""
    label = ("`balance whatif drakerys --set crows.combat=4` (the whole field as baseline, then the Crows' "
             "192 engagements as variant on the same dice), warm, whole process")
    return _cli_row(label, ["whatif", "drakerys", "--set", "crows.combat=4"], 10)


def bench_sweep() -> list[Row]:
    """A 10-point cost sweep of one unit against the field."""
    label = ("`balance sweep drakerys --cost crows=60..240/20` (the field once; each of the 10 costs that "
             "buys other whole units plays the Crows' engagements again), warm, whole process")
    return _cli_row(label, ["sweep", "drakerys", "--cost", "crows=60..240/20"], 30)


def bench_points() -> list[Row]:
    """`balance points drakerys`: its wall time and how many engagements (contest runs) it played, against
    the runs a search without common random numbers and kept engagements would play (every step the whole
    field)."""
    label = ("`balance points drakerys` (the proposed points table of 34 entries: today's field, then the "
             "iteration's steps on the same dice), warm, whole process")
    target = "< 20 min; fewer engagements than (steps + 1) whole fields"
    if _cli_missing() or not _warm():
        return [(label, "n/a (balance command missing or failing)", target, None)]
    with tempfile.TemporaryDirectory(prefix="bench-out-") as folder:
        out = Path(folder) / "points.json"
        wall, done = _balance(["points", "drakerys", "--format", "json", "--output", str(out)])
        if done.returncode != 0:
            return [(label, _failure(done), target, None)]
        facts = json.loads(out.read_text(encoding="utf-8"))["meta"]
    played, steps, entries = facts["engagements_played"], facts["steps"], facts["entries"]
    whole = entries * (entries - 1) * (steps + 1)
    measured = (f"{wall / 60:.1f} min; {played:,} engagements over {steps} steps ({whole:,} if every step "
                f"played the whole field); {facts['fair_proposed']} of the entries that move fair "
                f"(today {facts['fair_today']})")
    return [(label, measured, target, wall < 1200 and played < whole)]


def bench_metagame() -> list[Row]:
    """Solving the meta-game of 34 entries (maximum-entropy Nash equilibrium), median of 20."""
    from reports import metagame

    rng = np.random.Generator(np.random.SFC64(34))
    raw = rng.normal(size=(34, 34))
    payoff = raw - raw.T
    times = []
    for _ in range(20):
        start = time.perf_counter()
        metagame.solve(payoff)
        times.append(time.perf_counter() - start)
    median = statistics.median(times)
    return [("Meta-game solve, 34 entries (random antisymmetric payoff; LP + maximum entropy), median of 20",
             f"{1000 * median:.1f} ms", "< 1 s", median < 1)]


# ---------------------------------------------------------------------------------------------------
# Dragonbond: attack resolution and the exact attack table
# ---------------------------------------------------------------------------------------------------

DB_ATTACKS = 10**7
DB_NAIVE_ATTACKS = 20_000


def bench_dragonbond_attack() -> list[Row]:
    """4 grey + 2 black against 1 white die per hit, 3 models of Health 2: the kernel against the twin."""
    sys.path.insert(0, str(REPO / "tests"))
    from naive_dragonbond import NaiveUnit, Side, attack

    from rulesets.dragonbond.dice import parse_pool
    from rulesets.dragonbond.exact import Defense, Target, attack_distribution
    from rulesets.dragonbond.simulate import simulate_attack

    pool, defense, healths = parse_pool("4G 2B"), Defense(1, 1), (2, 2, 2)
    exact_mean = attack_distribution(pool, defense, Target(healths)).mean_wounds()
    simulate_attack(pool, defense, healths, trials=1000, seed=1, threads=1)
    attacker = NaiveUnit("blades", 2, 2, 3, 1, "white", {"grey": 2, "black": 1})
    target = NaiveUnit("phalanx", 3, 2, 3, 1, "white", {"grey": 2})
    rng = random.Random(1)

    def twin() -> list[int]:
        out = []
        for _ in range(DB_NAIVE_ATTACKS):
            dfn = Side(target, [2, 2, 2])
            attack(rng, Side(attacker, [2, 2]), dfn, {}, 0)
            out.append(3 - dfn.alive)
        return out

    trials = calibrated_trials(lambda t: simulate_attack(pool, defense, healths, trials=t, seed=1, threads=1),
                               10**6)
    (ours_s, ours), (twin_s, _) = best_times([
        lambda: simulate_attack(pool, defense, healths, trials=trials, seed=1, threads=1), twin])
    rate, twin_rate = trials / ours_s, DB_NAIVE_ATTACKS / twin_s
    mean = histogram_mean(ours.run.counts[0])
    z = z_score(mean, exact_mean)
    measured = (f"simulate_attack {rate / 1e6:.1f} M attacks/s; plain-Python twin {twin_rate / 1e3:.1f} k "
                f"attacks/s; {rate / twin_rate:.0f}×; mean wounds vs exact: z = {z:+.1f}")
    label = ("Dragonbond attack, 4 grey + 2 black vs 1 white die per hit, wounds into 3 models of Health 2, "
             "1 thread: `simulate_attack` (two stage draws) vs the plain-Python twin "
             "(tests/naive_dragonbond.py on `random.Random`)")
    return [(label, measured, "≥ 5 M/s and ≥ 300×", rate >= 5e6 and rate / twin_rate >= 300 and abs(z) <= 5)]


def _db_table_entries():
    from rulesets.dragonbond.dice import ACTION, Pool, modified
    from rulesets.dragonbond.rules import DragonbondRulings

    rulings = DragonbondRulings()
    for colour in (2, 1, 0):
        for size in range(1, 9):
            for tokens in (0, 1, 2):
                counts = [0, 0, 0]
                counts[colour] = size
                rolled = modified(Pool(ACTION, tuple(counts)), 0, 2 * tokens, rulings)
                for die in (0, 1, 2):
                    yield rolled, die


def _db_ours() -> list[float]:
    from rulesets.dragonbond.exact import Defense, expected_wounds

    return [expected_wounds(rolled, Defense(1, die)) for rolled, die in _db_table_entries()]


def _db_icepool(linear: bool) -> list[float]:
    import icepool

    from rulesets.dragonbond.dice import action_face_probabilities, block_probability
    from rulesets.dragonbond.rules import DragonbondRulings

    r = DragonbondRulings()

    def die(k: int):
        faces: dict = {}
        for symbol, p in enumerate(action_face_probabilities(k, r)):
            if p:
                v = icepool.Vector(((0, 1, 2, 0)[symbol], (0, 0, 0, 1)[symbol]))
                faces[v] = faces.get(v, 0) + int(p * 10)
        return icepool.Die(faces)

    dice = [die(k) for k in range(3)]
    sixths = [round(6 * block_probability(k, r)) for k in range(3)]
    blocks = [icepool.Die([0] * (6 - n) + [1] * n) for n in sixths]
    out = []
    for rolled, d in _db_table_entries():
        pool = [dice[k] for k in range(3) for _ in range(rolled.counts[k])]
        attack = icepool.reduce(lambda a, b: a + b, pool) if len(pool) > 1 else pool[0]
        if linear:  # E[wounds] = sum_h P(h) E[max(0, h - blocks)] + E[criticals]
            hits, crits = attack.marginals[0], attack.marginals[1]
            total = float(crits.mean())
            for h, p in zip(hits.outcomes(), hits.probabilities(), strict=True):
                if h:
                    total += float(p) * float((h @ blocks[d]).map(lambda b, h=h: max(0, h - b)).mean())
            out.append(total)
        else:  # the whole wounds distribution, then its mean
            out.append(float(attack.map(lambda v, d=d: v[1] if v[0] == 0 else (v[0] @ blocks[d]).map(
                lambda b, v=v: max(0, v[0] - b) + v[1])).mean()))
    return out


def _icepool_table_row(label: str, game: str, ours: Callable[[], list[float]], modules: Sequence,
                       formulations: Sequence[tuple[str, Callable[[], list[float]]]]) -> list[Row]:
    """A table's numbers computed by ``ours`` from empty caches (``modules``' lru_caches) against each
    icepool formulation; the ratio to the fastest one that agrees to 1e-12 (target 100x), every one tried
    listed in the notes."""
    target = "≥ 100×, diff ≤ 1e-12"
    ours()
    (ours_s, numbers), = best_times([cold(ours, *modules)], repeats=10)
    tried = []
    for description, build in formulations:
        (ice_s, ice), = best_times([build], repeats=2)
        diff = max(abs(a - b) for a, b in zip(numbers, ice, strict=True))
        tried.append((ice_s, diff, description))
        log(f"  icepool {ice_s:.3f} s, max abs diff {diff:.1e}: {description}")
    NOTES.append(f"icepool formulations tried for the {game}: "
                 + "; ".join(f"{d} {s:.2f} s ({x:.1e})" for s, x, d in sorted(tried)) + ".")
    agreeing = [t for t in tried if t[1] <= 1e-12]
    if not agreeing:
        return [(label, "n/a (no icepool formulation agrees to 1e-12)", target, None)]
    ice_s, diff, description = min(agreeing)
    ratio = ice_s / ours_s
    return [(label, f"ours {ours_s * 1e3:.1f} ms; icepool {ice_s:.2f} s with {description}; {ratio:.0f}×; "
                    f"max abs diff {diff:.1e}", target, ratio >= 100 and diff <= 1e-12)]


def bench_dragonbond_table() -> list[Row]:
    """The standard attack table's numbers (216 expected wounds) from empty caches against icepool."""
    label = ("Dragonbond attack table, 216 expected wounds (black/grey/white pools of 1..8 dice, 0..2 "
             "fatigue tokens, against 1 red/white/black die per hit): ours from empty caches vs the fastest "
             "icepool formulation agreeing to 1e-12")
    if importlib.util.find_spec("icepool") is None:
        return [(label, "n/a (icepool not installed)", "≥ 100×, diff ≤ 1e-12", None)]
    from rulesets.dragonbond import dice as dbdice
    from rulesets.dragonbond import exact as dbexact

    return _icepool_table_row(label, "Dragonbond attack table", _db_ours, (dbexact, dbdice), (
        ("the wounds die by `map` over hits, then its mean", lambda: _db_icepool(False)),
        ("linearity: hits marginal, E[max(0, h - blocks)] per h, E[criticals]", lambda: _db_icepool(True))))


WB_NAIVE_ATTACKS = 100_000


def bench_warbound_attack() -> list[Row]:
    """Two dice at 7+ with Aim against 2 armor points at 6+ and a Morale pool: the kernel against the twin."""
    sys.path.insert(0, str(REPO / "tests"))
    from naive_warbound import roll_attack

    from rulesets.warbound.exact import HitRoll, Target, attack_outcome
    from rulesets.warbound.rules import WarboundRulings
    from rulesets.warbound.simulate import simulate_attack

    roll, target = HitRoll(2, 7, aim=True), Target(2, 6, morale=4)
    exact_mean = attack_outcome(roll, target, WarboundRulings()).mean("wounds")
    simulate_attack(roll, target, trials=1000, seed=1, threads=1)
    rng = random.Random(1)

    def twin() -> list[tuple[int, int, int]]:
        return [roll_attack(rng, 2, 7, aim=True, armor_points=2, armor_value=6)
                for _ in range(WB_NAIVE_ATTACKS)]

    trials = calibrated_trials(lambda t: simulate_attack(roll, target, trials=t, seed=1, threads=1), 10**6)
    (ours_s, ours), (twin_s, _) = best_times([
        lambda: simulate_attack(roll, target, trials=trials, seed=1, threads=1), twin])
    rate, twin_rate = trials / ours_s, WB_NAIVE_ATTACKS / twin_s
    z = z_score(histogram_mean(ours.counts("wounds")), exact_mean)
    measured = (f"simulate_attack {rate / 1e6:.1f} M attacks/s; plain-Python twin {twin_rate / 1e3:.1f} k "
                f"attacks/s; {rate / twin_rate:.0f}×; mean Wound tokens vs exact: z = {z:+.1f}")
    label = ("Warbound shooting attack, 2 dice at 7+ with Aim against 2 armor points at 6+ (Wound, Break and "
             "Stress tokens), 1 thread: `simulate_attack` (one draw from the exact joint table) vs the "
             "plain-Python twin (tests/naive_warbound.py on `random.Random`, every die rolled)")
    return [(label, measured, "≥ 10 M/s and ≥ 300×", rate >= 1e7 and rate / twin_rate >= 300 and abs(z) <= 5)]


def _wb_entries():
    for value in range(2, 13):
        for dice in range(1, 5):
            for aim in (False, True):
                for formation in (False, True):
                    yield "hit", (dice, value, aim, formation)
    for armor_value in range(2, 12):
        for points in range(1, 5):
            for damage in range(1, 13):
                yield "armor", (damage, armor_value, points)


def _wb_ours() -> list[float]:
    """The numbers of `balance table warbound hit` and `armor`, as those tables compute them (their rows
    come in the order of :func:`_wb_entries`)."""
    from reports.warbound.tables import armor_rows, hit_rows
    from rulesets.warbound.rules import WarboundRulings

    return ([x for row in hit_rows(WarboundRulings()) for x in row[4:6]]
            + [x for row in armor_rows() for x in row[3:6]])


def _wb_icepool(pooled: bool) -> list[float]:
    """The same numbers from icepool: a hit is a 0/1 die (the d12's faces, a natural [1] failing and a
    natural [10] succeeding), summed (``n @ die``) or, with Aim, the highest n of n + 1; a save likewise,
    the Wounds ``damage - min(saves, points)``. ``pooled``: every roll as a pool's ``highest``."""
    import icepool

    from rulesets.warbound.rules import FACES

    def indicator(value: int, modifier: int):
        return icepool.Die([1 if f == 10 or (f != 1 and f + modifier >= value) else 0 for f in FACES])

    out = []
    for kind, (a, b, c, *d) in _wb_entries():
        if kind == "hit":
            dice, value, aim, formation = a, b, c, d[0]
            hit = indicator(value, 1 if formation else 0)
            kept = dice + (1 if formation else 0)
            if aim:
                hits = hit.pool(kept + 1).highest(kept).sum()
            elif pooled:
                hits = hit.pool(kept).sum()
            else:
                hits = kept @ hit
            out += [1.0 - float(hits.probability(0)), float(hits.mean())]
        else:
            damage, armor_value, points = a, b, c
            saves = (damage @ indicator(armor_value, 0)) if not pooled else indicator(armor_value, 0).pool(
                damage).sum()
            wounds = saves.map(lambda s, damage=damage, points=points: damage - min(s, points))
            breaks = saves.map(lambda s, points=points: min(s, points))
            out += [float(wounds.mean()), float(breaks.mean()), float(wounds.probability(0))]
    return out


def bench_warbound_table() -> list[Row]:
    """The standard hit and armor tables' numbers (1792) from empty caches against icepool."""
    label = ("Warbound hit and armor tables, 1,792 numbers (P(hit) and expected hits for 1..4 dice at 2..12 "
             "with and without Aim and Formation; expected Wounds, Breaks and P(no Wound) for 1..12 damage "
             "at armor 2..11 with 1..4 points): ours from empty caches vs the fastest icepool formulation "
             "agreeing to 1e-12")
    if importlib.util.find_spec("icepool") is None:
        return [(label, "n/a (icepool not installed)", "≥ 100×, diff ≤ 1e-12", None)]
    from rulesets.warbound import exact as wbexact

    return _icepool_table_row(label, "Warbound tables", _wb_ours, (wbexact,), (
        ("0/1 dice summed with `n @ die`, Aim as `pool(n + 1).highest(n)`", lambda: _wb_icepool(False)),
        ("every roll as a pool: `die.pool(n).sum()`, Aim `highest(n)`", lambda: _wb_icepool(True))))


def _ud_ours() -> list[float]:
    """The numbers of `balance table uberdrakes rolloff`, as that command computes them."""
    from reports.uberdrakes.tables import rolloff_rows

    return [row[3] for row in rolloff_rows()]


def _ud_icepool(by_margin: bool) -> list[float]:
    """The same P(initiator wins) from icepool: each side's total as ``d6.pool(2 + rage).highest(2).sum()``
    plus its bonus; the margin die's P(>= 0), or the two dice compared with ``>=``."""
    import icepool

    totals = {r: icepool.d6.pool(2 + r).highest(2).sum() for r in range(5)}
    out = []
    for ri in range(5):
        for rd in range(5):
            for diff in range(-6, 7):
                a, b = totals[ri] + diff, totals[rd]
                if by_margin:
                    out.append(float((a - b).map(lambda m: m >= 0).probability(True)))
                else:
                    out.append(float((a >= b).probability(True)))
    return out


def bench_uberdrakes_rolloff() -> list[Row]:
    """The rolloff table's 325 numbers from empty caches against icepool."""
    label = ("UberDrakes rolloff table, 325 P(initiator wins) (Rage 0..4 against 0..4, bonus difference "
             "-6..+6): ours from empty caches vs the fastest icepool formulation agreeing to 1e-12")
    if importlib.util.find_spec("icepool") is None:
        return [(label, "n/a (icepool not installed)", "≥ 100×, diff ≤ 1e-12", None)]
    from rulesets.uberdrakes import exact as udexact
    from simcore import exact as simexact

    return _icepool_table_row(label, "UberDrakes rolloff table", _ud_ours, (udexact, simexact), (
        ("the totals as `d6.pool(2 + rage).highest(2).sum()`, the margin's P(>= 0)",
         lambda: _ud_icepool(True)),
        ("the same totals compared with `>=`", lambda: _ud_icepool(False))))


def bench_uberdrakes_game() -> list[Row]:
    """The counterattack game solved exactly (optimal policy) for 3 items and 10 Magic a side."""
    from rulesets.uberdrakes.combat import Combat, Kit, solve
    from rulesets.uberdrakes.exact import Side
    from rulesets.uberdrakes.rules import UberDrakesRulings

    combat = Combat(Side(1, 2), Side(0, 3), Kit(lances=2, shields=1, magic=10, plate_armor=True),
                    Kit(lances=1, shields=2, magic=10, fire_breath=True))
    rulings = UberDrakesRulings(policy="optimal")
    (seconds, out), = best_times([lambda: solve(combat, rulings)], repeats=3)
    label = ("UberDrakes counterattack game, optimal policy by backward induction (every die enumerated), a "
             "Metal initiator (2 Lances, 1 Hide Shield, 10 Magic: Plate Armor) against a Fire defender (1 "
             "Lance, 2 Hide Shields, 10 Magic: Fire Breath), Rage 1 +2 vs Rage 0 +3: the whole combat from "
             "the rolloff")
    measured = (f"{seconds:.2f} s (a fresh solver each call); P(initiator wins) {out.p_win[0]:.4f}, blood "
                f"points {out.blood_points[0]:.3f} / {out.blood_points[1]:.3f}")
    return [(label, measured, "< 1 s", seconds < 1.0)]


UD_NAIVE_COMBATS = 20_000


def bench_uberdrakes_combat() -> list[Row]:
    """Whole combats by Monte Carlo, 1 thread: the kernel against the plain-Python twin on one combat (the
    same policy table), in two situations."""
    from rulesets.uberdrakes.combat import Combat, Kit
    from rulesets.uberdrakes.exact import Side
    from rulesets.uberdrakes.rules import UberDrakesRulings

    return [
        _ud_combat_row("a Lance and a Hide Shield a side, Rage 1 vs 0, greedy (the default policy)",
                       Combat(Side(1, 0), Side(0, 0), Kit(lances=1, shields=1), Kit(lances=1, shields=1)),
                       UberDrakesRulings()),
        _ud_combat_row("the game bench's combat (2 Lances, a Hide Shield and 10 Magic of Plate Armor against "
                       "a Lance, 2 Hide Shields and 10 Magic of Fire Breath), optimal policy",
                       Combat(Side(1, 2), Side(0, 3), Kit(lances=2, shields=1, magic=10, plate_armor=True),
                              Kit(lances=1, shields=2, magic=10, fire_breath=True)),
                       UberDrakesRulings(policy="optimal"))]


def _ud_combat_row(what: str, combat, rulings) -> Row:
    sys.path.insert(0, str(REPO / "tests"))
    from naive_uberdrakes import play_combat

    from rulesets.uberdrakes import kernels as K
    from rulesets.uberdrakes.combat import policy
    from rulesets.uberdrakes.simulate import combat_args
    from simcore import runner

    pol = policy(combat, rulings)
    args = combat_args(pol, rulings)

    def ours(t: int):
        return runner.run(K.combat_chunks, args, (K.H_SIZE,), t, 1, threads=1)

    ours(1000)
    rng = random.Random(1)

    def twin():
        return [play_combat(rng, pol, rulings) for _ in range(UD_NAIVE_COMBATS)]

    trials = calibrated_trials(ours, 10**6)
    (ours_s, run), (twin_s, _) = best_times([lambda: ours(trials), twin])
    rate, twin_rate = trials / ours_s, UD_NAIVE_COMBATS / twin_s
    wins = run.counts[K.H_OUTCOME:K.H_PAID].reshape(2, -1).sum(axis=1)
    p = wins[0] / trials
    z = (p - pol.outcome.p_win[0]) / max((p * (1 - p) / trials) ** 0.5, 1e-300)
    label = (f"UberDrakes whole combat by Monte Carlo, {what}, 1 thread: the kernel (rolloffs drawn from "
             "exact tables, the exact program's policy looked up move by move, every counterattack die "
             "rolled) vs the plain-Python twin (tests/naive_uberdrakes.py on `random.Random`, every die "
             "rolled, the same policy)")
    measured = (f"{rate / 1e6:.1f} M combats/s; twin {twin_rate / 1e3:.1f} k/s; {rate / twin_rate:.0f}×; "
                f"P(initiator wins) vs exact: z = {z:+.1f}")
    return (label, measured, "≥ 5 M/s and ≥ 300×", rate >= 5e6 and rate / twin_rate >= 300 and abs(z) <= 5)


DG_NAIVE_GAMES = 2_000


def bench_dragoborne_game() -> list[Row]:
    """Whole Dragoborne games by Monte Carlo, 1 thread: the kernel against the plain-Python twin, the two
    packaged decks."""
    sys.path.insert(0, str(REPO / "tests"))
    from naive_dragoborne import play_games

    from rulesets.dragoborne import catalog as catalog_io
    from rulesets.dragoborne import kernels as K
    from rulesets.dragoborne import simulate as S
    from rulesets.dragoborne.rules import DragoborneRulings

    cat = catalog_io.load()
    m = S.matchup(cat, "red-blaze", "green-grove")

    def ours(t: int):
        return S.run(m, t, 1, threads=1)

    ours(1000)
    decks = (cat.deck("red-blaze"), cat.deck("green-grove"))

    def twin():
        return play_games(cat, *decks, DragoborneRulings(), DG_NAIVE_GAMES, 1)

    trials = calibrated_trials(ours, 200_000)
    (ours_s, run), (twin_s, games) = best_times([lambda: ours(trials), twin])
    rate, twin_rate = trials / ours_s, DG_NAIVE_GAMES / twin_s
    p = float((run.records[:, K.R_WINNER] == 0).mean())
    q = sum(g["winner"] == 0 for g in games) / len(games)
    z = z_score(Estimate(p, (p * (1 - p) / trials) ** 0.5, trials),
                Estimate(q, (q * (1 - q) / len(games)) ** 0.5, len(games)))
    label = ("Dragoborne whole games by Monte Carlo (Red Blaze against Green Grove, default rulings), 1 "
             "thread: the kernel (every card drawn, every die rolled, the stated policies) vs the "
             "plain-Python twin (tests/naive_dragoborne.py on `random.Random`, the same specification)")
    measured = (f"{rate / 1e3:.0f} k games/s; twin {twin_rate:,.0f} games/s; {rate / twin_rate:.0f}×; "
                f"P(Red Blaze wins) kernel {p:.3f} vs twin {q:.3f}: z = {z:+.1f}")
    met = rate >= 2e5 and rate / twin_rate >= 100 and abs(z) <= 5
    return [(label, measured, "≥ 200 k/s and ≥ 100×", met)]


def bench_dragoborne_hand() -> list[Row]:
    """`balance table dragoborne opening-hand` for a 60-card deck, in process, as the command computes it."""
    from reports.dragoborne.hands_tables import opening_hand_table
    from rulesets.dragoborne.rules import DragoborneRulings

    curve = (12, 14, 12, 12, 10)
    (seconds, _), = best_times([lambda: opening_hand_table(DragoborneRulings(), curve, 60, False, "back3+")])
    label = ("Dragoborne opening-hand table, exact (every hand profile, the mulligan as printed), a 60-card "
             "deck (curve 12, 14, 12, 12, 10), in process")
    return [(label, f"{seconds * 1e3:.1f} ms", "< 50 ms", seconds < 0.05)]


# ---------------------------------------------------------------------------------------------------
# the table
# ---------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Bench:
    """One benchmark: its ``--only`` name, what it measures (for progress and failures), and its rows."""

    name: str
    title: str
    run: Callable[[], list[Row]]


BENCHES = (
    Bench("action", "simulated Action-Table rolls vs today's per-die kernel", bench_action),
    Bench("fight", "full Fight vs plain-Python twin", bench_fight),
    Bench("table", "exact Action Table vs icepool", bench_table),
    Bench("compile", "compile time per entry point (fresh process, empty cache)", bench_compile),
    Bench("make-run", "Drakerys efficiency report (issue 7's `make run`), cold and warm", bench_make_run),
    Bench("report", "`make run`: `balance report`, every game's site, cold and warm", bench_report),
    Bench("report-vs-baseline", "`make run` warm, this code beside the commit before equal points",
          bench_report_vs_baseline),
    Bench("startup", "`balance --help` and `balance table drakerys action`", bench_startup),
    Bench("efficiency-threads", "`balance efficiency drakerys`, 1 vs 2 threads, idle and loaded",
          bench_efficiency_threads),
    Bench("threads", "thread scaling of simulate_action_roll", bench_threads),
    Bench("memory", "memory over 10^9 trials (subprocess)", bench_memory),
    Bench("whatif", "balance whatif", bench_whatif),
    Bench("sweep", "balance sweep", bench_sweep),
    Bench("metagame", "meta-game solve, 34 entries", bench_metagame),
    Bench("points", "`balance points drakerys`: wall time and contest runs", bench_points),
    Bench("dragonbond-attack", "Dragonbond attack resolution vs plain-Python twin", bench_dragonbond_attack),
    Bench("dragonbond-table", "Dragonbond exact attack table vs icepool", bench_dragonbond_table),
    Bench("warbound-attack", "Warbound attack resolution vs plain-Python twin", bench_warbound_attack),
    Bench("warbound-table", "Warbound exact hit and armor tables vs icepool", bench_warbound_table),
    Bench("uberdrakes-rolloff", "UberDrakes exact rolloff table vs icepool", bench_uberdrakes_rolloff),
    Bench("uberdrakes-game", "UberDrakes counterattack game, optimal, exact", bench_uberdrakes_game),
    Bench("uberdrakes-combat", "UberDrakes whole combat by Monte Carlo vs plain-Python twin",
          bench_uberdrakes_combat),
    Bench("dragoborne-game", "Dragoborne whole games by Monte Carlo vs plain-Python twin",
          bench_dragoborne_game),
    Bench("dragoborne-hand", "Dragoborne exact opening-hand table, 60 cards", bench_dragoborne_hand),
)


def load_average() -> str:
    """The 1-minute load average: other work on the machine during the run skews every figure."""
    return f"{os.getloadavg()[0]:.2f}" if hasattr(os, "getloadavg") else "n/a"


#: d10 drawn by each copy of the host probe's raw loop (about 0.1 s here).
HOST_DRAWS = 5 * 10**7


def host_speed() -> tuple[float, float]:
    """The host's own state, the same fixed compiled code each time: (M d10/s of the raw SFC64 d10 loop on
    1 thread, how much faster two copies run side by side on 2 threads than one after the other), best of
    3 each. A virtual machine's cores may run slower, or not both at once, when its host is busy."""
    _raw_d10_sum(stream(1), 1000)

    def pair() -> None:
        copies = [threading.Thread(target=_raw_d10_sum, args=(stream(k), HOST_DRAWS)) for k in (1, 2)]
        for t in copies:
            t.start()
        for t in copies:
            t.join()

    (one, _), = best_times([lambda: _raw_d10_sum(stream(1), HOST_DRAWS)])
    if usable_cores() < 2:
        return HOST_DRAWS / one / 1e6, float("nan")
    (two, _), = best_times([pair])
    return HOST_DRAWS / one / 1e6, 2 * one / two


def machine_line(load_before: str, load_after: str, host_before: tuple[float, float],
                 host_after: tuple[float, float]) -> str:
    today = datetime.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z")
    return (f"Measured {today} on {cpu_model()}, {usable_cores()} cores, Python {platform.python_version()}, "
            f"numpy {np.__version__}, numba {nb.__version__}; "
            f"load average {load_before} before, {load_after} after; the host's own speed before and after "
            f"(`host_speed`: the raw SFC64 d10 loop, fixed compiled code): {host_before[0]:.0f} and "
            f"{host_after[0]:.0f} M d10/s on 1 thread, two copies side by side {host_before[1]:.2f}× and "
            f"{host_after[1]:.2f}× one.")


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    names = [b.name for b in BENCHES]
    parser = argparse.ArgumentParser(description="Measure the performance targets side by side; print the "
                                                 "table of docs/performance.md.")
    parser.add_argument("--only", action="append", metavar="NAME[,NAME]",
                        help=f"run only these rows (repeatable): {', '.join(names)}")
    args = parser.parse_args(argv)
    if args.only:
        chosen = {n.strip() for item in args.only for n in item.split(",") if n.strip()}
        unknown = sorted(chosen - set(names))
        if unknown:
            parser.error(f"unknown row {', '.join(unknown)}; choose from {', '.join(names)}")
        args.only = chosen
    return args


def table_row(row: Row) -> str:
    """One row of the Markdown table."""
    label, measured, target, met = row
    return f"| {label} | {measured} | {target} | {yes_no(met)} |"


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(argv)
    benches = [b for b in BENCHES if not args.only or b.name in args.only]
    load_before, host_before = load_average(), host_speed()
    rows: list[Row] = []
    for step, bench in enumerate(benches, 1):
        log(f"{step}/{len(benches)} {bench.title}")
        done = len(rows)
        try:
            rows += bench.run()
        except Exception as exc:  # a project function mid-change must not hide the other rows
            rows.append((bench.title, f"n/a ({type(exc).__name__}: {exc})", "", None))
        for row in rows[done:]:  # as each row ends: a run stopped part-way keeps what it measured
            log("  " + table_row(row))
    print("| benchmark | measured | target | met |")
    print("|---|---|---|---|")
    for row in rows:
        print(table_row(row))
    print()
    print(machine_line(load_before, load_average(), host_before, host_speed()))
    for note in NOTES:
        print()
        print(note)


if __name__ == "__main__":
    main()
