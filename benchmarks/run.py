"""Benchmarks of the performance targets, measured side by side in one run.

Every figure in the table is measured by this script in the same run, on the same machine, so ratios
compare like with like. The results table in the README is pasted from the output of ``make bench``
(which runs ``.venv/bin/python benchmarks/run.py`` from the repository root); the machine line under it
says where and when it was measured. Nothing here asserts a timing: a target that is not met shows
``no`` in the ``met`` column. Progress goes to stderr, the table to stdout.
"""

from __future__ import annotations

import datetime
import importlib.util
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numba as nb
import numpy as np

from rulesets.drakerys import ActionRoll, action_table, exact_action_roll, simulate_action_roll
from simcore.config import JIT
from simcore.rng import roll_die, stream

REPO = Path(__file__).resolve().parent.parent
BALANCE = REPO / ".venv" / "bin" / "balance"

RAW_DRAWS = 2 * 10**8
KERNEL_TRIALS = 2 * 10**7
SCALING_DICE = 10**8
TABLE_MAX_DICE = 20
TABLE_THRESHOLDS = range(2, 11)
ICEPOOL_DEPTH = 16
#: icepool outcome of one die: successes + CRIT_CODE * criticals (successes never reach CRIT_CODE).
CRIT_CODE = 1000
REPEATS = 3

Row = tuple[str, str, str, bool | None]

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


@nb.njit(**JIT)
def _raw_d10_sum(state, n):
    """Sum of ``n`` d10 drawn one by one: the raw generator loop the kernels are compared with."""
    total = 0
    for _ in range(n):
        total += roll_die(state, 10)
    return total


def dice_per_trial(roll: ActionRoll) -> float:
    """Expected d10 rolled per trial of a Swashbuckler roll: first dice, rerolled failures, and one extra
    die per critical (chained criticals included)."""
    rerolled = roll.total_dice * (roll.threshold - 1) / 10
    return roll.total_dice + rerolled + exact_action_roll(roll).mean("criticals").value


def bench_per_die() -> Row:
    """Row 1: per-die kernel (12 dice, threshold 7, Swashbuckler) against the raw generator loop."""
    log("1/10 per-die simulation vs raw generator loop")
    _raw_d10_sum(stream(1), 1000)
    roll = ActionRoll(12, 7, swashbuckler=True)
    per_trial = dice_per_trial(roll)
    simulate_action_roll(roll, trials=1000, seed=1, threads=1)
    (raw_s, _), (kernel_s, _) = best_times([
        lambda: _raw_d10_sum(stream(1), RAW_DRAWS),
        lambda: simulate_action_roll(roll, trials=KERNEL_TRIALS, seed=1, threads=1),
    ])
    raw_rate = RAW_DRAWS / raw_s
    kernel_rate = KERNEL_TRIALS * per_trial / kernel_s

    ratio = kernel_rate / raw_rate
    measured = (f"raw {raw_rate / 1e6:.0f} M d10/s; kernel {kernel_rate / 1e6:.0f} M dice/s "
                f"({per_trial:.3f} dice/trial); ratio {ratio:.2f}")
    return ("Per-die simulation, 12d10 threshold 7 Swashbuckler, 1 thread (kernel / raw SFC64 d10 loop)",
            measured, "≥ 0.40", ratio >= 0.40)


def _icepool_die(threshold: int):
    """One d10 as icepool sees the Action Table: 0 failure, 1 success, CRIT_CODE + 1 critical (explodes)."""
    import icepool

    quantities = {0: threshold - 1, CRIT_CODE + 1: 1}
    if threshold < 10:
        quantities[1] = 10 - threshold
    return icepool.Die(quantities).explode([CRIT_CODE + 1], depth=ICEPOOL_DEPTH)


def _icepool_success_pmf(die) -> np.ndarray:
    """Success PMF of an icepool sum of encoded dice (exact integer quantities, rounded once)."""
    denominator = die.denominator()
    by_successes: dict[int, int] = {}
    for value, quantity in die.items():
        successes = value % CRIT_CODE
        by_successes[successes] = by_successes.get(successes, 0) + quantity
    pmf = np.zeros(max(by_successes) + 1)
    for successes, quantity in by_successes.items():
        pmf[successes] = quantity / denominator
    return pmf


def icepool_action_table() -> dict[tuple[int, int], np.ndarray]:
    """The Action Table computed with icepool: dice sums built one die at a time for each threshold."""
    pmfs = {}
    for t in TABLE_THRESHOLDS:
        die = _icepool_die(t)
        total = die
        pmfs[1, t] = _icepool_success_pmf(total)
        for n in range(2, TABLE_MAX_DICE + 1):
            total = total + die
            pmfs[n, t] = _icepool_success_pmf(total)
    return pmfs


def _check_icepool_decoding() -> None:
    """The encoding decodes to hand-computed small cases (one die at threshold 6, two at threshold 10)."""
    one = _icepool_success_pmf(_icepool_die(6))
    # P(0) = 5/10; P(1) = 4/10 + 1/10 * 5/10; P(2) = 1/10 * 4/10 + 1/10 * 1/10 * 5/10
    expected = np.array([0.5, 0.4 + 0.05, 0.04 + 0.005])
    two = _icepool_success_pmf(_icepool_die(10) + _icepool_die(10))
    # threshold 10: only 10s succeed, each adds a die; two dice: P(0) = 0.81, P(1) = 2 * 0.1 * 0.9 * 0.9
    if not (np.allclose(one[:3], expected, rtol=0, atol=1e-15)
            and np.isclose(two[0], 0.81, rtol=0, atol=1e-15)
            and np.isclose(two[1], 2 * 0.1 * 0.9 * 0.9, rtol=0, atol=1e-15)):
        raise RuntimeError("icepool encoding decodes wrongly; the exact-table comparison would be void")


def _max_abs_diff(a: dict, b: dict) -> float:
    worst = 0.0
    for key, p in a.items():
        q = b[key]
        size = max(p.size, q.size)
        worst = max(worst, float(np.abs(np.pad(p, (0, size - p.size)) - np.pad(q, (0, size - q.size))).max()))
    return worst


def bench_exact_table() -> Row:
    """Row 2: the exact Action Table (1..20 dice x thresholds 2..10, crit chains) against icepool."""
    label = "Exact Action Table, 1..20 dice × thresholds 2..10, crit chains (vs icepool)"
    target = "≥ 50×, diff ≤ 1e-12"
    if importlib.util.find_spec("icepool") is None:
        return label, "n/a (icepool not installed: `make setup` installs the dev extras)", target, None
    log("2/10 exact Action Table vs icepool")
    _check_icepool_decoding()
    action_table(TABLE_MAX_DICE)
    (ours_s, table), = best_times([lambda: action_table(TABLE_MAX_DICE, TABLE_THRESHOLDS)], repeats=10)
    # icepool takes seconds per table, so once is enough against milliseconds
    (ice_s, ice_pmfs), = best_times([icepool_action_table], repeats=1)
    diff = _max_abs_diff(table.pmfs, ice_pmfs)
    ratio = ice_s / ours_s
    measured = (f"ours {ours_s * 1e3:.1f} ms; icepool {ice_s:.2f} s; {ratio:.0f}× faster; "
                f"max abs diff {diff:.1e}")
    return label, measured, target, ratio >= 50 and diff <= 1e-12


def bench_threads() -> Row:
    """Row 3: the same 10^8-dice run on 1 and 2 threads; the histograms must be identical."""
    label = "Thread scaling, 10^8 dice (12d10 threshold 7 Swashbuckler), 2 threads vs 1"
    if usable_cores() < 2 or nb.config.NUMBA_NUM_THREADS < 2:
        return label, "n/a (fewer than 2 cores)", "≥ 1.7×", None
    log("3/10 thread scaling")
    roll = ActionRoll(12, 7, swashbuckler=True)
    trials = round(SCALING_DICE / dice_per_trial(roll))
    simulate_action_roll(roll, trials=1000, seed=1, threads=2)
    (one_s, one), (two_s, two) = best_times([
        lambda: simulate_action_roll(roll, trials=trials, seed=1, threads=1),
        lambda: simulate_action_roll(roll, trials=trials, seed=1, threads=2),
    ])
    identical = np.array_equal(one.run.counts, two.run.counts)
    speedup = one_s / two_s
    measured = (f"1 thread {one_s:.2f} s; 2 threads {two_s:.2f} s; {speedup:.2f}×; "
                f"histograms {'bit-identical' if identical else 'DIFFER'}")
    return label, measured, "≥ 1.7×, identical", speedup >= 1.7 and identical


def bench_memory() -> Row:
    """Row 4: peak RSS of a fresh process after 10^7 and after 10^9 trials (2 threads where possible)."""
    log("4/10 memory over 10^9 trials (subprocess)")
    threads = min(2, nb.config.NUMBA_NUM_THREADS)
    code = _MEMORY_PROBE.replace("THREADS", str(threads))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO)
    label = f"Memory flat in trials, 1d10 threshold 6, {threads} threads (peak RSS 10^7 → 10^9 trials)"
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or [f"exit code {done.returncode}"])[-1]
        return label, f"n/a (probe failed: {last})", "growth < 10 MiB", None
    out = json.loads(done.stdout)
    (_, small_kib), (big_s, big_kib) = out[str(10**7)], out[str(10**9)]
    growth = (big_kib - small_kib) / 1024
    measured = (f"{small_kib / 1024:.0f} MiB → {big_kib / 1024:.0f} MiB (+{growth:.1f} MiB); "
                f"10^9 trials in {big_s:.1f} s")
    return label, measured, "growth < 10 MiB", growth < 10


def _cli_missing() -> bool:
    if not os.access(BALANCE, os.X_OK):
        return True
    probe = subprocess.run([sys.executable, "-c", "import reports.cli"], capture_output=True, cwd=REPO)
    return probe.returncode != 0


def bench_cli() -> Row:
    """Row 5: wall time of ``balance table drakerys action`` with a warm numba cache."""
    log("5/10 balance table drakerys action")
    label = "`balance table drakerys action`, warm numba cache (best, median of 3)"
    target = "< 2 s"
    if _cli_missing():
        return label, "n/a (balance command missing)", target, None
    command = [str(BALANCE), "table", "drakerys", "action"]
    warm = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=REPO)
    if warm.returncode != 0:
        return label, f"n/a (balance exited with code {warm.returncode})", target, None
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=REPO, check=True)
        times.append(time.perf_counter() - start)
    best, median = min(times), statistics.median(times)
    return label, f"best {best:.2f} s; median {median:.2f} s", target, median < 2


FIGHT_TRIALS = 4 * 10**6
NAIVE_FIGHTS = 3000


def bench_fight() -> Row:
    """Row 6: a full Fight (12 Crows charge 6 Gold Keepers, morale included), one thread, against the
    naive twin of tests/naive_fight.py."""
    log("6/10 full fight vs naive twin")
    sys.path.insert(0, str(REPO / "tests"))
    from naive_fight import naive_fight

    from rulesets.drakerys import catalog, combat
    from rulesets.drakerys.fight import Combatant

    units = catalog.load()
    crows, keepers = Combatant(units.unit("crows"), 12), Combatant(units.unit("gold-keepers"), 6)
    combat.simulate_fight(crows, keepers, charge=True, trials=1000, seed=1, threads=1)
    rng = np.random.default_rng(1)

    def naive() -> None:
        for _ in range(NAIVE_FIGHTS):
            naive_fight(rng, crows, keepers, charge=True)

    (kernel_s, _), (naive_s, _) = best_times([
        lambda: combat.simulate_fight(crows, keepers, charge=True, trials=FIGHT_TRIALS, seed=1, threads=1),
        naive,
    ])
    kernel_rate, naive_rate = FIGHT_TRIALS / kernel_s, NAIVE_FIGHTS / naive_s
    ratio = kernel_rate / naive_rate
    measured = (f"kernel {kernel_rate / 1e6:.2f} M fights/s; naive twin {naive_rate / 1e3:.1f} k fights/s; "
                f"ratio {ratio:.0f}")
    met = kernel_rate >= 1e6 and ratio >= 200
    return ("Full Fight with morale, 12 Crows charge 6 Gold Keepers, 1 thread (kernel vs naive twin)",
            measured, "≥ 1 M/s and ≥ 200×", met)


def _timed_cli(args: Sequence[str]) -> float | str:
    """Wall time of `balance ARGS` writing into a temporary folder (never a shared path), or why it failed."""
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        start = time.perf_counter()
        done = subprocess.run([str(BALANCE), *args, "--format", "csv",
                               "--output", str(Path(folder) / "out.csv")],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=REPO)
        wall = time.perf_counter() - start
    if done.returncode != 0:
        return f"n/a (balance exited with code {done.returncode})"
    return wall


def _warm() -> bool:
    """Compile (or load from numba's cache) the duel kernels before timing a command."""
    warm = subprocess.run([str(BALANCE), "duel", "drakerys", "crows", "warriors", "--trials", "1000"],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=REPO)
    return warm.returncode == 0


def _cli_row(step: str, label: str, args: Sequence[str], limit_s: float) -> Row:
    """A row timing `balance ARGS` (warm numba cache) against a wall-time limit."""
    log(f"{step} balance {' '.join(args)}")
    target = f"< {limit_s:g} s"
    if _cli_missing() or not _warm():
        return label, "n/a (balance command missing or failing)", target, None
    wall = _timed_cli(args)
    if isinstance(wall, str):
        return label, wall, target, None
    return label, f"{wall:.1f} s", target, wall < limit_s


def bench_efficiency() -> Row:
    """Row 7: the whole efficiency report, every engagement's win probability to ±0.01 (95%), warm cache."""
    label = ("`balance efficiency drakerys` (34 entries, all 1,122 engagements: both roles, each to ±0.01 "
             "at 95%), 2 threads, warm numba cache")
    return _cli_row("7/10", label, ["efficiency", "drakerys"], 60)


def bench_whatif() -> Row:
    """Row 8: a what-if of one stat: every engagement of the Crows (3 sizes), baseline and variant."""
    label = ("`balance whatif drakerys --set crows.combat=4` (the 192 engagements of the Crows, baseline and "
             "variant on the same dice), warm")
    return _cli_row("8/10", label, ["whatif", "drakerys", "--set", "crows.combat=4"], 10)


def bench_sweep() -> Row:
    """Row 9: a 10-point cost sweep of one unit against the field."""
    label = ("`balance sweep drakerys --cost crows=60..240/20` (the field once, then 10 cost points "
             "re-scored), warm")
    return _cli_row("9/10", label, ["sweep", "drakerys", "--cost", "crows=60..240/20"], 30)


def bench_metagame() -> Row:
    """Row 10: solving the meta-game of 34 entries (maximum-entropy Nash equilibrium), median of 20."""
    log("10/10 meta-game solve, 34 entries")
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
    return ("Meta-game solve, 34 entries (random antisymmetric payoff; LP + maximum entropy), median of 20",
            f"{1000 * median:.1f} ms", "< 1 s", median < 1)


def load_average() -> str:
    """The 1-minute load average: other work on the machine during the run skews every figure."""
    return f"{os.getloadavg()[0]:.2f}" if hasattr(os, "getloadavg") else "n/a"


def machine_line(load_before: str, load_after: str) -> str:
    today = datetime.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z")
    return (f"Measured {today} on {cpu_model()}, {usable_cores()} cores, Python {platform.python_version()}, "
            f"numpy {np.__version__}, numba {nb.__version__}; "
            f"load average {load_before} before, {load_after} after.")


def main() -> None:
    load_before = load_average()
    rows = [bench_per_die(), bench_exact_table(), bench_threads(), bench_memory(), bench_cli(), bench_fight(),
            bench_efficiency(), bench_whatif(), bench_sweep(), bench_metagame()]
    print("| benchmark | measured | target | met |")
    print("|---|---|---|---|")
    for label, measured, target, met in rows:
        print(f"| {label} | {measured} | {target} | {yes_no(met)} |")
    print()
    print(machine_line(load_before, load_average()))


if __name__ == "__main__":
    main()
