"""Dragonbond on the command line: `roll dragonbond` (pool, attack, face-off, charge, damage) and `table
dragonbond` (dice, pool, attack, charge, face-off), all exact.

The reports (numpy) are imported when a command runs, not when the tree is built.
"""

from __future__ import annotations

import click

from reports.cli.options import (
    WholeNumber,
    catalog_option,
    emit,
    mc_options_for,
    mc_progress,
    monte_carlo_settings,
    ruling_option,
    text_output_options,
)
from rulesets.base import OptionError
from rulesets.dragonbond.rules import DragonbondRulings

#: A duel policy, or the better of the two (rulesets.dragonbond.duel.best_policies).
POLICY_CHOICE = click.Choice(("attack", "rest", "best"), case_sensitive=False)
#: Duels per pairing when `best` picks a policy under --precision (each pairing runs on the same dice).
BEST_TRIALS = 20_000

COLOUR_CHOICE = click.Choice(("red", "white", "black"), case_sensitive=False)
MAX_MOD = 100


def _rulings(assignments) -> DragonbondRulings:
    return DragonbondRulings().with_assignments(assignments)


def _pool(text: str, option: str, kind: str = "action"):
    """A pool typed on the command line; a malformed one is a usage error naming the option."""
    from rulesets.base import RulesError
    from rulesets.dragonbond.dice import parse_pool

    try:
        return parse_pool(text, kind)
    except RulesError as exc:
        raise OptionError(f"{option}: {exc}") from None


@click.group("dragonbond")
def roll_dragonbond():
    """Dragonbond rolls, exact: pool, attack, face-off, charge, damage."""


@roll_dragonbond.command("pool", context_settings={"max_content_width": 100})
@click.argument("dice")
@click.option("--up", type=WholeNumber(0, MAX_MOD), default=0, show_default=True,
              help="Upgrades on the roll.")
@click.option("--down", type=WholeNumber(0, MAX_MOD), default=0, show_default=True,
              help="Downgrades on the roll (they cancel against the upgrades first).")
@click.option("--sharp", is_flag=True, help="The dice are a Sharp unit's (DB-sharp).")
@click.option("--defense", "defense_dice", is_flag=True,
              help='DICE are defense dice ("1B 2W 1R": black, white, red): the blocks they roll.')
@ruling_option
@text_output_options
def roll_pool(dice, up, down, sharp, defense_dice, rulings, fmt, output, plot):
    """A roll of action dice: the pool after its upgrades and downgrades, and the exact joint distribution of
    its successes, double successes and criticals. DICE in the rulebook's notation: "2B 4G 1W" (with
    --defense, defense dice "1B 2W 1R" and their blocks).

    Example: balance roll dragonbond pool "3G 3W" --down 4
    """
    from reports.dragonbond.tables import blocks_report, pool_report

    in_force = _rulings(rulings)
    if defense_dice:
        if sharp:
            raise OptionError("--sharp is a keyword of attack dice, not of defense dice")
        emit(blocks_report(_pool(dice, "DICE", "defense"), up, down, in_force), fmt, output)
        return
    emit(pool_report(_pool(dice, "DICE"), up, down, in_force, sharp), fmt, output)


@roll_dragonbond.command("attack", context_settings={"max_content_width": 100})
@click.option("--dice", required=True, help='The weapon\'s attack dice per engaged model: "2G 1B".')
@click.option("--models", type=WholeNumber(1, 200), default=1, show_default=True,
              help="Attacking models engaged (melee) or in range (ranged).")
@click.option("--ranged", is_flag=True, help="A ranged attack (default melee).")
@click.option("--charge", is_flag=True, help="The attacker charged: 2 melee attack upgrades.")
@click.option("--up", type=WholeNumber(0, MAX_MOD), default=0, show_default=True,
              help="Other attack upgrades (Attack and Melee/Ranged types: terrain, captains, powers).")
@click.option("--down", type=WholeNumber(0, MAX_MOD), default=0, show_default=True,
              help="Other attack downgrades.")
@click.option("--fatigue-beside", type=WholeNumber(0, MAX_MOD), default=0, show_default=True,
              help="Fatigue tokens beside the attacker: 2 attack downgrades each.")
@click.option("--injuries", type=WholeNumber(0, MAX_MOD), default=0, show_default=True,
              help="Injuries of a Huge attacker: 1 attack downgrade each.")
@click.option("--sharp", is_flag=True, help="The attacker has Sharp (DB-sharp).")
@click.option("--defense", type=WholeNumber(0, MAX_MOD), default=1, show_default=True,
              help="The target's defense stat: defense dice per non-critical hit.")
@click.option("--defense-die", type=COLOUR_CHOICE, default="white", show_default=True,
              help="Colour of the target's defense dice.")
@click.option("--defense-up", type=WholeNumber(0, MAX_MOD), default=0, show_default=True,
              help="Other defense upgrades (Defense and Melee/Ranged Defense types).")
@click.option("--defense-down", type=WholeNumber(0, MAX_MOD), default=0, show_default=True,
              help="Other defense downgrades.")
@click.option("--target-fatigue-beside", type=WholeNumber(0, MAX_MOD), default=0, show_default=True,
              help="Fatigue tokens beside the target: 1 defense downgrade each.")
@click.option("--engaged-enemies", type=WholeNumber(0, 20), default=None,
              help="Enemy units the target is engaged with: 2 or more flank it (DB-flanking-count). A ranged "
                   "attack shares its hits among the target and these units (685-689), each defending as "
                   "--also-engaged says or, where not given, like the target unmodified. Default: 1 for a "
                   "melee attack (the attacker), the number of --also-engaged for a ranged one.")
@click.option("--flying", is_flag=True,
              help="The target flies and did not begin \"the turn\" engaged (869): the turn in progress, or "
                   "its own last activation under DB-flying-turn=own-activation.")
@click.option("--target-injuries", type=WholeNumber(0, MAX_MOD), default=0, show_default=True,
              help="Injuries of a Huge target: 1 defense downgrade each.")
@click.option("--health", type=WholeNumber(1, 1000), default=None,
              help="Health of each target model (with --target-models: models killed).")
@click.option("--target-models", type=WholeNumber(1, 200), default=None, help="Models in the target unit.")
@click.option("--captain-health", type=WholeNumber(1, 1000), default=None,
              help="The target's Captain is one of its models, of this Health (DB-casualty-order).")
@click.option("--also-engaged", multiple=True, metavar="DICE:COLOUR",
              help="A ranged attack into a melee: a unit engaged with the target, nearest first after it, as "
                   "its defense dice per hit and colour (1:black); repeatable.")
@mc_options_for("the mean wounds", probability=False)
@ruling_option
@text_output_options
def roll_attack(dice, models, ranged, charge, up, down, fatigue_beside, injuries, sharp, defense, defense_die,
                defense_up, defense_down, target_fatigue_beside, engaged_enemies, flying, target_injuries,
                health, target_models, captain_health, also_engaged, trials, precision, seed, threads,
                rulings, fmt, output, plot):
    """One attack, exact: wounds (max(0, hits - blocks) + criticals) and models killed, with every modifier
    and its source.

    Example: balance roll dragonbond attack --dice "2G 1B" --models 2 --defense 1 --health 2 --target-models 3
    """
    from reports.dragonbond.tables import attack_report
    from rulesets.dragonbond.attack import MELEE, RANGED, AttackSetup
    from rulesets.dragonbond.exact import casualty_order

    in_force = _rulings(rulings)
    die = ("red", "white", "black").index(defense_die.lower())
    given = [_engaged_defense(text) for text in also_engaged]
    if given and not ranged:
        raise OptionError("--also-engaged: only a ranged attack goes into a melee (add --ranged)")
    if engaged_enemies is None:
        engaged_enemies = len(given) if ranged else 1
    elif len(given) > engaged_enemies:
        raise OptionError(f"--also-engaged given {len(given)} times but --engaged-enemies {engaged_enemies}: "
                          "describe at most the units the target is engaged with")
    setup = AttackSetup(_pool(dice, "--dice"), models, RANGED if ranged else MELEE, up, down, charge,
                        fatigue_beside, injuries, defense, die, defense_up, defense_down,
                        target_fatigue_beside, engaged_enemies, flying, target_injuries, sharp)
    target = None
    if (health is None) != (target_models is None):
        raise OptionError("--health and --target-models go together (models killed need both)")
    if health is not None:
        target = casualty_order(target_models, health, captain_health, in_force)
    elif captain_health is not None:
        raise OptionError("--captain-health needs --health and --target-models")
    others = setup.melee_defenses(given)
    if others and target is not None:
        raise OptionError("--also-engaged, --engaged-enemies: a ranged attack into a melee shares its hits "
                          "among units; models killed are counted for one target; drop --health and "
                          "--target-models")
    simulate, trials, seed = monte_carlo_settings(trials, precision, seed)
    run = None
    if simulate:
        if others:
            raise OptionError("--also-engaged, --engaged-enemies: a ranged attack into a melee is computed "
                              "exactly; drop --trials, --precision and --seed")
        from rulesets.dragonbond.duel import simulate_attack
        from rulesets.dragonbond.exact import Defense

        up, down = setup.defense_totals(in_force)
        defended = Defense(setup.defense, setup.defense_die, up, down)
        healths = target.health if target else ()
        run = simulate_attack(setup.attack_pool(in_force), defended, healths, in_force, setup.sharp,
                              trials=trials, seed=seed, threads=threads, precision=precision,
                              progress=mc_progress("attacking", precision))
    emit(attack_report(setup, target, in_force, others, run, described=len(given)), fmt, output)


def _engaged_defense(text: str):
    from rulesets.dragonbond.exact import Defense

    dice, _, colour = text.partition(":")
    colours = ("red", "white", "black")
    if not dice.strip().isdigit() or colour.strip().lower() not in colours:
        raise OptionError(f"--also-engaged {text!r}: accepted DICE:COLOUR, e.g. 1:black (colours red, white, "
                          "black)")
    return Defense(int(dice), colours.index(colour.strip().lower()))


@roll_dragonbond.command("face-off")
@click.option("--players", type=WholeNumber(2, 4), default=2, show_default=True,
              help="Players in the face-off.")
@ruling_option
@text_output_options
def roll_face_off(players, rulings, fmt, output, plot):
    """A face-off roll (3 grey dice each): how often it is decided on successes, criticals, doubles, or
    rerolled, and the expected number of rolls.

    Example: balance roll dragonbond face-off --players 3
    """
    from reports.dragonbond.tables import face_off_report

    emit(face_off_report(players, _rulings(rulings)), fmt, output)


@roll_dragonbond.command("charge")
@click.option("--speed", type=WholeNumber(0, 100), required=True, help="The unit's speed in inches.")
@click.option("--fatigue-beside", type=WholeNumber(0, MAX_MOD), default=0, show_default=True,
              help="Fatigue tokens beside the unit once the charge's 2 are paid (at most 2: an exhausted "
                   "unit may not charge): 1\" less each, and its dice downgraded "
                   "(DB-exhaustion-other-rolls), as far as DB-fatigue-timing lets them count.")
@ruling_option
@text_output_options
def roll_charge(speed, fatigue_beside, rulings, fmt, output, plot):
    """A charge's reach: speed + 1" per success on 3 dice (DB-charge-dice), exact.

    Example: balance roll dragonbond charge --speed 9
    """
    from reports.dragonbond.tables import charge_report
    from rulesets.base import RulesError

    try:
        report = charge_report(speed, fatigue_beside, _rulings(rulings))
    except RulesError as exc:
        raise RulesError(f"--fatigue-beside {fatigue_beside}: {exc}") from None
    emit(report, fmt, output)


@roll_dragonbond.command("damage")
@click.option("--tokens", type=WholeNumber(1, 100), required=True, help="Damage tokens on the unit.")
@click.option("--fatigue-beside", type=WholeNumber(0, MAX_MOD), default=0, show_default=True,
              help="Fatigue tokens beside the unit (DB-exhaustion-other-rolls).")
@ruling_option
@text_output_options
def roll_damage(tokens, fatigue_beside, rulings, fmt, output, plot):
    """Damage tokens at the start of a unit's turn: tokens removed, one wound each, exact.

    Example: balance roll dragonbond damage --tokens 2
    """
    from reports.dragonbond.tables import damage_report

    emit(damage_report(tokens, fatigue_beside, _rulings(rulings)), fmt, output)


@click.group("dragonbond")
def table_dragonbond():
    """Dragonbond standard tables, exact: dice, pool, attack, charge, face-off."""


@table_dragonbond.command("dice")
@ruling_option
@text_output_options
def table_dice(rulings, fmt, output, plot):
    """Face probabilities and expected hits of the six dice.

    Example: balance table dragonbond dice --format markdown
    """
    from reports.dragonbond.tables import dice_table

    emit(dice_table(_rulings(rulings)), fmt, output)


@table_dragonbond.command("pool")
@click.option("--pool", "pools", multiple=True, help='Pools (repeatable; default "3B", "3G", "3W", "4G 2B").')
@click.option("--max-steps", type=WholeNumber(0, 12), default=6, show_default=True,
              help="Rows for -N..+N (downgrades..upgrades).")
@ruling_option
@text_output_options
def table_pool(pools, max_steps, rulings, fmt, output, plot):
    """Expected hits and criticals of pools under upgrades and downgrades.

    Example: balance table dragonbond pool --pool "3G 3W" --max-steps 4
    """
    from reports.dragonbond.tables import default_pools, pool_table

    chosen = [_pool(p, "--pool") for p in pools] if pools else None
    emit(pool_table(chosen or default_pools(), max_steps, _rulings(rulings)), fmt, output)


@table_dragonbond.command("attack")
@click.option("--max-dice", type=WholeNumber(1, 20), default=8, show_default=True, help="Rows for 1..N dice.")
@ruling_option
@text_output_options
def table_attack(max_dice, rulings, fmt, output, plot):
    """Expected wounds of black, grey and white pools against one red, white or black defense die per hit,
    with 0, 1 and 2 fatigue tokens beside the attacker.

    Example: balance table dragonbond attack --max-dice 6 --format csv
    """
    from reports.dragonbond.tables import attack_table

    emit(attack_table(max_dice, [0, 1, 2], [0, 1, 2], _rulings(rulings)), fmt, output)


@table_dragonbond.command("charge")
@click.option("--speed", "speeds", multiple=True, type=WholeNumber(0, 100),
              help="Speeds (repeatable; default 4 to 10).")
@click.option("--max-distance", type=WholeNumber(1, 200), default=20, show_default=True,
              help="Longest distance listed, in inches.")
@ruling_option
@text_output_options
def table_charge(speeds, max_distance, rulings, fmt, output, plot):
    """P(a charge reaches d inches) by speed, exact.

    Example: balance table dragonbond charge --speed 8 --speed 9
    """
    from reports.dragonbond.tables import charge_table

    emit(charge_table(list(speeds or range(4, 11)), max_distance, _rulings(rulings)), fmt, output)


@table_dragonbond.command("face-off")
@ruling_option
@text_output_options
def table_face_off(rulings, fmt, output, plot):
    """Face-off rolls of 2, 3 and 4 players: how they are decided and how many rolls they take.

    Example: balance table dragonbond face-off
    """
    from reports.dragonbond.tables import face_off_table

    emit(face_off_table(_rulings(rulings)), fmt, output)


@click.command("dragonbond")
@click.argument("unit_a", metavar="A")
@click.argument("unit_b", metavar="B")
@click.option("--policy-a", type=POLICY_CHOICE, default="attack", show_default=True,
              help="A attacks every turn, or rests when exhausted (fatigue beside it) and attacks otherwise; "
                   "best: whichever of the two wins more in its worst case, judged on the same dice.")
@click.option("--policy-b", type=POLICY_CHOICE, default="attack", show_default=True, help="The same for B.")
@click.option("--rounds", type=WholeNumber(1, 20), default=4, show_default=True,
              help="Rounds of the game (the rulebook plays 4).")
@catalog_option
@mc_options_for("P(A destroys B)", probability=True, exact=False)
@ruling_option
@text_output_options
def duel_dragonbond(unit_a, unit_b, policy_a, policy_b, rounds, catalogs, trials, precision, seed, threads,
                    rulings, fmt, output, plot):
    """Two engaged units fight up to four rounds: P(A destroys B), P(B destroys A), P(neither), wounds,
    models lost and fatigue, with intervals.

    Example: balance duel dragonbond bucentaur-blades ogerron-phalanx --precision 0.005
    """
    from reports.dragonbond.duel import duel_report
    from rulesets.dragonbond import catalog as catalog_io
    from rulesets.dragonbond.duel import Fighter, simulate_duel
    from simcore import config

    cat = catalog_io.load(user_paths=tuple(catalogs))
    typed = trials is not None
    if typed and trials > config.MAX_RECORD_TRIALS:
        raise OptionError(f"--trials {trials}: a duel run keeps one record per duel, so at most "
                          f"{config.MAX_RECORD_TRIALS:.0e}")
    _, trials, seed = monte_carlo_settings(trials, precision, seed)
    if not typed:  # a duel keeps a record per trial: a precision run is capped where records are
        trials = min(trials, config.MAX_RECORD_TRIALS)
    in_force = _rulings(rulings)
    ua, ub = cat.unit(unit_a), cat.unit(unit_b)
    policy_a, policy_b = policy_a.lower(), policy_b.lower()
    chosen = []
    if "best" in (policy_a, policy_b):
        from rulesets.dragonbond.duel import best_policies

        judged = BEST_TRIALS if precision is not None else trials
        policy_a, policy_b, wins = best_policies(ua, ub, policy_a, policy_b, in_force, trials=judged,
                                                 seed=seed, threads=threads)
        pairs = "; ".join(f"A {pa}, B {pb}: P(A wins) {wa:.4f}, P(B wins) {wb:.4f}"
                          for (pa, pb), (wa, wb) in wins.items())
        chosen.append(("policies", f"best chose A {policy_a}, B {policy_b} (maximin on {judged:,} duels per "
                                   f"pairing, same dice): {pairs}"))
    result = simulate_duel(Fighter(ua, policy_a), Fighter(ub, policy_b), in_force, trials=trials, seed=seed,
                           threads=threads, precision=precision, rounds=rounds,
                           progress=mc_progress("duelling", precision))
    emit(duel_report(result, chosen), fmt, output)


@click.command("dragonbond")
@catalog_option
@text_output_options
def units_dragonbond(catalogs, fmt, output, plot):
    """The Dragonbond units the rulebook names: printed values, illustrative ones marked *, data quirks.

    Example: balance units dragonbond --format markdown
    """
    from reports.dragonbond.duel import units_report
    from rulesets.dragonbond import catalog as catalog_io

    emit(units_report(catalog_io.load(user_paths=tuple(catalogs))), fmt, output)


def register(verbs: dict[str, click.Group]) -> None:
    """Attach the Dragonbond subcommands to the generic verbs."""
    verbs["roll"].add_command(roll_dragonbond)
    verbs["table"].add_command(table_dragonbond)
    verbs["duel"].add_command(duel_dragonbond)
    verbs["units"].add_command(units_dragonbond)
