"""Exact PMFs of success rolls that also count how many dice showed some marked faces.

Some rules read the faces of a roll besides its successes (a "1" that backfires, a double that
triggers...). :func:`success_roll_marked_joint` gives ``p[successes, marked]`` for the rolls of
:func:`simcore.exact.success_roll_joint` without rerolls, built from one die's joint PMF the same way.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

import numpy as np

from simcore.config import EXACT_TAIL_TOLERANCE
from simcore.exact import convolve_power, trim
from simcore.faces import TOP_EXPLODE, TOP_FAIL, TOP_SUCCESS


def _face_outcomes(sides: int, threshold: int, marked: frozenset[int], top_success: bool
                   ) -> list[tuple[int, int]]:
    """(success, marked) of each face 1..sides; the top face succeeds when ``top_success``."""
    out = []
    for face in range(1, sides + 1):
        success = int(face >= threshold) if face < sides else int(top_success)
        out.append((success, int(face in marked)))
    return out


def _extra_die_joint(sides, threshold, marked, chain, mark_extra, tol):
    """Joint (successes, marked) of one extra die from a critical, with the extra dice it brings."""
    faces = _face_outcomes(sides, threshold, marked if mark_extra else frozenset(), True)
    top = 1.0 / sides
    if not chain:  # the extra die's top face is a plain success
        p = np.zeros((2, 2))
        for s, m in faces:
            p[s, m] += top
        return p
    depth = max(1, math.ceil(math.log(tol) / math.log(top)))
    _, m_top = faces[-1]
    # j top faces in a row (each a success that brings another die), then a face below the top
    p = np.zeros((depth + 2, depth * m_top + 2))
    for j in range(depth + 1):
        for s, m in faces[:-1]:
            p[j + s, j * m_top + m] += top ** (j + 1)
    return p


def single_die_marked_joint(sides: int, threshold: int, marked: Iterable[int], top_mode: int = TOP_EXPLODE,
                            chain: bool = True, mark_extra: bool = True,
                            tol: float = EXACT_TAIL_TOLERANCE) -> np.ndarray:
    """Joint PMF ``p[successes, marked]`` of one die first rolled, with its explosion chain.

    Args:
        marked: the faces counted (any of ``1..sides``).
        top_mode, chain: as :func:`simcore.dice.success_roll`.
        mark_extra: whether marked faces on extra dice (from criticals) are counted too.
    """
    if not 1 <= threshold <= sides:
        raise ValueError(f"threshold {threshold} is outside 1..{sides}")
    if top_mode not in (TOP_EXPLODE, TOP_SUCCESS, TOP_FAIL):
        raise ValueError(f"unknown top_mode {top_mode}")
    marks = frozenset(int(f) for f in marked)
    if any(not 1 <= f <= sides for f in marks):
        raise ValueError(f"marked faces {sorted(marks)} are not all within 1..{sides}")
    faces = _face_outcomes(sides, threshold, marks, top_mode != TOP_FAIL)
    top = 1.0 / sides
    if top_mode != TOP_EXPLODE:
        p = np.zeros((2, 2))
        for s, m in faces:
            p[s, m] += top
        return p
    extra = _extra_die_joint(sides, threshold, marks, chain, mark_extra, tol)
    _, m_top = faces[-1]
    p = np.zeros((extra.shape[0] + 1, extra.shape[1] + 1))
    for s, m in faces[:-1]:
        p[s, m] += top
    p[1:, m_top:m_top + extra.shape[1]] += top * extra
    return trim(p, tol)


def success_roll_marked_joint(n: int, sides: int, threshold: int, marked: Iterable[int],
                              top_mode: int = TOP_EXPLODE, chain: bool = True, mark_extra: bool = True,
                              tol: float = EXACT_TAIL_TOLERANCE) -> np.ndarray:
    """Exact joint PMF ``p[successes, marked]`` of ``n`` dice rolled against ``threshold`` (no rerolls).

    The successes are those of :func:`simcore.exact.success_roll_joint`; ``marked`` counts the dice whose
    face is one of ``marked`` (extra dice from criticals included when ``mark_extra``).
    """
    if n < 0:
        raise ValueError(f"cannot roll {n} dice")
    one = single_die_marked_joint(sides, threshold, marked, top_mode, chain, mark_extra, tol)
    return convolve_power(one, n, tol)


__all__ = ["single_die_marked_joint", "success_roll_marked_joint"]
