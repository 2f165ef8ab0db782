"""Coverage of Dragonbond, Warbound, UberDrakes and Dragoborne: which of an entry's rules its contest plays,
which it leaves out, and which of those can change its value (``decisive``: the verdict is then ``not
measured``), from the packaged catalogs."""

from __future__ import annotations

import dataclasses

import pytest

import rulesets
from reports import efficiency


def _game(name: str):
    rs = rulesets.get(name)
    return rs, rs.contestants(rs.load_catalog())


@pytest.fixture(scope="module")
def coverages():
    """{game: {contestant key: Coverage}} of every packaged contestant."""
    out = {}
    for name in ("dragonbond", "warbound", "uberdrakes", "dragoborne"):
        rs, contestants = _game(name)
        out[name] = {c.key: rs.coverage(c, rs.rulings()) for c in contestants}
    return out


def _names(rules) -> str:
    return " | ".join(rules)


def test_every_decisive_rule_is_unplayed_and_every_game_measures_some_and_not_others(coverages):
    for game, by_key in coverages.items():
        for key, cov in by_key.items():
            assert set(cov.decisive) <= set(cov.unplayed), (game, key)
            assert cov.played, (game, key)
            assert len(set(cov.unplayed)) == len(cov.unplayed), (game, key)
        assert any(c.measured for c in by_key.values()), game
        assert any(not c.measured for c in by_key.values()), game


# --- Dragonbond ------------------------------------------------------------------------------------------


def test_dragonbond_a_unit_with_keywords_weapon_and_captain_the_duel_plays(coverages):
    cov = coverages["dragonbond"]["bucentaur-blades"]
    assert cov.measured and cov.unplayed == ()
    assert cov.played == ("profile", "Blades (melee)", "Sharp",
                          "Captain of the Blades (melee +1 while it lives)")
    assert cov.text() == "every rule played"


def test_dragonbond_a_power_the_duel_cannot_play_is_decisive(coverages):
    cov = coverages["dragonbond"]["dreamshaper-casters"]
    assert not cov.measured
    assert len(cov.decisive) == 1 and cov.decisive[0].startswith("Restful Dream (reaction power")
    assert "not played, can change its value: Restful Dream" in cov.text()


def test_dragonbond_keywords_whose_worth_cannot_arise_between_engaged_units(coverages):
    dragon = coverages["dragonbond"]["ferellon-fulgen"]
    assert dragon.measured
    assert "Epic 1" in dragon.played and "Huge (6 health a slot, 3 injury slots)" in dragon.played
    unplayed = _names(dragon.unplayed)
    assert "Flying (" in unplayed and "Blocking (" in unplayed and "Huge: ignoring terrain" in unplayed
    assert "worth nothing in this contest: Huge: ignoring terrain" in dragon.text()
    halberdiers = coverages["dragonbond"]["oathguard-halberdiers"]
    assert halberdiers.measured and halberdiers.unplayed[0].startswith("Reach (")


@pytest.mark.parametrize("key", ["dragon-queen", "blood-emperor"])
def test_dragonbond_a_generals_bond_is_decisive(coverages, key):
    """Mounted, a General and its dragon play as one unit with a combined power the rulebook prints only as
    pictures: its worth is unplayed, so its verdict is `not measured`, never over-costed."""
    general = coverages["dragonbond"][key]
    assert not general.measured
    assert general.decisive == ("Dragonriding (mounting its bonded dragon: the mounted card sides and the "
                                "combined power are not printed, lines 999-1021)",)
    assert general.text().startswith("not played, can change its value: Dragonriding (")


def test_dragonbond_a_sacrifice_and_a_second_weapon_are_decisive():
    from rulesets.dragonbond.catalog import Weapon
    from rulesets.dragonbond.contest import coverage
    from rulesets.dragonbond.dice import ACTION, Pool

    rs = rulesets.get("dragonbond")
    unit = rs.load_catalog().unit("ogerron-phalanx")
    captain = dataclasses.replace(unit.captain, sacrifice="Heal the unit by 2.")
    bows = Weapon("Bows", "ranged", dice=Pool(ACTION, (0, 1, 0)), range=12)
    cov = coverage(dataclasses.replace(unit, captain=captain, weapons=(*unit.weapons, bows)))
    assert cov.decisive == ("Bows (ranged: the battle attacks with the Spears)",
                            "Captain of the Phalanx's Sacrifice (\"Heal the unit by 2.\": free text the "
                            "battle does not play)")


# --- Warbound --------------------------------------------------------------------------------------------


def test_warbound_a_character_without_skills_is_played_whole(coverages):
    cov = coverages["warbound"]["copp"]
    assert cov.measured and cov.unplayed == ()
    assert cov.played == ("profile", "Panic side", "activation cost",
                          "the ranged equipment its icons show (in its profile)")


def test_warbound_a_formation_plays_its_card_and_leaves_out_moving_and_line_of_sight(coverages):
    cov = coverages["warbound"]["copp@formation"]
    assert cov.measured and cov.decisive == ()
    assert "Formation (+1 cost, +1 to hit, +1 die, +1 Health)" in cov.played
    assert [r.split(":")[0] for r in cov.unplayed] == ["Formation", "Formation"]
    assert "line of sight" in _names(cov.unplayed)
    named = coverages["warbound"]["oshi-goru@formation"]
    assert "Oshi'goru Formation (+1 cost, +1 to hit, +1 die, +1 Health)" in named.played


def test_warbound_skills_are_decisive(coverages):
    for key, skill in (("splatter", "Opportunist (passive skill"), ("splatter@formation", "Opportunist ("),
                       ("orkedo-player", "Ki'hai (active skill")):
        cov = coverages["warbound"][key]
        assert not cov.measured
        assert len(cov.decisive) == 1 and cov.decisive[0].startswith(skill), key


# --- UberDrakes ------------------------------------------------------------------------------------------


def test_uberdrakes_resources_the_combat_plays_whole(coverages):
    by_key = coverages["uberdrakes"]
    for key in ("dragon-lance", "rage-potion", "fire-breath", "acid-rain"):
        assert by_key[key].measured and by_key[key].unplayed == (), key
    assert by_key["dragon-lance"].played == ("Dragon Lance: one more die in the counterattack, not in ranged "
                                            "combat",)


def test_uberdrakes_effects_on_damage_are_played_now_the_value_counts_them(coverages):
    """UD-value=win+damage+blood (default) counts damage and blood points: Windblast, the Hide Shield and
    Plate Armor play every rule; under UD-value=win their damage rules are left out, and decisive."""
    by_key = coverages["uberdrakes"]
    windblast = by_key["windblast"]
    assert windblast.measured and windblast.unplayed == ()
    assert windblast.played == ("Windblast: cast at the beginning of combat", "Windblast: double damage "
                                "when it wins, even at range or behind a Hide Shield")
    for key in ("hide-shield", "plate-armor@1", "plate-armor@5"):
        assert by_key[key].measured, key
        assert "no damage dealt when it wins" in _names(by_key[key].played), key
    rs = rulesets.get("uberdrakes")
    win_only = rs.rulings().with_assignments(["UD-value=win"])
    old = {c.key: rs.coverage(c, win_only) for c in rs.contestants(rs.load_catalog())}
    assert old["windblast"].decisive == ("Windblast: double damage when it wins, even at range or behind a "
                                         "Hide Shield (damage and blood points are not counted in its value "
                                         "(UD-value=win))",)
    for key in ("hide-shield", "plate-armor@1", "plate-armor@5"):
        assert not old[key].measured and "no damage dealt when it wins" in _names(old[key].decisive), key
    # the ranged attacks: their damage rule is played, their effects outside the combat stay decisive
    for key in ("long-bow", "thunderbolt", "take-to-the-skies"):
        assert "takes no damage" in _names(by_key[key].played), key
        assert not by_key[key].measured and "takes no damage" not in _names(by_key[key].decisive), key
        assert "takes no damage" in _names(old[key].decisive), key


def test_uberdrakes_effects_outside_the_combat_are_decisive(coverages):
    by_key = coverages["uberdrakes"]
    assert "Long Bow: its use in every later combat (it is not used up" in _names(by_key["long-bow"].decisive)
    assert "Take to the Skies: a free general movement action" in _names(by_key["take-to-the-skies"].decisive)
    assert "Camouflage: hiding until its next turn" in _names(by_key["camouflage"].decisive)
    wind = by_key["wind-dragon"]
    assert wind.played == ("Windblast: cast at the beginning of combat", "Windblast: double damage when it "
                           "wins, even at range or behind a Hide Shield")
    assert [r.split(" (")[0].split(":")[0] for r in wind.decisive] == [
        "Blowback", "Take to the Skies", "Cyclone"]
    assert "Take to the Skies (not cast in its combats)" in wind.decisive
    water = by_key["water-dragon"]
    assert ("Deep Freeze (a damage effect: the combat counts damage in instances (UD-damage-bp each), not "
            "which effect an instance is)" in water.decisive)
    earth = by_key["earth-dragon"]
    assert "Sandstorm (its combat effect lasts three turns: not in one combat)" in earth.decisive
    # nothing the combat leaves out is worth nothing to a resource: every unplayed rule is decisive
    assert all(c.unplayed == c.decisive for c in by_key.values())


def test_uberdrakes_a_dragon_holding_less_magic_than_its_spell_does_not_cast_it():
    from rulesets.uberdrakes.contest import ContestCatalog

    rs = rulesets.get("uberdrakes")
    poor = ContestCatalog(rs.load_catalog().catalog, (("fire", 3),))
    (dragon,) = rs.contestants(poor, ["fire-dragon"])
    cov = rs.coverage(dragon, rs.rulings())
    assert cov.played == () and "Fire Breath (not cast in its combats: it holds less Magic)" in cov.decisive


def test_uberdrakes_ranking_gives_the_windblast_a_verdict_under_the_richer_value_only():
    rs = rulesets.get("uberdrakes")
    field = rs.contestants(rs.load_catalog(), ["dragon-lance", "windblast", "rage-potion"])
    played = efficiency.play_field(rs, field, rs.rulings(), seed=1, precision=None, trials=500)
    rank = efficiency.ranking(played).set_index("key")
    assert rank.loc["windblast", "measured"] and rank.loc["windblast", "verdict"] != "not measured"
    assert rank.loc["windblast", "value"] > 0 and rank.loc["windblast", "not_played"] == "every rule played"
    win_only = rs.rulings().with_assignments(["UD-value=win"])
    played = efficiency.play_field(rs, field, win_only, seed=1, precision=None, trials=500)
    rank = efficiency.ranking(played).set_index("key")
    assert rank.loc["windblast", "verdict"] == "not measured"
    assert not rank.loc["windblast", "measured"]
    assert rank.loc["windblast", "not_played"].startswith("not played, can change its value: Windblast: "
                                                          "double damage")
    for key in ("dragon-lance", "rage-potion"):
        assert rank.loc[key, "measured"] and rank.loc[key, "verdict"] != "not measured"
        assert rank.loc[key, "not_played"] == "every rule played"


# --- Dragoborne ------------------------------------------------------------------------------------------


def test_dragoborne_stats_keywords_and_bonuses_the_game_plays(coverages):
    by_key = coverages["dragoborne"]
    assert by_key["pyre-drake"].measured and by_key["pyre-drake"].played == ("ATK/EDR", "dragocross +1/+1",
                                                                             "Deadly")
    hound = by_key["magma-hound"]
    assert hound.measured and "dragocross red (+1/+0, Deadly)" in hound.played
    assert by_key["thorn-scout"].played[-1] == "DICE green 4-6 (Deadly)"
    assert "Assassin (red)" in by_key["canopy-hunter"].played


def test_dragoborne_ambush_fort_burst_and_immune_are_decisive(coverages):
    by_key = coverages["dragoborne"]
    # Flame Ambusher's Ambush text is the one the game plays under DG-spells=all (the default): set when it
    # stays in hand, summoned to the fort attacked, it blocks; under removal it is never set
    from rulesets.dragoborne.contest import coverage

    rs, contestants = _game("dragoborne")
    cards = {c.key: c.subject[0] for c in contestants}
    ambusher = by_key["flame-ambusher"]
    assert ambusher.measured and ambusher.played[-1] == "Ambush" and ambusher.unplayed == ()
    removal = coverage(cards["flame-ambusher"], "removal")
    assert not removal.measured
    assert removal.decisive[0] == ("Ambush (never set: the card is summoned for its cost; DG-spells=all sets "
                                   "one whose text the game reads)")
    assert removal.decisive[1].startswith("\"If this card is an ambush:")
    treant = by_key["elder-treant"]
    assert treant.decisive == ("Fort Burst \"Summon this creature to the attacked fort.\" (never played)",)
    # Immune acts against spells: played by default (DG-spells=all casts spells that respect it),
    # decisive where no spell is cast (DG-spells=none)
    for key, colour in (("grove-warden", "red"), ("inferno-wyrm", "green")):
        assert by_key[key].measured and f"Immune ({colour})" in by_key[key].played, key
        assert coverage(cards[key], "none").decisive[0].startswith(f"Immune ({colour}) (no effect"), key
    assert {k for k, c in by_key.items() if not c.measured} == {"elder-treant"}
    assert all(c.unplayed == c.decisive for c in by_key.values())


def test_dragoborne_a_trait_condition_and_bonus_text_are_decisive():
    from rulesets.dragoborne.catalog import Keyword
    from rulesets.dragoborne.contest import coverage

    card = rulesets.get("dragoborne").load_catalog().card("cinder-whelp")
    bonus = dataclasses.replace(card.dragocross[0], text="Draw a card.")
    cov = coverage(dataclasses.replace(card, keywords=(Keyword("assassin", trait="knight"),),
                                       dragocross=(bonus,)))
    assert cov.played == ("ATK/EDR", "dragocross +1/+1", "dragocross red (+1/+0)")
    assert cov.decisive == (
        "Assassin (trait knight) (trait conditions never match: the catalog's cards have no traits)",
        "dragocross red: \"Draw a card.\" (card text does nothing in the game)")
