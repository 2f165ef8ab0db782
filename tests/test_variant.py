"""One what-if variant for every game (rulesets.base.Ruleset.variant, issue 33): the entry a change names is
found by rulesets.base.lookup, an unknown stat or an operator a stat does not take is refused in the same
words in every game, and each change sees the catalog as the changes before it left it."""

from __future__ import annotations

import types

import pytest

import rulesets
from rulesets.base import CostChange, OptionError, RulesError, lookup, parse_cost, parse_set

#: game -> (the word for an entry, a target, a whole-number stat of it with a value it takes).
GAMES = {
    "drakerys": ("unit", "crows", "combat", "5"),
    "dragonbond": ("unit", "bucentaur-blades", "health", "3"),
    "warbound": ("character", "copp", "speed", "4"),
    "uberdrakes": ("UberDrakes contestant", "fire-breath", "cost", "3"),
    "dragoborne": ("card", "pyre-drake", "atk", "6"),
}


@pytest.fixture(scope="module")
def catalogs():
    return {game: rulesets.get(game).load_catalog() for game in GAMES}


@pytest.mark.parametrize("game", GAMES)
def test_an_unknown_target_is_named_with_the_closest_and_the_known(game, catalogs):
    word, target, stat, value = GAMES[game]
    rs = rulesets.get(game)
    for sets, costs in (([parse_set(f"{target}x.{stat}={value}")], []), ([], [parse_cost(f"{target}x=5")])):
        with pytest.raises(RulesError, match=rf"^unknown {word} '{target}x' \(did you mean {target}\b.*; "
                                             r"known: .*\b" + target + r"\b") as caught:
            rs.variant(catalogs[game], sets, costs)
        assert not isinstance(caught.value, OptionError)  # a name the catalog lacks: a domain error (1)


@pytest.mark.parametrize("game", GAMES)
def test_an_unknown_stat_and_an_operator_it_does_not_take(game, catalogs):
    _, target, stat, value = GAMES[game]
    rs = rulesets.get(game)
    accepted = ", ".join(rs.stats())
    with pytest.raises(RulesError, match=rf"^change '{target}.{stat}s={value}': unknown stat '{stat}s' "
                                         rf"\(did you mean {stat}\?\); accepted: {accepted}$"):
        rs.variant(catalogs[game], [parse_set(f"{target}.{stat}s={value}")], [])
    with pytest.raises(OptionError, match=rf"^change '{target}.{stat}\+=1': {stat} takes =, not \+=$"):
        rs.variant(catalogs[game], [parse_set(f"{target}.{stat}+=1")], [])
    with pytest.raises(OptionError, match=r"^' =5' names no "):  # parse_cost refuses it: the API's way in
        rs.variant(catalogs[game], [], [CostChange(" ", 5.0)])


@pytest.mark.parametrize("game", ["drakerys", "dragonbond", "warbound", "dragoborne"])
def test_a_change_by_printed_name_sees_the_changes_before_it(game, catalogs):
    """The stat set by key, then the cost by printed name ("PYRE DRAKE"): both land on the one entry, and
    the catalog given is kept."""
    _, target, stat, value = GAMES[game]
    rs = rulesets.get(game)
    catalog = catalogs[game]
    entry = getattr(catalog, rs.variant_table)[target]
    key = rs.representative(catalog, target)
    before = {c.key: c for c in rs.contestants(catalog, [target])}[key]
    sets, costs = [parse_set(f"{target}.{stat}={value}")], [parse_cost(f"{entry.name.upper()}=7")]
    changed = rs.variant(catalog, sets, costs)
    after = {c.key: c for c in rs.contestants(changed, [target])}[key]
    assert before.cost != 7 == after.cost
    assert after.play != before.play  # the stat too
    assert getattr(catalog, rs.variant_table)[target] is entry


def test_drakerys_ap_takes_only_equals(catalogs):
    """`crows.ap+=5` once set the AP to 5: the operator is checked for every stat."""
    rs = rulesets.get("drakerys")
    with pytest.raises(OptionError, match=r"^change 'crows.ap\+=5': ap takes =, not \+=$"):
        rs.variant(catalogs["drakerys"], [parse_set("crows.ap+=5")], [])
    skills = rs.variant(catalogs["drakerys"], [parse_set("crows.skills-=guard")], []).units["crows"].skills
    assert skills == ("swashbuckler",)  # a list stat takes -=


def test_lookup_prefers_a_key_and_refuses_a_shared_printed_name(catalogs):
    entries = {"a": types.SimpleNamespace(name="B"), "b": types.SimpleNamespace(name="Other"),
               "c": types.SimpleNamespace(name="Twin"), "d": types.SimpleNamespace(name="Twin")}
    assert lookup(entries, "b", "piece") is entries["b"]  # the key b, not a (printed B)
    assert lookup(entries, "OTHER", "piece") is entries["b"]
    with pytest.raises(RulesError, match=r"^piece name 'twin' is ambiguous; use c or d$"):
        lookup(entries, "twin", "piece")
    # a key as it stands is that entry, even where keys differ only in hyphens (found without a scan)
    near = {"roh-na": types.SimpleNamespace(name="Roh'na"), "rohna": types.SimpleNamespace(name="Rohna")}
    assert lookup(near, "roh-na", "piece") is near["roh-na"]
    assert lookup(near, "rohna", "piece") is near["rohna"]
    with pytest.raises(RulesError, match=r"^piece name 'Roh Na' is ambiguous; use roh-na or rohna$"):
        lookup(near, "Roh Na", "piece")
    # the Drakerys catalog prints two Bowmen
    with pytest.raises(RulesError, match=r"^unit name 'bowmen' is ambiguous; use avaren-bowmen or "
                                         r"irosia-bowmen$"):
        rulesets.get("drakerys").variant(catalogs["drakerys"], [], [parse_cost("Bowmen=100")])
