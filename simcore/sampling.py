"""Draw from a precomputed PMF inside a kernel with one 64-bit random word: an inverse CDF held as
integers, searched from a guide table (Chen & Asau 1974, "indexed search").

A table keeps only the outcomes with positive probability, in increasing order, and for each the last
64-bit word that draws it: ``cdf[i] = round(F(i) * 2**64) - 1``, F the cumulative probability. A word
draws the first outcome whose ``cdf`` entry is at least the word. The guide table has ``2**k`` buckets
(``2**k`` at least the number of outcomes): bucket b, the word's top ``k`` bits, holds the first outcome
that a word of that bucket can draw, so a draw looks at the guide once and then, on average, at fewer than
two CDF entries. Every outcome gets its probability to within ``2**-64`` of the float64 cumulative sum
(about ``1e-16``); nothing is rejected and no floating point is used at draw time.

An inverse CDF draws with the quantile coupling: the same word gives outcomes in the same order in two
tables (a roll at threshold 6 and at 7), so two variants of a simulation fed the same words stay as close
as their distributions allow (common random numbers). An alias table (Walker/Vose) draws in constant time
too but scrambles the order, and measured weaker pairing in paired what-ifs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numba as nb
import numpy as np

from simcore.config import JIT, TRIAL_JIT
from simcore.rng import chunk_stream, next_u64

_U64 = 64


def _bits_for(m: int) -> int:
    """Smallest k >= 1 with 2**k >= m."""
    return max(1, (m - 1).bit_length())


def guide_table(pmf: np.ndarray) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
    """The table of a 1-D PMF (finite, non-negative, positive total; normalised here): (k, cdf uint64[m],
    values int32[m], guide int32[2**k]), m its outcomes of positive probability, ``values`` their indices
    in ``pmf``.

    Raises:
        ValueError: a PMF with a negative, infinite or NaN entry, or no mass.
    """
    p = np.asarray(pmf, dtype=np.float64).ravel()
    if p.size == 0 or not np.isfinite(p).all() or np.any(p < 0) or p.sum() <= 0:
        raise ValueError("a PMF needs finite, non-negative entries with a positive total")
    values = np.flatnonzero(p)
    cum = np.cumsum(p[values] / p.sum())
    # the last word of each outcome, exactly (Python integers: 2**64 does not fit a uint64)
    ends = [min(1 << _U64, round(float(x) * 2.0**_U64)) for x in cum]
    ends[-1] = 1 << _U64
    cdf = np.array([max(e, 1) - 1 for e in np.maximum.accumulate(np.array(ends, dtype=object))],
                   dtype=np.uint64)
    k = _bits_for(values.size)
    starts = np.arange(1 << k, dtype=np.uint64) << np.uint64(_U64 - k)
    guide = np.searchsorted(cdf, starts, side="left").astype(np.int32)
    return k, cdf, values.astype(np.int32), guide


def joint_table(pmf2: np.ndarray) -> tuple[int, tuple[int, np.ndarray, np.ndarray, np.ndarray]]:
    """The table of a joint PMF ``[a, b]`` (say successes and criticals) whose outcome ``index`` stands
    for ``a = index >> w`` and ``b = index & (2**w - 1)``: (w, :func:`guide_table` of the flattened PMF)."""
    w = max(0, (pmf2.shape[1] - 1).bit_length())
    flat = np.zeros((pmf2.shape[0], 1 << w))
    flat[:, :pmf2.shape[1]] = pmf2
    return w, guide_table(flat.ravel())


class TablePack:
    """The stage tables one run needs, packed in one set of arrays (cdf, values, guide) that a kernel takes
    whole: :meth:`place` returns where a table sits, (start, guide start, k, w), for
    :func:`guide_pick`; a key placed twice is stored once."""

    def __init__(self) -> None:
        self._parts: tuple[list, list, list] = ([], [], [])
        self._used = self._guide_used = 0
        self._placed: dict = {}
        self._blocks: dict = {}

    def place(self, key, w: int, table: tuple[int, np.ndarray, np.ndarray, np.ndarray]) -> tuple[int, ...]:
        if key not in self._placed:
            k, cdf, values, guide = table
            self._placed[key] = (self._used, self._guide_used, k, w)
            for part, a in zip(self._parts, (cdf, values, guide), strict=True):
                part.append(a)
            self._used += cdf.size
            self._guide_used += guide.size
        return self._placed[key]

    def place_block(self, key, block: TableBlock, index=...) -> np.ndarray:
        """``block.at[index]`` where the block's tables sit in this pack (the block is stored once per
        key)."""
        if key not in self._blocks:
            self._blocks[key] = (self._used, self._guide_used)
            for part, a in zip(self._parts, (block.cdf, block.values, block.guide), strict=True):
                part.append(a)
            self._used += block.cdf.size
            self._guide_used += block.guide.size
        shift = np.zeros(block.at.shape[-1], np.int64)
        shift[:2] = self._blocks[key]
        return block.at[index] + block.real[index][..., None] * shift

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(cdf, values, guide) of every table placed."""
        return tuple(np.concatenate(part) for part in self._parts)  # type: ignore[return-value]


@dataclass(frozen=True, eq=False)
class TableBlock:
    """The tables of a grid of stages packed together once, for runs that meet the same grids again and
    again (a field's units): ``cdf``, ``values``, ``guide`` as :meth:`TablePack.arrays`, and ``at``
    int64[*grid, 4], each cell's (start, guide start, k, w) in them; zeros where the cell draws nothing
    (``real`` False). :meth:`TablePack.place_block` puts the block in a run's pack whole, a few array
    copies instead of a placement per table."""

    cdf: np.ndarray
    values: np.ndarray
    guide: np.ndarray
    at: np.ndarray
    real: np.ndarray


def table_block(distinct: Sequence[tuple], grid: np.ndarray) -> TableBlock:
    """The block of the tables ``distinct`` (each ``(key, w, table)`` as :meth:`TablePack.place` takes
    them), cell c of ``grid`` drawing from ``distinct[grid[c]]`` (-1: no table)."""
    pack = TablePack()
    at = np.array([pack.place(*t) for t in distinct] + [(0, 0, 0, 0)], np.int64).reshape(-1, 4)[grid]
    if distinct:
        cdf, values, guide = pack.arrays()
    else:
        cdf, values, guide = np.zeros(0, np.uint64), np.zeros(0, np.int32), np.zeros(0, np.int32)
    block = TableBlock(cdf, values, guide, at, grid >= 0)
    for a in (block.cdf, block.values, block.guide, block.at, block.real):
        a.flags.writeable = False  # shared by every run that places it
    return block


def table_probabilities(cdf: np.ndarray, values: np.ndarray, size: int) -> np.ndarray:
    """The exact distribution a table draws (for tests), over outcomes ``0..size-1``."""
    ends = np.array([int(c) + 1 for c in cdf], dtype=object)
    widths = np.diff(np.concatenate([[0], ends]))
    out = np.zeros(size)
    out[values] = [w / 2.0**_U64 for w in widths]
    return out


@nb.njit(**TRIAL_JIT)
def guide_pick(word, cdf, values, guide, at, guide_at, k):
    """The outcome one 64-bit ``word`` draws from the table whose CDF and values start at ``at`` and whose
    guide starts at ``guide_at`` (see :func:`guide_table`)."""
    i = at + guide[guide_at + np.int64(word >> np.uint64(_U64 - k))]
    while word > cdf[i]:
        i += 1
    return np.int64(values[i])


@nb.njit(**JIT)
def tabled_chunks(cdf, values, guide, k, seed, first_chunk, total_trials, chunk_trials, out):
    """One outcome of a table (see :func:`guide_table`) per trial, one 64-bit word each, counted by
    outcome: simcore.runner's histogram contract, ``out`` int64[n_chunks, outcomes]."""
    for i in range(out.shape[0]):
        state, trials = chunk_stream(seed, first_chunk + i, total_trials, chunk_trials)
        for _ in range(trials):
            out[i, guide_pick(next_u64(state), cdf, values, guide, 0, 0, k)] += 1


def tabled_args(pmf: np.ndarray) -> tuple:
    """The leading arguments of :func:`tabled_chunks` for a PMF of any shape (its outcomes numbered in C
    order: reshape the counts to ``pmf.shape``)."""
    k, cdf, values, guide = guide_table(pmf)
    return cdf, values, guide, np.int64(k)


def fold(counts: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """``counts`` (a joint histogram) placed in an array of ``shape``, every count beyond an axis's end
    kept in that axis's last index."""
    out = np.zeros(shape, np.int64)
    index = np.indices(counts.shape).reshape(counts.ndim, -1)
    clipped = tuple(np.minimum(ix, n - 1) for ix, n in zip(index, shape, strict=True))
    np.add.at(out, clipped, counts.ravel())
    return out
