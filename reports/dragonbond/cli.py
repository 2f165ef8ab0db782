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
from rulesets.dragonbond.rules import DragonbondRulings

#: A duel policy, or the better of the two (rulesets.dragonbond.simulate.best_policies).
POLICY_CHOICE = click.Choice(("attack", "rest", "best"), case_sensitive=False)

COLOUR_CHOICE = click.Choice(("red", "white", "black"), case_sensitive=False)
MAX_MOD = 100


def _rulings(assignments) -> DragonbondRulings:
    return DragonbondRulings().with_assignments(assignments)


def _pool(text: str, option: str, kind: str = "action"):
    """A pool typed on the command line; a malformed one is a usage error naming the option."""
    from reports.dragonbond.api import _pool as parse

    return parse(text, option, kind)


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
    from reports.dragonbond.api import roll_pool as pool

    emit(pool(dice=dice, up=up, down=down, sharp=sharp, defense=defense_dice, rulings=rulings), fmt, output)


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
    from reports.dragonbond.api import roll_attack as attack

    simulate, _, _ = monte_carlo_settings(trials, precision, seed)
    emit(attack(dice=dice, models=models, ranged=ranged, charge=charge, up=up, down=down,
                fatigue_beside=fatigue_beside, injuries=injuries, sharp=sharp, defense=defense,
                defense_die=defense_die, defense_up=defense_up, defense_down=defense_down,
                target_fatigue_beside=target_fatigue_beside, engaged_enemies=engaged_enemies, flying=flying,
                target_injuries=target_injuries, health=health, target_models=target_models,
                captain_health=captain_health, also_engaged=also_engaged, rulings=rulings, trials=trials,
                seed=seed, precision=precision, threads=threads,
                progress=mc_progress("attacking", precision) if simulate else None), fmt, output)


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
    from reports.dragonbond.api import roll_face_off as face_off

    emit(face_off(players=players, rulings=rulings), fmt, output)


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
    from reports.dragonbond.api import roll_charge as charge

    emit(charge(speed=speed, fatigue_beside=fatigue_beside, rulings=rulings), fmt, output)


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
    from reports.dragonbond.api import roll_damage as damage

    emit(damage(tokens=tokens, fatigue_beside=fatigue_beside, rulings=rulings), fmt, output)


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
    from reports.dragonbond.api import duel

    emit(duel(unit_a, unit_b, policy_a=policy_a, policy_b=policy_b, rounds=rounds, rulings=rulings,
              catalogs=catalogs, trials=trials, seed=seed, precision=precision, threads=threads,
              progress=mc_progress("duelling", precision)), fmt, output)


@click.command("dragonbond")
@catalog_option
@text_output_options
def units_dragonbond(catalogs, fmt, output, plot):
    """The Dragonbond units the rulebook names: printed values, illustrative ones marked *, data quirks.

    Example: balance units dragonbond --format markdown
    """
    from reports.dragonbond.api import units

    emit(units(catalogs=catalogs), fmt, output)


def register(verbs: dict[str, click.Group]) -> None:
    """Attach the Dragonbond subcommands to the generic verbs."""
    verbs["roll"].add_command(roll_dragonbond)
    verbs["table"].add_command(table_dragonbond)
    verbs["duel"].add_command(duel_dragonbond)
    verbs["units"].add_command(units_dragonbond)
