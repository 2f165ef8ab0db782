"""Dragonbond for the Python API (reports.api): its standard tables, rolls, duels and catalog as Reports."""

from __future__ import annotations

from pathlib import Path

from reports.formats import Report
from reports.tables import Rounding
from rulesets.base import OptionError
from rulesets.dragonbond.rules import DragonbondRulings
from simcore import config


def table_report(name: str, data, rounding: Rounding) -> Report:
    """A standard table (its data: rulesets.dragonbond.tables) as a Report, its probabilities kept whole,
    with its views for reading rounded by ``rounding``."""
    from reports.dragonbond.tables import table_report as report

    return report(name, data, rounding)


def has_plot(name: str) -> bool:
    return False


def table_plot(name: str, data, path: Path) -> None:
    raise OptionError(f"the Dragonbond table {name!r} has no plot")


def _pool(text: str, option: str, kind: str = "action"):
    """A pool as typed ("3G 3W"); a malformed one is an OptionError naming ``option``."""
    from rulesets.base import RulesError
    from rulesets.dragonbond.dice import parse_pool

    try:
        return parse_pool(text, kind)
    except RulesError as exc:
        raise OptionError(f"{option}: {exc}") from None


def _flag(keyword: str, flag: str | None = None) -> str:
    from reports.cli.options import option_name

    return option_name(keyword, flag)


def _mc(trials, precision, seed) -> tuple[bool, int, int]:
    """(simulate?, trials or cap, seed) as the command line settles them."""
    from reports.cli.options import monte_carlo_settings

    return monte_carlo_settings(trials, precision, seed)


def roll_pool(*, dice: str, up: int = 0, down: int = 0, sharp: bool = False, defense: bool = False,
              rulings=()) -> Report:
    """A pool of action dice (`balance roll dragonbond pool DICE`), exact: the pool after its upgrades and
    downgrades and the joint distribution of its successes, double successes and criticals.

    Keywords: ``dice`` ("3G 3W", the rulebook's notation), ``up``, ``down`` (upgrades, downgrades),
    ``sharp`` (a Sharp unit's dice), ``defense`` (the dice are defense dice, "1B 2W 1R", and their blocks),
    ``rulings``."""
    from reports.dragonbond.tables import blocks_report, pool_report

    in_force = DragonbondRulings().with_assignments(rulings)
    if defense:
        if sharp:
            raise OptionError(f"{_flag('sharp')} is a keyword of attack dice, not of defense dice")
        return blocks_report(_pool(dice, _flag("dice", "DICE"), "defense"), up, down, in_force)
    return pool_report(_pool(dice, _flag("dice", "DICE")), up, down, in_force, sharp)


def _engaged_defense(text: str):
    """A unit engaged with the target, as "DICE:COLOUR" (1:black)."""
    from rulesets.dragonbond.exact import Defense

    dice, _, colour = text.partition(":")
    if not dice.strip().isdigit() or colour.strip().lower() not in COLOURS:
        raise OptionError(f"{_flag('also_engaged')} {text!r}: accepted DICE:COLOUR, e.g. 1:black (colours "
                          "red, white, black)")
    return Defense(int(dice), COLOURS.index(colour.strip().lower()))


#: The defense dice's colours, in the order rulesets.dragonbond numbers them.
COLOURS = ("red", "white", "black")


def attack_setup(*, dice: str, models: int = 1, ranged: bool = False, charge: bool = False, up: int = 0,
                 down: int = 0, fatigue_beside: int = 0, injuries: int = 0, sharp: bool = False,
                 defense: int = 1, defense_die: str = "white", defense_up: int = 0, defense_down: int = 0,
                 target_fatigue_beside: int = 0, engaged_enemies: int | None = None, flying: bool = False,
                 target_injuries: int = 0, also_engaged=()):
    """The AttackSetup of an attack from its options, by name (see :func:`roll_attack`), and the defenses
    of the units ``also_engaged`` describes."""
    from rulesets.dragonbond.attack import MELEE, RANGED, AttackSetup

    if defense_die.lower() not in COLOURS:
        raise OptionError(f"{_flag('defense_die')} {defense_die!r}: accepted {', '.join(COLOURS)}")
    given = [_engaged_defense(text) for text in also_engaged]
    if given and not ranged:
        switch = _flag("ranged")
        raise OptionError(f"{_flag('also_engaged')}: only a ranged attack goes into a melee (add "
                          f"{switch if switch.startswith('-') else 'ranged=True'})")
    if engaged_enemies is None:
        engaged_enemies = len(given) if ranged else 1
    elif len(given) > engaged_enemies:
        raise OptionError(f"{_flag('also_engaged')} given {len(given)} times but {_flag('engaged_enemies')} "
                          f"{engaged_enemies}: describe at most the units the target is engaged with")
    setup = AttackSetup(
        _pool(dice, _flag("dice")), models=models, kind=RANGED if ranged else MELEE, up=up, down=down,
        charge=charge, tokens_beside=fatigue_beside, injuries=injuries, defense=defense,
        defense_die=COLOURS.index(defense_die.lower()), defense_up=defense_up, defense_down=defense_down,
        target_tokens_beside=target_fatigue_beside, engaged_enemies=engaged_enemies,
        flying_unengaged=flying, target_injuries=target_injuries, sharp=sharp)
    return setup, given


def roll_attack(*, dice: str, models: int = 1, ranged: bool = False, charge: bool = False, up: int = 0,
                down: int = 0, fatigue_beside: int = 0, injuries: int = 0, sharp: bool = False,
                defense: int = 1, defense_die: str = "white", defense_up: int = 0, defense_down: int = 0,
                target_fatigue_beside: int = 0, engaged_enemies: int | None = None, flying: bool = False,
                target_injuries: int = 0, health: int | None = None, target_models: int | None = None,
                captain_health: int | None = None, also_engaged=(), rulings=(), trials: int | None = None,
                seed: int | None = None, precision: float | None = None, threads: int | None = None,
                progress=None) -> Report:
    """One attack (`balance roll dragonbond attack`), exact unless ``trials``, ``seed`` or ``precision``:
    wounds (max(0, hits - blocks) + criticals) and models killed, with every modifier and its source.

    Keywords, as the command's options: the attacker's ``dice`` ("2G 1B" per engaged model), ``models``,
    ``ranged``, ``charge``, ``up``, ``down``, ``fatigue_beside``, ``injuries``, ``sharp``; the target's
    ``defense`` (dice per non-critical hit), ``defense_die`` (red, white, black), ``defense_up``,
    ``defense_down``, ``target_fatigue_beside``, ``engaged_enemies``, ``flying``, ``target_injuries``,
    ``health`` and ``target_models`` (together: models killed), ``captain_health``; ``also_engaged`` (a
    ranged attack into a melee: the other units as "DICE:COLOUR"); ``rulings``, ``trials``, ``seed``,
    ``precision``, ``threads``; ``progress(done, total)`` of a simulation."""
    from reports.dragonbond.tables import attack_report
    from rulesets.dragonbond.exact import casualty_order

    in_force = DragonbondRulings().with_assignments(rulings)
    setup, given = attack_setup(
        dice=dice, models=models, ranged=ranged, charge=charge, up=up, down=down,
        fatigue_beside=fatigue_beside, injuries=injuries, sharp=sharp, defense=defense,
        defense_die=defense_die, defense_up=defense_up, defense_down=defense_down,
        target_fatigue_beside=target_fatigue_beside, engaged_enemies=engaged_enemies, flying=flying,
        target_injuries=target_injuries, also_engaged=also_engaged)
    if (health is None) != (target_models is None):
        raise OptionError(f"{_flag('health')} and {_flag('target_models')} go together (models killed need "
                          "both)")
    if health is None and captain_health is not None:
        raise OptionError(f"{_flag('captain_health')} needs {_flag('health')} and {_flag('target_models')}")
    target = None if health is None else casualty_order(target_models, health, captain_health, in_force)
    others = setup.melee_defenses(given)
    if others and target is not None:
        raise OptionError(f"{_flag('also_engaged')}, {_flag('engaged_enemies')}: a ranged attack into a "
                          "melee shares its hits among units; models killed are counted for one target; drop "
                          f"{_flag('health')} and {_flag('target_models')}")
    simulate, trials, seed = _mc(trials, precision, seed)
    run = None
    if simulate:
        if others:
            raise OptionError(f"{_flag('also_engaged')}, {_flag('engaged_enemies')}: a ranged attack into a "
                              f"melee is computed exactly; drop {_flag('trials')}, {_flag('precision')} and "
                              f"{_flag('seed')}")
        from rulesets.dragonbond.exact import Defense
        from rulesets.dragonbond.simulate import simulate_attack

        d_up, d_down = setup.defense_totals(in_force)
        defended = Defense(setup.defense, setup.defense_die, d_up, d_down)
        run = simulate_attack(setup.attack_pool(in_force), defended, target.health if target else (),
                              in_force, setup.sharp, trials=trials, seed=seed, threads=threads,
                              precision=precision, progress=progress)
    return attack_report(setup, target, in_force, others, run, described=len(given))


def roll_face_off(*, players: int = 2, rulings=()) -> Report:
    """A face-off roll (`balance roll dragonbond face-off`) of ``players``, exact."""
    from reports.dragonbond.tables import face_off_report

    return face_off_report(players, DragonbondRulings().with_assignments(rulings))


def roll_charge(*, speed: int, fatigue_beside: int = 0, rulings=()) -> Report:
    """A charge's reach (`balance roll dragonbond charge`): speed + 1" per success on 3 dice, exact."""
    from reports.dragonbond.tables import charge_report
    from rulesets.base import RulesError

    try:
        return charge_report(speed, fatigue_beside, DragonbondRulings().with_assignments(rulings))
    except RulesError as exc:
        raise RulesError(f"{_flag('fatigue_beside')} {fatigue_beside}: {exc}") from None


def roll_damage(*, tokens: int, fatigue_beside: int = 0, rulings=()) -> Report:
    """Damage tokens at the start of a unit's turn (`balance roll dragonbond damage`), exact."""
    from reports.dragonbond.tables import damage_report

    return damage_report(tokens, fatigue_beside, DragonbondRulings().with_assignments(rulings))


#: Every kind of `balance roll dragonbond`, the default first.
ROLLS = {"pool": roll_pool, "attack": roll_attack, "face-off": roll_face_off, "charge": roll_charge,
         "damage": roll_damage}


def roll(kind: str = "pool", **options) -> Report:
    """The roll ``kind`` of :data:`ROLLS` (reports.api.roll checks the options' names first)."""
    return ROLLS[kind](**options)


#: Duels per pairing when policy "best" picks a policy under ``precision`` (each pairing on the same dice).
BEST_TRIALS = 20_000


def duel(a: str, b: str, *, policy_a: str = "attack", policy_b: str = "attack", rounds: int = 4, rulings=(),
         catalogs=(), trials: int | None = None, seed: int | None = None, precision: float | None = None,
         threads: int | None = None, progress=None) -> Report:
    """Two engaged units fight up to ``rounds`` rounds (`balance duel dragonbond A B`): P(A destroys B),
    P(B destroys A), P(neither), wounds, models lost and fatigue, with intervals.

    Keywords, as the command's options: ``policy_a``, ``policy_b`` (attack: every turn; rest: when
    exhausted; best: whichever of the two wins more in its worst case, judged on the same dice),
    ``rounds`` (the rulebook plays 4), ``rulings``, ``catalogs``, ``trials`` (at most one record per duel:
    config.MAX_RECORD_TRIALS), ``seed``, ``precision``, ``threads``; ``progress(done, total)``."""
    from reports.dragonbond.duel import duel_report
    from rulesets.dragonbond import catalog as catalog_io
    from rulesets.dragonbond.simulate import Fighter, simulate_duel

    policies = ("attack", "rest", "best")
    for name, policy in (("policy_a", policy_a), ("policy_b", policy_b)):
        if policy.lower() not in policies:
            raise OptionError(f"{_flag(name)} {policy!r}: accepted {', '.join(policies)}")
    cat = catalog_io.load(user_paths=tuple(catalogs))
    typed = trials is not None
    if typed and trials > config.MAX_RECORD_TRIALS:
        raise OptionError(f"{_flag('trials')} {trials}: a duel run keeps one record per duel, so at most "
                          f"{config.MAX_RECORD_TRIALS:.0e}")
    _, trials, seed = _mc(trials, precision, seed)
    if not typed:  # a duel keeps a record per trial: a precision run is capped where records are
        trials = min(trials, config.MAX_RECORD_TRIALS)
    in_force = DragonbondRulings().with_assignments(rulings)
    ua, ub = cat.unit(a), cat.unit(b)
    policy_a, policy_b = policy_a.lower(), policy_b.lower()
    chosen = []
    if "best" in (policy_a, policy_b):
        from rulesets.dragonbond.simulate import best_policies

        judged = BEST_TRIALS if precision is not None else trials
        policy_a, policy_b, wins = best_policies(ua, ub, policy_a, policy_b, in_force, trials=judged,
                                                 seed=seed, threads=threads)
        pairs = "; ".join(f"A {pa}, B {pb}: P(A wins) {wa:.4f}, P(B wins) {wb:.4f}"
                          for (pa, pb), (wa, wb) in wins.items())
        chosen.append(("policies", f"best chose A {policy_a}, B {policy_b} (maximin on {judged:,} duels per "
                                   f"pairing, same dice): {pairs}"))
    result = simulate_duel(Fighter(ua, policy_a), Fighter(ub, policy_b), in_force, trials=trials, seed=seed,
                           threads=threads, precision=precision, rounds=rounds, progress=progress)
    return duel_report(result, chosen)


def units(*, catalogs=()) -> Report:
    """The Dragonbond units the rulebook names (`balance units dragonbond`): printed values, illustrative
    ones marked *, data quirks. Keywords: ``catalogs``."""
    from reports.dragonbond.duel import units_report
    from rulesets.dragonbond import catalog as catalog_io

    return units_report(catalog_io.load(user_paths=tuple(catalogs)))
