"""UberDrakes in the balance layer (the contract of rulesets/base.py): pricing combat resources.

Contestants are what a designer prices: the items (coins; no price is printed, so every item price is the
catalog's illustrative one) and the spells (Magic, as printed) that act in a combat, Plate Armor at each X
(``plate-armor@X``, X + 1 Magic), and the six dragons with their spells and DRAGON_MAGIC Magic to cast them
(their cost: the Magic they hold). One coin counts as one Magic: no exchange rate is printed, and
UD-objective's spend counts them alike.

An engagement of ``a`` against ``b`` is the combat (rulesets.uberdrakes.combat, exact) where the initiator
holds ``a`` and the defender holds ``b``, in each situation of a stated grid: Rage 0..2 each, bonus
difference -2, 0, +2 (:data:`SITUATIONS`), equally weighted; and the same combats with each side's
resource taken away. A side's primary value (``value``) is the gain in what the combat is worth to it
(UD-value, rulesets.uberdrakes.combat.combat_value): by default in blood points, the blood points it gains
and UD-damage-bp (8, a Movement card) for each instance of damage it deals less each it takes, plus
UD-win-bp (0) for a win; or P(win) alone. The gain in P(win) (``win_gain``), blood points, damage and spend
are beside it. Resources are priced under the optimal policy playing for that value unless UD-policy /
UD-objective are set (rules.pricing_rulings); the greedy policy's value is beside it (``value_greedy``).
Every number is exact.

How a resource is used: Dragon Lance, Hide Shield and Fire Breath in the counterattack; Plate Armor with its
X + 1 Magic (any X up to it, chosen by the policy); Rage Potions, Acid Rain and Windblast before the roll
(greedy uses them, optimal chooses); a ranged attack (Long Bow, Thunderbolt, Take to the Skies) and
Camouflage's bonus by the initiator only (line 474: "as long as you're the initiator"), so they are worth
nothing to a defender. numpy and the catalog reader are imported by the functions that use them.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Sequence
from typing import Any

from rulesets.base import (
    Contestant,
    CostChange,
    Coverage,
    Engagement,
    Metric,
    OptionError,
    RulesError,
    Ruleset,
    StandardTable,
    StatChange,
    TableData,
    lookup,
)
from rulesets.uberdrakes.rules import UberDrakesRulings, greedy_rulings, pricing_rulings

#: The Magic a dragon contestant holds (illustrative: Magic comes 1 a landing, 3 a roost, line 167).
DRAGON_MAGIC = 8
#: The grid of rolloff situations every engagement is played in: (initiator Rage, defender Rage, the
#: initiator's bonus minus the defender's).
RAGES = (0, 1, 2)
BONUS_DIFFERENCES = (-2, 0, 2)
SITUATIONS = tuple((ri, rd, d) for ri in RAGES for rd in RAGES for d in BONUS_DIFFERENCES)
#: Plate Armor's X in the default field, and the most a named ``plate-armor@X`` may take.
PLATE_FIELD = (1, 2, 3, 4, 5)
PLATE_MAX = 19
PLATE = "plate-armor"
ITEMS = ("dragon-lance", "hide-shield", "rage-potion", "long-bow")
SPELLS = ("fire-breath", "acid-rain", "windblast", "camouflage", "thunderbolt", "take-to-the-skies")
#: Spells whose effect on a combat is an initiator's ranged attack (lines 561-567, 527-533).
RANGED_SPELLS = ("thunderbolt", "take-to-the-skies")
#: Dragons' spells used when the dragon initiates (Camouflage, Thunderbolt), as the resources above.
INITIATOR_SPELLS = ("camouflage", "thunderbolt")


@dataclasses.dataclass(frozen=True)
class Loadout:
    """What a side brings to the contest's combats: its kit, and what it uses when it initiates (a ranged
    attack; Camouflage) with the Magic that costs."""

    kit: Any  # rulesets.uberdrakes.combat.Kit
    ranged: bool = False
    camouflage: bool = False
    initiating_magic: int = 0


@dataclasses.dataclass(frozen=True)
class ContestCatalog:
    """The catalog and the Magic each dragon contestant holds (``--cost fire-dragon=10`` changes it)."""

    catalog: Any
    dragon_magic: tuple[tuple[str, int], ...] = ()

    def magic_of(self, dragon: str) -> int:
        return dict(self.dragon_magic).get(dragon, DRAGON_MAGIC)


def _price(catalog, key: str) -> float:
    item = catalog.items.get(key)
    if item is None or item.price is None:
        raise RulesError(f"the catalog has no price for {key!r}: give one with --catalog or --cost")
    return float(item.price)


def _cost(catalog, key: str) -> int:
    return int(catalog.spells[key].cost)


def _loadout(catalog: ContestCatalog, key: str) -> tuple[Loadout, Loadout, float, str]:
    """(loadout, the loadout without the resource, cost, cost unit) of a contestant key."""
    from rulesets.uberdrakes.combat import Kit, kit_for

    cat = catalog.catalog
    none = Loadout(Kit())
    if key == "dragon-lance":
        price = _price(cat, key)
        return Loadout(Kit(lances=1, lance_price=price)), none, price, "coins"
    if key == "hide-shield":
        price = _price(cat, key)
        return Loadout(Kit(shields=1, shield_price=price)), none, price, "coins"
    if key == "rage-potion":
        price = _price(cat, key)
        return Loadout(Kit(potions=1, potion_price=price)), none, price, "coins"
    if key == "long-bow":
        return Loadout(Kit(), ranged=True), none, _price(cat, key), "coins"
    if key == "fire-breath":
        c = _cost(cat, key)
        return Loadout(Kit(magic=c, fire_breath=True, fire_breath_cost=c)), none, c, "Magic"
    if key == "acid-rain":
        c = _cost(cat, key)
        return Loadout(Kit(magic=c, acid_rain=True, acid_rain_cost=c)), none, c, "Magic"
    if key == "windblast":
        c = _cost(cat, key)
        return Loadout(Kit(magic=c, windblast=True, windblast_cost=c)), none, c, "Magic"
    if key == "camouflage":
        c = _cost(cat, key)
        return Loadout(Kit(), camouflage=True, initiating_magic=c), none, c, "Magic"
    if key in RANGED_SPELLS:
        c = _cost(cat, key)
        return Loadout(Kit(), ranged=True, initiating_magic=c), none, c, "Magic"
    if key.startswith(PLATE + "@"):
        x = _plate_x(key)
        return Loadout(Kit(magic=x + 1, plate_armor=True)), none, x + 1, "Magic"
    if key.endswith("-dragon"):
        dragon = key[: -len("-dragon")]
        magic = catalog.magic_of(dragon)
        kit = kit_for(cat, dragon, magic=magic)
        spells = {s.key for s in cat.spells_of(dragon)}
        camouflage = "camouflage" in spells and magic >= _cost(cat, "camouflage")
        ranged = "thunderbolt" in spells and magic >= _cost(cat, "thunderbolt")
        used = _cost(cat, "camouflage") * camouflage + _cost(cat, "thunderbolt") * ranged
        return (Loadout(kit, ranged=ranged, camouflage=camouflage, initiating_magic=used),
                Loadout(Kit(magic=magic)), magic, "Magic")
    raise RulesError(f"{key!r} names no UberDrakes contestant")


def _plate_x(key: str) -> int:
    text = key.split("@", 1)[1]
    try:
        x = int(text)
    except ValueError:
        x = -1
    if not 1 <= x <= PLATE_MAX:
        raise RulesError(f"Plate Armor's X in {key!r} must be a whole number 1..{PLATE_MAX} (X + 1 Magic, "
                         f"line 602)")
    return x


def _name(catalog, key: str) -> str:
    cat = catalog.catalog
    if key.startswith(PLATE + "@"):
        x = _plate_x(key)
        return f"{cat.spells[PLATE].name} (X = {x})"
    if key.endswith("-dragon"):
        dragon = cat.dragons[key[: -len("-dragon")]]
        return f"{dragon.name} ({catalog.magic_of(dragon.key)} Magic)"
    return (cat.items.get(key) or cat.spells[key]).name


def _available(catalog: ContestCatalog) -> list[str]:
    """The contestant keys the catalog gives, in field order."""
    cat = catalog.catalog
    keys = [k for k in ITEMS if k in cat.items]
    keys += [k for k in SPELLS if k in cat.spells]
    if PLATE in cat.spells:
        keys += [f"{PLATE}@{x}" for x in PLATE_FIELD]
    keys += [f"{d}-dragon" for d in cat.dragons]
    return keys


def _contestant(catalog: ContestCatalog, key: str) -> Contestant:
    loadout, without, cost, unit = _loadout(catalog, key)
    cat = catalog.catalog
    if key.endswith("-dragon"):
        kind, group = "dragon", key
        illustrative = True  # the Magic it holds
    elif key.startswith(PLATE + "@"):
        kind, group, illustrative = "spell", PLATE, False
    elif key in cat.items:
        kind, group, illustrative = "item", key, "price" in cat.items[key].illustrative
    else:
        kind, group, illustrative = "spell", key, "cost" in cat.spells[key].illustrative
    return Contestant(key=key, name=_name(catalog, key), cost=float(cost), cost_unit=unit, group=group,
                      play=(loadout, without), labels=(("resource", _name(catalog, key)), ("kind", kind)),
                      illustrative=illustrative, subject=(loadout, without, cat))


@functools.lru_cache(maxsize=4096)
def grid_values(initiator: Loadout, defender: Loadout, rulings: UberDrakesRulings):
    """float64[len(SITUATIONS), 13]: the combat's exact expected results (rulesets.uberdrakes.combat value
    layout: P(initiator wins), P(damage) each, damage each, Magic each, items each, spend each, blood
    points each) in every situation of the grid, with the initiator's ranged attack and Camouflage."""
    import numpy as np

    from rulesets.uberdrakes.combat import Combat
    from rulesets.uberdrakes.exact import Side

    combat = Combat(initiator_kit=initiator.kit, defender_kit=defender.kit, ranged=initiator.ranged)
    camouflage = rulings.camouflage if initiator.camouflage else 0
    sides = tuple((Side(ri, max(d, 0) + camouflage), Side(rd, max(-d, 0))) for ri, rd, d in SITUATIONS)
    out = np.array([[*o.p_win[:1], *o.p_damage, *o.damage, *o.magic, *o.items, *o.spend, *o.blood_points]
                    for o in _solved(combat, sides, rulings)])
    out[:, 5] += initiator.initiating_magic  # Magic: the ranged spell or Camouflage cast to initiate
    out[:, 9] += initiator.initiating_magic
    return out


@functools.lru_cache(maxsize=4096)
def _solved(combat, sides: tuple, rulings: UberDrakesRulings) -> list:
    """rulesets.uberdrakes.combat.solve_each, once per combat: loadouts that differ only outside the combat
    (the Magic a ranged spell or Camouflage costs to initiate, a Long Bow's price, a dragon's spells that
    leave its kit alike) play the same combat, and a field meets each of them many times."""
    from rulesets.uberdrakes.combat import solve_each

    return solve_each(combat, sides, rulings)


P_WIN, P_DAMAGE, DAMAGE, MAGIC, ITEMS_USED, SPEND, BLOOD = 0, 1, 3, 5, 7, 9, 11
#: The columns of the resources table (Ruleset.tables()), in its order.
RESOURCE_COLUMNS = ("resource", "cost", "unit", "value", "value_per_cost", "value_greedy", "value_initiator",
                    "value_defender", "win_gain", "win_gain_greedy", "win_gain_per_cost", "bp_gain",
                    "damage_gain", "damage_taken_gain", "spent", "key")


def _side_value(g, side: int, rulings: UberDrakesRulings):
    """float64[n]: what the combats of a grid (:func:`grid_values`) are worth to ``side`` (UD-value)."""
    from rulesets.uberdrakes.combat import combat_value

    win = g[:, P_WIN] if side == 0 else 1.0 - g[:, P_WIN]
    return combat_value(win, g[:, BLOOD + side], g[:, DAMAGE + side], g[:, DAMAGE + 1 - side], rulings)


def resource_gains(catalog: ContestCatalog, rulings: UberDrakesRulings) -> list[dict]:
    """What each contestant's resource adds against an opponent holding nothing, over the grid, as
    initiator and as defender (exact), priced under :func:`pricing_rulings`: gains in the combat's value
    (UD-value), in P(win), blood points and damage dealt, and the Magic and items it spends; per unit of
    cost too; and the value and P(win) gains under the greedy policy."""
    from rulesets.uberdrakes.combat import Kit

    priced = pricing_rulings(rulings)
    greedy = greedy_rulings(priced)
    none = Loadout(Kit())
    nan = float("nan")
    rows = []
    for key in _available(catalog):
        loadout, without, cost, unit = _loadout(catalog, key)

        def gains(r, loadout=loadout, without=without):
            init = (grid_values(loadout, none, r), grid_values(without, none, r))
            dfd = (grid_values(none, loadout, r), grid_values(none, without, r))
            value = ((_side_value(init[0], 0, r) - _side_value(init[1], 0, r)).mean(),
                     (_side_value(dfd[0], 1, r) - _side_value(dfd[1], 1, r)).mean())
            return init[0] - init[1], dfd[0] - dfd[1], value

        init, dfd, value = gains(priced)
        g_init, g_dfd, g_value = (init, dfd, value) if greedy == priced else gains(greedy)
        win = (init[:, P_WIN].mean(), 0.0 - dfd[:, P_WIN].mean())
        bp = (init[:, BLOOD].mean(), dfd[:, BLOOD + 1].mean())
        damage = (init[:, DAMAGE].mean(), dfd[:, DAMAGE + 1].mean())
        taken = (init[:, DAMAGE + 1].mean(), dfd[:, DAMAGE].mean())
        gain = (win[0] + win[1]) / 2
        worth = (value[0] + value[1]) / 2
        bp_gain = (bp[0] + bp[1]) / 2
        rows.append({"key": key, "resource": _name(catalog, key), "cost": float(cost), "unit": unit,
                     "value_initiator": float(value[0]), "value_defender": float(value[1]),
                     "value": float(worth), "value_per_cost": float(worth / cost) if cost else nan,
                     "value_greedy": float((g_value[0] + g_value[1]) / 2),
                     "win_gain_initiator": float(win[0]), "win_gain_defender": float(win[1]),
                     "win_gain": float(gain), "win_gain_per_cost": float(gain / cost) if cost else nan,
                     "win_gain_greedy": float((g_init[:, P_WIN].mean() - g_dfd[:, P_WIN].mean()) / 2),
                     "bp_gain": float(bp_gain), "bp_gain_per_cost": float(bp_gain / cost) if cost else nan,
                     "damage_gain": float((damage[0] + damage[1]) / 2),
                     "damage_taken_gain": float((taken[0] + taken[1]) / 2),
                     "spent": float((init[:, SPEND].mean() + dfd[:, SPEND + 1].mean()) / 2)})
    return rows


@dataclasses.dataclass(frozen=True, eq=False)
class _Played:
    """An engagement's exact grids (:func:`grid_values`): a against b, a's stand-in against b, a against
    b's stand-in, under the pricing rulings and under greedy (the same grids when those agree)."""

    priced: tuple
    greedy: tuple
    rulings: UberDrakesRulings


def _gains(grids, rulings: UberDrakesRulings):
    """(value, P(win), the value and P(win) without the resource) per side: float64[2, n] each."""
    import numpy as np

    both, a_alone, b_alone = grids
    value = np.vstack([_side_value(both, 0, rulings), _side_value(both, 1, rulings)])
    value_without = np.vstack([_side_value(a_alone, 0, rulings), _side_value(b_alone, 1, rulings)])
    win = np.vstack([both[:, P_WIN], 1.0 - both[:, P_WIN]])
    win_without = np.vstack([a_alone[:, P_WIN], 1.0 - b_alone[:, P_WIN]])
    return value, win, value_without, win_without


def _score(raw: _Played, a: Contestant, b: Contestant):
    """Every metric of both sides in every situation: ``{metric: float64[2, n]}``."""
    import numpy as np

    both, a_alone, b_alone = raw.priced  # a against b; a's stand-in against b; a against b's stand-in
    value, win, value_without, win_without = _gains(raw.priced, raw.rulings)
    g_value, g_win, g_value_without, g_win_without = _gains(raw.greedy, raw.rulings)
    bp = both[:, BLOOD:BLOOD + 2].T
    bp_without = np.vstack([a_alone[:, BLOOD], b_alone[:, BLOOD + 1]])
    dealt = both[:, DAMAGE:DAMAGE + 2].T
    dealt_without = np.vstack([a_alone[:, DAMAGE], b_alone[:, DAMAGE + 1]])
    return {
        "value": value - value_without,
        "value_greedy": g_value - g_value_without,
        "combat_value": value,
        "win": win,
        "win_gain": win - win_without,
        "win_gain_greedy": g_win - g_win_without,
        "loss": win[::-1],
        "net": win - win[::-1],
        "p_damage": both[:, P_DAMAGE:P_DAMAGE + 2].T,
        "damage_dealt": dealt,
        "damage_taken": dealt[::-1],
        "damage_gain": dealt - dealt_without,
        "blood_points": bp,
        "bp_gain": bp - bp_without,
        "magic_spent": both[:, MAGIC:MAGIC + 2].T,
        "items_used": both[:, ITEMS_USED:ITEMS_USED + 2].T,
    }


_DAMAGE = "damage and blood points are not counted in its value (UD-value=win)"
#: What the combat plays of each resource: (what it does, its rules outside the combat that the value leaves
#: out, its rules on damage or blood points only). Rules left out can change the resource's worth, so each is
#: decisive (the verdict is then ``not measured``); those on damage are played when UD-value counts damage
#: and blood points (win+damage+blood), and left out under UD-value=win.
_RULES = {
    "dragon-lance": ("one more die in the counterattack, not in ranged combat", (), ()),
    "hide-shield": ("one more die in the counterattack, at range too", (), ("no damage dealt when it wins",)),
    "rage-potion": ("one level of temporary Rage before the roll", (), ()),
    "long-bow": ("a ranged attack in a combat it initiates",
                 ("its use in every later combat (it is not used up; its value is one combat's)",),
                 ("a ranged attacker that loses takes no damage",)),
    "fire-breath": ("one more die in the counterattack, at range too", (), ()),
    "acid-rain": ("destroying the opponent's next combat item", (), ()),
    "windblast": ("cast at the beginning of combat", (),
                  ("double damage when it wins, even at range or behind a Hide Shield",)),
    "camouflage": ("the surprise attack bonus in a combat it initiates (UD-camouflage)",
                   ("hiding until its next turn: no one can attack it, and it moves through Zones of Control "
                    "(outside the combat)",), ()),
    "thunderbolt": ("a ranged attack in a combat it initiates",
                    ("attacking from up to three spaces away without an action (outside the combat)",),
                    ("a ranged attacker that loses takes no damage",)),
    "take-to-the-skies": ("a ranged attack in a combat it initiates",
                          ("a free general movement action and flying over opponents (outside the combat)",
                           "every other combat it initiates that turn ranged too (its value is one "
                           "combat's)"),
                          ("a ranged attacker that loses takes no damage",)),
    PLATE: ("+X once in the counterattack", (), ("no damage dealt when it wins, like the Hide Shield",)),
}
#: Why a dragon's spell that its contests do not cast is left out, by the spell's timing.
_UNCAST = {"movement": "a movement spell: outside the combat",
           "damage": "a damage effect: the combat counts damage in instances (UD-damage-bp each), not which "
                     "effect an instance is"}


def coverage(key: str, loadout: Loadout, catalog, rulings: UberDrakesRulings | None = None) -> Coverage:
    """Which of a resource's rules its combats play and which its value leaves out (:data:`_RULES`); a
    dragon: each of its spells, as the resource or as left out (uncast spells act outside the combat, over
    three turns of combats, or choose what an instance of damage is). Every rule left out can change the
    value (decisive); rules on damage only are played when UD-value counts damage and blood points."""
    counted = (rulings or UberDrakesRulings()).value != "win"
    if key.endswith("-dragon"):
        kit = loadout.kit
        known = {"fire-breath": kit.fire_breath, PLATE: kit.plate_armor, "acid-rain": kit.acid_rain,
                 "windblast": kit.windblast, "camouflage": loadout.camouflage, "thunderbolt": loadout.ranged}
        spells = catalog.spells_of(key[: -len("-dragon")])
        cast = {s.key: known.get(s.key, False) and s.cost_min <= kit.magic for s in spells}
    else:
        spells = [catalog.spells.get(key.split("@")[0]) or catalog.items[key]]
        cast = {key.split("@")[0]: True}
    played, unplayed = [], []
    for spell in spells:
        if cast.get(spell.key):
            does, outside, damage = _RULES[spell.key]
            played.append(f"{spell.name}: {does}")
            if counted:
                played += [f"{spell.name}: {rule}" for rule in damage]
            unplayed += [f"{spell.name}: {rule}" for rule in outside]
            if not counted:
                unplayed += [f"{spell.name}: {rule} ({_DAMAGE})" for rule in damage]
        elif spell.key in _RULES:
            short = ": it holds less Magic" if spell.cost_min > loadout.kit.magic else ""
            unplayed.append(f"{spell.name} (not cast in its combats{short})")
        elif spell.combat and spell.timing not in _UNCAST:
            unplayed.append(f"{spell.name} (its combat effect lasts three turns: not in one combat)")
        else:
            unplayed.append(f"{spell.name} ({_UNCAST.get(spell.timing, 'outside the combat')})")
    return Coverage(tuple(played), tuple(unplayed), tuple(unplayed))


class UberDrakesRuleset(Ruleset):
    """UberDrakes (seed 003) fulfilling the contract: combat resources priced by the exact combat."""

    cost_unit = "Magic or coins"
    examples = {"efficiency": "--unit fire-breath --unit dragon-lance --unit plate-armor --format markdown",
                "whatif": '--cost "fire-breath=3" --ruling UD-policy=greedy',
                "sweep": '--cost "dragon-lance=1..8" --plot lance.png'}
    engagement = ("a combat, solved exactly: the initiator holds one resource, the defender the other, in "
                  "each situation of the grid (Rage 0..2 each, bonus difference -2, 0, +2; equally "
                  "weighted), and again with each side's resource taken away")
    roles = ("initiates", "defends")
    army_text = ("a dragon's hoard is gathered in play (coins from deserts, caves and villages, "
                 "seed 003 lines 162, 179, 215, 235), not bought from a budget before the game; "
                 "its contests price one resource in a combat, and no search over hoards is "
                 "written")
    metrics = (
        Metric("value", "the combat's worth to this side (UD-value: by default blood points gained + "
                        "UD-damage-bp x (damage dealt - taken) + UD-win-bp x P(win)) with its resource - "
                        "without it, against the other's (the primary value)"),
        Metric("value_greedy", "value under UD-policy=greedy (beside the optimal play that prices)"),
        Metric("combat_value", "the combat's worth to this side (UD-value)"),
        Metric("win", "P(this side wins the combat)"),
        Metric("win_gain", "P(win) with its resource - without it, against the other's"),
        Metric("win_gain_greedy", "win_gain under UD-policy=greedy"),
        Metric("loss", "P(this side loses the combat)"),
        Metric("net", "P(win) - P(loss)"),
        Metric("p_damage", "P(this side deals damage)"),
        Metric("damage_dealt", "damage instances this side deals"),
        Metric("damage_taken", "damage instances this side takes"),
        Metric("damage_gain", "damage instances dealt with its resource - without it"),
        Metric("blood_points", "blood points this side gains"),
        Metric("bp_gain", "blood points with its resource - without it"),
        Metric("magic_spent", "Magic this side spends"),
        Metric("items_used", "items this side uses up"),
    )
    primary_metric = "value"
    win_metric = "win"
    payoff_metric = "net"
    payoff_description = ("P(win) - P(loss) per Magic (or coin) of the pair's mean cost, averaged over both "
                          "roles")
    value_per_cost_description = ("gain in the combat's worth (UD-value; blood points by default) per Magic "
                                  "or coin of its cost")

    def load_catalog(self, paths: Sequence[Any] = ()) -> ContestCatalog:
        from rulesets.uberdrakes import catalog as catalog_io

        return ContestCatalog(catalog_io.load(user_paths=tuple(paths)))

    def catalog_files(self, catalog: ContestCatalog) -> list[tuple[str, str]]:
        return list(catalog.catalog.files)

    def contestants(self, catalog: ContestCatalog, only: Sequence[str] = ()) -> list[Contestant]:
        keys = _available(catalog)
        if only:  # in the field's order; a Plate Armor X outside the field's after them
            named = [self._key(catalog, name) for name in only]
            extra = [k for k in named if k.startswith(PLATE + "@") and k not in keys]
            keys = [k for k in keys if k in named or (PLATE in named and k.startswith(PLATE + "@"))]
            keys += list(dict.fromkeys(extra))
        return [_contestant(catalog, k) for k in keys]

    def _key(self, catalog: ContestCatalog, name: str) -> str:
        """A contestant key from a key or a printed name: ``fire-breath``, ``Fire Breath``,
        ``plate-armor@3``, ``plate-armor`` (every X of the field), ``fire-dragon`` or ``Fire Dragon``."""
        import types

        from rulesets.uberdrakes.catalog import slug

        text = name.strip()
        if "@" in text:
            base, x = text.split("@", 1)
            if slug(base) != PLATE:
                raise RulesError(f"{name!r}: only Plate Armor takes @X (its X, {PLATE}@3)")
            key = f"{PLATE}@{x.strip()}"
            _plate_x(key)
            return key
        cat = catalog.catalog
        keys = [k for k in _available(catalog) if not k.startswith(PLATE + "@")]
        keys += [PLATE] if PLATE in cat.spells else []
        entries = {k: types.SimpleNamespace(key=k, name=(cat.items.get(k) or cat.spells.get(k)
                                                        or cat.dragons[k[: -len("-dragon")]]).name)
                   for k in keys}
        return lookup(entries, text, "UberDrakes contestant").key

    def engage(self, a: Contestant, b: Contestant, rulings: UberDrakesRulings, *, seed: int,
               trials: int | None = None, precision: float | None = None,
               threads: int | None = None) -> Engagement:
        import numpy as np

        (la, wa), (lb, wb) = a.play, b.play
        priced = pricing_rulings(rulings)
        greedy = greedy_rulings(priced)

        def grids(r):
            return grid_values(la, lb, r), grid_values(wa, lb, r), grid_values(la, wb, r)

        played = grids(priced)
        raw = _Played(played, played if greedy == priced else grids(greedy), priced)
        weights = np.full(len(SITUATIONS), 1.0 / len(SITUATIONS))
        return Engagement(a, b, seed=seed, raw=raw, score=_score, weights=weights, method="exact")

    def stats(self) -> tuple[str, ...]:
        return ("cost",)

    variant_word = "contestant"

    def variant_entry(self, catalog: ContestCatalog, change: StatChange | CostChange) -> str:
        """The contestant key ``change`` names."""
        if not change.target.strip():
            raise OptionError(f"{change.text!r} names no {self.variant_word}")
        return self._key(catalog, change.target)

    def changed_stat(self, catalog: ContestCatalog, entry: str, change: StatChange) -> ContestCatalog:
        return _with_cost(catalog, entry, change.number(), change.text)

    def recosted(self, catalog: ContestCatalog, entry: str, change: CostChange) -> ContestCatalog:
        return _with_cost(catalog, entry, change.cost, change.text)

    def representative(self, catalog: ContestCatalog, target: str) -> str:
        key = self._key(catalog, target)
        if key == PLATE:
            raise OptionError(f"{target!r} names {len(PLATE_FIELD)} contestants; give one of "
                              f"{', '.join(f'{PLATE}@{x}' for x in PLATE_FIELD)}")
        return key

    def tables(self) -> dict[str, StandardTable]:
        from rulesets.uberdrakes import tables

        return tables.standard_tables(self.resources_table)

    def resources_table(self, rulings: UberDrakesRulings) -> TableData:
        """What each item and spell (and each dragon's spells) adds to a combat against an opponent
        holding nothing, per Magic or coin of its cost, over the contest's grid of situations, exact
        (:func:`resource_gains`), best per cost first: part ``resources``; params ``notes``: what the
        contest's reports say of the packaged catalog."""
        from rulesets.base import record_columns

        catalog = self.load_catalog()
        rows = sorted(resource_gains(catalog, rulings), key=lambda r: -r["value_per_cost"])
        columns = record_columns([{k: r[k] for k in RESOURCE_COLUMNS} for r in rows])
        return TableData(rulings, {"resources": columns}, {"notes": tuple(self.notes(catalog, []))})

    def payoff_scale(self, a: Contestant, b: Contestant) -> float:
        mean = (a.cost + b.cost) / 2.0
        return 1.0 / mean if mean > 0 else 1.0

    def notes(self, catalog: ContestCatalog, contestants: Sequence[Contestant]) -> list[str]:
        from rulesets.uberdrakes.combat import NOT_MODELLED

        cat = catalog.catalog
        notes = [
            "every number is exact (the counterattack game solved by backward induction, every roll "
            "enumerated); no Monte Carlo error",
            "situations: initiator Rage 0..2 x defender Rage 0..2 x bonus difference -2, 0, +2, equally "
            "weighted (a stated, illustrative grid); a resource's gain is against the other side's "
            "resource",
            "costs: items in coins at the catalog's prices (illustrative: the rulebook prints none), spells "
            "in Magic as printed; one coin counts as one Magic (no exchange rate is printed)",
            f"a dragon holds {DRAGON_MAGIC} Magic (illustrative) unless --cost changes it: its value is what "
            "its spells add over a dragon without combat spells holding as much, and its fair cost reads as "
            "the Magic its spells are worth at the field's median rate",
            "the initiator alone uses a ranged attack (Long Bow, Thunderbolt, Take to the Skies) and "
            "Camouflage (line 474), so they are worth nothing to a defender; a ranged attack changes who "
            "takes damage; its win_gain comes from barring the other side's Dragon Lances (no Lance in "
            "ranged combat, line 655)",
            "the Long Bow is not used up (its card does not say it is discarded): its price buys every later "
            "ranged attack, priced here on one combat; Take to the Skies' free movement is not priced",
            "value: what the combat is worth to a side (UD-value=win+damage+blood by default), in blood "
            "points: the blood points it gains, + UD-damage-bp (8: a Movement card, line 347, as Deep "
            "Freeze's damage steals one, lines 449-451) for each instance of damage it deals and - as much "
            "for each it takes, + UD-win-bp (0) for a win; the game is won on Victory Points (lines 32, 75), "
            "which combat gives through damage and blood points (lines 274, 338-349, 692). UD-value=win "
            "prices P(win) alone (win_gain, beside it)",
            "priced under the optimal policy (UD-policy=optimal, UD-objective=value: a designer prices what "
            "a good player gets) unless UD-policy or UD-objective is set with --ruling; the greedy policy's "
            "value is beside it (value_greedy, win_gain_greedy); rolls and duels keep greedy by default",
            "Windblast changes only damage: it is worth casting for its value, never for P(win) "
            "(UD-objective=win-then-cost)",
            "left out: spells lasting three turns (Sandstorm, Supercharge: their worth depends on how many "
            "combats fall in them) and resources with no combat effect",
            f"not modelled in the combat: {'; '.join(NOT_MODELLED)}",
        ]
        missing = [k for k in (*ITEMS, *SPELLS) if k not in cat.items and k not in cat.spells]
        if missing:
            notes.append(f"not in the catalog: {', '.join(missing)}")
        return notes

    def coverage(self, contestant: Contestant, rulings: UberDrakesRulings) -> Coverage:
        loadout, _, catalog = contestant.subject
        return coverage(contestant.key, loadout, catalog, rulings)

    price_features_text = ("Dice: counterattack dice added (Dragon Lance, Hide Shield, Fire Breath); Rage: "
                           "levels of temporary Rage (Rage Potion); Bonus: points added to the combat total "
                           "(Plate Armor's largest X, Camouflage's +3); Damage: instances of damage dealt on "
                           "a win, more or less (Windblast +1; Hide Shield, Plate Armor -1); a dragon counts "
                           "its combat spells")

    def price_features(self, contestant: Contestant) -> dict[str, float]:
        """The pricing rule's features: what a resource does to a combat (seed 003), from the loadout its
        contests play, so that a dragon counts the combat spells it casts (its value is theirs: it is
        priced against a dragon holding as much Magic without them):

        - Dice: "Add one die to your combat total as a counterattack" (Fire Breath, line 410); the Dragon
          Lance's "one additional die" (653) and the Hide Shield's "add one die to your roll" (692).
        - Rage: "gain one level of temporary rage" (Rage Potion, 705): "For each level of Rage you have,
          roll one extra die and discard all but the highest two" (371).
        - Bonus: Plate Armor's "add X to your total during the Counterattack phase" (606), at the largest X
          its Magic pays (X + 1 Magic, 602), and Camouflage's "+3 bonus in that battle" (472, the card's
          number: UD-camouflage may read 2).
        - Damage: Windblast's "you deal double damage" (522): +1; the Hide Shield's "you don't deal damage
          to your opponent" (692) and Plate Armor's "prevents you from dealing Damage" (606): -1.

        No feature for a ranged attack (Long Bow, 666; Thunderbolt, 565; Take to the Skies, 531): each of
        them has rules outside the combat that its value leaves out (:func:`coverage`), so none is ever
        measured and the fit, which leaves out what is not measured, would never see one; nor for Acid
        Rain ("the next combat item your opponent uses is destroyed", 440): only it and the Water Dragon
        have it, so its worth is left to their residuals.
        """
        loadout = contestant.subject[0]
        kit = loadout.kit
        plate = kit.magic - 1 if kit.plate_armor else 0
        return {"Dice": float(kit.lances + kit.shields + kit.fire_breath), "Rage": float(kit.potions),
                "Bonus": float(plate + 3 * loadout.camouflage),
                "Damage": float(kit.windblast - kit.shields - kit.plate_armor)}


METRIC_NAMES = tuple(m.name for m in UberDrakesRuleset.metrics)


def _with_cost(catalog: ContestCatalog, key: str, value: float, text: str) -> ContestCatalog:
    """The catalog with the contestant ``key`` at the cost ``value``: an item's price, a spell's cost, a
    dragon's Magic."""
    if not float(value).is_integer() or value < 0:
        raise OptionError(f"change {text!r}: a cost is a whole number of Magic or coins >= 0, not {value:g}")
    value = int(value)
    if key.startswith(PLATE):
        raise RulesError(f"change {text!r}: Plate Armor's cost is X + 1 as printed (line 602); compare its X "
                         f"instead (--unit {PLATE}@1 --unit {PLATE}@2 ...)")
    cat = catalog.catalog
    if key.endswith("-dragon"):
        magic = {**dict(catalog.dragon_magic), key[: -len("-dragon")]: value}
        return ContestCatalog(cat, tuple(sorted(magic.items())))
    if key in cat.items:
        item = dataclasses.replace(cat.items[key], price=value)
        new = dataclasses.replace(cat, items={**cat.items, key: item})
    else:
        spell = dataclasses.replace(cat.spells[key], cost=value, cost_min=value, cost_max=value)
        new = dataclasses.replace(cat, spells={**cat.spells, key: spell})
    return dataclasses.replace(catalog, catalog=new)
