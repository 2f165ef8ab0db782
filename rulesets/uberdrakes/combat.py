"""The UberDrakes counterattack game, solved exactly (seed 003, lines 297-349; ../shared/RULES.md §4).

After the rolloff (rulesets.uberdrakes.exact) the presumptive loser adds resources to its total or concedes;
once ahead, the other side may answer, and so on (lines 317-323). The resources modelled:

- Dragon Lance (item): one more die, not in ranged combat (lines 653-655);
- Hide Shield (item): one more die, also at range; it makes the opponent's attack Ranged, so its user deals
  no damage when it wins and still takes it when it loses; not for a ranged attacker (362, 692-694);
- Fire Breath (Fire dragon, 4 Magic): one more die, also at range (410); a standard spell, once a combat;
- Plate Armor (Metal dragon, X + 1 Magic): +X, once a combat; its user deals no damage on a win (604-606).

Before the roll (line 307, UD-precombat-order: the first to declare is seen by the other) a side may drink
Rage Potions (+1 temporary Rage each, lines 705-707), cast Acid Rain (Water, 4 Magic: the opponent's next
combat item is destroyed, a Rage Potion drunk before the roll or else its first counterattack item,
lines 438-442; UD-acid-scope) and Windblast (Wind, 3 Magic, "Cast at the beginning of combat", 520).

A die adds its value (UD-item-die=add-value). Damage (325-331): none when the winner used a Hide Shield or
Plate Armor or the loser made a Ranged attack, unless the winner cast Windblast (double damage, 520-524);
two instances after a concession without rolling (331). Blood points (338): the winner gains the loser's
total, the loser half of it, rounded down.

Every chance node is enumerated, every decision solved by backward induction over the reachable states
(each side maximising its own objective, UD-objective), or made by the greedy rule (UD-policy): exact.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from rulesets.base import RulesError, whole_number
from rulesets.uberdrakes import declared
from rulesets.uberdrakes.counter import (
    ACID_AT,
    ADD_D,
    ADD_I,
    BP_I,
    DEALT_D,
    DEALT_I,
    FIRE,
    LANCE,
    LANCES_AT,
    MAGIC_AT,
    N_SHARED,
    ODD_D,
    ODD_I,
    PLATE,
    PLATE_ARMOR_MIN_MAGIC,
    PLATE_USED_AT,
    SHIELD,
    SHIELD_USED_AT,
    SHIELDS_AT,
    SPEND_I,
    TIE,
    UNROLLED_CONCESSION_DAMAGE,
    WIN,
    WIN_DAMAGE,
    WINDBLAST_FACTOR,
    Total,
    Value,
)
from rulesets.uberdrakes.counter import price as _price
from rulesets.uberdrakes.exact import Side, pair_pmf, rolled_totals
from rulesets.uberdrakes.rules import KEPT, SIDES, UberDrakesRulings

#: The printed Magic costs (lines 406, 436, 518); a kit may carry others (a what-if, a user catalog).
FIRE_BREATH_COST = 4
ACID_RAIN_COST = 4
WINDBLAST_COST = 3
MAX_ITEMS = 10
MAX_MAGIC = 30
#: What counts as one unit of spend for an item when no catalog price is given (UD-objective).
DEFAULT_ITEM_PRICE = 1.0
NOT_MODELLED = (
    "items and spells other than the Dragon Lance, Hide Shield, Fire Breath and Plate Armor in Phase 3, and "
    "other than Rage Potions, Acid Rain and Windblast before the roll (a ranged attack is a switch; bonuses "
    "enter as totals)",
    "the damage options themselves (missing from the text, line 329): damage is counted in instances",
    "the simulated combat (a check of the exact program) plays UD-item-die=add-value and adaptive or "
    "overshoot sequencing only; re-keep-highest-two and declared are solved exactly",
)


@dataclass(frozen=True)
class Kit:
    """One side's combat resources: items, Magic, and the spells its dragon knows (Fire Breath and Plate
    Armor in Phase 3; Acid Rain and Windblast before the roll)."""

    lances: int = 0
    shields: int = 0
    magic: int = 0
    fire_breath: bool = False
    plate_armor: bool = False
    potions: int = 0
    acid_rain: bool = False
    windblast: bool = False
    lance_price: float = DEFAULT_ITEM_PRICE
    shield_price: float = DEFAULT_ITEM_PRICE
    potion_price: float = DEFAULT_ITEM_PRICE
    fire_breath_cost: int = FIRE_BREATH_COST
    acid_rain_cost: int = ACID_RAIN_COST
    windblast_cost: int = WINDBLAST_COST

    def __post_init__(self) -> None:
        whole_number("Dragon Lances", self.lances, 0, MAX_ITEMS)
        whole_number("Hide Shields", self.shields, 0, MAX_ITEMS)
        whole_number("Rage Potions", self.potions, 0, MAX_ITEMS)
        whole_number("Magic", self.magic, 0, MAX_MAGIC)


#: The spells the combat plays (the others act outside a combat, or are priced elsewhere).
COMBAT_SPELLS = ("fire-breath", "plate-armor", "acid-rain", "windblast")


def kit_for(catalog, dragon: str, *, magic: int = 0, lances: int = 0, shields: int = 0,
            potions: int = 0, spells: Sequence[str] | None = None) -> Kit:
    """A side's Kit: its dragon's combat spells at the catalog's Magic costs (Fire Breath, Plate Armor,
    Acid Rain, Windblast), and items at the catalog's prices (UD-objective's spend; illustrative).
    ``spells``: only these of its spells (each must be the dragon's, a combat spell, and affordable)."""
    known = {s.key: s for s in catalog.spells_of(dragon)}
    if spells is not None:
        chosen = {}
        for name in spells:
            spell = catalog.spell_of(dragon, name)  # another dragon's spell: a one-line error
            if spell.key not in COMBAT_SPELLS:
                raise RulesError(f"{spell.name} does not act in a combat's rolloff or counterattack; the "
                                 f"combat plays {', '.join(COMBAT_SPELLS)}")
            if spell.cost_min > magic:
                raise RulesError(f"{spell.name} costs {spell.cost_label} Magic (at least {spell.cost_min}); "
                                 f"this side holds {magic}")
            chosen[spell.key] = spell
        known = chosen

    def cost(key: str, printed: int) -> int:
        return int(known[key].cost) if key in known and known[key].cost is not None else printed

    def price(key: str) -> float:
        item = catalog.items.get(key)
        return float(item.price) if item is not None and item.price is not None else DEFAULT_ITEM_PRICE

    return Kit(lances=lances, shields=shields, magic=magic, potions=potions,
               fire_breath="fire-breath" in known, plate_armor="plate-armor" in known,
               acid_rain="acid-rain" in known, windblast="windblast" in known,
               lance_price=price("dragon-lance"), shield_price=price("hide-shield"),
               potion_price=price("rage-potion"), fire_breath_cost=cost("fire-breath", FIRE_BREATH_COST),
               acid_rain_cost=cost("acid-rain", ACID_RAIN_COST),
               windblast_cost=cost("windblast", WINDBLAST_COST))


@dataclass(frozen=True)
class Plan:
    """What a side uses before the roll (line 307): Rage Potions drunk, Acid Rain and Windblast cast."""

    potions: int = 0
    acid_rain: bool = False
    windblast: bool = False

    def magic(self, kit: Kit) -> int:
        """The Magic the plan costs a side with this kit."""
        return kit.acid_rain_cost * self.acid_rain + kit.windblast_cost * self.windblast

    def describe(self) -> str:
        parts = [f"drinks {self.potions} Rage Potion{'s' if self.potions != 1 else ''}"] * (self.potions > 0)
        parts += [name for name, on in (("casts Acid Rain", self.acid_rain),
                                        ("casts Windblast", self.windblast)) if on]
        return ", ".join(parts) or "nothing"


def plans(kit: Kit) -> list[Plan]:
    """Every pre-combat plan a kit affords, the cheapest first (the order that breaks ties between equally
    good plans)."""
    out = []
    for acid in (False, True) if kit.acid_rain else (False,):
        for blast in (False, True) if kit.windblast else (False,):
            for potions in range(kit.potions + 1):
                plan = Plan(potions, acid, blast)
                if plan.magic(kit) <= kit.magic:
                    out.append(plan)
    return sorted(out, key=lambda p: (p.magic(kit) + p.potions * kit.potion_price, p.potions))


def greedy_plan(kit: Kit) -> Plan:
    """UD-policy=greedy before the roll: every Rage Potion drunk, Acid Rain cast when it can be paid, then
    Windblast when what is left pays for it."""
    acid = kit.acid_rain and kit.magic >= kit.acid_rain_cost
    left = kit.magic - kit.acid_rain_cost * acid
    return Plan(kit.potions, acid, kit.windblast and left >= kit.windblast_cost)


@dataclass(frozen=True)
class Combat:
    """A combat: each side's rolloff (Rage before potions, bonus) and kit; ``ranged``: the initiator makes a
    Ranged attack (Long Bow, Thunderbolt, Take to the Skies); ``may_concede_unrolled``: the defender may
    concede without rolling (line 313); ``roosted``: the defender has Roosted ("Roosted players cannot
    initiate combat", line 284, so only the defender can be), and "Engaging in combat with a roosted player
    does not [give] blood points to either player. You can still deal Damage to them though" (line 284)."""

    initiator: Side = field(default_factory=Side)
    defender: Side = field(default_factory=Side)
    initiator_kit: Kit = field(default_factory=Kit)
    defender_kit: Kit = field(default_factory=Kit)
    ranged: bool = False
    may_concede_unrolled: bool = True
    roosted: bool = False

    def __post_init__(self) -> None:
        for name, side in (("initiator", self.initiator), ("defender", self.defender)):
            if side.bonus < 0:
                raise RulesError(f"the {name}'s bonus {side.bonus} is below 0: combat bonuses are added, "
                                 f"never taken away (lines 303-307), and blood points need totals >= 0")

    @property
    def kits(self) -> tuple[Kit, Kit]:
        return (self.initiator_kit, self.defender_kit)


@dataclass(frozen=True)
class Outcome:
    """Expected results of a combat for both sides (index 0 the initiator): P(win), P(it deals damage),
    expected damage instances dealt, Magic spent, items used, spend (UD-objective's units) and blood
    points; P(the defender concedes without rolling); and each side's pre-combat plan."""

    p_win: tuple[float, float]
    p_damage: tuple[float, float]
    damage: tuple[float, float]
    magic: tuple[float, float]
    items: tuple[float, float]
    spend: tuple[float, float]
    blood_points: tuple[float, float]
    p_concede_unrolled: float
    plans: tuple[Plan, Plan] = (Plan(), Plan())


@dataclass(frozen=True)
class _Setup:
    """A combat once both pre-combat plans are made: each side's Rage for the roll, the kit it counter-
    attacks with (Magic paid), whether Acid Rain waits for its next item, whether it cast Windblast, and
    what the plans spent (Magic, items, spend)."""

    rage: tuple[int, int]
    kits: tuple[Kit, Kit]
    acid_against: tuple[bool, bool]
    windblast: tuple[bool, bool]
    pre_spent: tuple[tuple[float, float, float], tuple[float, float, float]]


def _setup(combat: Combat, chosen: tuple[Plan, Plan], rulings: UberDrakesRulings,
           sides: tuple[Side, Side] | None = None) -> _Setup:
    """Both plans applied (line 307): the side declaring second (UD-precombat-order) drinks its potions
    after the first side's Acid Rain, which destroys the first of them (line 441); Acid Rain that meets no
    potion waits for the opponent's first counterattack item. The first side's potions are drunk before
    the second side's Acid Rain is cast, so that Acid Rain waits too."""
    first = 0 if rulings.precombat_order == "initiator-first" else 1
    rage, kits, acid, spent = [], [], [], []
    sides = sides or (combat.initiator, combat.defender)
    for s in (0, 1):
        plan, kit, other = chosen[s], combat.kits[s], chosen[1 - s]
        destroyed = 1 if other.acid_rain and s != first and plan.potions else 0
        rage.append(sides[s].rage + plan.potions - destroyed)
        acid.append(other.acid_rain and not destroyed)
        magic = plan.magic(kit)
        kits.append(replace(kit, magic=kit.magic - magic, potions=0, acid_rain=False, windblast=False))
        spent.append((float(magic), float(plan.potions), magic + plan.potions * kit.potion_price))
    return _Setup(tuple(rage), tuple(kits), tuple(acid), (chosen[0].windblast, chosen[1].windblast),
                  tuple(spent))


# --- state --------------------------------------------------------------------------------------------------
# A side during the counterattack: a tuple in the order of counter.SideState; what it spent is its kit less
# what remains. Totals are kept whole: blood points need the loser's total.


def _side_state(kit: Kit, acid: bool) -> tuple:
    return (kit.lances, kit.shields, kit.magic, kit.fire_breath, kit.plate_armor, False, False, acid)


def _spent(kit: Kit, s: tuple) -> tuple[float, float, float]:
    """(Magic spent, items used, spend in UD-objective's units) of a side whose state is ``s``."""
    lances, shields = kit.lances - s[LANCES_AT], kit.shields - s[SHIELDS_AT]
    magic = kit.magic - s[MAGIC_AT]
    spend = magic + lances * kit.lance_price + shields * kit.shield_price
    return float(magic), float(lances + shields), spend


def _moves(kit: Kit, s: tuple, me: int, combat: Combat, rulings: UberDrakesRulings, replying: bool,
           shield_against: bool) -> list[tuple[str, int]]:
    """(resource, Plate Armor's X or 0) that side ``me`` may use now. ``replying``: it is answering a
    counterattack (UD-reply-spells); ``shield_against``: the other side used a Hide Shield (its attack is
    Ranged now, UD-shield-ranged)."""
    lances, shields, magic, fire, plate, *_ = s  # SideState's order
    ranged_attacker = combat.ranged and me == 0
    out = []
    lance_barred = combat.ranged or (shield_against and rulings.shield_ranged == "bars-lance")
    if lances and not lance_barred:
        out.append((LANCE, 0))
    if shields and not ranged_attacker:
        out.append((SHIELD, 0))
    spells = not replying or rulings.reply_spells
    if spells and fire and magic >= kit.fire_breath_cost:
        out.append((FIRE, 0))
    if spells and plate and magic >= PLATE_ARMOR_MIN_MAGIC:
        for x in range(1, magic):
            out.append((PLATE, x))
    return out


def _ahead(me: int, mine: int, theirs: int, rulings: UberDrakesRulings) -> bool:
    """Whether side ``me`` (0 the initiator) is ahead: above, or level as the initiator (lines 315, 83;
    UD-counter-ties=strict: a counterattacking side must get above, the initiator too)."""
    if mine != theirs:
        return mine > theirs
    return me == 0 and rulings.counter_ties == "initiator"


def _used(kit: Kit, s: tuple, resource: str, x: int, destroyed: bool = False) -> tuple:
    """The state after using a resource; ``destroyed`` by Acid Rain, it is spent and has no effect (no Hide
    Shield, no Plate Armor for the damage rule; line 440)."""
    lances, shields, magic, fire, plate, shield_used, plate_used, acid = s
    if destroyed:
        acid = False
    if resource == LANCE:
        return (lances - 1, shields, magic, fire, plate, shield_used, plate_used, acid)
    if resource == SHIELD:
        return (lances, shields - 1, magic, fire, plate, shield_used or not destroyed, plate_used, acid)
    if resource == FIRE:
        return (lances, shields, magic - kit.fire_breath_cost, False, plate, shield_used, plate_used, acid)
    return (lances, shields, magic - x - 1, fire, False, shield_used, plate_used or not destroyed, acid)


def _destroys(state: tuple, resource: str, rulings: UberDrakesRulings) -> bool:
    """Whether Acid Rain destroys this resource: it waits for the side's next combat item (line 440), or
    for its next item or Phase-3 spell (UD-acid-scope=items-and-spells)."""
    return state[ACID_AT] and (resource in (LANCE, SHIELD) or rulings.acid_scope == "items-and-spells")


# A value is a tuple of expectations from the state onward: slots rulesets.uberdrakes.counter.Value.


class _Solver:
    """Backward induction over the reachable states of one combat under the rulings (memoised).
    ``compiled``: the rolloff tables of add-value dice, adaptive or overshoot, are solved by the compiled
    twin of this recursion (rulesets.uberdrakes.kernels_exact), which records no moves."""

    def __init__(self, combat: Combat, setup: _Setup, rulings: UberDrakesRulings,
                 compiled: bool = False) -> None:
        self.combat, self.setup, self.rulings = combat, setup, rulings
        self.kits = setup.kits
        self.optimal = rulings.policy == "optimal"
        self.keep = rulings.item_die == "re-keep-highest-two"
        self.declared = rulings.counter_sequencing == "declared"
        self.compiled = compiled and not self.keep and not self.declared
        self._kernel_args: tuple | None = None
        # blood-point objectives decide on the totals themselves
        self.absolute = self.optimal and (rulings.objective in ("blood-points", "net-value")
                                          or (rulings.objective == "value" and rulings.value != "win"))
        self._memo: dict[tuple, tuple] = {}
        self._ends: dict[tuple, tuple] = {}
        # both sides' states, interned: a key holds a small number, not the nested tuple (hashed often)
        self._ids: dict[tuple, int] = {}
        self._states: list[tuple] = []
        #: The move made in each state the game reached, keyed by interned states (see :meth:`decisions`).
        self._decided: dict[tuple, tuple[str, int] | None] = {}
        self.after_rolloff = functools.lru_cache(maxsize=None)(self._after_rolloff)
        self._tables: dict[tuple[int, int], object] = {}
        self.concession = functools.lru_cache(maxsize=None)(self._concession)

    def sid(self, states: tuple) -> int:
        """The interned number of both sides' states."""
        n = self._ids.get(states)
        if n is None:
            n = self._ids[states] = len(self._states)
            self._states.append(states)
        return n

    def play(self, diff: int, totals: tuple[int, int] | None, sid: int, mover: int, first: int,
             overshooting: bool) -> tuple:
        """:meth:`_play`, memoised."""
        key = (diff, totals, sid, mover, first, overshooting)
        v = self._memo.get(key)
        if v is None:
            v = self._memo[key] = self._play(*key)
        return v

    def decisions(self) -> dict[tuple, tuple[str, int] | None]:
        """The move made in each state the game reached: (diff, totals, states, mover, first,
        overshooting) -> (resource, x), or None to concede (behind) or hand over (ahead)."""
        return {(d, t, self._states[n], m, f, o): move for (d, t, n, m, f, o), move in self._decided.items()}

    def _end(self, winner: int, sid: int) -> tuple:
        key = (winner, sid)
        v = self._ends.get(key)
        if v is None:
            v = self._ends[key] = self._ended(winner, self._states[sid])
        return v

    def _ended(self, winner: int, states: tuple) -> tuple:
        loser = 1 - winner
        w_state = states[winner]
        windblast = self.setup.windblast[winner]
        loser_ranged = self.combat.ranged and loser == 0
        guarded = w_state[SHIELD_USED_AT] or w_state[PLATE_USED_AT]
        spared = (guarded or loser_ranged) and not windblast
        damage = 0 if spared else WIN_DAMAGE * (WINDBLAST_FACTOR if windblast else 1)
        (m0, i0, c0), (m1, i1, c1) = (_spent(k, st) for k, st in zip(self.kits, states[:2], strict=True))
        init = winner == 0
        return (1.0 if init else 0.0, 1.0 if damage and init else 0.0, 1.0 if damage and not init else 0.0,
                float(damage) if init else 0.0, 0.0 if init else float(damage), m0, m1, i0, i1, c0, c1,
                0.0, 0.0, 0.0, 0.0)

    def blood_points(self, v: tuple, totals: tuple[int, int]) -> tuple[float, float]:
        """E[blood points] of each side from a value and the totals it was reached at (line 338;
        UD-bp-total=final); none against a roosted defender (line 284)."""
        if self.combat.roosted:
            return (0.0, 0.0)
        ti, td = totals
        w = v[WIN]
        paid_by_d = td * w + v[ADD_D]  # the defender's final total, when the initiator wins
        paid_by_i = ti * (1.0 - w) + v[ADD_I]
        odd_d = w - v[ODD_D] if td & 1 else v[ODD_D]  # P(the initiator wins, the defender's total odd)
        odd_i = (1.0 - w) - v[ODD_I] if ti & 1 else v[ODD_I]
        return (paid_by_d + (paid_by_i - odd_i) / 2.0, paid_by_i + (paid_by_d - odd_d) / 2.0)

    def _score(self, value: tuple, me: int, totals: tuple[int, int] | None) -> tuple:
        """What side ``me`` maximises (UD-objective), as a tuple compared in order."""
        win = value[WIN] if me == 0 else 1.0 - value[WIN]
        spend = value[SPEND_I + me]
        objective = self.rulings.objective
        if objective == "win":
            return (round(win / TIE),)
        if objective in ("blood-points", "net-value"):
            bp = self.blood_points(value, totals)[me]
            return (round((bp - (spend if objective == "net-value" else 0.0)) / TIE),)
        if objective == "value" and self.rulings.value != "win":
            bp = self.blood_points(value, totals)[me]
            worth = combat_value(win, bp, value[DEALT_I + me], value[DEALT_D - me], self.rulings)
            return (round(worth / TIE), round(-spend / TIE))
        return (round(win / TIE), round(-spend / TIE))

    def _play(self, diff: int, totals: tuple[int, int] | None, sid: int, mover: int, first: int,
              overshooting: bool) -> tuple:
        """The combat's value with ``mover`` to act (``diff`` = initiator's total - defender's): behind,
        it adds or concedes; under UD-counter-sequencing=overshoot also when ahead (``overshooting``),
        adding more or handing over. ``first``: the side that counterattacked first (the other replies)."""
        me, other = mover, 1 - mover
        states = self._states[sid]
        mine = diff if me == 0 else -diff
        ahead = _ahead(me, mine, 0, self.rulings)
        level_wins = me == 0 and self.rulings.counter_ties == "initiator"
        deficit = -mine + (0 if level_wins else 1)
        moves = _moves(self.kits[me], states[me], me, self.combat, self.rulings, me != first,
                       states[other][5])
        key = (diff, totals, sid)
        if self.declared:
            return self._play_declared(key, me, first, moves, deficit, states[me])
        if not self.optimal:
            return self._greedy(key, me, first, moves, deficit, ahead, overshooting)
        if ahead:  # only when overshooting: hand over, or add more
            options = [self.play(*key, other, first, False)]
        else:
            options = [self._end(other, sid)]
        for resource, x in moves:
            options.append(self._after(key, me, first, resource, x))
        scores = [self._score(v, me, totals) for v in options]
        best = scores.index(max(scores))  # the first of equals: stop before spending, the cheaper move
        self._decided[(*key, me, first, overshooting)] = None if best == 0 else moves[best - 1]
        return options[best]

    def _play_declared(self, key, me: int, first: int, moves: list, deficit: int, state: tuple) -> tuple:
        """UD-counter-sequencing=declared: the mover commits a whole combination (rulesets.uberdrakes
        .declared), or concedes."""

        concede = self._end(1 - me, key[2])
        if not self.optimal:
            combo = declared.greedy_combo(self, me, state, moves, deficit)
            self._decided[(*key, me, first, False)] = combo
            return concede if combo is None else declared.commit(self, key, me, first, combo)
        options = [None, *declared.combos(self, me, state, moves)]
        values = [concede, *(declared.commit(self, key, me, first, c) for c in options[1:])]
        scores = [self._score(v, me, key[1]) for v in values]
        best = scores.index(max(scores))
        self._decided[(*key, me, first, False)] = options[best]
        return values[best]

    def _greedy(self, key, me: int, first: int, moves: list, deficit: int, ahead: bool,
                overshooting: bool) -> tuple:
        """UD-policy=greedy: never concede while a resource remains; the cheapest resource first (Plate
        Armor with X just enough to get ahead, when that is affordable, else its largest X); once ahead,
        hand over."""
        state = (*key, me, first, overshooting)
        if ahead or not moves:
            self._decided[state] = None
            return self.play(*key, 1 - me, first, False) if ahead else self._end(1 - me, key[2])
        kit = self.kits[me]
        plate = [m for m in moves if m[0] == PLATE]
        candidates = [m for m in moves if m[0] != PLATE]
        if plate:
            enough = [m for m in plate if m[1] >= deficit]
            candidates.append(min(enough, key=lambda m: m[1]) if enough else max(plate, key=lambda m: m[1]))
        order = {LANCE: 0, SHIELD: 1, FIRE: 2, PLATE: 3}
        resource, x = min(candidates, key=lambda m: (_price(kit, m[0], m[1]), order[m[0]]))
        self._decided[state] = (resource, x)
        return self._after(key, me, first, resource, x)

    def _after(self, key, me: int, first: int, resource: str, x: int) -> tuple:
        """The value after side ``me`` uses a resource: a die's six faces, or Plate Armor's +x."""
        diff, totals, sid = key
        states = self._states[sid]
        destroyed = _destroys(states[me], resource, self.rulings)
        new_states = list(states)
        new_states[me] = _used(self.kits[me], states[me], resource, x, destroyed)
        if destroyed or resource == PLATE:
            branches = [(0 if destroyed else x, self.sid(tuple(new_states)))]
        elif not self.keep:
            sid_after = self.sid(tuple(new_states))
            branches = [(face, sid_after) for face in range(1, SIDES + 1)]
        else:  # UD-item-die=re-keep-highest-two: the die joins the pool, the highest two count
            branches = []
            high, second = states[2][me]
            for face in range(1, SIDES + 1):
                pair = (face, high) if face > high else (high, max(face, second))
                pairs = (pair, states[2][1]) if me == 0 else (states[2][0], pair)
                branches.append((sum(pair) - high - second, self.sid((*new_states[:2], pairs))))
        sign = 1 if me == 0 else -1
        overshoot = self.rulings.counter_sequencing == "overshoot"
        level_wins = me == 0 and self.rulings.counter_ties == "initiator"  # as _ahead, inlined: hot loop
        ahead_mover = me if overshoot else 1 - me
        odd_at = ODD_D if me == 1 else ODD_I
        memo, play = self._memo, self._play
        values = []
        added = 0.0  # what side me adds, on the paths where it ends up losing
        odd = 0.0  # P(it loses having added an odd amount from here on)
        for add, new_states in branches:
            d = diff + sign * add
            t = None
            if totals is not None:
                t = (totals[0] + add, totals[1]) if me == 0 else (totals[0], totals[1] + add)
            mine = sign * d
            if mine > 0 or (mine == 0 and level_wins):
                k = (d, t, new_states, ahead_mover, first, overshoot)
            else:
                k = (d, t, new_states, me, first, False)
            v = memo.get(k)
            if v is None:
                v = memo[k] = play(*k)
            values.append(v)
            # what side me adds counts towards the blood points it pays when it loses
            lost = v[WIN] if me == 1 else 1.0 - v[WIN]
            added += add * lost
            odd += lost - v[odd_at] if add & 1 else v[odd_at]
        p = 1.0 / len(values)
        acc = [total * p for total in map(sum, zip(*values, strict=True))]
        acc[ADD_D if me == 1 else ADD_I] += added * p
        acc[odd_at] = odd * p
        return tuple(acc)

    def _after_rolloff(self, ti: int, td: int, pairs: tuple | None = None) -> tuple:
        """The value after a rolloff of these totals, with the blood points made absolute (index 11, 12);
        ``pairs``: each side's highest two dice (UD-item-die=re-keep-highest-two)."""
        states = tuple(_side_state(k, a) for k, a in zip(self.kits, self.setup.acid_against, strict=True))
        if self.keep:
            states = (*states, pairs)
        loser = 1 if ti >= td else 0  # the rolloff's ties go to the initiator (line 315)
        v = self.play(ti - td, (ti, td) if self.absolute else None, self.sid(states), loser, loser, False)
        if self.rulings.bp_total == "rolloff" and not self.combat.roosted:
            bp = (td * v[WIN] + (ti // 2) * (1.0 - v[WIN]), ti * (1.0 - v[WIN]) + (td // 2) * v[WIN])
        else:
            bp = self.blood_points(v, (ti, td))
        return (*v[:N_SHARED], *bp)

    def rolloff_table(self, bi: int, bd: int):
        """float64[13, 13, 13]: :meth:`after_rolloff` at every pair of dice totals (the initiator's, the
        defender's; zeros where two dice make no total) with the bonuses ``bi`` and ``bd`` added; built once
        for each pair of bonuses, as the situations and plans that share them differ only in Rage, which
        weights the same totals differently."""
        table = self._tables.get((bi, bd))
        if table is None:
            import numpy as np

            top = KEPT * SIDES
            dice = range(KEPT, top + 1)
            table = self._tables[bi, bd] = np.zeros((top + 1, top + 1, N_SHARED + len(Total)))
            if self.compiled:
                table[KEPT:, KEPT:] = self._compiled_values(np.array(dice) + bi, np.array(dice) + bd)
            else:
                table[KEPT:, KEPT:] = [[self.after_rolloff(a + bi, b + bd) for b in dice] for a in dice]
        return table

    def _compiled_values(self, ti, td):
        """float64[len(ti), len(td), 13]: :meth:`after_rolloff` at every pair of these totals, compiled."""
        import numpy as np

        from rulesets.uberdrakes import kernels_exact as KX

        if self._kernel_args is None:
            init = np.array([[int(f) for f in _side_state(k, a)] for k, a in
                             zip(self.kits, self.setup.acid_against, strict=True)], np.int64)
            self._kernel_args = (init, *KX.game_args(self.combat, self.setup, self.rulings, self.absolute))
        init, args, real = self._kernel_args
        out = np.empty((len(ti) * len(td), N_SHARED + len(Total)))
        KX.rolloff_values(np.repeat(ti, len(td)), np.tile(td, len(ti)), init, args, real, out)
        return out.reshape(len(ti), len(td), -1)

    def _concession(self, ti: int, bd: int) -> tuple[tuple, tuple]:
        """(:meth:`conceded_unrolled`, what it scores for the defender)."""
        conceded = self.conceded_unrolled(ti, bd)
        return conceded, _total_score(conceded, 1, self.rulings)

    def conceded_unrolled(self, ti: int, defender_bonus: int | None = None) -> tuple:
        """The defender concedes without rolling (line 313): two instances of damage (four with Windblast
        under UD-windblast-stack=multiply), blood points on its UD-concede-total (its bonuses, default the
        combat's)."""
        bonus = self.combat.defender.bonus if defender_bonus is None else defender_bonus
        td = bonus if self.rulings.concede_total == "bonuses" and not self.combat.roosted else 0
        damage = UNROLLED_CONCESSION_DAMAGE  # the loser made no attack: a ranged initiator's attack spares
        # only itself (356)
        if self.setup.windblast[0] and self.rulings.windblast_stack == "multiply":
            damage *= WINDBLAST_FACTOR
        return (1.0, 1.0 if damage else 0.0, 0.0, float(damage), 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
                float(max(td, 0)), float(max(td, 0) // 2))


def _with_pre_spent(v: tuple, setup: _Setup) -> tuple:
    """A value with what the pre-combat plans spent added (Magic, items, spend: Value.MAGIC_I .. SPEND_D)."""
    out = list(v)
    for s in (0, 1):
        for k, spent in enumerate(setup.pre_spent[s]):
            out[(Value.MAGIC_I, Value.ITEMS_I, Value.SPEND_I)[k] + s] += spent
    return tuple(out)


class _Game:
    """A combat's solvers, one per pair of pre-combat plans that leaves different kits (Rage Potions
    change only the roll, so plans differing in potions share one); ``compiled``: see :class:`_Solver`."""

    def __init__(self, combat: Combat, rulings: UberDrakesRulings, compiled: bool = True) -> None:
        self.combat, self.rulings, self.compiled = combat, rulings, compiled
        self.solvers: dict[tuple, _Solver] = {}
        #: (plans, sides) -> the initiator's totals at which the defender concedes without rolling.
        self.unrolled: dict[tuple, frozenset[int]] = {}
        self._setups: dict[tuple, tuple[_Setup, _Solver]] = {}
        self._plans = (plans(combat.kits[0]), plans(combat.kits[1]))

    def solver(self, setup: _Setup) -> _Solver:
        key = (setup.kits, setup.acid_against, setup.windblast)
        if key not in self.solvers:
            self.solvers[key] = _Solver(self.combat, setup, self.rulings, self.compiled)
        return self.solvers[key]

    def setup(self, chosen: tuple[Plan, Plan], sides: tuple[Side, Side]) -> tuple[_Setup, _Solver]:
        """:func:`_setup` and its solver, once for each pair of plans and of Rage (the bonuses do not enter
        them): the situations of a grid meet the same ones many times."""
        key = (chosen, sides[0].rage, sides[1].rage)
        found = self._setups.get(key)
        if found is None:
            base = self._setups.get((chosen, 0, 0))  # at Rage 0: the kits, and the Rage the potions add
            if base is None:
                setup = _setup(self.combat, chosen, self.rulings, (Side(), Side()))
                base = self._setups[chosen, 0, 0] = (setup, self.solver(setup))
            setup = replace(base[0], rage=(base[0].rage[0] + sides[0].rage, base[0].rage[1] + sides[1].rage))
            found = self._setups[key] = (setup, base[1])
        return found

    def value(self, chosen: tuple[Plan, Plan], sides: tuple[Side, Side] | None = None) -> tuple[tuple, float]:
        """The whole combat's expected results after these plans (blood points absolute at 11, 12) and
        P(the defender concedes without rolling); ``sides``: the rolloff's (Rage, bonus) of each side,
        default the combat's."""
        return self.values(chosen, [sides or (self.combat.initiator, self.combat.defender)])[0]

    def values(self, chosen: tuple[Plan, Plan], situations: Sequence[tuple[Side, Side]]) -> list:
        """:meth:`value` in each situation, the rolls of all of them weighted at once."""
        import numpy as np

        combat, rulings = self.combat, self.rulings
        prepared = [self.setup(chosen, sides) for sides in situations]
        solver = prepared[0][1]  # the plans alone make the kits: every situation has the same solver
        if solver.keep:  # the rolls by their highest two dice: a later die competes with them
            rolls = []
            for (setup, _), (side_i, side_d) in zip(prepared, situations, strict=True):
                bi, bd = side_i.bonus, side_d.bonus
                rows, cols = pair_pmf(setup.rage[0]), pair_pmf(setup.rage[1])
                values = np.array([[solver.after_rolloff(sum(a) + bi, sum(b) + bd, (a, b)) for b, _ in cols]
                                   for a, _ in rows])
                rolls.append(([sum(a) + bi for a, _ in rows], np.array([p for _, p in rows]),
                              np.einsum("d,idk->ik", np.array([p for _, p in cols]), values)))
        else:
            dice = [(rolled_totals(setup.rage[0]), rolled_totals(setup.rage[1])) for setup, _ in prepared]
            tables = [solver.rolloff_table(side_i.bonus, side_d.bonus) for side_i, side_d in situations]
            values = np.stack([table[dice_i[:, None], dice_d]
                               for table, ((dice_i, _), (dice_d, _)) in zip(tables, dice, strict=True)])
            p_cols = np.stack([p for _, (_, p) in dice])
            rolled = np.einsum("sd,sidk->sik", p_cols, values)  # the defender's roll summed
            rolls = [((dice_i + sides[0].bonus).tolist(), p_rows, rolled[n])
                     for n, (((dice_i, p_rows), _), sides) in enumerate(zip(dice, situations, strict=True))]
        conceding = None
        if combat.may_concede_unrolled and solver.optimal:  # every row of every situation scored at once
            concessions = [solver.concession(ti, sides[1].bonus)
                           for (totals, _, _), sides in zip(rolls, situations, strict=True) for ti in totals]
            scores = tuple(np.array(score) for score in zip(*(s for _, s in concessions), strict=True))
            rolling = _total_score(np.concatenate([rolled for _, _, rolled in rolls]).T, 1, rulings, np.rint)
            conceding = iter(_beats(scores, rolling).tolist())
            concessions = iter(concessions)
        out = []
        for (setup, _), sides, (row_totals, p_rows, rolled) in zip(prepared, situations, rolls, strict=True):
            p_unrolled = 0.0
            unrolled = []
            if conceding is not None:
                for row, ti in enumerate(row_totals):
                    conceded, _ = next(concessions)
                    if next(conceding):
                        rolled[row] = conceded
                        p_unrolled += p_rows[row]
                        unrolled.append(ti)
            self.unrolled[(chosen, sides)] = frozenset(unrolled)
            total = tuple((p_rows @ rolled).tolist())
            out.append((_with_pre_spent(total, setup), p_unrolled))
        return out

    def best(self, sides: tuple[Side, Side] | None = None) -> Outcome:
        """The combat under the policy: greedy uses every pre-combat resource it holds; optimal, the side
        declaring first (UD-precombat-order) picks its best plan against the other's best reply to each."""
        return self.best_each([sides or (self.combat.initiator, self.combat.defender)])[0]

    def best_each(self, situations: Sequence[tuple[Side, Side]]) -> list[Outcome]:
        """:meth:`best` in each situation, every pair of plans valued in all of them at once."""
        combat, rulings = self.combat, self.rulings
        if rulings.policy != "optimal":
            chosen = (greedy_plan(combat.initiator_kit), greedy_plan(combat.defender_kit))
            return [_outcome(*v, chosen) for v in self.values(chosen, situations)]
        first = 0 if rulings.precombat_order == "initiator-first" else 1
        second = 1 - first
        pairs = [((mine, theirs) if first == 0 else (theirs, mine))
                 for mine in self._plans[first] for theirs in self._plans[second]]
        valued = {chosen: self.values(chosen, situations) for chosen in pairs}
        out = []
        for n in range(len(situations)):
            best = None
            for mine in self._plans[first]:
                reply = None
                for theirs in self._plans[second]:
                    chosen = (mine, theirs) if first == 0 else (theirs, mine)
                    value, p_unrolled = valued[chosen][n]
                    if reply is None or (_total_score(value, second, rulings)
                                         > _total_score(reply[0], second, rulings)):
                        reply = (value, p_unrolled, chosen)
                if best is None or (_total_score(reply[0], first, rulings)
                                    > _total_score(best[0], first, rulings)):
                    best = reply
            out.append(_outcome(*best))
        return out


def solve(combat: Combat, rulings: UberDrakesRulings | None = None) -> Outcome:
    """The combat's exact expected results under the rulings (UD-policy greedy or optimal), pre-combat
    plans included: greedy uses every pre-combat resource it holds; optimal, the side declaring first
    (UD-precombat-order) picks its best plan against the other's best reply to each."""
    return _Game(combat, rulings or UberDrakesRulings()).best()


@dataclass(frozen=True)
class Policy:
    """How a combat is played under the rulings, move by move: the exact outcome, the pre-combat plans'
    setup (Rage for the roll, kits, Acid Rain waiting, Windblast cast), every counterattack decision
    (:meth:`_Solver.decisions`: (diff, totals, states, mover, first, overshooting) -> (resource,
    x) or None; ``totals`` is None unless ``absolute``) and the initiator's totals at which the defender
    concedes without rolling."""

    combat: Combat
    outcome: Outcome
    setup: _Setup
    decisions: dict
    unrolled: frozenset
    absolute: bool


def policy(combat: Combat, rulings: UberDrakesRulings | None = None) -> Policy:
    """The combat solved (:func:`solve`) with the moves that solve it, for a simulation to follow."""
    rulings = rulings or UberDrakesRulings()
    game = _Game(combat, rulings, compiled=False)  # the moves are recorded by the Python recursion
    outcome = game.best()
    sides = (combat.initiator, combat.defender)
    setup = _setup(combat, outcome.plans, rulings, sides)
    game.value(outcome.plans, sides)  # (cached) the concessions of the chosen plans
    solver = game.solver(setup)
    return Policy(combat, outcome, setup, solver.decisions(), game.unrolled[(outcome.plans, sides)],
                  solver.absolute)


def solve_each(combat: Combat, situations: Sequence[tuple[Side, Side]],
               rulings: UberDrakesRulings | None = None) -> list[Outcome]:
    """:func:`solve` for the same kits and range in each rolloff situation (the two sides' Rage and
    bonus), sharing the counterattack game's solution between them."""
    return _Game(combat, rulings or UberDrakesRulings()).best_each(situations)


def _total_score(v: tuple, me: int, rulings: UberDrakesRulings, rounded=round) -> tuple:
    """What side ``me`` maximises (UD-objective) over a whole combat's value (blood points at 11, 12). With
    ``rounded=np.rint``, ``v`` may hold many values along its first axis (each score an array, the same
    numbers: both round half to even, and the scores stay below 2**53)."""
    win = v[WIN] if me == 0 else 1.0 - v[WIN]
    spend, bp = v[SPEND_I + me], v[BP_I + me]
    if rulings.objective == "win":
        return (rounded(win / TIE),)
    if rulings.objective in ("blood-points", "net-value"):
        return (rounded((bp - (spend if rulings.objective == "net-value" else 0.0)) / TIE),)
    if rulings.objective == "value":
        worth = combat_value(win, bp, v[DEALT_I + me], v[DEALT_D - me], rulings)
        return (rounded(worth / TIE), rounded(-spend / TIE))
    return (rounded(win / TIE), rounded(-spend / TIE))


def _beats(a: tuple, b: tuple):
    """Elementwise, whether the scores ``a`` beat ``b`` (``a > b`` as tuples; arrays of equal shape)."""
    out = a[-1] > b[-1]
    for x, y in zip(a[-2::-1], b[-2::-1], strict=True):
        out = (x > y) | ((x == y) & out)
    return out


def combat_value(win, blood_points, dealt, taken, rulings: UberDrakesRulings):
    """What a combat is worth to a side (UD-value): P(win) alone, or in blood points UD-win-bp x P(win) +
    the blood points it gains + UD-damage-bp x (damage instances it deals - those it takes). Works on
    floats and on numpy arrays alike."""
    if rulings.value == "win":
        return win
    return rulings.win_bp * win + blood_points + rulings.damage_bp * (dealt - taken)


def _outcome(t: tuple, p_unrolled: float, chosen: tuple[Plan, Plan] = (Plan(), Plan())) -> Outcome:
    """The Outcome of a total ``t`` (Value's shared slots, then Total's)."""
    V = Value
    return Outcome((t[V.WIN], 1.0 - t[V.WIN]), (t[V.DAMAGE_I], t[V.DAMAGE_D]), (t[V.DEALT_I], t[V.DEALT_D]),
                   (t[V.MAGIC_I], t[V.MAGIC_D]), (t[V.ITEMS_I], t[V.ITEMS_D]), (t[V.SPEND_I], t[V.SPEND_D]),
                   (t[Total.BP_I], t[Total.BP_D]), p_unrolled, chosen)


def solve_from(initiator_total: int, defender_total: int, combat: Combat,
               rulings: UberDrakesRulings | None = None, chosen: tuple[Plan, Plan] | None = None,
               pairs: tuple[tuple[int, int], tuple[int, int]] | None = None) -> Outcome:
    """The counterattack game from given rolloff totals (both rolled), exact, after the pre-combat plans
    ``chosen`` (default: the greedy ones, every pre-combat resource used; their Rage Potions are already in
    the totals). Under UD-item-die=re-keep-highest-two, ``pairs`` gives each side's highest two dice."""
    rulings = rulings or UberDrakesRulings()
    chosen = chosen or (greedy_plan(combat.initiator_kit), greedy_plan(combat.defender_kit))
    setup = _setup(combat, chosen, rulings)
    solver = _Solver(combat, setup, rulings)
    if solver.keep and pairs is None:
        raise RulesError("under UD-item-die=re-keep-highest-two the game needs each side's highest two dice "
                         "(pairs), not only the totals")
    value = solver.after_rolloff(initiator_total, defender_total, pairs if solver.keep else None)
    return _outcome(_with_pre_spent(value, setup), 0.0, chosen)
