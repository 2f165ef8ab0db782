"""The Drakerys Fight, Shooting and engagement kernels against their naive twins (tests/naive_fight.py),
on units of the packaged catalog and on made-up units that carry the skills the catalog lacks."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from naive_fight import naive_engagement, naive_fight, naive_shooting

from rulesets.drakerys import DrakerysRulings, catalog, combat
from rulesets.drakerys.fight import Combatant
from rulesets.drakerys.units import Profile, Unit, UnitSize
from simcore.stats import chisquare_two_sample

CATALOG = catalog.load()
NAIVE_TRIALS = 4000
KERNEL_TRIALS = 200_000
P_MIN = 1e-4


def unit(key: str) -> Unit:
    return CATALOG.unit(key)


def made_up(name: str, profile: tuple, skills: tuple[str, ...], types=("Infantry",)) -> Unit:
    """A unit for skills no packaged unit carries (Deadly Blow, Brutal Charge, Dreadful, Sharpshooter)."""
    return Unit(name.lower(), name, "Test", types, skills, {}, skills, None, Profile(*profile),
                UnitSize(6, 100, 1, "test"), (), (), "test")


BRUTE = made_up("Brute", (2, 2, 2, 3, 3, None, 4, 4, 3, 10, 15), ("deadly_blow", "brutal_charge"))
HORROR = made_up("Horror", (2, 3, 3, 2, 4, None, 5, 5, 4, 10, 15), ("dreadful",), ("Monster",))
SNIPER = made_up("Sniper", (2, 1, 1, 4, 3, 4, 3, 3, 3, 10, 15), ("sharpshooter", "reach"))

FIGHTS = {
    "crows charge gold keepers": (Combatant(unit("crows"), 12), Combatant(unit("gold-keepers"), 6), True),
    "soldiers block warriors": (Combatant(unit("warriors"), 6), Combatant(unit("soldiers"), 6), False),
    "blood banes stressed vs spearmen": (Combatant(unit("blood-banes"), 4, stress=2),
                                         Combatant(unit("spearmen"), 10), True),
    "salik (martial arts, hero) vs crushers": (Combatant(unit("salik"), 1, heroic=3, guard=True),
                                               Combatant(unit("crushers"), 2), True),
    "crushers (violent blow) vs salik": (Combatant(unit("crushers"), 2), Combatant(unit("salik"), 1), False),
    "brute charges horror": (Combatant(BRUTE, 6, rerolls=2), Combatant(HORROR, 3, authority=2), True),
    "horror vs sniper (reach)": (Combatant(HORROR, 3, injuries=2), Combatant(SNIPER, 6, stress=1), True),
    "bloodseekers vs warriors, allies": (Combatant(unit("bloodseekers"), 6, allied_units_engaged=1),
                                         Combatant(unit("warriors"), 12), False),
    "crows vs prisoner cage": (Combatant(unit("crows"), 6), Combatant(unit("prisoner-cage"), 1), True),
}


def naive_rows(outcomes: list[dict], keys: list[str], width: int) -> np.ndarray:
    rows = np.zeros((len(keys), width), dtype=np.int64)
    for o in outcomes:
        for r, k in enumerate(keys):
            rows[r, min(o[k], width - 1)] += 1
    return rows


def assert_same(kernel_rows: np.ndarray, naive: np.ndarray, labels: list[str]) -> None:
    for row, label in enumerate(labels):
        fit = chisquare_two_sample(kernel_rows[row], naive[row])
        assert fit.pvalue > P_MIN, f"{label}: {fit}"


@pytest.mark.parametrize("rulings", [DrakerysRulings(), DrakerysRulings(crit_chain=False, frontage=3)],
                         ids=["defaults", "no-chain-frontage-3"])
@pytest.mark.parametrize("name", list(FIGHTS))
def test_fight_kernel_matches_naive_twin(name, rulings):
    a, b, charge = FIGHTS[name]
    result = combat.simulate_fight(a, b, charge=charge, rulings=rulings, trials=KERNEL_TRIALS,
                                   seed=hash(name) % 2**32)
    rng = np.random.default_rng(abs(hash(name)) % 2**32)
    width = result.run.counts.shape[1]
    outcomes = [naive_fight(rng, a, b, charge=charge, crit_chain=rulings.crit_chain,
                            frontage=rulings.frontage) for _ in range(NAIVE_TRIALS)]
    # the twin's kills_a are the warriors A's strikes removed (of B); the kernel's row 0 are A's losses
    naive = naive_rows(outcomes, ["kills_b", "kills_a", "result", "inflicted_a", "inflicted_b"], width)
    assert_same(result.run.counts[:5], naive, ["A's losses", "B's losses", "result", "inflicted by A",
                                                "inflicted by B"])


SHOTS = {
    "crossbowmen at crows": (Combatant(unit("crossbowmen"), 6, stress=1), Combatant(unit("crows"), 12), 35),
    "noctis (multiple shots) at warriors (parry)": (Combatant(unit("noctis"), 1, heroic=2, obstacles=1),
                                                    Combatant(unit("warriors"), 6), 80),
    "rockthrowers at spearmen (expert parry)": (Combatant(unit("rockthrowers"), 3),
                                                Combatant(unit("spearmen"), 10), 30),
    "bowmen at sniper (sharpshooter)": (Combatant(unit("irosia-bowmen"), 10), Combatant(SNIPER, 6), 0),
}


@pytest.mark.parametrize("name", list(SHOTS))
def test_shooting_kernel_matches_naive_twin(name):
    a, b, distance = SHOTS[name]
    weapon = CATALOG.weapons[a.unit.weapon]
    result = combat.simulate_shooting(a, b, distance_cm=distance, weapons=CATALOG.weapons,
                                      trials=KERNEL_TRIALS, seed=7)
    rng = np.random.default_rng(11)
    outcomes = [naive_shooting(rng, a, b, weapon, distance) for _ in range(NAIVE_TRIALS)]
    codes = {"scatter": 0, "stress": 1, "doubt": 2, "steady": 3, None: 4}
    for o in outcomes:
        o["morale_code"] = codes[o["morale"]]
    naive = naive_rows(outcomes, ["kills", "inflicted", "morale_code"], result.run.counts.shape[1])
    assert_same(result.run.counts, naive, ["kills", "inflicted", "morale"])


DUELS = {
    "crows charge gold keepers": (Combatant(unit("crows"), 12), Combatant(unit("gold-keepers"), 6), None),
    "celeste charges sakhil (long game)": (Combatant(unit("celeste"), 1), Combatant(unit("sakhil"), 1), None),
    "bowmen shoot crows from 45 cm": (Combatant(unit("irosia-bowmen"), 10), Combatant(unit("crows"), 12), 45),
    "noctis shoots spearmen, heroic": (Combatant(unit("noctis"), 1, heroic=1),
                                       Combatant(unit("spearmen"), 10), 70),
    "soldiers charge warriors": (Combatant(unit("soldiers"), 6), Combatant(unit("warriors"), 6), None),
}


@pytest.mark.parametrize("name", list(DUELS))
def test_engagement_kernel_matches_naive_twin(name):
    a, b, shoot = DUELS[name]
    result = combat.simulate_engagement(a, b, shoot_from_cm=shoot, weapons=CATALOG.weapons,
                                        trials=KERNEL_TRIALS // 2, seed=3)
    rng = np.random.default_rng(5)
    weapons = [CATALOG.weapons[c.unit.weapon] if c.unit.weapon else None for c in (a, b)]
    codes = {"a": 0, "b": 1, "neither": 2, "both": 3}
    outcomes = []
    for _ in range(NAIVE_TRIALS // 2):
        o = naive_engagement(rng, a, b, shoot_from_cm=shoot, a_weapon=weapons[0], b_weapon=weapons[1])
        o["outcome_code"] = codes[o["outcome"]]
        outcomes.append(o)
    keys = ["outcome_code", "injuries_a", "injuries_b", "lost_a", "lost_b", "ts_a", "ts_b", "activations"]
    naive = naive_rows(outcomes, keys, result.run.counts.shape[1])
    assert_same(result.run.counts, naive, keys)


def test_fight_probabilities_by_hand():
    """One Sakhil-like warrior (Health 1) against a unit that cannot hurt back: with threshold 2 on both
    the attack and the injury roll, 1 die kills with 0.9 + 0.1 * (extra die kills) ... check the kernel's
    kill probability of a single die at 6+ to hit and 6+ to wound: P(hit) = 0.5 + 0.1 * P(extra hits)."""
    striker = made_up("Striker", (1, 1, 1, 5, 3, None, 3, 3, 3, 10, 10), ())
    dummy = made_up("Dummy", (1, 0, 1, 1, 3, None, 0, 3, 3, 10, 10), ())
    result = combat.simulate_fight(Combatant(striker, 1), Combatant(dummy, 1), charge=False,
                                   trials=400_000, seed=9)
    # attack 6+ with the crit chain: hits H has P(H >= 1) = 0.5; an injury needs a wound on each hit
    # P(kill) = sum_h P(H = h) (1 - P(no wound on h dice)); P(no wound on h dice at 6+) = 0.5^h
    from rulesets.drakerys import ActionRoll, exact_action_roll

    hits = exact_action_roll(ActionRoll(1, 6)).successes
    p_kill = sum(p * (1 - 0.5**h) for h, p in enumerate(hits))
    got = result.share(1, [1])
    assert abs(got.value - p_kill) < 5 * got.stderr + 1e-12


def test_fight_reproducible_across_threads_and_seeds():
    a, b, charge = FIGHTS["crows charge gold keepers"]
    one = combat.simulate_fight(a, b, charge=charge, trials=70_001, seed=4, threads=1).run.counts
    two = combat.simulate_fight(a, b, charge=charge, trials=70_001, seed=4, threads=2).run.counts
    other = combat.simulate_fight(a, b, charge=charge, trials=70_001, seed=5, threads=2).run.counts
    assert np.array_equal(one, two)
    assert not np.array_equal(one, other)


def test_engagement_precision_stops_early():
    a, b, _ = DUELS["crows charge gold keepers"]
    result = combat.simulate_engagement(a, b, trials=10**7, seed=1, precision=0.01)
    assert result.run.stopped_by_precision and result.run.trials < 10**7
    assert result.outcome(0).half_width < 0.01


def test_bad_inputs_name_the_value():
    from rulesets.base import RulesError

    with pytest.raises(RulesError, match="no ranged weapon"):
        combat.simulate_shooting(Combatant(unit("crows"), 6), Combatant(unit("warriors"), 6), distance_cm=10,
                                 weapons=CATALOG.weapons, trials=10, seed=1)
    with pytest.raises(RulesError, match="reaches 50 cm, not 60 cm"):
        combat.simulate_shooting(Combatant(unit("irosia-bowmen"), 5), Combatant(unit("crows"), 6),
                                 distance_cm=60, weapons=CATALOG.weapons, trials=10, seed=1)
    with pytest.raises(RulesError, match="injury tokens"):
        Combatant(unit("blood-banes"), 4, injuries=2)
    with pytest.raises(RulesError, match="no Heroic Action"):
        Combatant(unit("crows"), 4, heroic=1)
    with pytest.raises(RulesError, match="no profile"):
        Combatant(unit("scouts"), 6)
    with pytest.raises(RulesError, match="rounds"):
        combat.simulate_engagement(Combatant(unit("crows"), 6), Combatant(unit("warriors"), 6), rounds=7,
                                   trials=10, seed=1)
    assert replace(Combatant(unit("crows"), 6), stress=3).stress == 3


def test_heavy_loaded_ruling_sets_the_charge_cost():
    """Heavy-Loaded (Spearmen) is read as Jammed by default: the opening Charge costs 3 + 2 TS."""
    from rulesets.drakerys.fight import F_JAMMED, side_array

    spearmen = Combatant(unit("spearmen"), 10)
    assert side_array(spearmen, DrakerysRulings(), None)[F_JAMMED] == 1
    none = DrakerysRulings().with_assignments(["DK-heavy-loaded=none"])
    assert side_array(spearmen, none, None)[F_JAMMED] == 0
    # one round: Spearmen charge once (5 TS, then more Stress), the Crows answer; a round is 16 TS, so
    # with the ruling the Spearmen spend more TS per activation on average
    jammed = combat.simulate_engagement(spearmen, Combatant(unit("crows"), 12), trials=20_000, seed=2)
    free = combat.simulate_engagement(spearmen, Combatant(unit("crows"), 12), rulings=none, trials=20_000,
                                      seed=2)
    assert jammed.mean(5).value - free.mean(5).value > 1.0
