"""njit dice primitives. Every function takes a stream ``state`` (see :mod:`simcore.rng`) first.

Success rolls share one vocabulary: a die succeeds when its face is at least ``threshold``; the top face
(``sides``) is handled by ``top_mode``:

* ``TOP_EXPLODE``: a success that adds one extra die to the roll (a critical). With ``chain`` the extra
  dice may explode again without limit; without it an extra die's top face is a plain success.
* ``TOP_SUCCESS``: a plain success, no extra die.
* ``TOP_FAIL``: a failure.

(The modes are defined in :mod:`simcore.faces`, which exact code imports without loading numba.)

Rerolls touch only the dice first rolled (never extra dice), each at most once: every failed die when
``reroll_failures`` is set, otherwise up to ``reroll_limit`` failed dice.
"""

from __future__ import annotations

import numba as nb

from simcore.config import TRIAL_JIT
from simcore.faces import TOP_EXPLODE as TOP_EXPLODE  # the three re-exported: simcore.faces has no numba
from simcore.faces import TOP_FAIL as TOP_FAIL
from simcore.faces import TOP_SUCCESS as TOP_SUCCESS
from simcore.rng import roll_die, uniform_int


@nb.njit(**TRIAL_JIT)
def roll_face(state, faces):
    """One roll of a die whose faces are the entries of ``faces`` (any length, any values)."""
    return faces[uniform_int(state, faces.shape[0])]


@nb.njit(**TRIAL_JIT)
def count_at_least(state, n, sides, threshold):
    """Number of ``n`` dice of ``sides`` faces showing at least ``threshold``."""
    hits = 0
    for _ in range(n):
        if roll_die(state, sides) >= threshold:
            hits += 1
    return hits


@nb.njit(**TRIAL_JIT)
def _fails(face, sides, threshold, top_mode):
    """Whether ``face`` is a failure: below the threshold (the top face excepted), or the top face when it
    fails."""
    if face == sides:
        return top_mode == TOP_FAIL
    return face < threshold


@nb.njit(**TRIAL_JIT)
def success_roll(state, n, sides, threshold, top_mode, chain, reroll_failures, reroll_limit):
    """Roll ``n`` dice against ``threshold`` with explosions and rerolls (see the module docstring), die
    by die. Allocates nothing, so trial code compiled without reference counting may call it.

    Returns:
        (successes, criticals, dice_rolled): criticals counts the top faces that exploded
        (with ``chain`` false, an extra die's top face is a plain success and is not counted).
    """
    successes = 0
    criticals = 0
    rolled = n
    budget = n if reroll_failures else reroll_limit
    for _ in range(n):
        face = roll_die(state, sides)
        fails = _fails(face, sides, threshold, top_mode)
        if fails and budget > 0:
            budget -= 1
            rolled += 1
            face = roll_die(state, sides)
            fails = _fails(face, sides, threshold, top_mode)
        if not fails:
            successes += 1
            if face == sides and top_mode == TOP_EXPLODE:
                criticals += 1
    extra = criticals
    while extra > 0:
        extra -= 1
        rolled += 1
        face = roll_die(state, sides)
        if face == sides:
            successes += 1
            if chain:
                criticals += 1
                extra += 1
        elif face >= threshold:
            successes += 1
    return successes, criticals, rolled


@nb.njit(**TRIAL_JIT)
def exploding_sum(state, sides, depth):
    """Sum of one die that is rolled again while it shows its top face, at most ``depth`` extra rolls
    (``depth`` < 0: no limit)."""
    total = 0
    rolls = 0
    while True:
        face = roll_die(state, sides)
        total += face
        if face != sides or rolls == depth:
            return total
        rolls += 1


@nb.njit(**TRIAL_JIT)
def roll_with_reroll(state, sides, reroll_below):
    """One die rerolled once if it shows less than ``reroll_below``; the second result stands."""
    face = roll_die(state, sides)
    if face < reroll_below:
        face = roll_die(state, sides)
    return face


@nb.njit(**TRIAL_JIT)
def keep_highest_sum(state, n, sides, keep, counts):
    """Roll ``n`` dice, return the sum of the highest ``keep``. ``counts`` is an int64 scratch array of
    length ``sides + 1`` (a counting sort, so no allocation per roll)."""
    counts[:] = 0
    for _ in range(n):
        counts[roll_die(state, sides)] += 1
    total = 0
    left = keep
    face = sides
    while left > 0 and face > 0:
        take = min(left, counts[face])
        total += take * face
        left -= take
        face -= 1
    return total

