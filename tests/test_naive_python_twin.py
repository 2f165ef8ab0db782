"""The naive twins driven by the standard ``random`` module (what benchmarks/run.py times as the plain-Python
anchor of the Fight row) against the same twins driven by a NumPy Generator (what the kernel tests use).

Every die of the twins goes through ``naive._d10``: a ``random.Random`` rolls ``int(random() * 10) + 1``.
The tests count, exactly, how many of the 2**53 values of ``random()`` give each face, and compare Fights
played on the two generators with a chi-square two-sample test.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from naive import _d10
from naive_fight import naive_fight
from test_drakerys_fight import FIGHTS, assert_same, naive_rows, stable_seed

#: ``random.random()`` returns k / 2**53 for k uniform in [0, 2**53).
RANDOM_VALUES = 1 << 53
TRIALS = 4000
ROWS = ["kills_b", "kills_a", "result", "inflicted_a", "inflicted_b"]


class _Fixed(random.Random):
    """A ``random.Random`` whose ``random()`` returns k / 2**53 for a chosen k."""

    def __init__(self, k: int) -> None:
        super().__init__(0)
        self.k = k

    def random(self) -> float:
        return self.k / RANDOM_VALUES


def _face(k: int) -> int:
    return _d10(_Fixed(k))


def _first_value_showing(face: int) -> int:
    """The least k whose value k / 2**53 rolls ``face`` or more (faces grow with k: bisect)."""
    low, high = 0, RANDOM_VALUES
    while low < high:
        middle = (low + high) // 2
        if _face(middle) >= face:
            high = middle
        else:
            low = middle + 1
    return low


def test_random_d10_gives_every_face_one_tenth_of_the_values_of_random():
    assert _face(0) == 1 and _face(RANDOM_VALUES - 1) == 10
    starts = [_first_value_showing(face) for face in range(1, 11)] + [RANDOM_VALUES]
    counts = np.diff(starts)
    assert starts[0] == 0
    # each face takes 2**53 / 10 values within 1.25: its probability is 1/10 within 1.4e-16
    assert np.all(np.abs(counts - RANDOM_VALUES / 10) <= 1.25), counts


def test_numpy_d10_unchanged():
    ours, reference = np.random.default_rng(5), np.random.default_rng(5)
    assert [_d10(ours) for _ in range(1000)] == [int(reference.integers(1, 11)) for _ in range(1000)]


@pytest.mark.parametrize("name", ["crows charge gold keepers", "blood banes stressed vs spearmen",
                                  "brute charges horror", "salik (martial arts, hero) vs crushers"])
def test_fight_twin_on_random_matches_twin_on_numpy(name):
    a, b, charge = FIGHTS[name]
    seed = stable_seed(f"python twin, {name}")
    rng_numpy = np.random.default_rng(seed)
    on_numpy = [naive_fight(rng_numpy, a, b, charge=charge) for _ in range(TRIALS)]
    rng_random = random.Random(seed)
    on_random = [naive_fight(rng_random, a, b, charge=charge) for _ in range(TRIALS)]
    width = 1 + max(o[k] for o in on_numpy + on_random for k in ROWS)
    assert_same(naive_rows(on_random, ROWS, width), naive_rows(on_numpy, ROWS, width), ROWS)
