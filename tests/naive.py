"""Slow, obvious twins of the Monte Carlo kernels, written straight from the rulebook text.

Every kernel of the project has a twin here (../shared/ENGINEERING.md §2). A twin is plain Python driven
by a ``numpy.random.Generator``: no numba, no shared helpers from ``simcore``, and where it can, a different
order of work from the kernel, so that a mistake in one is not copied into the other. The tests run both
with the same inputs and compare their distributions, and compare both to the exact PMFs.

Contents, by game:

* Drakerys (seed 002): :func:`naive_threshold` (the printed ACTION TABLE), :func:`naive_action_roll` and
  :func:`naive_action_histogram` (twin of ``simcore.dice.success_roll`` as driven by
  ``rulesets.drakerys.kernels._action_roll_chunks``).
"""

from __future__ import annotations

import numpy as np

# ---------------------------------------------------------------------------------------------------
# Drakerys (seed 002)
# ---------------------------------------------------------------------------------------------------

#: ACTION TABLE as printed ("Action Value - Opposition Value" -> threshold). The first and last columns
#: read "-4 or less" and "4 or more".
DRAKERYS_ACTION_TABLE = {-4: 10, -3: 9, -2: 8, -1: 7, 0: 6, 1: 5, 2: 4, 3: 3, 4: 2}


def naive_threshold(action: int, opposition: int) -> int:
    """Threshold read off the printed Action Table for ``action - opposition``."""
    difference = action - opposition
    if difference <= -4:
        return DRAKERYS_ACTION_TABLE[-4]  # the "-4 or less" column
    if difference >= 4:
        return DRAKERYS_ACTION_TABLE[4]  # the "4 or more" column
    return DRAKERYS_ACTION_TABLE[difference]


def _d10(rng: np.random.Generator) -> int:
    return int(rng.integers(1, 11))


def naive_action_roll(rng: np.random.Generator, dice: int, threshold: int, heroic: int = 0,
                      swashbuckler: bool = False, rerolls: int = 0, crits: str = "normal",
                      crit_chain: bool = True) -> tuple[int, int]:
    """One Action-Table roll, done the way a player does it at the table.

    1. Roll every die of the roll at once: ``dice`` plus the ``heroic`` dice of Heroic Action.
    2. Look at the failures and reroll them (each die once, the new result stands): all of them with
       Swashbuckler, otherwise up to ``rerolls`` of them. Which failures are picked does not matter, the
       dice being alike, so the first ones are taken.
    3. Count successes (a die >= threshold). With ``crits="normal"`` every 10 is a Critical Success that
       earns one extra d10: put one token per 10 on a pile, then roll the extra dice one at a time, taking a
       token each time. With ``crit_chain`` an extra 10 is critical too and puts another token on the pile;
       without it an extra 10 is a plain success. Extra dice are never rerolled.
       ``crits="parry"``: a 10 is a plain success, no extra die. ``crits="expert-parry"``: a 10 is a
       failure (and, as a failure, may be rerolled in step 2).

    Returns:
        (successes, criticals): criticals counts the 10s that earned an extra die.
    """
    if crits not in ("normal", "parry", "expert-parry"):
        raise ValueError(f"unknown crits mode {crits!r}")

    def succeeds(face: int) -> bool:
        if face == 10 and crits == "expert-parry":
            return False
        return face >= threshold

    # 1. the dice first rolled
    faces = [_d10(rng) for _ in range(dice + heroic)]

    # 2. rerolls, on first-rolled dice only
    failed = [i for i, face in enumerate(faces) if not succeeds(face)]
    chosen = failed if swashbuckler else failed[:rerolls]
    for i in chosen:
        faces[i] = _d10(rng)

    # 3. successes and criticals
    successes = sum(1 for face in faces if succeeds(face))
    criticals = 0
    pile = 0
    if crits == "normal":
        criticals = sum(1 for face in faces if face == 10)
        pile = criticals
    while pile > 0:
        pile -= 1
        extra = _d10(rng)
        if extra >= threshold:
            successes += 1
        if extra == 10 and crit_chain:
            criticals += 1
            pile += 1
    return successes, criticals


def naive_action_histogram(seed: int, trials: int, **roll) -> np.ndarray:
    """Joint counts ``h[successes, criticals]`` of ``trials`` calls of :func:`naive_action_roll`.

    ``roll`` holds the keyword arguments of :func:`naive_action_roll` after ``rng``.
    """
    rng = np.random.default_rng(seed)
    outcomes = [naive_action_roll(rng, **roll) for _ in range(trials)]
    counts = np.zeros((max(s for s, _ in outcomes) + 1, max(c for _, c in outcomes) + 1), dtype=np.int64)
    for s, c in outcomes:
        counts[s, c] += 1
    return counts
