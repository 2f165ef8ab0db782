"""Plain-Python twin of a Warbound Warband contest (seed 004): several characters a side on one hex board,
every die rolled one by one (tests/naive_warbound.py's ``roll_attack``), written from the rulebook
(/work/shared/seeds/004_f95fe7e1e7e670bd.txt, line numbers in brackets) and this docstring without the
library's code, so that the compiled kernel (rulesets/warbound/kernels_warband.py) can be checked against
it in distribution. Only ``rng.random()`` is used.

THE WARBAND CONTEST (the specification the compiled kernel follows)
==================================================================

Sides 0 and 1 each field a list of characters, their warband order (the entry first, then its companions).
A character has a front profile and a panic profile (its card's back, 517-523; None: the front), a
``modifier`` (a Formation's +1 to hit, 545), ``minis`` (2 in Formation: "two miniatures ... share the same
Character card", 531; else 1), a ``worth`` (its total activation cost, for targeting) and per profile a
``price`` (Order tokens an activation costs, 213-217, 381) and ``move_price`` (on the Move space: colourless
costs waived, 157). Each side has a Leader's ``orders`` (left, right, 261). Side 0 starts with the Hand,
side 1 with the Hourglass (363).

The board (97-101): two 8 x 8 sections of hexes, read as one parallelogram of ``columns`` x ``rows`` hexes in
axial coordinates (q = 0..columns-1, r = 0..rows-1; tile index q + columns * r). Hex distance:
(|dq| + |dr| + |dq + dr|) / 2. The six neighbour directions, side 0's order: (+1, 0), (+1, -1), (0, -1),
(-1, 0), (-1, +1), (0, +1); side 1 takes them in the reflected order (direction k + 3 mod 6), so that the
board, the deployment and every tie below are point-symmetric between the sides: the reflection
(q, r) -> (columns - 1 - q, rows - 1 - r) maps tile t to tile T - 1 - t. "When a tile is occupied by a
miniature (ally or enemy) ... it cannot be traversed or occupied by another miniature" (389); nothing else
blocks, and nothing blocks a line of sight ("Other miniatures do not block line of sight", 437; no
terrain).

Deployment (the scenario's rules are not in the rulebook, 324): side 0's start tile S0 = ``start``, side
1's S1 its reflection. Side 0's slots are the tiles t with dist(t, S1) >= dist(S0, S1), ordered by
(dist(t, S1), dist(t, S0), t): a line facing the enemy, centred on S0, then the lines behind it; side 1's
slots are the reflections of side 0's, in the same order. In warband order, a character's first miniature
takes the first free slot; a Formation's second miniature the first free slot adjacent to the first.

Distance between two characters: the least hex distance between a miniature of one and a miniature of the
other; adjacent: distance 1 ("Only one miniature in the Formation needs to be adjacent", 567).

Turns t = 1..5 (125), each as tests/naive_warbound.py's duel, a side's activation being chosen among its
characters:

a. Leader Phase: each side gains ``orders[0]`` tokens if t <= 2 else ``orders[1]`` (``both-each-turn``: the
   two every turn); every character's activations this turn = 0; no side is done.
b. The Action Board's open spaces and b'. the Hourglass: as the duel (board order; H's choices below,
   ignoring tokens, ranked with each chosen space closed).
c. Action Phase: the Hand holder first, then alternately; a side with no activation is done for the turn.
   A side's activation is the first of these four passes that finds one, characters in warband order:
   (1) a living character not yet activated this turn whose plan is an attack (any plan but a move only),
   (2) one not yet activated whose plan is a move only, (3) one already activated this turn whose plan is
   an attack, (4) one already activated whose plan is a move only; in (3) and (4) not a character with a
   Morale pool whose stress + 1 >= morale (the policy never panics itself with an additional activation);
   and, unless ranking for the Hourglass, only a plan whose space the side can pay for (``move_price`` on
   the "move" space, ``price`` on any other). A character's plan, with p its current profile:
   - An enemy adjacent to it: if p can Fight (attack not None), Fight the target (by ``targeting``
     among the adjacent enemies) on the first open of "fight", "move+fight", "run+fight". Else if it can
     Shoot, flee ("Under no circumstances can you shoot if an enemy Character stands on an adjacent tile",
     415): "move+shoot" (flee ``speed`` steps, then shoot if it can, see below), else "run" (flee speed +
     run steps), else "move" (flee ``speed`` steps), each only when its flee path has at least one step
     ("he must move onto at least one tile", 387). Else: no plan.
   - Else, if p can Shoot and has a valid target: Shoot it (by ``targeting`` among the valid targets) on
     "aim+shoot" (Aim), "shoot", "move+shoot" (the move not used). A target is valid when it is a living
     enemy not adjacent to a living ally of the shooter ("you cannot target an opposing Character if one
     of your own Characters is on a tile adjacent to it", 409) and either among the closest enemies (all
     the living enemies at the least distance, valid or not: 445-455; first accuracy value) or p has a far
     accuracy (second value; "Some Characters do not have a long-range value, restricting this Character
     to shooting only at the closest target", 461).
   - Else, if p can Fight and an enemy lives: approach the target (by ``targeting`` among all living
     enemies) with a path of up to speed + run steps; ``reach`` = the step at which the path first ends
     adjacent to the target. The first open of: "move+fight" if reach <= speed (move, then Fight);
     "run+fight" if reach <= speed + run; "run" (speed + run steps); "move", "move+shoot", "move+fight"
     (``speed`` steps, the move only); a move only when its path has at least one step, a Run only with
     speed + run >= 1 and a Move only with speed >= 1.
   - Else: no plan.
   Targeting (WB-targeting) ranks candidates by: nearest (distance, warband order); weakest (Health left =
   current profile's Health - Wound tokens, distance, warband order); most-valuable (-worth, distance,
   warband order); the first is the target.
   Paths. A character moves one miniature, the lead, step by step; its other miniature (a Formation's)
   then moves along the lead's trail to the last tile the lead left, so the two end adjacent ("they must
   end their movements on adjacent tiles", 553) and it moves no more tiles than the lead. Approach: the
   lead is the miniature nearer the target (the first miniature on a tie); each step goes to the free
   neighbour, in the side's direction order, with the least distance to the target's nearest miniature, if
   that is less than from where it stands; it stops when adjacent to the target, when no neighbour is
   nearer, or after its steps. Flee: the lead is the miniature farther from the nearest enemy miniature
   (the first on a tie); each step goes to the free neighbour, in the side's order, whose distance to the
   nearest living enemy miniature is the greatest, if greater than where it stands.
   An activation: pay; close the space (121); "If you do, the Character has a Morale Point Pool, you must
   then add a Stress token" when it has already activated this turn (383); then the plan: a Fight or Shoot
   is ``roll_attack`` against the target as it stands (armor left = armor points - Break tokens, Stress only
   into a Morale pool, the attacker's ``modifier``; Aim on "aim+shoot"); a move moves; a move+fight moves,
   then Fights the target; a flee with "move+shoot" moves, then shoots if no enemy is adjacent and a valid
   target remains (chosen then, ``targeting``; no Aim). End of the activation (227, 511, 519): every
   character whose Health pool holds at least its current profile's Health is removed (both miniatures);
   a side with none left loses and the contest ends; then every character with a Morale pool and stress
   >= morale panics (panic profile, stress 0, no Morale pool any more).
d. Cleanup: at most 1 token kept (355); the Hand as the duel, the Hourglass holder's "first choice on the
   next turn's board" being its pass (1)-(2) plan ignoring tokens, as if no character had activated.

Record: outcome (0: side 0 removed every enemy, 1: side 1 did, 2: both stand after turn 5), the side
ahead (the one that removed every enemy, else the one whose enemies lost more tokens' worth: worth x
damage / front Health summed over a side's characters; 2 when even), the turn it ended, the turns side 0
held the Hand, and per side: Wound tokens its characters took, Order tokens spent,
activations, characters that panicked, characters removed, the entry's activations and whether it
panicked, and per character the damage: its front Health if removed, else min(Wound tokens, front Health
- 1).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from fractions import Fraction

from naive_warbound import Profile, board_spaces, roll_attack

DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
TARGETING = ("nearest", "weakest", "most-valuable")


@dataclass(frozen=True)
class Member:
    """One character of a warband: profiles with their prices (naive_warbound.Profile's price and
    move_price), the Formation's +1 to hit, its miniatures and its worth (total activation cost)."""

    front: Profile
    panic: Profile | None = None
    modifier: int = 0
    minis: int = 1
    worth: int = 1
    no_panic: bool = False


class Board:
    """The hex parallelogram: distances, neighbours, reflection."""

    def __init__(self, columns: int, rows: int):
        self.columns, self.rows = columns, rows
        self.tiles = columns * rows
        # every distance and neighbour once (the twin is slow enough as it is)
        self._dist = [[self._hex(a, b) for b in range(self.tiles)] for a in range(self.tiles)]
        self._nbr = [[[self._step(t, (k + 3 * side) % 6) for k in range(6)] for t in range(self.tiles)]
                     for side in (0, 1)]

    def qr(self, t: int) -> tuple[int, int]:
        return t % self.columns, t // self.columns

    def _hex(self, a: int, b: int) -> int:
        (qa, ra), (qb, rb) = self.qr(a), self.qr(b)
        dq, dr = qa - qb, ra - rb
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2

    def _step(self, t: int, direction: int) -> int | None:
        dq, dr = DIRECTIONS[direction]
        q, r = self.qr(t)
        q, r = q + dq, r + dr
        if 0 <= q < self.columns and 0 <= r < self.rows:
            return q + self.columns * r
        return None

    def dist(self, a: int, b: int) -> int:
        return self._dist[a][b]

    def neighbour(self, t: int, side: int, k: int) -> int | None:
        """The neighbour of tile t in side's k-th direction (None off the board)."""
        return self._nbr[side][t][k]

    def reflect(self, t: int) -> int:
        return self.tiles - 1 - t


@functools.cache
def board_of(columns: int, rows: int) -> Board:
    return Board(columns, rows)


@dataclass
class Char:
    member: Member
    side: int
    order: int  # warband order
    profile: Profile
    tiles: list[int] = field(default_factory=list)
    alive: bool = True
    wounds: int = 0
    stress: int = 0
    breaks: int = 0
    panicked: bool = False
    this_turn: int = 0
    activations: int = 0

    @property
    def has_pool(self) -> bool:
        return not self.panicked and self.profile.morale is not None

    def price_of(self, action: str) -> int:
        return self.profile.move_price if action == "move" else self.profile.price


class Game:
    """One contest's state and the steps of the docstring."""

    def __init__(self, rng, sides, *, board, columns, rows, start, orders, targeting, stress_all_rolled,
                 natural_one_modified, hourglass, order_periods):
        self.rng, self.spaces_of = rng, board
        self.geo = board_of(columns, rows)
        self.targeting, self.hourglass = targeting, hourglass
        self.stress_all_rolled, self.natural_one_modified = stress_all_rolled, natural_one_modified
        self.order_periods, self.orders = order_periods, orders
        self.chars: list[Char] = []
        for s, members in enumerate(sides):
            for k, m in enumerate(members):
                self.chars.append(Char(m, s, k, m.front))
        self.tokens, self.spent, self.done = [0, 0], [0, 0], [False, False]
        self._deploy(start)

    # --- the board ---------------------------------------------------------------------------------

    def _deploy(self, start: tuple[int, int]) -> None:
        g = self.geo
        s0 = start[0] + g.columns * start[1]
        s1 = g.reflect(s0)
        gap = g.dist(s0, s1)
        slots0 = sorted((t for t in range(g.tiles) if g.dist(t, s1) >= gap),
                        key=lambda t: (g.dist(t, s1), g.dist(t, s0), t))
        slots = (slots0, [g.reflect(t) for t in slots0])
        taken: set[int] = set()
        for c in self.chars:
            first = next(t for t in slots[c.side] if t not in taken)
            taken.add(first)
            c.tiles = [first]
            if c.member.minis == 2:
                second = next(t for t in slots[c.side] if t not in taken and g.dist(t, first) == 1)
                taken.add(second)
                c.tiles.append(second)

    def occupied(self) -> set[int]:
        return {t for c in self.chars if c.alive for t in c.tiles}

    def dist(self, a: Char, b: Char) -> int:
        return min(self.geo.dist(x, y) for x in a.tiles for y in b.tiles)

    def enemies(self, c: Char) -> list[Char]:
        return [e for e in self.chars if e.alive and e.side != c.side]

    def allies(self, c: Char) -> list[Char]:
        return [a for a in self.chars if a.alive and a.side == c.side and a is not c]

    def pick(self, c: Char, candidates: list[Char]) -> Char:
        def key(e: Char):
            if self.targeting == "weakest":
                return (e.profile.health - e.wounds, self.dist(c, e), e.order)
            if self.targeting == "most-valuable":
                return (-e.member.worth, self.dist(c, e), e.order)
            return (self.dist(c, e), e.order)
        return min(candidates, key=key)

    def valid_targets(self, c: Char) -> list[tuple[Char, bool]]:
        """(enemy, whether it is among the closest) for every valid target of c's Shoot."""
        enemies = self.enemies(c)
        if not enemies or any(self.dist(c, e) == 1 for e in enemies):
            return []
        least = min(self.dist(c, e) for e in enemies)
        out = []
        for e in enemies:
            if any(self.dist(a, e) == 1 for a in self.allies(c)):
                continue
            near = self.dist(c, e) == least
            if near or c.profile.accuracy_far is not None:
                out.append((e, near))
        return out

    def approach_path(self, c: Char, target: Char, steps: int) -> tuple[int, list[int]]:
        """(lead miniature, its path) towards ``target``."""
        g = self.geo
        lead = min(range(len(c.tiles)), key=lambda i: (min(g.dist(c.tiles[i], y) for y in target.tiles), i))
        busy = self.occupied()
        cur, path = c.tiles[lead], []
        for _ in range(steps):
            d = min(g.dist(cur, y) for y in target.tiles)
            if d <= 1:
                break
            best, best_d = None, d
            for k in range(6):
                n = g.neighbour(cur, c.side, k)
                if n is None or n in busy:
                    continue
                dn = min(g.dist(n, y) for y in target.tiles)
                if dn < best_d:
                    best, best_d = n, dn
            if best is None:
                break
            path.append(best)
            cur = best
        return lead, path

    def flee_path(self, c: Char, steps: int) -> tuple[int, list[int]]:
        g = self.geo
        foes = [y for e in self.enemies(c) for y in e.tiles]

        def room(t: int) -> int:
            return min(g.dist(t, y) for y in foes)

        lead = min(range(len(c.tiles)), key=lambda i: (-room(c.tiles[i]), i))
        busy = self.occupied()
        cur, path = c.tiles[lead], []
        for _ in range(steps):
            best, best_m = None, room(cur)
            for k in range(6):
                n = self.geo.neighbour(cur, c.side, k)
                if n is None or n in busy:
                    continue
                if room(n) > best_m:
                    best, best_m = n, room(n)
            if best is None:
                break
            path.append(best)
            cur = best
        return lead, path

    def walk(self, c: Char, lead: int, path: list[int]) -> None:
        """The lead along ``path``; a second miniature to the last tile the lead left."""
        if not path:
            return
        trail = [c.tiles[lead], *path]
        c.tiles[lead] = path[-1]
        if len(c.tiles) == 2:
            c.tiles[1 - lead] = trail[-2]

    # --- plans ---------------------------------------------------------------------------------------

    def plan(self, c: Char, open_spaces: list[str]):
        """(space, plan) with plan one of ("attack", kind, target), ("approach", steps, target, fight),
        ("flee", steps, shoot); None: no plan."""
        p = c.profile
        enemies = self.enemies(c)
        wanted: list = []
        adjacent = [e for e in enemies if self.dist(c, e) == 1]
        if adjacent:
            if p.attack is not None:
                target = self.pick(c, adjacent)
                wanted = [(a, ("attack", "fight", target)) for a in ("fight", "move+fight", "run+fight")]
            elif p.accuracy_near is not None:
                for action, steps, shoot in (("move+shoot", p.speed, True), ("run", p.speed + p.run, False),
                                             ("move", p.speed, False)):
                    if steps >= 1 and self.flee_path(c, steps)[1]:
                        wanted.append((action, ("flee", steps, shoot)))
        else:
            valid = self.valid_targets(c) if p.accuracy_near is not None else []
            if valid:
                target = self.pick(c, [e for e, _ in valid])
                near = dict((id(e), n) for e, n in valid)[id(target)]
                wanted = [("aim+shoot", ("attack", ("aim", near), target)),
                          ("shoot", ("attack", ("shoot", near), target)),
                          ("move+shoot", ("attack", ("shoot", near), target))]
            elif p.attack is not None and enemies:
                target = self.pick(c, enemies)
                run = p.speed + p.run
                _, path = self.approach_path(c, target, run)
                reach = next((i + 1 for i, t in enumerate(path)
                              if min(self.geo.dist(t, y) for y in target.tiles) <= 1), None)
                if reach is not None and reach <= p.speed:
                    wanted.append(("move+fight", ("approach", p.speed, target, True)))
                if reach is not None and reach <= run:
                    wanted.append(("run+fight", ("approach", run, target, True)))
                if run >= 1 and path:
                    wanted.append(("run", ("approach", run, target, False)))
                if p.speed >= 1 and path:
                    wanted += [(a, ("approach", p.speed, target, False))
                               for a in ("move", "move+shoot", "move+fight")]
        for action, what in wanted:
            if action in open_spaces:
                return action, what
        return None

    def side_choice(self, s: int, open_spaces: list[str], *, ranking: bool = False, fresh: bool = False):
        """(character, space, plan) of side s's next activation, or None."""
        for rnd in range(4):
            again, attack = rnd >= 2, rnd % 2 == 0
            for c in self.chars:
                if not c.alive or c.side != s:
                    continue
                acted = c.this_turn > 0 and not fresh
                if acted != again:
                    continue
                if again and c.has_pool and c.stress + 1 >= c.profile.morale:
                    continue
                choice = self.plan(c, open_spaces)
                if choice is None or is_attack(choice[1]) != attack:
                    continue
                if not ranking and self.tokens[s] < c.price_of(choice[0]):
                    continue
                return c, choice[0], choice[1]
        return None

    # --- an activation ---------------------------------------------------------------------------------

    def attack(self, c: Char, kind, target: Char) -> None:
        p, q = c.profile, target.profile
        if kind == "fight":
            dice, value, aim = p.attack_dice, p.attack, False
        else:
            how, near = kind
            dice, value, aim = p.shoot_dice, p.accuracy_near if near else p.accuracy_far, how == "aim"
        w, b, x = roll_attack(self.rng, dice, value, aim=aim, modifier=c.member.modifier,
                              natural_one_modified=self.natural_one_modified,
                              stress_all_rolled=self.stress_all_rolled, stressable=target.has_pool,
                              armor_points=q.armor_points, armor_value=q.armor_value, broken=target.breaks)
        target.wounds += w
        target.breaks += b
        target.stress += x

    def activate(self, s: int, spaces: list[str], closed: set[int]) -> tuple[bool, int | None]:
        """(whether side s activated, the space it used); raises Over when a side is wiped out."""
        open_spaces = [a for i, a in enumerate(spaces) if i not in closed]
        choice = self.side_choice(s, open_spaces)
        if choice is None:
            return False, None
        c, action, what = choice
        price = c.price_of(action)
        self.tokens[s] -= price
        self.spent[s] += price
        used = next(i for i, a in enumerate(spaces) if a == action and i not in closed)
        closed.add(used)
        if c.this_turn and c.has_pool:
            c.stress += 1
        c.this_turn += 1
        c.activations += 1
        if what[0] == "attack":
            self.attack(c, what[1], what[2])
        elif what[0] == "approach":
            _, steps, target, fight = what
            lead, path = self.approach_path(c, target, steps)
            self.walk(c, lead, path)
            if fight:
                self.attack(c, "fight", target)
        else:
            _, steps, shoot = what
            lead, path = self.flee_path(c, steps)
            self.walk(c, lead, path)
            if shoot:
                valid = self.valid_targets(c)
                if valid:
                    target = self.pick(c, [e for e, _ in valid])
                    near = dict((id(e), n) for e, n in valid)[id(target)]
                    self.attack(c, ("shoot", near), target)
        self.end_of_activation()
        return True, used

    def end_of_activation(self) -> None:
        for c in self.chars:
            if c.alive and c.wounds >= c.profile.health:
                c.alive = False
        for s in (0, 1):
            if not any(c.alive for c in self.chars if c.side == s):
                raise Over(1 - s)
        for c in self.chars:
            if c.alive and c.has_pool and c.stress >= c.profile.morale:
                c.panicked = True
                c.stress = 0
                if not c.member.no_panic and c.member.panic is not None:
                    c.profile = c.member.panic

    # --- the game ------------------------------------------------------------------------------------

    def place_hourglass(self, hand: int, spaces: list[str]) -> int | None:
        ranked: set[int] = set()
        last = None
        while True:
            open_spaces = [a for i, a in enumerate(spaces) if i not in ranked]
            choice = self.side_choice(hand, open_spaces, ranking=True)
            if choice is None:
                break
            last = next(i for i, a in enumerate(spaces) if a == choice[1] and i not in ranked)
            ranked.add(last)
        left_out = [i for i in range(len(spaces)) if i not in ranked]
        return left_out[0] if left_out else last

    def play(self) -> dict:
        hand, hand_turns, turn, outcome = 0, 0, 1, 2
        try:
            for turn in range(1, 6):
                for s in (0, 1):
                    left, right = self.orders[s]
                    both = self.order_periods == "both-each-turn"
                    self.tokens[s] += left + right if both else (left if turn <= 2 else right)
                    self.done[s] = False
                for c in self.chars:
                    c.this_turn = 0
                spaces = board_spaces(self.spaces_of, turn)
                closed: set[int] = set()
                glass = self.place_hourglass(hand, spaces) if self.hourglass != "not-played" else None
                kept = False
                hand_turns += hand == 0
                cur = hand
                while not (self.done[0] and self.done[1]):
                    acted, used = self.activate(cur, spaces, closed)
                    if not acted:
                        self.done[cur] = True
                    elif used == glass and cur == hand:
                        kept = True
                    if not self.done[1 - cur]:
                        cur = 1 - cur
                for s in (0, 1):
                    self.tokens[s] = min(self.tokens[s], 1)
                if self.hourglass != "not-played" and not kept:
                    other = 1 - hand
                    choice = self.side_choice(other, board_spaces(self.spaces_of, turn + 1), ranking=True,
                                              fresh=True)
                    if self.hourglass == "always" or (choice is not None and is_attack(choice[2])):
                        hand = other
        except Over as over:
            outcome = over.winner
        return self.result(outcome, turn, hand_turns)

    def result(self, outcome: int, turn: int, hand_turns: int) -> dict:
        out = {"outcome": outcome, "turn": turn, "hand": hand_turns, "tokens": list(self.spent)}
        for key in ("wounds", "activations", "panicked", "lost", "entry_acts", "entry_panic"):
            out[key] = [0, 0]
        out["damage"] = [[], []]
        lost = [Fraction(0), Fraction(0)]
        for c in self.chars:
            s = c.side
            out["wounds"][s] += c.wounds
            out["activations"][s] += c.activations
            out["panicked"][s] += int(c.panicked)
            out["lost"][s] += int(not c.alive)
            if c.order == 0:
                out["entry_acts"][s] = c.activations
                out["entry_panic"][s] = int(c.panicked)
            health = c.member.front.health
            damage = health if not c.alive else min(c.wounds, health - 1)
            out["damage"][s].append(damage)
            lost[s] += Fraction(c.member.worth * damage, health)
        # ahead: the side that removed every enemy, else the one whose enemies lost more tokens' worth
        out["ahead"] = outcome if outcome != 2 else 0 if lost[1] > lost[0] else 1 if lost[0] > lost[1] else 2
        return out


def is_attack(what) -> bool:
    """Whether a plan attacks: a Fight or Shoot, an approach that Fights, a flee that shoots."""
    return what[0] == "attack" or (what[0] == "approach" and what[3]) or (what[0] == "flee" and what[2])


class Over(Exception):
    def __init__(self, winner: int):
        super().__init__(winner)
        self.winner = winner


def warband(rng, side_0: list[Member], side_1: list[Member], *, board, orders=((4, 4), (4, 4)),
            columns: int = 16, rows: int = 8, start: tuple[int, int] = (6, 2), targeting: str = "nearest",
            stress_all_rolled: bool = True, natural_one_modified: bool = False,
            hourglass: str = "strike-first", order_periods: str = "periods") -> dict:
    """One contest as the module docstring specifies: ``board`` = (period-1 actions, period-2 actions)."""
    if targeting not in TARGETING:
        raise ValueError(targeting)
    game = Game(rng, (side_0, side_1), board=board, columns=columns, rows=rows, start=start, orders=orders,
                targeting=targeting, stress_all_rolled=stress_all_rolled,
                natural_one_modified=natural_one_modified, hourglass=hourglass, order_periods=order_periods)
    return game.play()
