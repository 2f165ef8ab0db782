"""Slow, obvious twin of ONE WHOLE UberDrakes combat (seed 003), played die by die with ``random.Random``.

Written from the rulebook (../shared/seeds/003_d3c05d2602cc1972.txt, "Combat" to "Rage", lines 297-371, and
the cards quoted below) and ../shared/RULES.md §4, so that ``rulesets.uberdrakes.combat`` (the exact
counterattack game) and any compiled kernel can be checked against it. From the library it takes only the
data it is asked to follow: the :class:`~rulesets.uberdrakes.combat.Combat` (sides, kits, ``ranged``), the
pre-combat plans of ``policy.outcome.plans``, the totals at which the defender concedes unrolled
(``policy.unrolled``) and the move chosen in each state (``policy.decisions``). Every rule is applied here.

The combat (rulebook lines in brackets):

* **Pre-combat** (307): "Now is the time to use any pre-combat items or spells, such as a Rage Potion or
  Acid Rain." The side declaring first (UD-precombat-order: the initiator by default, or the defender)
  declares its whole plan, then the other. A plan drinks Rage Potions ("gain one level of temporary rage
  ... each one increasing your Rage level by one", 705-707), casts Acid Rain (``kit.acid_rain_cost`` Magic)
  and Windblast (``kit.windblast_cost``), in that order.
* **Acid Rain** (438-442): "the next combat item your opponent uses is destroyed and has no effect. (This
  spell affects Potions of Rage if the opponent uses one prior to rolling, or to the first counterattack
  item used otherwise.)" Cast by the first declarer, it destroys the first Rage Potion the second declarer
  then drinks (used up, no Rage). Otherwise (cast by the second declarer, after the first drank, or meeting
  no potion) it waits for the opponent's first counterattack item: a Dragon Lance or Hide Shield (UD-acid-
  scope=items), or also a Fire Breath or Plate Armor (items-and-spells). The destroyed resource is used up
  or paid for and does nothing: no die, no +X, a Hide Shield does not make the attack Ranged (nor bar a
  Lance), a Plate Armor does not bar damage.
* **Rolloff** (309-315, 371): "The player who initiated combat rolls two dice (or more if they have Rage.)
  Add up the results of these dice and any bonuses". "For each level of Rage you have, roll one extra die
  and discard all but the highest two." Each side rolls 2 + Rage d6 one at a time (Rage: the Side's plus
  the potions that took effect), keeps the highest two and adds its bonus. The initiator rolls first.
  "The other player may then choose to concede the fight, or roll two dice in return. If they choose to
  concede without rolling, they take double damage" (313): the defender concedes unrolled exactly when the
  initiator's total is in ``policy.unrolled``. Otherwise it rolls. "The player with the lower total is the
  Presumptive Loser. The player who initiated combat wins ties." (315)
* **Counterattack** (317-323): "The presumptive loser may attempt to increase their total by using spells
  or combat items ... to raise their total higher than the other player's. If the losing player can't, or
  doesn't want to use resources ... they must concede the battle. If the losing player successfully raises
  their total above their opponent's, then the other player gets a chance to counterattack with any number
  of items in return. This cycle repeats until either player concedes." The presumptive loser moves first.
  A side is *ahead* when its total is above the other's, or level and it is the initiator (83, 315),
  unless UD-counter-ties=strict (a side must be above; level, nobody is ahead and the side to move must
  get above). The side to move looks its move up in ``policy.decisions`` (a missing state is an error):
  one resource, or None (behind: concede, the other side wins; ahead: hand over to the other side). After
  a resource it keeps moving while behind; once ahead it hands over (UD-counter-sequencing=adaptive), or
  keeps the move (``overshooting``) and may add more (overshoot).
* **The resources** (each move is checked against these; an illegal move is an error):

  - Dragon Lance (653-655): "add one additional die to your roll. This item can't be used in ranged
    combat." Nor, under UD-shield-ranged=bars-lance, after the opponent used a Hide Shield (362).
  - Hide Shield (692-694): "add one die to your roll. If you win the battle after using a Hide Shield, you
    don't deal damage to your opponent ... Your opponent still deals damage to you if you lose"; "The Hide
    Shield can be used in both ranged and non-ranged combat"; "You can't use a Hide Shield if you're the
    one making a ranged attack" (362).
  - Fire Breath (410; Fire dragon, ``kit.fire_breath_cost`` Magic): "Add one die to your combat total";
    once a combat.
  - Plate Armor (604-606; Metal dragon, X + 1 Magic): "Once per combat, add X to your total during the
    Counterattack phase. Using this spell prevents you from dealing Damage if you win the fight, like the
    Hide Shield." X from 1 to Magic - 1.
  - The spells only when the side is not replying to the first counterattacker (323: "counterattack with
    any number of items in return"), unless UD-reply-spells=true (default).
  - A die adds its face, 1-6 (UD-item-die=add-value; re-keep-highest-two and UD-counter-sequencing=declared
    are refused).
* **Damage** (325-331, 356, 362, 520-524, 604-606): "Skip this step if the winner used a Hide Shield during
  the battle or if the loser made a Ranged attack" (327): no damage when the winner used a Hide Shield or
  Plate Armor (not destroyed), or the loser is the initiator of a ranged combat ("During ranged combat, you
  won't suffer damage if you lose the fight", 356). Windblast (520-524): "If you win the battle, you deal
  double damage to your opponent, even if they attacked at Range ... and even if you used a Hide Shield":
  a winner who cast it deals 2 instances whatever else. Otherwise 1 instance.
* **Unrolled concession** (313, 331): "The loser takes two instances of Damage if they conceded during the
  Rolloff phase without rolling dice": the initiator wins, 2 instances; with its Windblast 4
  (UD-windblast-stack=multiply) or 2 (cap-2). The defender (the loser) made no attack at Range, so a
  ranged initiator deals them too (327, 356). Reading: the Windblast and the ranged attack change nothing
  else here.
* **Blood points** (336-338): "the winner gains Blood Points equal to the loser's total combat strength.
  The loser receives half that amount, rounded down." The loser's total is its final total
  (UD-bp-total=final) or its rolloff total (rolloff); after an unrolled concession its bonus
  (UD-concede-total=bonuses) or 0 (zero), at least 0 there. Rounded down is Python's ``//``.
* **Spend**: Magic spent by a side is its plan's Acid Rain and Windblast plus its Fire Breath and Plate
  Armor (destroyed ones too); items used are its Lances, Shields and Rage Potions (destroyed ones too).

:func:`greedy_move` is UD-policy=greedy written from RULES.md ("spends the fewest resources that overtake,
cheapest first (Plate Armor X just enough), never conceding while one remains"), for checking the greedy
decisions of a policy.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from rulesets.uberdrakes.combat import FIRE, LANCE, PLATE, SHIELD, Combat, Kit, Plan, Policy
from rulesets.uberdrakes.rules import UberDrakesRulings

DIE = 6
#: Indices into a side's state tuple, the format of ``policy.decisions`` (combat.Policy).
LANCES, SHIELDS, MAGIC, FIRE_UNUSED, PLATE_UNUSED, SHIELD_USED, PLATE_USED, ACID = range(8)


@dataclass
class Fighter:
    """One side during a combat: what it has left, what it used, and whether Acid Rain waits for it."""

    kit: Kit
    rage: int
    lances: int
    shields: int
    magic: int
    fire_unused: bool
    plate_unused: bool
    shield_used: bool = False  # a Hide Shield that worked (not destroyed)
    plate_used: bool = False  # a Plate Armor that worked
    acid_waiting: bool = False  # the opponent's Acid Rain waits for this side's next combat item
    windblast: bool = False
    potions_drunk: int = 0

    def state(self) -> tuple:
        """The state tuple of ``policy.decisions``: (lances left, shields left, magic left, Fire Breath
        unused, Plate Armor unused, Shield used, Plate used, Acid Rain waiting against this side)."""
        return (self.lances, self.shields, self.magic, self.fire_unused, self.plate_unused, self.shield_used,
                self.plate_used, self.acid_waiting)


@dataclass(frozen=True)
class CombatRecord:
    """One combat played out (index 0 the initiator, 1 the defender)."""

    winner: int
    damage: int  # instances dealt by the winner: 0, 1, 2 or 4
    magic: tuple[int, int]  # Magic spent, pre-combat plans included
    lances: tuple[int, int]
    shields: tuple[int, int]
    potions: tuple[int, int]  # Rage Potions drunk (destroyed ones included)
    blood_points: tuple[int, int]
    conceded_unrolled: bool
    rolloff: tuple[int, int | None]  # the rolloff totals (the defender's None when it conceded unrolled)
    totals: tuple[int, int | None]  # the final totals
    moves: tuple = field(default=())  # (mover, resource, X, what it added, overshooting) in order

    @property
    def items(self) -> tuple[int, int]:
        """Items used by each side: Dragon Lances, Hide Shields and Rage Potions."""
        return tuple(self.lances[s] + self.shields[s] + self.potions[s] for s in (0, 1))


def roll_rolloff(rng: random.Random, rage: int) -> int:
    """2 + Rage d6, one at a time, the highest two kept and summed (311, 371)."""
    dice = []
    for _ in range(2 + rage):
        dice.append(rng.randint(1, DIE))
    dice.sort(reverse=True)
    return dice[0] + dice[1]


def precombat(combat: Combat, plans: tuple[Plan, Plan], rulings: UberDrakesRulings) -> list[Fighter]:
    """Both sides' fighters after the pre-combat declarations (307, 438-442, 520, 705-707)."""
    sides = (combat.initiator, combat.defender)
    fighters = []
    for s in (0, 1):
        kit = combat.kits[s]
        fighters.append(Fighter(kit, sides[s].rage, kit.lances, kit.shields, kit.magic, bool(kit.fire_breath),
                                bool(kit.plate_armor)))
    order = (0, 1) if rulings.precombat_order == "initiator-first" else (1, 0)
    for s in order:
        me, them, plan = fighters[s], fighters[1 - s], plans[s]
        if plan.potions > me.kit.potions:
            raise ValueError(f"side {s} plans {plan.potions} Rage Potions with {me.kit.potions}")
        for _ in range(plan.potions):
            me.potions_drunk += 1
            if me.acid_waiting:  # the opponent's Acid Rain destroys this potion
                me.acid_waiting = False
            else:
                me.rage += 1
        if plan.acid_rain:
            if not me.kit.acid_rain:
                raise ValueError(f"side {s} casts Acid Rain without knowing it")
            me.magic -= me.kit.acid_rain_cost
            them.acid_waiting = True
        if plan.windblast:
            if not me.kit.windblast:
                raise ValueError(f"side {s} casts Windblast without knowing it")
            me.magic -= me.kit.windblast_cost
            me.windblast = True
        if me.magic < 0:
            raise ValueError(f"side {s}'s plan costs more Magic than it has")
    return fighters


def is_ahead(side: int, mine: int, theirs: int, rulings: UberDrakesRulings) -> bool:
    """Above; or level as the initiator (83, 315) unless UD-counter-ties=strict."""
    if mine != theirs:
        return mine > theirs
    return side == 0 and rulings.counter_ties == "initiator"


def legal_moves(me: tuple, opponent_shield_used: bool, side: int, first: int, kit: Kit, ranged: bool,
                rulings: UberDrakesRulings) -> list[tuple[str, int]]:
    """The resources side ``side`` (state tuple ``me``) may use now, as (resource, X) with X = 0 but for
    Plate Armor."""
    out = []
    if me[LANCES] > 0 and not ranged and not (opponent_shield_used and rulings.shield_ranged == "bars-lance"):
        out.append((LANCE, 0))
    if me[SHIELDS] > 0 and not (ranged and side == 0):
        out.append((SHIELD, 0))
    spells = side == first or rulings.reply_spells
    if spells and me[FIRE_UNUSED] and me[MAGIC] >= kit.fire_breath_cost:
        out.append((FIRE, 0))
    if spells and me[PLATE_UNUSED]:
        for x in range(1, me[MAGIC]):  # X + 1 Magic, X at least 1
            out.append((PLATE, x))
    return out


def greedy_move(diff: int, states: tuple[tuple, tuple], mover: int, first: int, kit: Kit, ranged: bool,
                rulings: UberDrakesRulings) -> tuple[str, int] | None:
    """UD-policy=greedy (RULES.md §4): ahead, hand over (None); behind, use the cheapest legal resource
    (Lance and Shield at the kit's prices, Fire Breath at its Magic cost, Plate Armor at X + 1 with X just
    enough to get ahead if affordable, else the largest X), ties in the order Lance, Shield, Fire Breath,
    Plate Armor; concede (None) only when nothing is left. ``diff``: initiator's total - defender's."""
    mine = diff if mover == 0 else -diff
    if is_ahead(mover, mine, 0, rulings):
        return None
    moves = legal_moves(states[mover], states[1 - mover][SHIELD_USED], mover, first, kit, ranged, rulings)
    if not moves:
        return None
    level_wins = mover == 0 and rulings.counter_ties == "initiator"
    need = -mine if level_wins else -mine + 1  # what gets it ahead
    best = None
    for rank, resource in enumerate((LANCE, SHIELD, FIRE, PLATE)):
        xs = [x for r, x in moves if r == resource]
        if not xs:
            continue
        if resource == PLATE:
            x = need if need in xs else max(xs)
            price = x + 1
        else:
            x = 0
            price = {LANCE: kit.lance_price, SHIELD: kit.shield_price, FIRE: kit.fire_breath_cost}[resource]
        if best is None or (price, rank) < best[0]:
            best = ((price, rank), (resource, x))
    return best[1]


def _use(rng: random.Random, me: Fighter, resource: str, x: int, rulings: UberDrakesRulings) -> int:
    """Side ``me`` uses a resource: pay for it, roll its die or take its X; what it adds (0 when
    destroyed by Acid Rain)."""
    destroyed = me.acid_waiting and (resource in (LANCE, SHIELD) or rulings.acid_scope == "items-and-spells")
    if destroyed:
        me.acid_waiting = False
    if resource == LANCE:
        me.lances -= 1
    elif resource == SHIELD:
        me.shields -= 1
        me.shield_used = me.shield_used or not destroyed
    elif resource == FIRE:
        me.magic -= me.kit.fire_breath_cost
        me.fire_unused = False
    else:
        me.magic -= x + 1
        me.plate_unused = False
        me.plate_used = me.plate_used or not destroyed
    if destroyed:
        return 0
    return x if resource == PLATE else rng.randint(1, DIE)


def _blood(loser_total: int, winner: int) -> tuple[int, int]:
    out = [0, 0]
    out[winner] = loser_total
    out[1 - winner] = loser_total // 2
    return (out[0], out[1])


def _record(fighters: list[Fighter], winner: int, damage: int, bp: tuple[int, int], unrolled: bool,
            rolloff: tuple, totals: tuple, moves: list) -> CombatRecord:
    f0, f1 = fighters
    return CombatRecord(
        winner, damage, (f0.kit.magic - f0.magic, f1.kit.magic - f1.magic),
        (f0.kit.lances - f0.lances, f1.kit.lances - f1.lances),
        (f0.kit.shields - f0.shields, f1.kit.shields - f1.shields),
        (f0.potions_drunk, f1.potions_drunk), bp, unrolled, rolloff, totals, tuple(moves))


def _with_parity(policy: Policy) -> bool:
    """Whether the policy's keys carry the totals' parities (the older 7-field format)."""
    return len(next(iter(policy.decisions), ())) == 7


def decision_key(policy: Policy, totals: list[int], states: tuple, mover: int, first: int,
                 overshooting: bool) -> tuple:
    """The key of ``policy.decisions`` (combat.Policy): (diff, totals, states, mover, first, overshooting)
    with diff = initiator's total - defender's, totals = (initiator's, defender's) when ``policy.absolute``
    else None; the older format also holds the parities (initiator's & 1, defender's & 1) after diff."""
    ti, td = totals
    absolute = (ti, td) if policy.absolute else None
    if _with_parity(policy):
        return (ti - td, (ti & 1, td & 1), absolute, states, mover, first, overshooting)
    return (ti - td, absolute, states, mover, first, overshooting)


def split_key(key: tuple) -> tuple:
    """(diff, totals, states, mover, first, overshooting) of a key of ``policy.decisions``, either format."""
    return key if len(key) == 6 else (key[0], *key[2:])


def counterattack(rng: random.Random, policy: Policy, rulings: UberDrakesRulings, fighters: list[Fighter],
                  ti: int, td: int) -> CombatRecord:
    """Phases 3 and 4 and the blood points from the rolloff totals ``ti``, ``td``."""
    combat = policy.combat
    totals = [ti, td]
    mover = first = 1 if ti >= td else 0  # the presumptive loser; the initiator wins ties (315)
    overshooting = False
    moves = []
    while True:
        key = decision_key(policy, totals, (fighters[0].state(), fighters[1].state()), mover, first,
                           overshooting)
        if key not in policy.decisions:
            raise KeyError(f"no decision for the state {key}")
        move = policy.decisions[key]
        ahead = is_ahead(mover, totals[mover], totals[1 - mover], rulings)
        if move is None:
            if ahead:  # hand over
                mover, overshooting = 1 - mover, False
                continue
            winner = 1 - mover  # concede
            break
        if ahead and not overshooting:
            raise ValueError(f"a move {move} by a side ahead, not overshooting: {key}")
        legal = legal_moves(fighters[mover].state(), fighters[1 - mover].shield_used, mover, first,
                            fighters[mover].kit, combat.ranged, rulings)
        if tuple(move) not in legal:
            raise ValueError(f"illegal move {move} in {key}")
        resource, x = move
        add = _use(rng, fighters[mover], resource, x, rulings)
        totals[mover] += add
        moves.append((mover, resource, x, add, overshooting))
        if is_ahead(mover, totals[mover], totals[1 - mover], rulings):
            if rulings.counter_sequencing == "overshoot":
                overshooting = True
            else:
                mover, overshooting = 1 - mover, False
        else:
            overshooting = False
    loser = 1 - winner
    w = fighters[winner]
    if w.windblast:
        damage = 2
    elif w.shield_used or w.plate_used or (combat.ranged and loser == 0):
        damage = 0
    else:
        damage = 1
    paid = totals[loser] if rulings.bp_total == "final" else (ti, td)[loser]
    return _record(fighters, winner, damage, _blood(paid, winner), False, (ti, td), tuple(totals), moves)


def _check(rulings: UberDrakesRulings) -> None:
    if rulings.item_die != "add-value" or rulings.counter_sequencing == "declared":
        raise NotImplementedError("the twin plays UD-item-die=add-value and UD-counter-sequencing=adaptive "
                                  "or overshoot only")


def play_from(rng: random.Random, policy: Policy, rulings: UberDrakesRulings, ti: int,
              td: int) -> CombatRecord:
    """A combat whose rolloff came out ``ti``, ``td`` (both rolled, pre-combat plans applied first)."""
    _check(rulings)
    fighters = precombat(policy.combat, policy.outcome.plans, rulings)
    return counterattack(rng, policy, rulings, fighters, ti, td)


def play_combat(rng: random.Random, policy: Policy, rulings: UberDrakesRulings) -> CombatRecord:
    """One whole combat: pre-combat plans, rolloff die by die, concession or counterattack, damage, blood
    points."""
    _check(rulings)
    combat = policy.combat
    fighters = precombat(combat, policy.outcome.plans, rulings)
    ti = roll_rolloff(rng, fighters[0].rage) + combat.initiator.bonus
    if ti in policy.unrolled:
        if not combat.may_concede_unrolled:
            raise ValueError("the defender may not concede unrolled in this combat")
        windblast = fighters[0].windblast
        damage = (4 if rulings.windblast_stack == "multiply" else 2) if windblast else 2
        paid = max(combat.defender.bonus if rulings.concede_total == "bonuses" else 0, 0)
        return _record(fighters, 0, damage, _blood(paid, 0), True, (ti, None), (ti, None), [])
    td = roll_rolloff(rng, fighters[1].rage) + combat.defender.bonus
    return counterattack(rng, policy, rulings, fighters, ti, td)
