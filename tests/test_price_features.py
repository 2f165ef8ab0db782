"""The pricing rule's features (Ruleset.price_features, `balance points --rule`): for every game, every entry
of the packaged catalog has the same short names in the same order, finite values, no feature constant
across the catalog (the fit has no intercept but a feature that is 1 for all, and a constant one says
nothing), far fewer features than entries; and hand-checked values from the rulebooks and the catalogs."""

import math

import pytest

import rulesets
from rulesets.base import Contestant

GAMES = ("drakerys", "dragonbond", "warbound", "uberdrakes", "dragoborne")


def _field(game: str) -> tuple[rulesets.Ruleset, dict[str, Contestant]]:
    ruleset = rulesets.get(game)
    return ruleset, {c.key: c for c in ruleset.contestants(ruleset.load_catalog())}


@pytest.mark.parametrize("game", GAMES)
def test_every_entry_has_the_same_finite_varying_features(game):
    ruleset, field = _field(game)
    features = {key: ruleset.price_features(c) for key, c in field.items()}
    names = list(next(iter(features.values())))
    assert names, f"{game} offers no pricing rule"
    for key, row in features.items():
        assert list(row) == names, key
        assert all(isinstance(v, float) and math.isfinite(v) for v in row.values()), (key, row)
    for name in names:
        assert len({row[name] for row in features.values()}) > 1, f"{game}: {name} is constant"
    assert len(names) < len(field) / 2, (game, len(names), len(field))
    # the report says how each one counts
    assert all(name in ruleset.price_features_text for name in names), ruleset.price_features_text


@pytest.mark.parametrize("game", GAMES)
def test_every_feature_varies_over_the_entries_the_fit_uses(game):
    """The fit (reports.points.pricing_rule) leaves out the entries whose value is not measured (a rule
    their contests do not play can change it): over those it keeps, under the default rulings, no feature
    is constant, and there are more entries than features plus one."""
    ruleset = rulesets.get(game)
    rulings = ruleset.rulings()
    field = {c.key: c for c in ruleset.contestants(ruleset.catalog_for(ruleset.load_catalog(), rulings))}
    fitted = [ruleset.price_features(c) for c in field.values() if ruleset.coverage(c, rulings).measured]
    names = list(fitted[0])
    for name in names:
        assert len({row[name] for row in fitted}) > 1, f"{game}: {name} is constant over the measured entries"
    assert len(fitted) > len(names) + 1


def test_drakerys_counts_each_stat_per_model():
    ruleset, field = _field("drakerys")
    crows = field["crows@6"]
    profile = crows.subject.unit.profile
    assert ruleset.price_features(crows) == {
        "models": 6.0, "Actions": 6.0 * profile.actions, "Power": 6.0 * profile.power,
        "Health": 6.0 * profile.health, "Combat": 6.0 * profile.combat, "Strength": 6.0 * profile.strength,
        "Resistance": 6.0 * profile.resistance}
    assert ruleset.price_features(crows)["Combat"] == 18.0  # Crows: Combat 3
    # the same unit at twice the size: twice every feature
    twelve = ruleset.price_features(field["crows@12"])
    assert twelve == {k: 2 * v for k, v in ruleset.price_features(crows).items()}
    salik = ruleset.price_features(field["salik@1"])  # a hero, one model: its profile as printed
    assert (salik["models"], salik["Actions"], salik["Combat"], salik["Health"]) == (1.0, 4.0, 5.0, 3.0)


def test_dragonbond_counts_dice_by_tier_per_model():
    ruleset, field = _field("dragonbond")
    # Bucentaur Blades: 3 models of 2 grey + 1 black each (line 726), white defense die, Health 2
    assert ruleset.price_features(field["bucentaur-blades"]) == {
        "models": 3.0, "Health": 6.0, "Attack": 3.0 * (2 * 2 + 3), "Defense": 3.0 * 2}
    # Gore-Lancers: 3 grey + 3 white for the whole unit of 3 (line 562): 1 grey + 1 white a model
    assert ruleset.price_features(field["skorpikon-gore-lancers"])["Attack"] == 3.0 * (2 + 1)
    # Nagasha, Huge: one model whose health slots refill until its last injury slot (6 x 3)
    nagasha = field["nagasha"].subject
    assert nagasha.keywords.huge.health * nagasha.keywords.huge.injury_slots == 18
    assert ruleset.price_features(field["nagasha"])["models"] == 1.0
    assert ruleset.price_features(field["nagasha"])["Health"] == 18.0
    # red defense dice are tier 1
    assert ruleset.price_features(field["blooded-claws"])["Defense"] == 7.0


def test_warbound_counts_the_faces_that_hit_and_the_formation():
    ruleset, field = _field("warbound")
    copp = ruleset.price_features(field["copp"])
    # COPP: attack 8+ (8, 9, 10, 10), accuracy 6+ (6, 7, 8, 9, 10, 10), one 7+ armor point (7, 8, 9, 10, 10)
    assert copp == {"Health": 3.0, "Attack": 4.0, "Accuracy": 6.0, "Armor": 5.0, "Formation": 0.0}
    # in Formation: the card's own stats, and the Formation as a feature of its own
    assert ruleset.price_features(field["copp@formation"]) == {**copp, "Formation": 1.0}
    # Roh'na cannot Shoot
    assert ruleset.price_features(field["roh-na"])["Accuracy"] == 0.0


def test_uberdrakes_counts_what_a_resource_does_in_a_combat():
    ruleset, field = _field("uberdrakes")
    zero = dict.fromkeys(("Dice", "Rage", "Bonus", "Damage"), 0.0)
    # the Hide Shield adds a die, and its holder deals no damage when it wins (line 692)
    assert ruleset.price_features(field["hide-shield"]) == {**zero, "Dice": 1.0, "Damage": -1.0}
    # Plate Armor at X = 3 (4 Magic): +3, no damage (line 606)
    assert ruleset.price_features(field["plate-armor@3"]) == {**zero, "Bonus": 3.0, "Damage": -1.0}
    # a dragon counts the combat spells it casts: the Metal Dragon's 8 Magic pay Plate Armor up to X = 7
    assert ruleset.price_features(field["metal-dragon"]) == {**zero, "Bonus": 7.0, "Damage": -1.0}
    assert ruleset.price_features(field["fire-dragon"]) == {**zero, "Dice": 1.0}
    assert ruleset.price_features(field["rage-potion"]) == {**zero, "Rage": 1.0}


def test_dragoborne_counts_stats_colour_bonuses_and_keywords():
    ruleset, field = _field("dragoborne")
    # Moss Sprite: 0/2, +1/+1 dragocrossed green
    assert ruleset.price_features(field["moss-sprite"]) == {
        "ATK": 0.0, "EDR": 2.0, "Bonus": 2.0, "Invade": 0.0, "Deadly": 0.0}
    # Magma Hound: 3/4, +1/+0 and Deadly dragocrossed red
    assert ruleset.price_features(field["magma-hound"]) == {
        "ATK": 3.0, "EDR": 4.0, "Bonus": 1.0, "Invade": 0.0, "Deadly": 1.0}
    # World-Tree Colossus: 6/7, Invade (red)
    assert ruleset.price_features(field["world-tree-colossus"])["Invade"] == 1.0
