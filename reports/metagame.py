"""The meta-game of a matchup matrix: what a sharp player would field, and how each entry fares against it.

The input is an antisymmetric payoff matrix ``A`` (``A[i, j] = -A[j, i]``, zero diagonal): ``A[i, j]`` is
what contestant i gains against contestant j. The symmetric two-player zero-sum game with payoff ``A`` is
solved by *Nash averaging* (Balduzzi, Tuyls, Pérolat & Graepel, "Re-evaluating evaluation", NeurIPS 2018):

* the mix ``p*`` is the **maximum-entropy** Nash equilibrium of the game;
* the Nash-averaged rating of entry i is ``(A p*)_i``, its payoff against that mix.

The value of an antisymmetric game is 0, so every rating is <= 0, and == 0 on the support of ``p*``.
Taking the maximum-entropy equilibrium (not any vertex an LP solver happens to return) makes the result
invariant to redundancy: adding an exact copy of an entry makes the copy and the original split its share,
and leaves every rating unchanged.

Algorithm (on ``M = A / max|A|``, so every tolerance below is relative to the largest payoff):

1. The game's value, from one LP solved by HiGHS (``scipy.optimize.linprog(method="highs")``): maximise
   v subject to ``(M^T p)_j >= v`` for all j, ``sum p = 1``, ``p >= 0``. It is 0 for antisymmetric M.
2. The support of the set of equilibria, from one more LP. For antisymmetric M the equilibria are
   ``E = {p in simplex : M p <= 0}``, and any two of them satisfy ``p^T M q = 0``. With the strict
   complementarity of linear programs (Goldman & Tucker, 1956) this splits the entries into exactly two
   kinds: those with a positive share in some equilibrium (the set S), and those that score strictly
   below 0 against some equilibrium. Every point of the relative interior of E has support exactly S and
   scores strictly below 0 on every entry outside S. The LP looks for such a point in the cone over E:
   variables ``q >= 0`` and ``t, s`` in ``[0, 1]``, with ``t <= q`` and ``M q + s <= 0``, maximising
   ``sum t + sum s``. Scaling q up, the optimum reaches n, with ``t_i = 1`` on S and ``s_i = 1`` off S,
   and entry i is put in S when ``t_i > s_i``: one LP certifies both sides of the split (n LPs, one
   maximising each share, would only certify one side, and cost n times as much). To keep the LP well
   scaled ``sum q`` is capped at 1e4; an entry whose share is below about 1e-4 in every equilibrium,
   or which falls short of 0 by less than about 1e-4 against every equilibrium, then gets a fractional
   ``t_i`` or ``s_i``, and the comparison still classifies it.
3. On S, the equilibria are the mixes with ``M[S, S] p = 0`` and ``sum p = 1`` (an affine set, found from
   the SVD of ``M[S, S]``) that also satisfy ``M[not S, S] p <= 0``. The LP point is projected onto the
   affine set, which polishes it to machine precision. If that set is a single point (the generic case:
   always so for a matrix of Monte Carlo estimates without exact copies), it is the answer. Otherwise
   the entropy, strictly concave, is maximised over the affine set by damped Newton steps from the LP
   point (the entropy's infinite slope at 0 keeps every share of S positive). If that maximum breaks an
   inequality ``M[not S, S] p <= 0`` (an entry outside S would then beat the mix), the inequalities are
   added by a log-barrier method (Newton steps again, from the same strictly feasible point), and the
   result is polished by solving the affine problem in which the inequalities found active are
   equalities. This is exact up to rounding; a general-purpose solver (SLSQP) left residuals of about
   1e-5 in the optimality conditions in trials.
4. The result is checked: tiny negatives clipped, shares renormalised, and ``max(M p) <= 1e-9``.
   Failing that (not seen in trials), the polished LP point, then the polished step-1 vertex, then the
   vertex itself is used. Everything is deterministic: HiGHS, the SVD and Newton's method have no
   random component.

Tolerances. The equilibrium set is the *exact* one, ``M p <= 0``, up to floating point: HiGHS
feasibility tolerances of 1e-10 for the value LP (its defaults, 1e-7, for the support LP, whose point
is polished afterwards), singular values of ``M[S, S]`` below 1e-9 of the largest count as zero, and
the final check allows ``max(M p) <= 1e-9``. The polytope is deliberately not widened to
``M p <= eps`` with an ``eps`` meant to absorb sampling noise: a widened polytope is full-dimensional,
so its maximum-entropy point would give every entry a positive share (of order eps over its shortfall)
and both the support and the shares would depend on the choice of ``eps`` rather than on the payoffs.
In a matrix of Monte Carlo estimates exact ties do not occur, so the equilibrium is (generically)
unique and the entropy step changes nothing; an entry entered twice is an exact tie only if both copies
are simulated with the same random streams, and otherwise the noise decides how the two split their
share. How much the shares move with the noise is a question for resampling (solve matrices rebuilt
from bootstrap resamples of the matchups), not for a tolerance here. ``tol`` in :func:`solve` only
bounds the accepted departure from antisymmetry.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

# scipy.optimize (HiGHS) and scipy.linalg are imported where they are used: together about 0.35 s of a
# process that has pandas and numba already, which a command without a meta-game should not pay and an
# efficiency report on several threads pays while its engagements run (load_solvers).

#: An entry is in the support when its share exceeds this.
SUPPORT_TOL = 1e-9
#: HiGHS primal and dual feasibility tolerances for the value LP (matrix scaled to max |entry| = 1).
_LP_TOL = 1e-10
#: Cap on the total weight of the cone point in the support LP (keeps that LP well scaled).
_CONE_CAP = 1e4
#: Singular values of M[S, S] at most this times the largest one count as zero.
_RANK_TOL = 1e-9
#: Largest accepted payoff of an entry against the final mix (scaled matrix).
_EQ_TOL = 1e-9
#: How much worse than the equilibrium an entry outside a hinted support must do for the hint to be kept.
_STRICT_TOL = 1e-7
_HIGHS_OPTIONS = {"primal_feasibility_tolerance": _LP_TOL, "dual_feasibility_tolerance": _LP_TOL}


@dataclass(frozen=True)
class MetaGame:
    """The solved meta-game of an antisymmetric payoff matrix.

    Attributes:
        labels: The entries' names, in the order of the matrix.
        shares: The maximum-entropy Nash equilibrium mix (float64, >= 0, sums to 1).
        nash_ratings: Each entry's payoff against that mix, ``A @ shares`` (``A`` symmetrised as
            ``(A - A.T) / 2``); <= 0 everywhere, 0 on the support, up to solver tolerance.
        value: The value of the game from the LP: 0 for an antisymmetric game, up to solver tolerance.
        support: Entries with ``shares > SUPPORT_TOL``.
    """

    labels: tuple[str, ...]
    shares: np.ndarray
    nash_ratings: np.ndarray
    value: float
    support: np.ndarray

    def table(self) -> pd.DataFrame:
        """One row per entry, in the order given.

        Returns:
            A DataFrame with columns ``label``, ``share``, ``nash_rating`` and ``in_support``.
        """
        return pd.DataFrame({"label": list(self.labels), "share": self.shares,
                             "nash_rating": self.nash_ratings, "in_support": self.support})


def solve(payoff: np.ndarray, labels: Sequence[str] | None = None, *, tol: float = 1e-9,
          support_hint: np.ndarray | Sequence[np.ndarray] | None = None) -> MetaGame:
    """Solve the symmetric zero-sum game of an antisymmetric payoff matrix by Nash averaging.

    Args:
        payoff: An n x n matrix with ``payoff[i, j] = -payoff[j, i]``: what entry i gains against j.
        labels: The entries' names (n unique strings); ``"0"``, ``"1"``, ... when omitted.
        tol: Largest accepted ``|A[i, j] + A[j, i]|``, relative to ``max(1, max|A|)``. The matrix is
            then symmetrised as ``(A - A.T) / 2``.
        support_hint: A support (a boolean mask) to try first, or several (rows of a 2-D mask) tried in
            order (e.g. nearby games' supports): one is kept only when it proves to hold the game's unique
            equilibrium (:func:`_unique_on`); when none does, the LPs run as without a hint. The result
            is the same either way.

    Returns:
        The maximum-entropy equilibrium mix, the entries' Nash-averaged ratings and the game's value.

    Raises:
        ValueError: If the matrix is empty, not square, has non-finite entries, or is not antisymmetric
            within ``tol``; or if the labels are not n unique names.
        RuntimeError: If the LP solver fails (not expected for a valid matrix).
    """
    a, names = _validate(payoff, labels, tol)
    n = a.shape[0]
    a = (a - a.T) / 2
    scale = float(np.abs(a).max())
    if scale == 0.0:  # every mix is an equilibrium: the uniform one has the largest entropy
        return _result(names, np.full(n, 1.0 / n), a, 0.0)
    m = a / scale
    for mask in _hints(support_hint):
        if (hint := _unique_on(m, mask)) is not None:
            return _result(names, hint, a, float((hint @ m).min()) * scale)
    value, vertex = _value_lp(m)
    try:
        inside, point = _support_lp(m)
    except RuntimeError:
        inside, point = vertex > 0.0, vertex
    candidates = (lambda: _max_entropy(m, inside, point), lambda: _polish(m, inside, point),
                  lambda: _polish(m, vertex > 0.0, vertex), lambda: vertex)
    for make in candidates:
        if (chosen := _checked(m, make())) is not None:
            return _result(names, chosen, a, value * scale)
    raise RuntimeError("metagame: no equilibrium passed the final check (numerical trouble in the solver)")


def _hints(support_hint: np.ndarray | Sequence[np.ndarray] | None) -> list[np.ndarray]:
    """The supports a hint names, as boolean masks: none, one mask, or several (rows of equal length)."""
    if support_hint is None:
        return []
    masks = np.asarray(support_hint, dtype=bool)
    return [masks] if masks.ndim == 1 else list(masks)


def _validate(payoff: np.ndarray, labels: Sequence[str] | None, tol: float) -> tuple[np.ndarray,
                                                                                     tuple[str, ...]]:
    a = np.array(payoff, dtype=np.float64)
    if a.ndim != 2 or a.shape[0] != a.shape[1] or a.shape[0] == 0:
        raise ValueError(f"payoff must be a non-empty square matrix, got shape {a.shape}")
    n = a.shape[0]
    bad = np.argwhere(~np.isfinite(a))
    if bad.size:
        i, j = (int(x) for x in bad[0])
        raise ValueError(f"payoff has {len(bad)} non-finite entries, the first at ({i}, {j}): {a[i, j]}")
    names = tuple(str(i) for i in range(n)) if labels is None else tuple(str(x) for x in labels)
    if len(names) != n:
        raise ValueError(f"got {len(names)} labels for a {n} x {n} payoff matrix")
    if len(set(names)) != n:
        dup = next(x for k, x in enumerate(names) if x in names[:k])
        raise ValueError(f"labels must be unique, {dup!r} appears more than once")
    off = np.abs(a + a.T)
    limit = tol * max(1.0, float(np.abs(a).max()))
    if off.max() > limit:
        i, j = (int(x) for x in np.unravel_index(np.argmax(off), off.shape))
        raise ValueError(f"payoff is not antisymmetric: largest violation at (i, j) = ({i}, {j}) "
                         f"[{names[i]!r} vs {names[j]!r}], A[i, j] + A[j, i] = {a[i, j] + a[j, i]:.6g} "
                         f"exceeds {limit:.3g}")
    return a, names


def _result(names: tuple[str, ...], p: np.ndarray, a: np.ndarray, value: float) -> MetaGame:
    shares = np.ascontiguousarray(p, dtype=np.float64)
    ratings = a @ shares
    support = shares > SUPPORT_TOL
    for arr in (shares, ratings, support):
        arr.setflags(write=False)
    return MetaGame(labels=names, shares=shares, nash_ratings=ratings, value=float(value), support=support)


def load_solvers() -> None:
    """Import what the meta-game solves with (scipy's HiGHS and linear algebra), so that its first use does
    not wait for the import: called while the engagements of a field run on other threads."""
    import scipy.linalg  # noqa: F401
    import scipy.optimize  # noqa: F401


def _linprog(c, a_ub, b_ub, a_eq=None, b_eq=None, bounds=None, tight=True):
    from scipy.optimize import linprog

    for options in (_HIGHS_OPTIONS, {}) if tight else ({},):  # defaults if tight tolerances trouble HiGHS
        res = linprog(c, A_ub=a_ub, b_ub=b_ub, A_eq=a_eq, b_eq=b_eq, bounds=bounds, method="highs",
                      options=options)
        if res.status == 0:
            return res.x
    raise RuntimeError(f"metagame: HiGHS failed: {res.message}")


def _value_lp(m: np.ndarray) -> tuple[float, np.ndarray]:
    """Maximise v s.t. (M^T p)_j >= v, sum p = 1, p >= 0: (v, an optimal vertex p)."""
    n = m.shape[0]
    c = np.zeros(n + 1)
    c[-1] = -1.0
    a_ub = np.hstack([-m.T, np.ones((n, 1))])
    a_eq = np.append(np.ones(n), 0.0)[None, :]
    x = _linprog(c, a_ub, np.zeros(n), a_eq, [1.0], [(0, None)] * n + [(None, None)])
    p = np.clip(x[:n], 0.0, None)
    return float(x[-1]), p / p.sum()


def _support_lp(m: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The support S of the equilibrium face and a point of E with support S (see the module notes).

    Variables [q, t, s]: q >= 0 a point of the cone over E, t_i <= min(q_i, 1) marks a positive share,
    s_i <= min(-(M q)_i, 1) marks a strict deficit; maximise sum t + sum s.
    """
    n = m.shape[0]
    eye, zero = np.eye(n), np.zeros((n, n))
    a_ub = np.vstack([np.hstack([m, zero, eye]),                    # M q + s <= 0
                      np.hstack([-eye, eye, zero]),                 # t - q <= 0
                      np.concatenate([np.ones(n), np.zeros(2 * n)])[None, :]])  # sum q <= cap
    b_ub = np.concatenate([np.zeros(2 * n), [_CONE_CAP]])
    c = np.concatenate([np.zeros(n), -np.ones(2 * n)])
    x = _linprog(c, a_ub, b_ub, bounds=[(0, None)] * n + [(0, 1)] * (2 * n), tight=False)
    q, t, s = x[:n], x[n:2 * n], x[2 * n:]
    inside = t > s
    if not inside.any():  # cannot happen in exact arithmetic; keep the entry the LP weighs most
        inside = q == q.max()
    point = np.where(inside, np.clip(q, 0.0, None), 0.0)
    if point.sum() <= 0.0:
        point = inside.astype(np.float64)
    return inside, point / point.sum()


def _unique_on(m: np.ndarray, inside: np.ndarray) -> np.ndarray | None:
    """The game's unique equilibrium, if it has support ``inside``; None when that cannot be shown.

    Shown when {M[S, S] p = 0, sum p = 1} is a single point p > 0 and every entry outside S does strictly
    worse against p ((M p)_i < 0). Then any equilibrium p' has M p' <= 0, so p'.M p <= 0 and
    p.M p' <= 0; antisymmetry makes them opposite, so both are 0: p' lives on {i : (M p)_i = 0} = S, and
    (M p')_i = 0 on S because p is positive there. So p' solves the same system, whose solution is p.
    """
    if inside.shape != (m.shape[0],) or not inside.any():
        return None
    on = _onto(m[np.ix_(inside, inside)], np.full(int(inside.sum()), 1.0 / inside.sum()))
    if on is None or on[1].shape[1] != 1:
        return None
    p = np.zeros(m.shape[0])
    p[inside] = on[0]
    payoff = m @ p
    if payoff[~inside].size and payoff[~inside].max() >= -_STRICT_TOL:
        return None
    return _checked(m, p)


def _null_basis(rows: np.ndarray) -> np.ndarray:
    """An orthonormal basis (columns) of the numerical null space of ``rows`` (at least one vector)."""
    _, sv, vh = np.linalg.svd(rows)
    rank = int(np.sum(sv > _RANK_TOL * max(1.0, float(sv[0]))))
    return vh[min(rank, vh.shape[0] - 1):].T


def _onto(rows: np.ndarray, p: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """p projected onto {rows @ x = 0, sum x = 1}, with the basis of that subspace; None if not > 0."""
    basis = _null_basis(rows)
    proj = basis @ (basis.T @ p)
    total = proj.sum()
    if not total > 0.0:
        return None
    proj = proj / total
    return (proj, basis) if proj.min() > 0.0 else None


def _polish(m: np.ndarray, inside: np.ndarray, point: np.ndarray) -> np.ndarray | None:
    """The LP point projected onto {M[S, S] p = 0, sum p = 1}; None if that loses positivity."""
    on = _onto(m[np.ix_(inside, inside)], point[inside])
    if on is None:
        return None
    p = np.zeros_like(point)
    p[inside] = on[0]
    return p


def _entropy(p: np.ndarray) -> float:
    pos = p[p > 0]
    return float(-(pos * np.log(pos)).sum())


def _max_entropy(m: np.ndarray, inside: np.ndarray, point: np.ndarray) -> np.ndarray | None:
    """The maximum-entropy equilibrium: on S, max H(p) s.t. M[S, S] p = 0, sum p = 1, M[not S, S] p <= 0."""
    m_ss, out = m[np.ix_(inside, inside)], m[np.ix_(~inside, inside)]
    on = _onto(m_ss, point[inside])
    if on is None:
        return None
    start, basis = on
    if basis.shape[1] > 1:  # a face of equilibria, not a single point
        dirs = _directions(basis)
        free = start + dirs @ _newton(start, dirs, out[:0], 1.0, np.zeros(dirs.shape[1]))
        if out.shape[0] and (out @ free).max() > _EQ_TOL:
            start = _barrier(m_ss, start, dirs, out)
        else:
            start = free
    p = np.zeros_like(point)
    p[inside] = start
    return p


def _directions(basis: np.ndarray) -> np.ndarray:
    """Orthonormal directions inside span(basis) that keep the sum of shares: orthogonal to (1, ..., 1)."""
    from scipy.linalg import null_space

    return basis @ null_space(basis.sum(axis=0)[None, :])


def _newton(start: np.ndarray, dirs: np.ndarray, out: np.ndarray, t: float, z: np.ndarray,
            tol: float = 1e-28, max_iter: int = 100) -> np.ndarray:
    """Minimise t * sum p log p - sum log(-(out @ p)) over p = start + dirs @ z, by damped Newton steps.

    With no rows in ``out`` this is the maximum-entropy point of the affine set; the entropy's gradient
    keeps every share positive. The line search keeps p > 0 and out @ p < 0. Stops when the Newton
    decrement (twice the estimated distance to the minimum) is at most ``tol``.
    """
    od = out @ dirs
    base = -(out @ start)

    def phi(p: np.ndarray, s: np.ndarray) -> float:
        return float(t * np.sum(p * np.log(p)) - np.sum(np.log(s)))

    p, s = start + dirs @ z, base - od @ z
    f = phi(p, s)
    for _ in range(max_iter):
        g = t * (dirs.T @ (np.log(p) + 1.0)) + od.T @ (1.0 / s)
        h = t * (dirs.T @ (dirs / p[:, None])) + od.T @ (od / (s * s)[:, None])
        try:
            step = -np.linalg.solve(h, g)
        except np.linalg.LinAlgError:
            break
        decrement = float(-g @ step)
        if not decrement > tol or np.abs(dirs @ step).max() <= 1e-17:
            break
        alpha = 1.0
        while alpha > 1e-12:
            zt = z + alpha * step
            pt, st = start + dirs @ zt, base - od @ zt
            if pt.min() > 0.0 and (st.size == 0 or st.min() > 0.0):
                ft = phi(pt, st)
                if ft <= f - 0.25 * alpha * decrement + 1e-13 * abs(f):
                    break
            alpha *= 0.5
        else:
            break
        z, p, s, f = zt, pt, st, ft
    return z


def _barrier(m_ss: np.ndarray, start: np.ndarray, dirs: np.ndarray, out: np.ndarray) -> np.ndarray:
    """The maximum-entropy point under inequalities out @ p <= 0, by a log-barrier method, then polished.

    ``start`` must satisfy them strictly (the LP point does, by strict complementarity). The polish
    takes the inequalities the barrier finds active as equalities and solves that affine problem by
    Newton steps; it is kept when it is feasible and no worse.
    """
    if (out @ start).max() >= 0.0:
        return start
    # Start where the entropy's pull matches the barrier's (their gradients are of order t and sum 1/s):
    # with a smaller t the barrier would push some shares to ~1e-300 and the Newton steps could not
    # bring them back.
    t = max(1.0, float(np.sum(-1.0 / (out @ start))))
    z = np.zeros(dirs.shape[1])
    m = out.shape[0]
    while True:  # centre to well within the barrier's own gap m / t, in entropy units
        z = _newton(start, dirs, out, t, z, tol=max(1e-28, 1e-6 * m))
        if m / t < 1e-10:
            break
        t *= 10.0
    found = start + dirs @ z
    active = out @ found > -1e-8
    on = _onto(np.vstack([m_ss, out[active]]), found)
    if on is None:
        return found
    fixed, basis = on
    if basis.shape[1] > 1:
        sub = _directions(basis)
        fixed = fixed + sub @ _newton(fixed, sub, out[:0], 1.0, np.zeros(sub.shape[1]))
    if (out @ fixed).max() <= _EQ_TOL and fixed.min() >= 0.0 and _entropy(fixed) >= _entropy(found) - 1e-12:
        return fixed
    return found


def _checked(m: np.ndarray, p: np.ndarray | None) -> np.ndarray | None:
    """p with tiny negatives clipped and renormalised, if it is an equilibrium of M; else None."""
    if p is None or not np.all(np.isfinite(p)):
        return None
    p = np.clip(p, 0.0, None)
    total = p.sum()
    if not total > 0.0:
        return None
    p = p / total
    return p if float((m @ p).max()) <= _EQ_TOL else None
