"""Tests for reports.metagame: the maximum-entropy Nash equilibrium of an antisymmetric matchup matrix."""


import numpy as np
import pandas as pd
import pytest
from scipy.linalg import orth
from scipy.optimize import linprog, nnls

from reports.metagame import SUPPORT_TOL, MetaGame, _value_lp, solve

RPS = np.array([[0.0, 1.0, -1.0], [-1.0, 0.0, 1.0], [1.0, -1.0, 0.0]])


def antisym(upper: np.ndarray) -> np.ndarray:
    a = np.triu(np.asarray(upper, dtype=float), 1)
    return a - a.T


def random_game(seed: int, n: int, ties: bool = False) -> np.ndarray:
    rng = np.random.default_rng(seed)
    b = rng.integers(-2, 3, size=(n, n)).astype(float) if ties else rng.normal(size=(n, n))
    return antisym(b)


def entropy(p: np.ndarray) -> float:
    q = p[p > 0]
    return float(-(q * np.log(q)).sum())


def lp_equilibrium(a: np.ndarray) -> np.ndarray:
    """Some equilibrium (an LP vertex): min v s.t. A p <= v, sum p = 1, p >= 0."""
    n = len(a)
    res = linprog(np.r_[np.zeros(n), 1.0], A_ub=np.hstack([a, -np.ones((n, 1))]), b_ub=np.zeros(n),
                  A_eq=np.r_[np.ones(n), 0.0][None, :], b_eq=[1.0],
                  bounds=[(0, None)] * n + [(None, None)], method="highs")
    assert res.status == 0
    p = np.clip(res.x[:n], 0, None)
    return p / p.sum()


def kkt_residual(a: np.ndarray, p: np.ndarray) -> float:
    """Distance of grad H(p) from the cone of the constraints' normals: 0 at the maximum-entropy point.

    On the support S the constraints are (A p)_S = 0, sum p = 1 (equalities, multipliers free) and
    (A p)_j <= 0 off S, with a multiplier >= 0 where active.
    """
    s = p > 0
    m = a / np.abs(a).max()
    grad = -(np.log(p[s]) + 1.0)
    eq = orth(np.vstack([m[np.ix_(s, s)], np.ones((1, s.sum()))]).T, rcond=1e-10)
    proj = np.eye(s.sum()) - eq @ eq.T
    active = (~s) & (m @ p > -1e-8)
    if not active.any():
        return float(np.linalg.norm(proj @ grad))
    return float(nnls(proj @ m[np.ix_(active, s)].T, proj @ grad)[1])


# --- closed forms ----------------------------------------------------------------------------------------

def test_rock_paper_scissors():
    g = solve(RPS, ["rock", "paper", "scissors"])
    np.testing.assert_allclose(g.shares, [1 / 3] * 3, atol=1e-6)
    np.testing.assert_allclose(g.nash_ratings, 0.0, atol=1e-9)
    assert abs(g.value) < 1e-9
    assert g.support.all()


def test_weighted_rps_closed_form():
    # A = [[0, a, -b], [-a, 0, c], [b, -c, 0]] with a, b, c > 0: A p = 0 reads a p1 = b p2, c p2 = a p0,
    # b p0 = c p1, so p = (c, b, a) / (a + b + c). Here a = 2, b = 1, c = 3: p = (3, 1, 2) / 6.
    a = np.array([[0.0, 2.0, -1.0], [-2.0, 0.0, 3.0], [1.0, -3.0, 0.0]])
    g = solve(a)
    np.testing.assert_allclose(g.shares, [1 / 2, 1 / 6, 1 / 3], atol=1e-6)
    np.testing.assert_allclose(g.nash_ratings, 0.0, atol=1e-9)


def test_dominated_entry():
    # D loses to rock by 0.5, to paper by 1, to scissors by 2. The mix stays (1/3, 1/3, 1/3, 0) and D's
    # rating is (A p*)_D = (-0.5 - 1 - 2) / 3 = -7/6; the others' ratings are 0.
    a = np.zeros((4, 4))
    a[:3, :3] = RPS
    a[3, :3] = [-0.5, -1.0, -2.0]
    a[:3, 3] = [0.5, 1.0, 2.0]
    g = solve(a, ["R", "P", "S", "D"])
    np.testing.assert_allclose(g.shares, [1 / 3, 1 / 3, 1 / 3, 0.0], atol=1e-6)
    assert g.shares[3] == 0.0
    np.testing.assert_allclose(g.nash_ratings, [0.0, 0.0, 0.0, -7 / 6], atol=1e-9)
    assert g.support.tolist() == [True, True, True, False]


def test_transitive_game():
    s = np.array([0.3, -1.2, 2.5, 0.7, -0.4])
    a = s[:, None] - s[None, :]
    g = solve(a)
    np.testing.assert_allclose(g.shares, [0, 0, 1, 0, 0], atol=1e-9)
    np.testing.assert_allclose(g.nash_ratings, s - s.max(), atol=1e-9)
    assert g.support.tolist() == [False, False, True, False, False]


def test_binding_outside_entry_limits_the_entropy():
    # RPS with rock entered twice (R, R2) and an entry X: X beats R by 1, loses to R2 by 1, beats paper by
    # 0.3. No equilibrium plays X (if p_X = x > 0 then rows R and R2 give p_P >= p_S + x, row S gives
    # p_P <= p_R + p_R2, and row P gives p_R + p_R2 <= p_S + 0.3 x: a contradiction). The equilibria are
    # (r, 1/3 - r, 1/3, 1/3, 0) with X's payoff r - (1/3 - r) + 0.3/3 <= 0, i.e. r <= 7/60. The entropy
    # would split rock's 1/3 evenly (r = 1/6), so it stops on the bound: r = 7/60, R2 = 13/60, and X's
    # rating is then 0 although X has no share.
    a = np.array([[0, 0, -1, 1, -1],
                  [0, 0, -1, 1, 1],
                  [1, 1, 0, -1, -0.3],
                  [-1, -1, 1, 0, 0],
                  [1, -1, 0.3, 0, 0]], dtype=float)
    g = solve(a, ["R", "R2", "P", "S", "X"])
    np.testing.assert_allclose(g.shares, [7 / 60, 13 / 60, 1 / 3, 1 / 3, 0.0], atol=1e-6)
    np.testing.assert_allclose(g.nash_ratings, 0.0, atol=1e-9)
    assert g.support.tolist() == [True, True, True, True, False]


def test_single_entry_and_null_game():
    one = solve(np.zeros((1, 1)), ["only"])
    assert one.shares.tolist() == [1.0] and one.nash_ratings.tolist() == [0.0] and one.value == 0.0
    null = solve(np.zeros((4, 4)))
    np.testing.assert_allclose(null.shares, 0.25)  # every mix is an equilibrium: the uniform one wins
    assert null.labels == ("0", "1", "2", "3")


# --- redundancy -------------------------------------------------------------------------------------------

def test_copy_of_rock_splits_its_share():
    idx = [0, 1, 2, 0]  # rock, paper, scissors, rock again
    g = solve(RPS[np.ix_(idx, idx)], ["rock", "paper", "scissors", "rock 2"])
    np.testing.assert_allclose(g.shares, [1 / 6, 1 / 3, 1 / 3, 1 / 6], atol=1e-6)
    np.testing.assert_allclose(g.nash_ratings, 0.0, atol=1e-9)


def test_duplicate_leaves_ratings_unchanged():
    for seed in range(5):
        a = random_game(seed, 8)
        base = solve(a)
        k = int(np.argmax(base.shares))  # duplicate an entry of the support: the face is then a segment
        idx = [*range(8), k]
        dup = solve(a[np.ix_(idx, idx)])
        np.testing.assert_allclose(dup.nash_ratings[:8], base.nash_ratings, atol=1e-6)
        assert dup.nash_ratings[8] == pytest.approx(base.nash_ratings[k], abs=1e-6)
        others = np.arange(8) != k
        np.testing.assert_allclose(dup.shares[:8][others], base.shares[others], atol=1e-6)
        np.testing.assert_allclose([dup.shares[k], dup.shares[8]], [base.shares[k] / 2] * 2, atol=1e-6)


def test_many_copies_share_equally():
    a = random_game(11, 7)
    base = solve(a)
    copies = [1, 3, 2, 1, 4, 2, 3]
    idx = [i for i, c in enumerate(copies) for _ in range(c)]
    rng = np.random.default_rng(0)
    idx = list(rng.permutation(idx))
    g = solve(a[np.ix_(idx, idx)])
    expected = np.array([base.shares[i] / copies[i] for i in idx])
    np.testing.assert_allclose(g.shares, expected, atol=1e-7)
    np.testing.assert_allclose(g.nash_ratings, base.nash_ratings[idx], atol=1e-7)


# --- equilibrium and maximum entropy on random games ------------------------------------------------------

@pytest.mark.parametrize("seed", range(20))
def test_equilibrium_property_random(seed):
    n = 2 + (seed * 37) % 39  # 2 ... 40
    for a in (random_game(seed, n) * 10.0 ** (seed % 5 - 2), random_game(seed, n, ties=True)):
        scale = np.abs(a).max()
        g = solve(a)
        assert g.shares.min() >= 0.0
        assert g.shares.sum() == pytest.approx(1.0, abs=1e-12)
        assert (a.T @ g.shares).min() >= -1e-7 * scale
        assert g.nash_ratings.max() <= 1e-7 * scale
        np.testing.assert_allclose(g.nash_ratings[g.support], 0.0, atol=1e-7 * scale)
        assert abs(g.value) <= 1e-7 * scale
        assert entropy(g.shares) >= entropy(lp_equilibrium(a)) - 1e-9
        assert np.array_equal(g.support, g.shares > SUPPORT_TOL)


@pytest.mark.parametrize("seed", range(12))
def test_maximum_entropy_optimality_conditions(seed):
    # Integer payoffs in -2..2 with copies: large faces of equilibria, often with binding outside entries.
    rng = np.random.default_rng(100 + seed)
    base = rng.integers(-2, 3, size=(6, 6)).astype(float)
    idx = rng.integers(0, 6, size=int(rng.integers(6, 25)))
    noise = rng.integers(-1, 2, size=(len(idx), len(idx))) * (rng.random((len(idx),) * 2) < 0.2)
    a = antisym(base[np.ix_(idx, idx)] + noise)
    if not np.abs(a).any():
        pytest.skip("null game")
    g = solve(a)
    assert g.nash_ratings.max() <= 1e-9 * np.abs(a).max()
    assert kkt_residual(a, g.shares) < 1e-8
    # Other equilibria (vertices picked by random objectives) and their average have no more entropy.
    n = len(a)
    others = []
    for _ in range(10):
        res = linprog(rng.normal(size=n), A_ub=a, b_ub=np.zeros(n), A_eq=np.ones((1, n)), b_eq=[1.0],
                      bounds=[(0, None)] * n, method="highs")
        others.append(np.clip(res.x, 0, None) / np.clip(res.x, 0, None).sum())
    others.append(np.mean(others, axis=0))
    assert entropy(g.shares) >= max(entropy(q) for q in others) - 1e-12


def test_near_duplicates_from_noise_still_give_an_equilibrium():
    rng = np.random.default_rng(5)
    base = rng.normal(size=(10, 10))
    idx = rng.integers(0, 10, size=30)
    for eps in (1e-13, 1e-8, 1e-4):
        a = antisym(base[np.ix_(idx, idx)] + eps * rng.normal(size=(30, 30)))
        g = solve(a)
        assert g.nash_ratings.max() <= 1e-9 * np.abs(a).max()
        assert g.shares.min() >= 0.0 and g.shares.sum() == pytest.approx(1.0, abs=1e-12)


# --- interface --------------------------------------------------------------------------------------------

def test_table_and_immutability():
    g = solve(RPS, ["rock", "paper", "scissors"])
    assert isinstance(g, MetaGame)
    t = g.table()
    assert isinstance(t, pd.DataFrame)
    assert list(t.columns) == ["label", "share", "nash_rating", "in_support"]
    assert t["label"].tolist() == ["rock", "paper", "scissors"]
    np.testing.assert_allclose(t["share"], g.shares)
    assert g.shares.dtype == np.float64 and g.support.dtype == bool
    with pytest.raises(ValueError):
        g.shares[0] = 1.0


def test_small_asymmetry_within_tol_is_symmetrised():
    a = RPS.copy()
    a[0, 1] += 1e-12
    g = solve(a)
    np.testing.assert_allclose(g.shares, 1 / 3, atol=1e-9)
    with pytest.raises(ValueError, match=r"\(0, 1\)"):
        solve(a, tol=1e-14)


def test_determinism():
    a = random_game(3, 30, ties=True)
    g1, g2 = solve(a), solve(a)
    for x, y in ((g1.shares, g2.shares), (g1.nash_ratings, g2.nash_ratings), (g1.support, g2.support)):
        assert np.array_equal(x, y)
    assert g1.value == g2.value


def test_large_fields_are_solved_to_an_equilibrium():
    """The sizes of the largest fields (its time is measured by `make bench`, not asserted here)."""
    for n in (34, 70):
        a = random_game(n, n)
        g = solve(a)
        assert g.shares.min() >= 0 and g.shares.sum() == pytest.approx(1.0, abs=1e-12)
        assert (a @ g.shares).max() <= 1e-9  # no entry does better than the mix against it


# --- errors -----------------------------------------------------------------------------------------------

def test_errors():
    with pytest.raises(ValueError, match="square"):
        solve(np.zeros((2, 3)))
    with pytest.raises(ValueError, match="square"):
        solve(np.zeros(3))
    with pytest.raises(ValueError, match="square"):
        solve(np.zeros((0, 0)))
    nan = RPS.copy()
    nan[1, 2] = np.nan
    with pytest.raises(ValueError, match=r"non-finite.*\(1, 2\)"):
        solve(nan)
    bad = RPS.copy()
    bad[2, 0] = 0.5  # A[0, 2] + A[2, 0] = -0.5
    with pytest.raises(ValueError, match=r"antisymmetric.*\(0, 2\).*'rock' vs 'scissors'") as err:
        solve(bad, ["rock", "paper", "scissors"])
    assert "\n" not in str(err.value)
    diag = RPS.copy()
    diag[1, 1] = 1.0
    with pytest.raises(ValueError, match=r"\(1, 1\)"):
        solve(diag)
    with pytest.raises(ValueError, match="unique.*'rock'"):
        solve(RPS, ["rock", "paper", "rock"])
    with pytest.raises(ValueError, match="labels"):
        solve(RPS, ["rock", "paper"])


# --- a support hint (the bootstrap's shortcut) -------------------------------------------------------------

@pytest.mark.parametrize("seed", range(10))
def test_support_hint_gives_the_same_equilibrium(seed, monkeypatch):
    """A redrawn game solved from the first game's support equals the game solved by the LPs; the hint is
    taken (no LP) when it holds a unique equilibrium, as for most small perturbations."""
    import reports.metagame as mg

    n = 6 + seed * 3
    a = random_game(seed, n)
    base = solve(a)
    rng = np.random.default_rng(seed)
    used = 0
    for _ in range(5):
        noise = np.triu(rng.normal(scale=0.02, size=(n, n)), 1)
        redrawn = a + noise - noise.T
        plain = solve(redrawn)
        calls = []
        monkeypatch.setattr(mg, "_value_lp", lambda m, calls=calls: calls.append(1) or _value_lp(m))
        hinted = solve(redrawn, support_hint=base.support)
        monkeypatch.undo()
        used += not calls
        np.testing.assert_allclose(hinted.shares, plain.shares, atol=1e-8)
        np.testing.assert_allclose(hinted.nash_ratings, plain.nash_ratings, atol=1e-8)
        assert hinted.value == pytest.approx(plain.value, abs=1e-8)
    assert used >= 3


def test_several_hints_are_tried_in_order_and_the_first_that_proves_out_is_kept(monkeypatch):
    """Hints as rows of a 2-D mask: wrong ones are passed over without an LP; the right one answers; when
    none holds the LPs answer. Every way gives the plain solve's equilibrium."""
    import reports.metagame as mg

    a = random_game(3, 12)
    base = solve(a)
    wrong = np.ones(12, dtype=bool)
    calls = []
    monkeypatch.setattr(mg, "_value_lp", lambda m: calls.append(1) or _value_lp(m))
    hinted = solve(a, support_hint=[wrong, ~base.support, base.support])
    assert calls == []
    np.testing.assert_allclose(hinted.shares, base.shares, atol=1e-12)
    none_hold = solve(a, support_hint=np.array([wrong, ~base.support]))
    assert calls == [1]
    np.testing.assert_allclose(none_hold.shares, base.shares, atol=1e-12)


def test_support_hint_wrong_or_degenerate_falls_back_to_the_lps():
    a = random_game(3, 12)
    base = solve(a)
    assert not base.support.all()
    # the whole field as the hint: entries outside the true support make it fail, the LPs answer
    hinted = solve(a, support_hint=np.ones(12, dtype=bool))
    np.testing.assert_allclose(hinted.shares, base.shares, atol=1e-12)
    # rock, paper, scissors and a copy of rock: a segment of equilibria, so no hint can prove uniqueness;
    # the maximum-entropy point (rock's share split evenly) comes back
    idx = [0, 1, 2, 0]
    g = solve(RPS[np.ix_(idx, idx)], support_hint=np.ones(4, dtype=bool))
    np.testing.assert_allclose(g.shares, [1 / 6, 1 / 3, 1 / 3, 1 / 6], atol=1e-6)
    # a hint of the wrong length is ignored, not an error
    np.testing.assert_allclose(solve(a, support_hint=np.ones(5, dtype=bool)).shares, base.shares, atol=1e-12)
