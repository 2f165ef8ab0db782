"""Slow, obvious twins of the Monte Carlo kernels, written straight from the rulebook text.

Every kernel of the project has a twin here (../shared/ENGINEERING.md §2). A twin is plain Python driven
by a ``numpy.random.Generator`` (or, for the benchmarks' plain-Python timing, a ``random.Random``: see
:func:`_d10`): no numba, no shared helpers from ``simcore``, and where it can, a different order of work
from the kernel, so that a mistake in one is not copied into the other. The tests run both
with the same inputs and compare their distributions, and compare both to the exact PMFs.

Contents, by game:

* Drakerys (seed 002): :func:`naive_threshold` (the printed ACTION TABLE), :func:`naive_action_roll` and
  :func:`naive_action_histogram` (twin of ``simcore.dice.success_roll``, whose distribution
  ``rulesets.drakerys.simulate_action_roll`` draws from whole).
"""

from __future__ import annotations

import random

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


def _d10(rng: np.random.Generator | random.Random) -> int:
    """One d10 from either generator; every die of every twin is rolled here.

    A NumPy Generator rolls ``integers(1, 11)``. A ``random.Random`` rolls ``int(random() * 10) + 1``, the
    fastest fair form in plain Python (half the time of ``randrange(1, 11)`` on Python 3.11): ``random()``
    is one of 2**53 equally likely multiples of 2**-53, and each face takes 2**53 / 10 of them within 1.25
    (tests/test_naive_python_twin.py counts them), so every face has probability 1/10 within 1.4e-16.
    """
    if isinstance(rng, random.Random):
        return int(rng.random() * 10) + 1
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


# ---------------------------------------------------------------------------------------------------
# --- Drakerys magic ---
# (seed 002, "MAGIC" and "ELEMENTAL INVOCATION"): twins of rulesets.drakerys.magic.simulate_spell
# (naive_spell_roll, naive_spell_histogram) and of the exact answers of rulesets.drakerys.magic
# (naive_spell_opposition, naive_invocation, naive_maelstrom_element, naive_cataclysm_injuries).
# ---------------------------------------------------------------------------------------------------

def naive_spell_opposition(distance_cm: float, sources: int) -> int:
    """STEP 4: "For every 10 cm-share (even incomplete) between the Wizard and the furthest selected
    Source: +1"; "For every extra Source after the first one: +1". Walks the tape 10 cm at a time."""
    shares = 0
    covered = 0.0
    while covered < distance_cm:
        shares += 1
        covered += 10
    return shares + (sources - 1)


def naive_spell_roll(rng: np.random.Generator, dice: int, threshold: int, crit_chain: bool = True,
                     ones_on_extra: bool = True) -> tuple[int, int]:
    """One Spell roll at the table: roll the 1 + Mana (+ heroic) dice, count the successes and the 1s,
    then roll one extra d10 per 10 from a pile of tokens (a 10 on an extra die adds a token with
    ``crit_chain``; its 1s are counted with ``ones_on_extra``).

    Returns:
        (successes, natural 1s counted for the Cataclysmic Effect).
    """
    faces = [_d10(rng) for _ in range(dice)]
    successes = sum(1 for face in faces if face >= threshold)
    ones = faces.count(1)
    pile = faces.count(10)
    while pile:
        pile -= 1
        extra = _d10(rng)
        if extra >= threshold:
            successes += 1
        if extra == 10 and crit_chain:
            pile += 1
        if extra == 1 and ones_on_extra:
            ones += 1
    return successes, ones


def naive_spell_histogram(seed: int, trials: int, **roll) -> np.ndarray:
    """Joint counts ``h[successes, ones]`` of ``trials`` calls of :func:`naive_spell_roll`."""
    rng = np.random.default_rng(seed)
    outcomes = [naive_spell_roll(rng, **roll) for _ in range(trials)]
    counts = np.zeros((max(s for s, _ in outcomes) + 1, max(o for _, o in outcomes) + 1), dtype=np.int64)
    for s, o in outcomes:
        counts[s, o] += 1
    return counts


def naive_invocation(rng: np.random.Generator, extra_dice: int = 0) -> bool:
    """INVOKING AN ELEMENTAL, step 3: "rolls 2D10s against a Threshold of 7+" plus the extra d10; "at least
    one success" invokes."""
    return any(_d10(rng) >= 7 for _ in range(2 + extra_dice))


#: "Invoking an Elemental" table of the player aid: "+1 TS" rows are None.
DRAKERYS_ELEMENT_TABLE = {1: None, 2: "Air", 3: "Air", 4: "Water", 5: "Water", 6: "Fire", 7: "Fire",
                          8: "Earth", 9: "Earth", 10: "player's choice"}


def naive_maelstrom_element(rng: np.random.Generator) -> tuple[str, int]:
    """The Maelstrom element table: "1: +1 TS. The player rolls another D10"; returns (element, extra TS)."""
    extra_ts = 0
    while True:
        outcome = DRAKERYS_ELEMENT_TABLE[_d10(rng)]
        if outcome is not None:
            return outcome, extra_ts
        extra_ts += 1


def naive_cataclysm_injuries(rng: np.random.Generator, resistance: int, crit_chain: bool = True) -> int:
    """Cataclysm 4+: "The Wizard's Unit suffers 2D10s Hits (Strength 3) as if it were a Shot": roll two d10
    and add them for the hits, then an injury roll of that many dice, Strength 3 against ``resistance``."""
    hits = _d10(rng) + _d10(rng)
    injuries, _ = naive_action_roll(rng, hits, naive_threshold(3, resistance), crit_chain=crit_chain)
    return injuries
