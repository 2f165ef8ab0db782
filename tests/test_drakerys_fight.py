"""The Drakerys Fight, Shooting and engagement kernels against their naive twins (tests/naive_fight.py),
on units of the packaged catalog and on made-up units that carry the skills the catalog lacks."""

from __future__ import annotations

import zlib
from dataclasses import replace

import numpy as np
import pytest
from naive_fight import naive_engagement, naive_fight, naive_shooting

from reports.drakerys.fight import fight_report, shooting_report
from rulesets.base import RulesError
from rulesets.drakerys import DrakerysRulings, catalog, simulate
from rulesets.drakerys.fight import (
    BLOCK_ALWAYS,
    BlockIn,
    Combatant,
    EngagementOutcome,
    EngagementRow,
    FightOutcome,
    FightRow,
    Morale,
    Record,
    ShootingRow,
    Side,
    charge_ts,
    is_object,
    side_array,
)
from rulesets.drakerys.units import Profile, Unit, UnitSize
from simcore import config, runner
from simcore.stats import chisquare_two_sample

CATALOG = catalog.load()
NAIVE_TRIALS = 4000
KERNEL_TRIALS = 200_000
P_MIN = 1e-4
TWO_THREADS = runner.available_threads() >= 2


def stable_seed(name: str) -> int:
    """A seed fixed by the case's name. Not hash(name): Python salts str hashes per process (PYTHONHASHSEED),
    which made every run of these tests draw new seeds and fail now and then by chance."""
    return zlib.crc32(name.encode())


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
    seed = stable_seed(f"{name}, {rulings.describe()}")
    result = simulate.simulate_fight(a, b, charge=charge, rulings=rulings, trials=KERNEL_TRIALS, seed=seed)
    rng = np.random.default_rng(seed)
    width = result.run.counts.shape[1]
    masks = block_masks(a, b, rulings)
    outcomes = [naive_fight(rng, a, b, charge=charge, crit_chain=rulings.crit_chain,
                            frontage=rulings.frontage, blocking_masks=masks) for _ in range(NAIVE_TRIALS)]
    # the twin's kills_a are the warriors A's strikes removed (of B); the kernel's REMOVED_0 are A's losses;
    # casualties count a scattered unit whole (its warriors left on the field are lost too)
    for o in outcomes:
        o["lost_a"], o["lost_b"] = a.size - o["alive_a"], b.size - o["alive_b"]
    rows = [FightRow.REMOVED_0, FightRow.REMOVED_1, FightRow.OUTCOME, FightRow.INFLICTED_0,
            FightRow.INFLICTED_1, FightRow.CASUALTIES_0, FightRow.CASUALTIES_1]
    naive = naive_rows(outcomes, ["kills_b", "kills_a", "result", "inflicted_a", "inflicted_b", "lost_a",
                                  "lost_b"], width)
    assert_same(result.run.counts[rows], naive, [row.name for row in rows])


SHOTS = {
    "crossbowmen at crows": (Combatant(unit("crossbowmen"), 6, stress=1), Combatant(unit("crows"), 12), 35),
    "noctis (multiple shots) at warriors (parry)": (Combatant(unit("noctis"), 1, heroic=2, obstacles=1),
                                                    Combatant(unit("warriors"), 6), 80),
    "rockthrowers at spearmen (expert parry)": (Combatant(unit("rockthrowers"), 3),
                                                Combatant(unit("spearmen"), 10), 30),
    "bowmen at sniper (sharpshooter)": (Combatant(unit("irosia-bowmen"), 10), Combatant(SNIPER, 6), 1),
}


@pytest.mark.parametrize("name", list(SHOTS))
def test_shooting_kernel_matches_naive_twin(name):
    a, b, distance = SHOTS[name]
    weapon = CATALOG.weapons[a.unit.weapon]
    result = simulate.simulate_shooting(a, b, distance_cm=distance, weapons=CATALOG.weapons,
                                      trials=KERNEL_TRIALS, seed=7)
    rng = np.random.default_rng(11)
    outcomes = [naive_shooting(rng, a, b, weapon, distance) for _ in range(NAIVE_TRIALS)]
    for o in outcomes:
        o["morale_code"] = Morale.NO_ROLL if o["morale"] is None else Morale[o["morale"].upper()]
    for o in outcomes:  # a scattered unit loses every warrior
        o["casualties"] = b.size if o["morale"] == "scatter" else o["kills"]
    rows = [ShootingRow.REMOVED, ShootingRow.INFLICTED, ShootingRow.MORALE, ShootingRow.CASUALTIES]
    naive = naive_rows(outcomes, ["kills", "inflicted", "morale_code", "casualties"],
                       result.run.counts.shape[1])
    assert_same(result.run.counts[rows], naive, [row.name for row in rows])


DUELS = {
    "crows charge gold keepers": (Combatant(unit("crows"), 12), Combatant(unit("gold-keepers"), 6), None),
    "celeste charges sakhil (long game)": (Combatant(unit("celeste"), 1), Combatant(unit("sakhil"), 1), None),
    "bowmen shoot crows from 45 cm": (Combatant(unit("irosia-bowmen"), 10), Combatant(unit("crows"), 12), 45),
    "noctis shoots spearmen, heroic": (Combatant(unit("noctis"), 1, heroic=1),
                                       Combatant(unit("spearmen"), 10), 70),
    "soldiers charge warriors": (Combatant(unit("soldiers"), 6), Combatant(unit("warriors"), 6), None),
}


#: The twin's keys of an engagement and the kernel's histogram rows and record columns that hold them.
DUEL_KEYS = ["outcome_code", "injuries_a", "injuries_b", "lost_a", "lost_b", "ts_a", "ts_b", "activations"]
DUEL_ROWS = dict(zip(EngagementRow, DUEL_KEYS, strict=True))
RECORD_OF_ROW = {EngagementRow.OUTCOME: Record.OUTCOME, EngagementRow.INJURIES_0: Record.INJURIES_0,
                 EngagementRow.INJURIES_1: Record.INJURIES_1, EngagementRow.LOST_0: Record.LOST_0,
                 EngagementRow.LOST_1: Record.LOST_1, EngagementRow.TS_0: Record.TS_0,
                 EngagementRow.TS_1: Record.TS_1, EngagementRow.ACTIVATIONS: Record.ACTIVATIONS}
NAIVE_OUTCOMES = {"a": EngagementOutcome.SIDE_0_WINS, "b": EngagementOutcome.SIDE_1_WINS,
                  "neither": EngagementOutcome.NEITHER, "both": EngagementOutcome.BOTH_DESTROYED}


def block_masks(a: Combatant, b: Combatant, rulings: DrakerysRulings | None = None) -> tuple[int, int]:
    """The kinds of Fight each side blocks in, as the kernels get them (DK-blocking, auto by default): the
    twin is handed the same choices (auto_block_mask is checked on its own below)."""
    side = simulate._sides(a, b, rulings or DrakerysRulings(), None)
    return int(side[0, Side.BLOCKING]), int(side[1, Side.BLOCKING])


def naive_duels(name: str, n: int, seed: int = 5) -> list[dict]:
    a, b, shoot = DUELS[name]
    rng = np.random.default_rng(seed)
    weapons = [CATALOG.weapons[c.unit.weapon] if c.unit.weapon else None for c in (a, b)]
    masks = block_masks(a, b)
    outcomes = []
    for _ in range(n):
        o = naive_engagement(rng, a, b, shoot_from_cm=shoot, a_weapon=weapons[0], b_weapon=weapons[1],
                             blocking_masks=masks)
        o["outcome_code"] = NAIVE_OUTCOMES[o["outcome"]]
        outcomes.append(o)
    return outcomes


def naive_duel_rows(a: Combatant, b: Combatant, n: int, seed: int, width: int, **kw) -> np.ndarray:
    """Histograms (rows DUEL_KEYS) of ``n`` twin engagements of a against b (``kw``: naive_engagement's
    options)."""
    rng = np.random.default_rng(seed)
    naive = []
    for _ in range(n):
        o = naive_engagement(rng, a, b, **kw)
        o["outcome_code"] = NAIVE_OUTCOMES[o["outcome"]]
        naive.append(o)
    return naive_rows(naive, DUEL_KEYS, width)


@pytest.mark.parametrize("name", list(DUELS))
def test_engagement_kernel_matches_naive_twin(name):
    a, b, shoot = DUELS[name]
    result = simulate.simulate_engagement(a, b, shoot_from_cm=shoot, weapons=CATALOG.weapons,
                                        trials=KERNEL_TRIALS // 2, seed=3)
    naive = naive_rows(naive_duels(name, NAIVE_TRIALS // 2), DUEL_KEYS, result.run.counts.shape[1])
    assert_same(result.run.counts[list(DUEL_ROWS)], naive, DUEL_KEYS)


def test_one_action_per_activation_matches_the_naive_twin():
    """DK-actions=one against the twin playing one Action per activation (the default is checked above:
    every unit of DUELS takes its Leader's Actions, two for most)."""
    a, b, shoot = DUELS["crows charge gold keepers"]
    one = DrakerysRulings().with_assignments(["DK-actions=one"])
    result = simulate.simulate_engagement(a, b, rulings=one, weapons=CATALOG.weapons,
                                          trials=KERNEL_TRIALS // 2, seed=3)
    naive = naive_duel_rows(a, b, NAIVE_TRIALS // 2, 8, result.run.counts.shape[1], actions="one")
    assert_same(result.run.counts[list(DUEL_ROWS)], naive, DUEL_KEYS)


def test_a_units_actions_change_its_duels():
    """MAKE WAR!: "a number of Actions comprised between 1 and the Action Characteristics of its Leader".
    Gold Keepers at 1, 2 or 3 Actions fight different duels (it was byte-identical before); under
    DK-actions=one the Characteristic is not read."""
    crows = Combatant(unit("crows"), 12)

    def keepers(actions: int) -> Combatant:
        u = unit("gold-keepers")
        return Combatant(replace(u, profile=replace(u.profile, actions=actions)), 6)

    duels = {k: simulate.simulate_engagement(crows, keepers(k), trials=40_000, seed=4) for k in (1, 2, 3)}
    # most duels end in the first two activations, so the extra Actions show first in how many it takes
    taken = {k: d.activations() for k, d in duels.items()}
    assert taken[1].value > taken[2].value > taken[3].value
    assert taken[1].value - taken[3].value > 20 * max(taken[1].stderr, taken[3].stderr)
    assert not np.array_equal(duels[1].run.counts, duels[3].run.counts)
    one = DrakerysRulings().with_assignments(["DK-actions=one"])
    counts = [simulate.simulate_engagement(crows, keepers(k), rulings=one, trials=5_000, seed=4).run.counts
              for k in (1, 3)]
    assert np.array_equal(counts[0], counts[1])
    # a trace of the twin: the Crows charge, then attack in the same activation, for one Stress
    rng = np.random.default_rng(3)
    first = naive_engagement(rng, crows, keepers(2), trace=True)["trace"][0]
    assert first[0] == "a" and first[1].startswith("charge+attack") and first[2] == 3 + 1 and first[4] == 1


def test_fight_probabilities_by_hand():
    """One Sakhil-like warrior (Health 1) against a unit that cannot hurt back: with threshold 2 on both
    the attack and the injury roll, 1 die kills with 0.9 + 0.1 * (extra die kills) ... check the kernel's
    kill probability of a single die at 6+ to hit and 6+ to wound: P(hit) = 0.5 + 0.1 * P(extra hits)."""
    striker = made_up("Striker", (1, 1, 1, 5, 3, None, 3, 3, 3, 10, 10), ())
    dummy = made_up("Dummy", (1, 0, 1, 1, 3, None, 0, 3, 3, 10, 10), ())
    result = simulate.simulate_fight(Combatant(striker, 1), Combatant(dummy, 1), charge=False,
                                   trials=400_000, seed=9)
    # attack 6+ with the crit chain: hits H has P(H >= 1) = 0.5; an injury needs a wound on each hit
    # P(kill) = sum_h P(H = h) (1 - P(no wound on h dice)); P(no wound on h dice at 6+) = 0.5^h
    from rulesets.drakerys import ActionRoll, exact_action_roll

    hits = exact_action_roll(ActionRoll(1, 6)).successes
    p_kill = sum(p * (1 - 0.5**h) for h, p in enumerate(hits))
    got = result.removed_distribution(1)[1]
    assert abs(got.value - p_kill) < 5 * got.stderr + 1e-12
    assert result.casualty_distribution(1)[1] == got  # the dummy is an Object: no Morale, no scatter


def test_fight_reproducible_across_threads_and_seeds():
    a, b, charge = FIGHTS["crows charge gold keepers"]
    one = simulate.simulate_fight(a, b, charge=charge, trials=70_001, seed=4, threads=1).run.counts
    two = simulate.simulate_fight(a, b, charge=charge, trials=70_001, seed=4, threads=2).run.counts
    other = simulate.simulate_fight(a, b, charge=charge, trials=70_001, seed=5, threads=2).run.counts
    assert np.array_equal(one, two)
    assert not np.array_equal(one, other)


#: Whole fights, shootings and engagements with every roll drawn from its table against the same rolled
#: die by die (simcore.stages' by_die bank): 10^6 trials each, every histogram row compared (slow: run by
#: `make test-slow` and by CI).
WHOLE = 10**6


@pytest.mark.slow
@pytest.mark.parametrize("name", ["crows charge gold keepers", "brute charges horror",
                                  "salik (martial arts, hero) vs crushers", "soldiers block warriors"])
def test_fights_drawn_by_stage_agree_with_fights_rolled_die_by_die(name):
    a, b, charge = FIGHTS[name]
    staged = simulate.simulate_fight(a, b, charge=charge, trials=WHOLE, seed=21)
    by_die = simulate.simulate_fight(a, b, charge=charge, trials=WHOLE, seed=22, by_die=True)
    assert_same(staged.run.counts, by_die.run.counts, [row.name for row in FightRow])


@pytest.mark.slow
@pytest.mark.parametrize("name", ["noctis (multiple shots) at warriors (parry)",
                                  "rockthrowers at spearmen (expert parry)"])
def test_shootings_drawn_by_stage_agree_with_shootings_rolled_die_by_die(name):
    a, b, distance = SHOTS[name]
    kw = dict(distance_cm=distance, weapons=CATALOG.weapons, trials=WHOLE)
    staged = simulate.simulate_shooting(a, b, seed=23, **kw)
    by_die = simulate.simulate_shooting(a, b, seed=24, by_die=True, **kw)
    assert_same(staged.run.counts, by_die.run.counts, [row.name for row in ShootingRow])


@pytest.mark.slow
@pytest.mark.parametrize("name", ["crows charge gold keepers", "bowmen shoot crows from 45 cm"])
def test_engagements_drawn_by_stage_agree_with_engagements_rolled_die_by_die(name):
    a, b, shoot = DUELS[name]
    kw = dict(shoot_from_cm=shoot, weapons=CATALOG.weapons, trials=WHOLE)
    staged = simulate.simulate_engagement(a, b, seed=25, **kw)
    by_die = simulate.simulate_engagement(a, b, seed=26, by_die=True, **kw)
    assert_same(staged.run.counts, by_die.run.counts, [row.name for row in EngagementRow])


def test_a_fight_run_does_not_depend_on_the_tables_its_thread_held_before():
    a, b, charge = FIGHTS["blood banes stressed vs spearmen"]
    first = simulate.simulate_fight(a, b, charge=charge, trials=30_000, seed=8, threads=1).run.counts
    c, d, other = FIGHTS["horror vs sniper (reach)"]
    simulate.simulate_fight(c, d, charge=other, trials=30_000, seed=9, threads=1)
    again = simulate.simulate_fight(a, b, charge=charge, trials=30_000, seed=8, threads=1).run.counts
    assert np.array_equal(again, first)


def test_engagement_precision_stops_early():
    a, b, _ = DUELS["crows charge gold keepers"]
    result = simulate.simulate_engagement(a, b, trials=10**7, seed=1, precision=0.01)
    assert result.run.stopped_by_precision and result.run.trials < 10**7
    assert result.p_wins(0).half_width < 0.01


def test_shooting_ap_destroyed_counts_a_scattered_target_whole():
    """As the Fight and the duel: a target that scatters loses every warrior (it read 17-34% low when only
    the warriors the shot removed were counted)."""
    a, b = Combatant(unit("crossbowmen"), 6, stress=1), Combatant(unit("crows"), 12)
    ap = 160
    result = simulate.simulate_shooting(a, b, distance_cm=35, weapons=CATALOG.weapons, trials=200_000, seed=3)
    scatter = result.morale()["scatter"].value
    assert scatter > 0.01  # the scenario does scatter the Crows
    lost = result.casualty_distribution()
    assert sum(e.value for e in lost) == pytest.approx(1.0)
    assert lost[b.size].value >= scatter  # every scatter is a whole unit lost
    assert result.ap_destroyed(ap).value == pytest.approx(result.casualties().value * ap / b.size)
    only_removed = result.removed().value * ap / b.size
    assert result.ap_destroyed(ap).value > only_removed + 5 * result.ap_destroyed(ap).stderr
    report = shooting_report(result, ap, "crossbowmen", "crows")
    table = report.sections[0].data
    assert set(table.measure) >= {"casualties_B", "removed_B", "morale_B"}


def test_engaged_units_neither_shoot_nor_open_fire():
    """seed 002, SHOOTING: "Prerequisite: The Unit is not Engaged"; at 0 cm the units are in contact."""
    a, b = Combatant(unit("crossbowmen"), 6), Combatant(unit("crows"), 12)
    with pytest.raises(RulesError, match="in contact, so both are Engaged"):
        simulate.simulate_shooting(a, b, distance_cm=0, weapons=CATALOG.weapons, trials=10, seed=1)
    with pytest.raises(RulesError, match="in contact, so both are Engaged"):
        simulate.simulate_engagement(a, b, shoot_from_cm=0, weapons=CATALOG.weapons, trials=10, seed=1)
    assert simulate.check_shot(a, CATALOG.weapons[a.unit.weapon], 1).name


def test_bad_inputs_name_the_value():
    with pytest.raises(RulesError, match="no ranged weapon"):
        simulate.simulate_shooting(Combatant(unit("crows"), 6), Combatant(unit("warriors"), 6),
                                   distance_cm=10, weapons=CATALOG.weapons, trials=10, seed=1)
    with pytest.raises(RulesError, match="reaches 50 cm, not 60 cm"):
        simulate.simulate_shooting(Combatant(unit("irosia-bowmen"), 5), Combatant(unit("crows"), 6),
                                 distance_cm=60, weapons=CATALOG.weapons, trials=10, seed=1)
    with pytest.raises(RulesError, match="injury tokens"):
        Combatant(unit("blood-banes"), 4, injuries=2)
    with pytest.raises(RulesError, match="no Heroic Action"):
        Combatant(unit("crows"), 4, heroic=1)
    with pytest.raises(RulesError, match="no profile"):
        Combatant(unit("scouts"), 6)
    with pytest.raises(RulesError, match="rounds"):
        simulate.simulate_engagement(Combatant(unit("crows"), 6), Combatant(unit("warriors"), 6), rounds=7,
                                   trials=10, seed=1)
    assert replace(Combatant(unit("crows"), 6), stress=3).stress == 3


def test_heavy_loaded_ruling_sets_the_charge_cost():
    """Heavy-Loaded (Spearmen) is read as Jammed by default: the opening Charge costs 3 + 2 TS."""
    spearmen = Combatant(unit("spearmen"), 10)
    none = DrakerysRulings().with_assignments(["DK-heavy-loaded=none"])
    assert charge_ts(spearmen.unit, DrakerysRulings()) == 5
    assert charge_ts(spearmen.unit, none) == 3
    assert charge_ts(unit("crows"), DrakerysRulings()) == 3
    assert side_array(spearmen, DrakerysRulings(), None)[Side.CHARGE_TS] == 5
    assert side_array(spearmen, none, None)[Side.CHARGE_TS] == 3
    # one round: Spearmen charge once (5 TS, then more Stress), the Crows answer; a round is 16 TS, so
    # with the ruling the Spearmen spend more TS per activation on average
    jammed = simulate.simulate_engagement(spearmen, Combatant(unit("crows"), 12), trials=20_000, seed=2)
    free = simulate.simulate_engagement(spearmen, Combatant(unit("crows"), 12), rulings=none, trials=20_000,
                                      seed=2)
    assert jammed.ts_spent(0).value - free.ts_spent(0).value > 1.0
    # the opening Charge's TS, trial by trial (one Action per activation: the Charge alone)
    one = DrakerysRulings().with_assignments(["DK-actions=one"])
    records = simulate.engagement_records(spearmen, Combatant(unit("crows"), 12), rulings=one, trials=500,
                                        seed=2)
    assert set(records.opening_ts().tolist()) == {5}


def test_is_object():
    assert is_object(unit("prisoner-cage"))
    assert not is_object(unit("crows"))
    assert is_object(made_up("Totem", (1, 0, 1, 1, 1, None, 1, 1, 1, 0, 0), ()))


def test_codes_line_up_as_the_kernels_rely_on():
    """A win's code is X_WINS_SCATTER + the loser's Morale code; the histogram rows cover every enum."""
    for morale in (Morale.SCATTER, Morale.STRESS, Morale.DOUBT, Morale.STEADY):
        assert FightOutcome.A_WINS_SCATTER + morale == FightOutcome[f"A_WINS_{morale.name}"]
        assert FightOutcome.B_WINS_SCATTER + morale == FightOutcome[f"B_WINS_{morale.name}"]
    assert [r.value for r in Record] == list(range(13))
    assert [r.value for r in Side] == list(range(len(Side)))


# --- named views ------------------------------------------------------------------------------------------


def test_fight_views_add_up():
    a, b, charge = FIGHTS["crows charge gold keepers"]
    result = simulate.simulate_fight(a, b, charge=charge, trials=50_000, seed=6)
    total = (result.p_wins(0).value + result.p_wins(1).value + result.p_draw().value
             + result.p_both_destroyed().value)
    assert total == pytest.approx(1.0, abs=1e-12)
    for side, c in enumerate((a, b)):
        morale = result.morale(side)
        assert list(morale) == ["scatter", "stress", "doubt", "steady", "destroyed", "no roll"]
        assert sum(e.value for e in morale.values()) == pytest.approx(1.0, abs=1e-12)
        dist = result.casualty_distribution(side)
        assert len(dist) == c.size + 1
        assert sum(e.value for e in dist) == pytest.approx(1.0, abs=1e-12)
        mean = sum(k * e.value for k, e in enumerate(dist))
        assert result.casualties(side).value == pytest.approx(mean, abs=1e-12)
        assert result.ap_destroyed(side, 120).value == pytest.approx(mean * 120 / c.size, abs=1e-12)
        assert result.injuries_inflicted(side).value >= 0
    # a scatter makes B lose every warrior: P(B lost all) >= P(B scattered)
    assert result.casualty_distribution(1)[-1].value >= result.morale(1)["scatter"].value
    with pytest.raises(ValueError, match="side"):
        result.p_wins(2)


def test_engagement_views_add_up():
    a, b, _ = DUELS["crows charge gold keepers"]
    result = simulate.simulate_engagement(a, b, trials=20_000, seed=6)
    total = (result.p_wins(0).value + result.p_wins(1).value + result.p_neither().value
             + result.p_both_destroyed().value)
    assert total == pytest.approx(1.0, abs=1e-12)
    assert result.casualties(1).value * 200 / b.size == pytest.approx(result.ap_destroyed(1, 200).value)
    assert result.ts_spent(0).value > 0 and result.activations().value >= 1
    assert result.injuries_suffered(1).value > 0


# --- engagement records: per-trial streams, common random numbers ------------------------------------------


def record_histogram(records: np.ndarray, column: Record, width: int) -> np.ndarray:
    """What the histogram driver counts: values past the end in the last column."""
    return np.bincount(np.minimum(records[:, column], width - 1), minlength=width)


@pytest.mark.parametrize("name", ["crows charge gold keepers", "bowmen shoot crows from 45 cm"])
def test_engagement_records_agree_exactly_with_the_histogram_driver(name):
    """Trial t runs on the trial stream (seed, t) in both drivers, so the duel verb's histograms are the
    records' columns counted."""
    a, b, shoot = DUELS[name]
    trials = 2 * config.CHUNK_TRIALS + 123  # not a multiple of the chunk or block size
    hist = simulate.simulate_engagement(a, b, shoot_from_cm=shoot, weapons=CATALOG.weapons, trials=trials,
                                      seed=21)
    rec = simulate.engagement_records(a, b, shoot_from_cm=shoot, weapons=CATALOG.weapons, trials=trials,
                                    seed=21)
    assert rec.records.shape == (trials, len(Record)) and rec.run.trials == trials
    width = hist.run.counts.shape[1]
    for row, column in RECORD_OF_ROW.items():
        np.testing.assert_array_equal(record_histogram(rec.records, column, width), hist.run.counts[row],
                                      err_msg=row.name)
    # the views read the right columns
    np.testing.assert_array_equal(rec.outcome(), rec.records[:, Record.OUTCOME])
    np.testing.assert_array_equal(rec.lost(1), rec.records[:, Record.LOST_1])
    np.testing.assert_array_equal(rec.injuries(0), rec.records[:, Record.INJURIES_0])
    np.testing.assert_array_equal(rec.ts(1), rec.records[:, Record.TS_1])
    np.testing.assert_array_equal(rec.opening_injuries(1), rec.records[:, Record.OPENING_INJURIES_1])


@pytest.mark.skipif(not TWO_THREADS, reason="only one thread available")
def test_engagement_records_do_not_depend_on_threads():
    a, b, _ = DUELS["soldiers charge warriors"]
    one = simulate.engagement_records(a, b, trials=30_001, seed=8, threads=1)
    two = simulate.engagement_records(a, b, trials=30_001, seed=8, threads=2)
    np.testing.assert_array_equal(one.records, two.records)
    other = simulate.engagement_records(a, b, trials=30_001, seed=9, threads=2)
    assert not np.array_equal(one.records, other.records)


@pytest.mark.parametrize("name", ["crows charge gold keepers", "noctis shoots spearmen, heroic"])
def test_engagement_records_match_naive_twin(name):
    a, b, shoot = DUELS[name]
    rec = simulate.engagement_records(a, b, shoot_from_cm=shoot, weapons=CATALOG.weapons,
                                    trials=KERNEL_TRIALS // 2, seed=stable_seed(name))
    width = simulate._width(a, b)
    naive = naive_rows(naive_duels(name, NAIVE_TRIALS // 2, seed=stable_seed(name)), DUEL_KEYS, width)
    kernel = np.vstack([record_histogram(rec.records, column, width) for column in RECORD_OF_ROW.values()])
    assert_same(kernel, naive, DUEL_KEYS)


OPENING_TS = {"crows charge gold keepers": 3, "noctis shoots spearmen, heroic": 1}


@pytest.mark.parametrize("name", list(OPENING_TS))
def test_engagement_records_opening_matches_the_naive_opening_action(name):
    """The opening columns are side 0's first action alone: a Charge Fight with the loser's Morale (or a
    Shooting with the target's), as the twin's naive_fight (naive_shooting) plays it."""
    a, b, shoot = DUELS[name]
    rec = simulate.engagement_records(a, b, shoot_from_cm=shoot, weapons=CATALOG.weapons,
                                    trials=KERNEL_TRIALS // 2, seed=stable_seed(name) + 1)
    rng = np.random.default_rng(stable_seed(name) + 1)
    naive = []
    for _ in range(NAIVE_TRIALS):
        if shoot is None:
            o = naive_fight(rng, a, b, charge=True, blocking_masks=block_masks(a, b))
            naive.append({"lost_a": a.size - o["alive_a"], "lost_b": b.size - o["alive_b"],
                          "injuries_a": o["inflicted_b"], "injuries_b": o["inflicted_a"]})
        else:
            o = naive_shooting(rng, a, b, CATALOG.weapons[a.unit.weapon], shoot)
            naive.append({"lost_a": 0, "lost_b": b.size - o["alive"], "injuries_a": 0,
                          "injuries_b": o["inflicted"]})
    width = simulate._width(a, b)
    columns = {"lost_a": Record.OPENING_LOST_0, "lost_b": Record.OPENING_LOST_1,
               "injuries_a": Record.OPENING_INJURIES_0, "injuries_b": Record.OPENING_INJURIES_1}
    kernel = np.vstack([record_histogram(rec.records, column, width) for column in columns.values()])
    assert_same(kernel, naive_rows(naive, list(columns), width), list(columns))
    # the opening is part of the whole: nobody loses more in it than in all
    assert np.all(rec.opening_lost(0) <= rec.lost(0)) and np.all(rec.opening_lost(1) <= rec.lost(1))
    assert np.all(rec.opening_injuries(1) <= rec.injuries(1))
    # a Charge: 3 TS; Noctis's Shooting: 1 TS + 1 per Heroic Action die - 1 for Quick Shot
    assert set(rec.opening_ts().tolist()) == {OPENING_TS[name]}


def combat_variant(c: Combatant, combat_value: int) -> Combatant:
    u = c.unit
    return replace(c, unit=replace(u, profile=replace(u.profile, combat=combat_value)))


def test_engagement_records_are_common_random_numbers():
    """Two engagements that differ only in side 0's Combat (3 vs 4) meet the same dice trial by trial, so
    their outcomes are strongly correlated and the paired difference is far more precise than the
    difference of two independent runs."""
    a, b, _ = DUELS["crows charge gold keepers"]
    assert a.unit.profile.combat == 3
    trials = 40_000
    base = simulate.engagement_records(a, b, trials=trials, seed=12)
    again = simulate.engagement_records(a, b, trials=trials, seed=12)
    np.testing.assert_array_equal(base.records, again.records)
    stronger = simulate.engagement_records(combat_variant(a, 4), b, trials=trials, seed=12)
    win_base = base.outcome() == EngagementOutcome.SIDE_0_WINS
    win_strong = stronger.outcome() == EngagementOutcome.SIDE_0_WINS
    # measured at 40,000 trials: correlation 0.56 of the win indicators (seeds 12, 13, 14: 0.562, 0.564,
    # 0.564; standard error about 0.004); independent seeds: |correlation| <= 0.013
    assert np.corrcoef(win_base, win_strong)[0, 1] > 0.45
    independent = simulate.engagement_records(a, b, trials=trials, seed=13)
    assert abs(np.corrcoef(win_base, independent.outcome() == EngagementOutcome.SIDE_0_WINS)[0, 1]) < 0.03
    # Combat +1 helps: P(win) rises, and trials where the stronger unit loses but the baseline wins are few
    assert win_strong.mean() > win_base.mean() + 0.03
    assert np.mean(win_base & ~win_strong) < 0.5 * np.mean(win_strong & ~win_base)


def test_engagement_records_precision_stops_where_the_duel_verb_does():
    a, b, _ = DUELS["crows charge gold keepers"]
    rec = simulate.engagement_records(a, b, trials=config.MAX_RECORD_TRIALS, seed=1, precision=0.01)
    hist = simulate.simulate_engagement(a, b, trials=config.MAX_RECORD_TRIALS, seed=1, precision=0.01)
    assert rec.run.stopped_by_precision and rec.run.trials < config.MAX_RECORD_TRIALS
    # the same trials on the same streams, batched alike: the same stop and the same estimate
    assert rec.run.trials == hist.run.trials
    wins = int(np.count_nonzero(rec.outcome() == EngagementOutcome.SIDE_0_WINS))
    assert wins == hist.run.counts[EngagementRow.OUTCOME, EngagementOutcome.SIDE_0_WINS]
    if TWO_THREADS:
        one = simulate.engagement_records(a, b, trials=config.MAX_RECORD_TRIALS, seed=1, precision=0.01,
                                        threads=1)
        np.testing.assert_array_equal(one.records, rec.records)


def test_engagement_records_validate_like_the_duel():
    crows, warriors = Combatant(unit("crows"), 6), Combatant(unit("warriors"), 6)
    with pytest.raises(RulesError, match="rounds"):
        simulate.engagement_records(crows, warriors, rounds=7, trials=10, seed=1)
    with pytest.raises(RulesError, match="no ranged weapon"):
        simulate.engagement_records(crows, warriors, shoot_from_cm=10, weapons=CATALOG.weapons, trials=10,
                                  seed=1)
    with pytest.raises(RulesError, match="MAX_RECORD_TRIALS"):
        simulate.engagement_records(crows, warriors, trials=config.MAX_RECORD_TRIALS + 1, seed=1)
    with pytest.raises(RulesError, match="seed"):
        simulate.engagement_records(crows, warriors, trials=10, seed=-1)


def test_heroic_dice_join_the_active_units_action_only_by_default():
    """HEROIC ACTION: "Every extra D10 increases the cost of the Action by 1 TS". The Active Unit's dice
    raise its Action's cost; the unit that fights back has no Action, so by default (DK-heroic-passive=none)
    it adds none, and with own-ts it adds them and pays 1 TS each on its own token."""
    hero = Combatant(unit("salik"), 1, heroic=3)
    crushers = Combatant(unit("crushers"), 2)
    # Salik fights back against a Charge: its dice are not rolled by default, as if it had none
    plain = simulate.simulate_fight(crushers, replace(hero, heroic=0), charge=True, trials=50_000, seed=6)
    passive = simulate.simulate_fight(crushers, hero, charge=True, trials=50_000, seed=6)
    assert np.array_equal(plain.run.counts, passive.run.counts)
    own = DrakerysRulings().with_assignments(["DK-heroic-passive=own-ts"])
    paying = simulate.simulate_fight(crushers, hero, charge=True, rulings=own, trials=50_000, seed=6)
    assert paying.injuries_inflicted(1).value > passive.injuries_inflicted(1).value + 10 * (
        paying.injuries_inflicted(1).stderr + passive.injuries_inflicted(1).stderr)
    # in a duel, paying for them moves Salik's token: more TS spent, the same as the naive twin's
    duel = simulate.simulate_engagement(crushers, hero, rulings=own, trials=KERNEL_TRIALS // 4, seed=3)
    free = simulate.simulate_engagement(crushers, hero, trials=KERNEL_TRIALS // 4, seed=3)
    assert duel.ts_spent(1).value > free.ts_spent(1).value + 5 * duel.ts_spent(1).stderr
    naive = naive_duel_rows(crushers, hero, NAIVE_TRIALS // 4, 12, duel.run.counts.shape[1],
                            heroic_passive="own-ts")
    assert_same(duel.run.counts[list(DUEL_ROWS)], naive, DUEL_KEYS)


def test_frontage_in_contact_and_supporting_the_others_do_not_attack():
    """FIGHTING: supporting warriors "make Attacks, but with Power = 1. The other Warriors do not Attack."
    DK-frontage=C/S: C in contact, S supporting, no dice from the rest (C alone: every other supports)."""
    rulings = DrakerysRulings().with_assignments(["DK-frontage=3/1"])
    assert rulings.frontage == "3/1" and "DK-frontage=3/1" in rulings.describe()
    for bad in ("0/1", "3/-1", "x/2", "3/"):
        with pytest.raises(RulesError):
            DrakerysRulings().with_assignments([f"DK-frontage={bad}"])
    crows, keepers = Combatant(unit("crows"), 12), Combatant(unit("gold-keepers"), 6)
    row = side_array(crows, rulings, None)
    assert (row[Side.FRONTAGE], row[Side.SUPPORT]) == (3, 1)
    three = DrakerysRulings().with_assignments(["DK-frontage=3"])
    row = side_array(crows, three, None)
    assert (row[Side.FRONTAGE], row[Side.SUPPORT]) == (3, -1)
    few = simulate.simulate_fight(crows, keepers, charge=True, rulings=rulings, trials=KERNEL_TRIALS, seed=5)
    more = simulate.simulate_fight(crows, keepers, charge=True, rulings=three, trials=KERNEL_TRIALS, seed=5)
    # 12 Crows: 3 x Power 1 + 1 supporting = 4 dice, against 3 + 9 = 12: far fewer injuries
    assert more.injuries_inflicted(0).value - few.injuries_inflicted(0).value > 20 * (
        more.injuries_inflicted(0).stderr + few.injuries_inflicted(0).stderr)
    rng = np.random.default_rng(21)
    outcomes = [naive_fight(rng, crows, keepers, charge=True, frontage="3/1") for _ in range(NAIVE_TRIALS)]
    rows = [FightRow.REMOVED_0, FightRow.REMOVED_1, FightRow.OUTCOME, FightRow.INFLICTED_0,
            FightRow.INFLICTED_1]
    naive = naive_rows(outcomes, ["kills_b", "kills_a", "result", "inflicted_a", "inflicted_b"],
                       few.run.counts.shape[1])
    assert_same(few.run.counts[rows], naive, [row.name for row in rows])


def test_blocking_is_a_policy_and_auto_takes_the_better_choice_per_kind_of_fight():
    """BLOCKING "The Unit can use this Skill": DK-blocking=always, never, or auto (the default): for each
    kind of Fight, block when that wins the Fight more often, on the same dice. Soldiers charging Warriors
    won 2.6% of duels blocking always (it was the only choice) and about 20% never blocking."""
    soldiers, warriors = Combatant(unit("soldiers"), 6), Combatant(unit("warriors"), 6)
    duel = {policy: simulate.simulate_engagement(
        soldiers, warriors, rulings=DrakerysRulings().with_assignments([f"DK-blocking={policy}"]),
        trials=40_000, seed=7).p_wins(0) for policy in ("always", "never", "auto")}
    assert duel["never"].value - duel["always"].value > 0.1
    assert duel["auto"].value >= duel["always"].value
    # auto: each bit is the better of blocking and attacking in that kind of Fight (an independent check on
    # other dice and more Fights)
    always = DrakerysRulings().with_assignments(["DK-blocking=always"])
    for other in (warriors, Combatant(unit("crows"), 12), Combatant(unit("gold-keepers"), 6)):
        mask = simulate.auto_block_mask(soldiers, other, DrakerysRulings())
        for kind in BlockIn:
            active = kind in (BlockIn.CHARGING, BlockIn.ATTACKING)
            charge = kind in (BlockIn.CHARGING, BlockIn.CHARGED)
            won = []
            for blocks in (True, False):
                mine = replace(soldiers, blocking=blocks)
                a, b = (mine, other) if active else (other, mine)
                won.append(simulate.simulate_fight(a, b, charge=charge, rulings=always, trials=100_000,
                                                 seed=99).p_wins(0 if active else 1))
            if abs(won[0].value - won[1].value) > 5 * (won[0].stderr + won[1].stderr):
                assert bool(mask >> kind & 1) == (won[0].value > won[1].value), (other.unit.name, kind.name)
    # a unit without the skill, or told not to block, never blocks whatever the policy
    assert block_masks(warriors, soldiers, always)[0] == 0
    assert block_masks(replace(soldiers, blocking=False), warriors, always)[0] == 0
    assert block_masks(soldiers, warriors, always)[0] == BLOCK_ALWAYS


@pytest.mark.parametrize(("shooter", "target", "start"), [("irosia-bowmen", "crows", 30),
                                                          ("crows", "crossbowmen", 40)])
def test_engagement_from_a_distance_matches_the_naive_twin(shooter, target, start):
    """The units start ``start`` cm apart; each Action is the unit's best available one: Attack when
    Engaged, else Shooting in range, else Charge within reach, else March (DK-engagement-start)."""
    a, b = Combatant(unit(shooter), unit(shooter).standard_size.size), Combatant(unit(target), 12)
    weapons = [CATALOG.weapons[c.unit.weapon] if c.unit.weapon else None for c in (a, b)]
    result = simulate.simulate_engagement(a, b, start_cm=start, weapons=CATALOG.weapons,
                                        trials=KERNEL_TRIALS // 2, seed=11)
    naive = naive_duel_rows(a, b, NAIVE_TRIALS // 2, 13, result.run.counts.shape[1], start_cm=start,
                            a_weapon=weapons[0], b_weapon=weapons[1], blocking_masks=block_masks(a, b))
    assert_same(result.run.counts[list(DUEL_ROWS)], naive, DUEL_KEYS)
    # a shooter starting in range opens fire: its first activation spends Shooting TS, not a Charge's
    if a.unit.weapon:
        rec = simulate.engagement_records(a, b, start_cm=start, weapons=CATALOG.weapons, trials=200, seed=1)
        assert set(rec.opening_ts().tolist()) <= {1, 2}
    with pytest.raises(RulesError, match="not both"):
        simulate.simulate_engagement(a, b, start_cm=start, shoot_from_cm=20, weapons=CATALOG.weapons,
                                     trials=10, seed=1)


def test_heavy_crossbow_ignores_parry_as_the_twin_does():
    """RANGED WEAPONS, Heavy crossbow: "The targeted Unit cannot use its Parry and Expert Parry Skills until
    the end of the Shot." No unit of the book carries one: Crossbowmen given one shoot Expert-Parry
    Spearmen, kernel against twin, and the shot really depends on the rule (without it, fewer injuries)."""
    heavy = CATALOG.weapons["heavy-crossbow"]
    assert heavy.ignores_parry
    a = Combatant(replace(unit("crossbowmen"), weapon="heavy-crossbow"), 6)
    b = Combatant(unit("spearmen"), 10)
    distance = min(30, heavy.max_range_cm)
    result = simulate.simulate_shooting(a, b, distance_cm=distance, weapons=CATALOG.weapons,
                                      trials=KERNEL_TRIALS, seed=17)
    rng = np.random.default_rng(17)
    outcomes = [naive_shooting(rng, a, b, heavy, distance) for _ in range(NAIVE_TRIALS)]
    for o in outcomes:
        o["morale_code"] = Morale.NO_ROLL if o["morale"] is None else Morale[o["morale"].upper()]
    rows = [ShootingRow.REMOVED, ShootingRow.INFLICTED, ShootingRow.MORALE]
    naive = naive_rows(outcomes, ["kills", "inflicted", "morale_code"], result.run.counts.shape[1])
    assert_same(result.run.counts[rows], naive, [row.name for row in rows])
    parried = {**CATALOG.weapons, "heavy-crossbow": replace(heavy, ignores_parry=False)}
    without = simulate.simulate_shooting(a, b, distance_cm=distance, weapons=parried, trials=KERNEL_TRIALS,
                                       seed=17)
    assert result.injuries_inflicted().value > without.injuries_inflicted().value + 10 * (
        result.injuries_inflicted().stderr + without.injuries_inflicted().stderr)


def test_dreadful_units_are_immune_to_dreadful():
    """DREADFUL: enemies engaged with the unit "suffer Willpower -1. The Units endowed with this Skill are
    immune to it." Two Horrors fight; the loser's Morale is as if no one were Dreadful, and differs from a
    Horror-like unit without the skill (which suffers the -1), kernel and twin alike."""
    # Horrors without the skill
    other = made_up("Other", (2, 3, 3, 2, 4, None, 5, 5, 4, 10, 15), (), ("Monster",))
    plain = made_up("Plain", (2, 3, 3, 2, 4, None, 5, 5, 4, 10, 15), (), ("Monster",))
    horrors = simulate.simulate_fight(Combatant(HORROR, 3), Combatant(HORROR, 3), charge=True,
                                    trials=KERNEL_TRIALS, seed=23)
    nobody = simulate.simulate_fight(Combatant(plain, 3), Combatant(plain, 3), charge=True,
                                   trials=KERNEL_TRIALS, seed=23)
    scared = simulate.simulate_fight(Combatant(HORROR, 3), Combatant(other, 3), charge=True,
                                   trials=KERNEL_TRIALS, seed=23)
    assert np.array_equal(horrors.run.counts, nobody.run.counts)  # immune: the very same Fights
    scatter = [r.morale(1)["scatter"] for r in (nobody, scared)]
    assert scatter[1].value > scatter[0].value + 5 * (scatter[0].stderr + scatter[1].stderr)
    rng = np.random.default_rng(23)
    outcomes = [naive_fight(rng, Combatant(HORROR, 3), Combatant(HORROR, 3), charge=True)
                for _ in range(NAIVE_TRIALS)]
    rows = [FightRow.OUTCOME, FightRow.INFLICTED_0, FightRow.INFLICTED_1]
    naive = naive_rows(outcomes, ["result", "inflicted_a", "inflicted_b"], horrors.run.counts.shape[1])
    assert_same(horrors.run.counts[rows], naive, [row.name for row in rows])


@pytest.mark.parametrize("rounds", [1, 2, 6])
def test_a_duel_that_reaches_the_end_of_the_game(rounds):
    """RESTRICTIONS OF ACTIONS, last round: "a Unit cannot be selected if its Activation leads the
    Activation Token of its Army to go beyond the START square"; then "the Activation Token is directly
    placed on the START square". Two units that cannot hurt each other play every round: the kernel
    spends, trial by trial, exactly the TS and activations of the twin (which plays it deterministically)."""
    wall = made_up("Wall", (2, 1, 1, 3, 3, None, 1, 10, 10, 10, 15), ("expert_parry",))
    a, b = Combatant(wall, 3, authority=50), Combatant(wall, 3, authority=50)  # Authority: no Morale loss
    rec = simulate.engagement_records(a, b, rounds=rounds, trials=200, seed=5)
    twin = naive_engagement(np.random.default_rng(5), a, b, rounds=rounds, blocking_masks=(0, 0))
    assert twin["outcome"] == "neither" and twin["position_a"] == twin["position_b"] == 16 * rounds
    assert set(rec.outcome().tolist()) == {int(EngagementOutcome.NEITHER)}
    assert set(rec.ts(0).tolist()) == {twin["ts_a"]} and set(rec.ts(1).tolist()) == {twin["ts_b"]}
    assert set(rec.activations().tolist()) == {twin["activations"]}
    if rounds == 6:  # an activation landing exactly on the last START is allowed (">", not ">=")
        assert twin["ts_a"] == 96


def test_blocking_does_not_cancel_deadly_blow_injuries():
    """BLOCKING cancels hits; DEADLY BLOW: "Every Critical Success ... automatically inflicts an Injury",
    with no injury roll for Blocking to stop. A wall of blockers that cancels every plain hit still suffers
    the Killer's criticals, kernel and twin alike."""
    killer = made_up("Killer", (1, 2, 1, 5, 3, None, 3, 3, 10, 10, 15), ("deadly_blow",))
    blocker = made_up("Blocker", (1, 3, 1, 1, 9, None, 1, 3, 10, 10, 15), ("blocking",))
    a, b = Combatant(killer, 6), Combatant(blocker, 12)
    always = DrakerysRulings().with_assignments(["DK-blocking=always"])
    result = simulate.simulate_fight(a, b, charge=False, rulings=always, trials=KERNEL_TRIALS, seed=29)
    # 12 dice at 2+ against at most a dozen hits: blocks cancel nearly every plain hit, so what the Killer
    # inflicts is its criticals (12 dice, about 1.33 tens each way with chains): well above zero
    assert result.injuries_inflicted(0).value > 0.8
    rng = np.random.default_rng(29)
    outcomes = [naive_fight(rng, a, b, charge=False, blocking_masks=(0, BLOCK_ALWAYS))
                for _ in range(NAIVE_TRIALS)]
    rows = [FightRow.INFLICTED_0, FightRow.REMOVED_1, FightRow.OUTCOME]
    naive = naive_rows(outcomes, ["inflicted_a", "kills_a", "result"], result.run.counts.shape[1])
    assert_same(result.run.counts[rows], naive, [row.name for row in rows])


def test_safeguard_with_a_guard_moves_injuries_on_six_to_nine():
    """SAFEGUARD: one d10 per injury, a 10 cancels it and, with an escorting Guard unit in cohesion, a 6 to
    9 moves it there: each injury then stays with probability 1/2 (9/10 without the Guard). Crossbowmen
    shoot Sakhil alone (Health 1): the kernel's removals follow the twin's, and the Guard's 6-9 (the whole
    of 6 included: a 7-9 reading would keep 6/10) shows in the numbers."""
    shooters = Combatant(unit("crossbowmen"), 12)
    weapon = CATALOG.weapons[shooters.unit.weapon]
    guarded, alone = Combatant(unit("sakhil"), 1, guard=True), Combatant(unit("sakhil"), 1)
    assert guarded.unit.has("safeguard")
    results = {}
    for name, target in (("guarded", guarded), ("alone", alone)):
        results[name] = simulate.simulate_shooting(shooters, target, distance_cm=20, weapons=CATALOG.weapons,
                                                 trials=KERNEL_TRIALS, seed=31)
    rng = np.random.default_rng(31)
    outcomes = [naive_shooting(rng, shooters, guarded, weapon, 20) for _ in range(NAIVE_TRIALS)]
    for o in outcomes:
        o["morale_code"] = Morale.NO_ROLL if o["morale"] is None else Morale[o["morale"].upper()]
    rows = [ShootingRow.REMOVED, ShootingRow.INFLICTED]
    naive = naive_rows(outcomes, ["kills", "inflicted"], results["guarded"].run.counts.shape[1])
    assert_same(results["guarded"].run.counts[rows], naive, [row.name for row in rows])
    # P(Sakhil survives) = sum_k P(k injuries) q^k, q = 1/2 with the Guard, 1/10 alone: from the injuries'
    # own histogram, exactly as the rule says, against the kernel's removals
    injuries = results["guarded"].run.counts[ShootingRow.INFLICTED]
    k = np.arange(injuries.size)
    for name, stays in (("guarded", 0.5), ("alone", 0.9)):
        counts = results[name].run.counts
        expected = float(np.dot(counts[ShootingRow.INFLICTED], (1 - stays) ** k)) / counts[0].sum()
        survived = results[name].removed_distribution()[0]
        assert abs(survived.value - expected) < 5 * survived.stderr + 1e-9, name
    assert results["guarded"].removed_distribution()[0].value > 0.2  # the Guard matters in this scenario


def test_fight_report_numbers_from_a_tiny_histogram_by_hand():
    """The report layer on four hand-made Fights of 12 Crows (160 AP) against 6 Gold Keepers (150 AP):
    every figure computed by hand from the four trials, so a number credited to the wrong side, divided by
    the wrong size or missing a scatter shows."""
    a, b = Combatant(unit("crows"), 12), Combatant(unit("gold-keepers"), 6)
    trials = [  # (outcome, removed A, removed B, casualties A, casualties B, inflicted A, inflicted B)
        (FightOutcome.A_WINS_SCATTER, 1, 2, 1, 6, 3, 1),  # B scatters: its other 4 warriors are lost too
        (FightOutcome.B_DESTROYED, 0, 6, 0, 6, 7, 0),
        (FightOutcome.DRAW, 0, 0, 0, 0, 0, 0),
        (FightOutcome.B_WINS_DOUBT, 2, 1, 2, 1, 1, 2),
    ]
    counts = np.zeros((len(FightRow), 20), dtype=np.int64)
    for outcome, rem_a, rem_b, lost_a, lost_b, inf_a, inf_b in trials:
        for row, value in ((FightRow.OUTCOME, outcome), (FightRow.REMOVED_0, rem_a),
                           (FightRow.REMOVED_1, rem_b), (FightRow.CASUALTIES_0, lost_a),
                           (FightRow.CASUALTIES_1, lost_b), (FightRow.INFLICTED_0, inf_a),
                           (FightRow.INFLICTED_1, inf_b)):
            counts[row, value] += 1
    run = runner.RunResult(counts, 4, 0, 1, 4, None, False)
    result = simulate.FightResult(a, b, True, DrakerysRulings(), run)
    assert result.p_wins(0).value == 2 / 4 and result.p_wins(1).value == 1 / 4
    assert result.p_draw().value == 1 / 4 and result.p_both_destroyed().value == 0
    assert result.casualties(1).value == (6 + 6 + 0 + 1) / 4
    assert result.ap_destroyed(1, 150).value == pytest.approx((6 + 6 + 0 + 1) / 4 * 150 / 6)
    assert result.ap_destroyed(0, 160).value == pytest.approx((1 + 0 + 0 + 2) / 4 * 160 / 12)
    assert result.injuries_inflicted(0).value == (3 + 7 + 0 + 1) / 4
    assert result.morale(1)["scatter"].value == 1 / 4 and result.morale(0)["doubt"].value == 1 / 4
    report = fight_report(result, 160, 150, "A", "B")
    meta = dict(report.meta)
    assert meta["AP destroyed by A"].startswith(f"{(6 + 6 + 0 + 1) / 4 * 150 / 6:.4f}")
    assert meta["AP destroyed by B"].startswith(f"{(1 + 0 + 0 + 2) / 4 * 160 / 12:.4f}")


def test_a_march_longer_than_the_charge_stops_short_of_contact():
    """A unit whose March outruns its Charge (a user catalog may give one) marches up to the enemy but not
    into contact: at 1 cm the units are not Engaged, so the Bowmen still shoot (at 0 cm they could not).
    One Action per activation (DK-actions=one), so the Bowmen act right after the march. Kernel against the
    twin, with a check that the scenario does that."""
    crows, bowmen = unit("crows"), unit("irosia-bowmen")
    runner = replace(crows, profile=replace(crows.profile, march=40, charge=5))
    a, b = Combatant(runner, 12), Combatant(bowmen, bowmen.standard_size.size)
    one = DrakerysRulings().with_assignments(["DK-actions=one"])
    weapon = CATALOG.weapons[bowmen.weapon]
    result = simulate.simulate_engagement(a, b, start_cm=30, rulings=one, weapons=CATALOG.weapons,
                                        trials=KERNEL_TRIALS // 2, seed=12)
    naive = naive_duel_rows(a, b, NAIVE_TRIALS // 2, 14, result.run.counts.shape[1], start_cm=30,
                            b_weapon=weapon, blocking_masks=block_masks(a, b, one), actions="one")
    assert_same(result.run.counts[list(DUEL_ROWS)], naive, DUEL_KEYS)
    trace = naive_engagement(np.random.default_rng(3), a, b, start_cm=30, b_weapon=weapon,
                             blocking_masks=block_masks(a, b, one), actions="one", trace=True)["trace"]
    assert [step[:2] for step in trace[:2]] == [("a", "march"), ("b", "shoot")]


def test_a_side_row_is_made_once_and_cannot_be_changed_by_its_users():
    """side_array is cached per combatant, rulings and weapon: the row is shared, so it is read-only (the
    kernels' side array is a copy, which combat then narrows under DK-blocking=auto)."""
    crows = Combatant(unit("crows"), 12)
    row = side_array(crows, DrakerysRulings(), None)
    assert side_array(Combatant(unit("crows"), 12), DrakerysRulings(), None) is row
    with pytest.raises(ValueError, match="read-only"):
        row[Side.SIZE] = 6
    assert side_array(Combatant(unit("crows"), 6), DrakerysRulings(), None)[Side.SIZE] == 6
    assert row[Side.SIZE] == 12
