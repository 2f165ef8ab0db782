"""What the top face of a die does in a success roll: the ``top_mode`` shared by the njit dice
(:mod:`simcore.dice`), the exact distributions (:mod:`simcore.exact`) and the rulesets.

A plain module, free of numba, so that code computing exact distributions (and the command line building
its options) can name a mode without loading the compiler.

* ``TOP_EXPLODE``: a success that adds one extra die to the roll (a critical).
* ``TOP_SUCCESS``: a plain success, no extra die.
* ``TOP_FAIL``: a failure.
"""

from __future__ import annotations

TOP_EXPLODE = 0
TOP_SUCCESS = 1
TOP_FAIL = 2

__all__ = ["TOP_EXPLODE", "TOP_FAIL", "TOP_SUCCESS"]
