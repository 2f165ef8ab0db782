"""Plain-Python twin of Warbound (seed 004): every die rolled one by one, written from the rulebook
(/work/shared/seeds/004_f95fe7e1e7e670bd.txt, line numbers in brackets) and RULES.md §3 without the
library's code, so that the exact tables (rulesets.warbound.exact) and the compiled duel can be checked
against it. Only ``rng.random()`` is used: a die shows ``FACES[int(rng.random() * 12)]``.

THE DUEL (the specification the compiled kernel follows; rulebook lines in brackets)
====================================================================================

Two characters, A (side 0, starts with the Hand) and B (side 1, starts with the Hourglass; "determine
randomly who receives the Hand", 363: the roles), ``distance`` tiles apart (1 = adjacent), no
tokens, wounds, Break or Stress tokens. Each side has a front profile and a panic profile (its card's back,
517-523), a ``price`` (Order tokens per activation, 213-217, 381), a ``move_price`` (tokens paid on the
Move action: colourless costs waived, 157), ``orders`` (left, right: the Leader's two values, 261), a
``modifier`` (the Formation's +1 to hit, 545, or 0) and ``no_panic`` (keep the front profile on panic).
A side "has a Morale pool" while it has not panicked and its current profile's morale is not None.

Turns t = 1..5 (125). Each turn:

a. Leader Phase: each side gains ``orders[0]`` tokens if t <= 2 else ``orders[1]`` (WB-order-periods
   ``periods``; ``both-each-turn``: ``orders[0] + orders[1]`` every turn).
b. The Action Board: ``board`` = (period-1 actions, period-2 actions), strings among "move", "run",
   "fight", "shoot", "aim+shoot", "move+shoot", "move+fight", "run+fight". Turns 1-2: the period-1 entries
   are open; turns 3-5: the period-1 and period-2 entries together ("the current Period or the previous
   Period", 127). Each entry is one space; a space used by either side is closed for the rest of the turn
   (121, 377).
b'. Effect Phase, the Hourglass (WB-hourglass-policy ``strike-first`` or ``always``; ``not-played``: no
   Hourglass, side 0 holds the Hand all game): "the player holding the Hourglass must place it on an open
   Action of their choice" (367). Its holder places it against the Hand holder H: rank the open spaces H's
   step 1 would use, choosing again and again with each chosen space closed (at H's current profile and d);
   the Hourglass goes on the first open space, in board order, left out of that ranking, else on the last
   space of the ranking.
c. Action Phase: the Hand holder activates first ("The player holding the Hand marker at the beginning of
   the Action Phase activates a Character first", 365), then the sides alternate; a side that does not
   activate is done for the turn; once one side is done the other activates until it is done too. When the
   Hand holder activates on the Hourglass space it gains the Hourglass (368). An activation, with p the
   side's current profile and d the distance:
   0. If the side has already activated this turn, has a Morale pool and stress + 1 >= morale: done (the
      policy never panics itself with an additional activation).
   1. Choose the first OPEN space in this order of preference:
      - d == 1 and p.attack is not None: "fight", "move+fight", "run+fight" (a Fight: attack_dice dice at
        p.attack). d == 1, p.attack is None and the side can shoot: it steps away, as no one shoots with an
        enemy adjacent (415): "move+shoot" (d = 1 + speed, then a Shoot), else "run" (d = 1 + speed + run),
        else "move" (d = 1 + speed). d == 1 and it can do neither: done. A move goes "onto at least one
        tile" (387): no Move space (nor the move of a composite) with speed 0, no Run with speed + run 0,
        here and when closing in below.
      - d > 1 and the side can shoot (accuracy = p.accuracy_far if range_far else p.accuracy_near, not
        None): "aim+shoot" (a Shoot with Aim), "shoot", "move+shoot" (a Shoot: shoot_dice dice at that
        accuracy; the move is not used).
      - d > 1, cannot shoot, p.attack is not None: "move+fight" if d - 1 <= p.speed (move adjacent, then
        Fight); else "run+fight" if d - 1 <= p.speed + p.run; else "run" (d = max(1, d - speed - run));
        else "move" (d = max(1, d - speed)); else "move+shoot" or "move+fight" used for their move only
        (d = max(1, d - speed)): the first of these that is open (and, for a Fight, in reach).
      - otherwise: done. No open space among the ones listed: done.
   2. Pay: ``move_price`` for the "move" space, ``price`` for any other. Not enough tokens: done (the
      space stays open). Otherwise tokens -= price.
   3. Not the side's first activation this turn and it has a Morale pool: stress += 1 (383).
   4. Resolve: an attack is roll_attack against the enemy's current profile's armor (available =
      max(0, armor_points - breaks)), stressable = the enemy has a Morale pool, modifier = the side's
      ``modifier``; the enemy adds the new Wound, Break and Stress tokens.
   5. End of the activation (227, 511, 519): side 0 then side 1: wounds >= current profile's health: removed,
      the duel ends (the other side wins). Then each side with a Morale pool and stress >= morale panics:
      its profile becomes the panic profile (stays front with ``no_panic``), stress = 0, and it has no Morale
      pool for the rest of the duel (519).
d. Cleanup: each side keeps at most 1 token (355). Then the Hand (369): a Hand holder that gained the
   Hourglass "keeps it and gives the Hourglass to his opponent"; otherwise the Hourglass holder exchanges it
   for the Hand, under ``always`` every time, under ``strike-first`` when step 1 for it, on the next
   turn's fully open board (its Periods as in b) at its current profile and d, gives an attack ("fight",
   "shoot" or "aim").

Decisions of this twin beyond the text above: a profile may carry its own ``price`` / ``move_price``
(None: the side's), for a panic side that is "costlier" (523); by default it has none, as specified. A
panic profile of None is the front profile. Armor points without an armor value give no armor roll.
"""

from __future__ import annotations

from dataclasses import dataclass

#: "12-sided dice with only 10 distinct values. Indeed, faces containing a 5 and a 10 appear twice on the
#: die." ... "use a standard D12 and treat 11 as 5 and 12 as 10" (lines 111-115)
FACES = (1, 2, 3, 4, 5, 5, 6, 7, 8, 9, 10, 10)

ACTIONS = ("move", "run", "fight", "shoot", "aim+shoot", "move+shoot", "move+fight", "run+fight")


def roll_die(rng) -> int:
    """One Warbound die: a face of the standard d12 read as FACES."""
    return FACES[int(rng.random() * 12)]


def hit(face: int, value: int, modifier: int, natural_one_modified: bool) -> bool:
    """"a result of [1] on a die roll is always considered a failure, while a result of [10] is always
    considered a success" (359); otherwise "roll equal to or higher than the result specified" (459) with
    the Formation's "+1 bonus to all its Hit rolls" (545) and other modifiers added to the result."""
    if face == 10:
        return True
    if face == 1 and not natural_one_modified:
        return False
    return face + modifier >= value


def roll_attack(rng, dice: int, value: int, *, aim: bool = False, formation: bool = False, modifier: int = 0,
                natural_one_modified: bool = False, stress_all_rolled: bool = True, stressable: bool = True,
                armor_points: int = 0, armor_value: int | None = None, broken: int = 0,
                add_wounds: int = 0) -> tuple[int, int, int]:
    """(Wound tokens, Break tokens, Stress tokens) one Shoot or Fight gives its target, die by die."""
    # Formation: "an additional shooting die" (559) / "an additional melee attack die" (565) and
    # "a +1 bonus to all its Hit rolls" (545)
    n = dice + (1 if formation else 0)
    mod = modifier + (1 if formation else 0)
    # Aim: "roll 1 additional die and discard the lowest result" (492)
    rolled = [roll_die(rng) for _ in range(n + (1 if aim else 0))]
    kept = list(rolled)
    if aim:
        kept.remove(min(kept))  # the lowest natural face
    hits = sum(1 for face in kept if hit(face, value, mod, natural_one_modified))
    # "adds a Stress token to their Morale Pool for each ranged attack die rolled, excluding natural [1]"
    # (465); "for each result obtained that is not a natural [1]" (507); WB-aim-stress: every die rolled
    # (all-rolled) or the kept dice only (kept). "they cannot receive tokens in this pool" (525).
    stress_dice = rolled if stress_all_rolled else kept
    stress = sum(1 for face in stress_dice if face != 1) if stressable else 0
    # "If the Character has at least one armor point, roll the armor" (471); "one die for each damage
    # taken. If the result is equal to or higher than their armor value, they successfully avoid the
    # injury and add a Break token" (478); "you can only prevent a number of wounds equal to the number of
    # available armor points" (480); "as many Break tokens ... as armor points ... no armor" (482)
    available = max(0, armor_points - broken) if armor_value is not None else 0
    saves = 0
    if available > 0:
        for _ in range(hits):  # the example (480) rolls all three dice: 6, 7 and 10
            face = roll_die(rng)
            if face == 10 or (face != 1 and face >= armor_value):
                saves += 1
    breaks = min(saves, available)
    wounds = hits - breaks
    # "add a Wound token to the Health Point Pool" means no armor roll (474)
    return wounds + add_wounds, breaks, stress


@dataclass(frozen=True)
class Profile:
    """One side of a Character card (front, or the back shown in the Panic state)."""

    attack: int | None = None  # Fight: "Use your attack value ... hit roll" (506); None: cannot Fight
    attack_dice: int = 1
    speed: int = 0
    run: int = 0
    accuracy_near: int | None = None  # Shoot at the closest target (459); None: cannot Shoot
    accuracy_far: int | None = None  # Shoot at any other target; None: closest only (461)
    shoot_dice: int = 1
    health: int = 1
    morale: int | None = None  # None: no Morale Point pool
    armor_points: int = 0
    armor_value: int | None = None
    price: int | None = None  # None: the side's price
    move_price: int | None = None  # None: the side's move price


@dataclass(frozen=True)
class Side:
    front: Profile
    panic: Profile | None = None  # None: the front profile
    price: int = 1
    move_price: int = 1
    orders: tuple[int, int] = (1, 1)
    modifier: int = 0
    no_panic: bool = False


def as_side(x) -> Side:
    """A Side, or a dict of its fields (profiles as Profiles or dicts)."""
    if isinstance(x, Side):
        return x
    d = dict(x)
    for key in ("front", "panic"):
        if isinstance(d.get(key), dict):
            d[key] = Profile(**d[key])
    d["orders"] = tuple(d.get("orders", (1, 1)))
    return Side(**d)


@dataclass
class State:
    side: Side
    profile: Profile
    tokens: int = 0
    spent: int = 0
    wounds: int = 0
    breaks: int = 0
    stress: int = 0
    panicked: bool = False
    activations: int = 0
    this_turn: int = 0  # activations this turn
    done: bool = False  # done for this turn

    @property
    def has_pool(self) -> bool:
        """A Morale Point pool: not panicked ("no longer has a Morale Point pool", 519) and a morale value."""
        return not self.panicked and self.profile.morale is not None

    def price_of(self, action: str) -> int:
        if action == "move":
            return self.side.move_price if self.profile.move_price is None else self.profile.move_price
        return self.side.price if self.profile.price is None else self.profile.price


def choose(p: Profile, d: int, open_spaces: list[str], range_far: bool) -> tuple[str, str | None, int] | None:
    """Step 1: (action, attack kind "fight" / "shoot" / "aim" or None, distance after it) or None (done)."""
    if d == 1:
        if p.attack is not None:
            wanted = [("fight", "fight", 1), ("move+fight", "fight", 1), ("run+fight", "fight", 1)]
        elif (p.accuracy_far if range_far else p.accuracy_near) is not None:
            # "Under no circumstances can you shoot if an enemy ... adjacent" (415): a shooter that cannot
            # Fight steps away first, shooting after the move of a Move+Shoot (143), else only moves away
            wanted = [("move+shoot", "shoot", 1 + p.speed), ("run", None, 1 + p.speed + p.run),
                      ("move", None, 1 + p.speed)]
            # a move goes "onto at least one tile" (387): no Move with speed 0, no Run with speed + run 0
            wanted = [w for w in wanted if (p.speed + p.run if w[0] == "run" else p.speed) >= 1]
        else:
            return None
    elif (p.accuracy_far if range_far else p.accuracy_near) is not None:
        wanted = [("aim+shoot", "aim", d), ("shoot", "shoot", d), ("move+shoot", "shoot", d)]
    elif p.attack is not None:
        wanted = []
        if d - 1 <= p.speed:
            wanted.append(("move+fight", "fight", 1))
        if d - 1 <= p.speed + p.run:  # "a number of tiles equal to its speed" + run (161, 201, 387)
            wanted.append(("run+fight", "fight", 1))
        if p.speed + p.run >= 1:  # a move goes "onto at least one tile" (387)
            wanted.append(("run", None, max(1, d - p.speed - p.run)))
        if p.speed >= 1:
            wanted += [("move", None, max(1, d - p.speed)), ("move+shoot", None, max(1, d - p.speed)),
                       ("move+fight", None, max(1, d - p.speed))]
    else:
        return None
    for option in wanted:
        if option[0] in open_spaces:
            return option
    return None


def board_spaces(board, turn: int) -> list[str]:
    """The spaces open at the start of ``turn``, in board order: the current Period's and the previous one's
    (127)."""
    return list(board[0]) + (list(board[1]) if turn >= 3 else [])


def first_open(spaces: list[str], closed: set[int], action: str) -> int:
    """The first open space (index) holding ``action``."""
    return next(i for i, a in enumerate(spaces) if a == action and i not in closed)


def place_hourglass(p: Profile, d: int, spaces: list[str], closed: set[int], range_far: bool) -> int | None:
    """Step b': the space the Hourglass holder places it on against the Hand holder (profile p)."""
    ranked = set(closed)
    last = None
    while True:
        option = choose(p, d, [a for i, a in enumerate(spaces) if i not in ranked], range_far)
        if option is None:
            break
        last = first_open(spaces, ranked, option[0])
        ranked.add(last)
    left_out = [i for i in range(len(spaces)) if i not in ranked]
    return left_out[0] if left_out else last


def duel(rng, a, b, *, board, distance: int, range_far: bool = False,
         rulings_order_periods: str = "periods", stress_all_rolled: bool = True,
         natural_one_modified: bool = False, hourglass: str = "strike-first",
         trace: list | None = None) -> dict:
    """One duel of A (side 0, starts with the Hand) and B (side 1) as the module docstring specifies.
    ``trace``, if given, receives (turn, side, action, distance after it) for every activation."""
    sides = [State(s, s.front) for s in (as_side(a), as_side(b))]
    d = distance
    hand = 0
    hand_turns = 0
    for turn in range(1, 6):
        # a. Leader Phase
        for s in sides:
            left, right = s.side.orders
            if rulings_order_periods == "both-each-turn":
                s.tokens += left + right
            else:
                s.tokens += left if turn <= 2 else right
            s.this_turn = 0
            s.done = False
        # b. the spaces, one entry each, and those closed this turn (121)
        spaces = board_spaces(board, turn)
        closed: set[int] = set()
        # b'. Effect Phase: the Hourglass on an open Action (367)
        glass = None
        if hourglass != "not-played":
            glass = place_hourglass(sides[hand].profile, d, spaces, closed, range_far)
        kept = False
        hand_turns += hand == 0

        # c. Action Phase: the Hand first, then alternately; a side that cannot activate is done
        cur = hand
        while not (sides[0].done and sides[1].done):
            open_spaces = [x for i, x in enumerate(spaces) if i not in closed]
            me, enemy = sides[cur], sides[1 - cur]
            p = me.profile
            choice = None
            # 0. no additional activation that would panic the side itself
            if not (me.this_turn and me.has_pool and me.stress + 1 >= p.morale):
                choice = choose(p, d, open_spaces, range_far)
            # 2. pay: "The activation cost must be paid each time you activate the Character" (381)
            if choice is None or me.tokens < me.price_of(choice[0]):
                me.done = True
            else:
                action, kind, d = choice
                me.tokens -= me.price_of(action)
                me.spent += me.price_of(action)
                used = first_open(spaces, closed, action)
                closed.add(used)  # closed "until the end of the turn" (121)
                if used == glass and cur == hand:
                    kept = True  # "he gains the marker" (368)
                # 3. "If you do, the Character has a Morale Point Pool, you must then add a Stress token to
                # it." (383)
                if me.this_turn and me.has_pool:
                    me.stress += 1
                me.this_turn += 1
                me.activations += 1
                if trace is not None:
                    trace.append((turn, cur, action, d))
                # 4. resolve the Fight or Shoot against the enemy as it stands
                if kind is not None:
                    ep = enemy.profile
                    if kind == "fight":
                        dice, value = p.attack_dice, p.attack
                    else:
                        dice, value = p.shoot_dice, p.accuracy_far if range_far else p.accuracy_near
                    w, br, st = roll_attack(
                        rng, dice, value, aim=kind == "aim", modifier=me.side.modifier,
                        natural_one_modified=natural_one_modified, stress_all_rolled=stress_all_rolled,
                        stressable=enemy.has_pool, armor_points=ep.armor_points, armor_value=ep.armor_value,
                        broken=enemy.breaks)
                    enemy.wounds += w
                    enemy.breaks += br
                    enemy.stress += st
                # 5. "At the end of any activation": removed if Health pool tokens >= Health (227, 511)...
                for k in (0, 1):
                    if sides[k].wounds >= sides[k].profile.health:
                        return _result(sides, 1 - k, turn, hand_turns)
                # ... Panic if Morale pool tokens >= morale: "Flip his Character card ... no longer has a
                # Morale Point pool; any tokens in this pool are then discarded" (519)
                for s in sides:
                    if s.has_pool and s.stress >= s.profile.morale:
                        s.panicked = True
                        s.stress = 0
                        if not s.side.no_panic and s.side.panic is not None:
                            s.profile = s.side.panic
            if not sides[1 - cur].done:
                cur = 1 - cur
        # d. Cleanup: "allowed to keep up to 1 Order token for the next turn" (355)
        for s in sides:
            s.tokens = min(s.tokens, 1)
        # "the player who owns the Hourglass marker can exchange it for the Hand marker" (369)
        if hourglass != "not-played" and not kept:
            option = choose(sides[1 - hand].profile, d, board_spaces(board, turn + 1), range_far)
            if hourglass == "always" or (option is not None and option[1] is not None):
                hand = 1 - hand
    return _result(sides, 2, 5, hand_turns)


def _result(sides: list[State], outcome: int, turn: int, hand_turns: int) -> dict:
    return {"outcome": outcome, "wounds": [s.wounds for s in sides], "tokens": [s.spent for s in sides],
            "panicked": [int(s.panicked) for s in sides], "activations": [s.activations for s in sides],
            "turn": turn, "hand": hand_turns}
