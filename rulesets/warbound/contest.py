"""Warbound in the balance layer (the contract of rulesets/base.py).

Contestants are the catalog's characters, each alone and in Formation, priced by their activation cost in
Order tokens (lines 213-217; a Formation adds one, line 543). The rulebook prints no profile: the packaged
characters are illustrative except for the facts the text gives (rulesets/warbound/data/examples.toml), and
reports say so.

An engagement is a Warband contest (rulesets.warbound.warband): each side fields its entry and, under
WB-warband=with-companions, the same companion characters (an Exploration deck), on one hex board, paying
every activation from the Order tokens of the Leader WB-economy names (by default the same Reference Leader
for both sides, so that a cost is paid from one economy whoever it meets), by the game's sequence for the
five turns. A character's worth is its activation cost; what a side loses is each character's worth x the
fraction of its front Health destroyed (1 when removed). The primary value is the side's net tokens' worth
(destroyed - lost) per token of the entry's cost. The fair cost is the even-trade price: the entry's cost at
which its side's net tokens' worth is zero, sum(destroyed - companions' worth lost) / sum(fraction of the
entry lost); against a copy of itself an entry is even at its own cost. Activation costs drive how often a
character acts, so a cost is part of how it plays: a cost change is simulated again, not re-scored.

numpy and the catalog reader are imported by the functions that use them: the command tree imports this.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rulesets.base import (
    ArmyBudget,
    Contestant,
    CostChange,
    Coverage,
    Engagement,
    FairCostRule,
    LinearScore,
    Metric,
    OptionError,
    RulesError,
    Ruleset,
    StandardTable,
    StatChange,
)
from rulesets.warbound.rules import MAX_CHARACTERS, WarboundRulings

FORMATION_SUFFIX = "@formation"

#: Profile stats ``--set NAME.STAT=VALUE`` accepts (``panic.STAT`` for the panic side), with their range;
#: those in OPTIONAL also take "none" (the character cannot Fight / Shoot far / has no Morale pool).
PROFILE_STATS = ("attack", "attack_dice", "speed", "run", "accuracy_near", "accuracy_far", "shoot_dice",
                 "cost_colourless", "cost_coloured", "health", "morale", "armor_points", "armor_value")
OPTIONAL = ("attack", "accuracy_near", "accuracy_far", "morale", "armor_value")
STATS = (*PROFILE_STATS, *(f"panic.{s}" for s in PROFILE_STATS), "cost")


@dataclasses.dataclass(frozen=True)
class Entry:
    """A contestant: a character, alone or in Formation, its faction's Leader and the catalog's reference
    Leader (None when the catalog has none): WB-economy says whose tokens it spends."""

    character: Any
    formation: bool
    leader: Any
    card: Any = None  # the Formation card
    board: Any = None  # the catalog's Action Board
    reference: Any = None  # the catalog's Reference Leader
    catalog: Any = dataclasses.field(default=None, compare=False, hash=False, repr=False)  # for companions

    def leader_for(self, rulings: WarboundRulings):
        """The Leader whose Order tokens pay its activations under WB-economy."""
        if rulings.economy == "faction-leader":
            return self.leader
        if self.reference is None:
            from rulesets.warbound.catalog import REFERENCE_LEADER

            raise RulesError(f"the catalog has no Leader {REFERENCE_LEADER!r}: WB-economy=same-leader needs "
                             f"it (give one, or --ruling WB-economy=faction-leader)")
        return self.reference

    @property
    def front(self):
        from rulesets.warbound.catalog import with_formation

        return with_formation(self.character.front, self.card) if self.formation else self.character.front


def _contestant(entry: Entry) -> Contestant:
    c = entry.character
    key = c.key + (FORMATION_SUFFIX if entry.formation else "")
    name = c.name + (" (Formation)" if entry.formation else "")
    leaders = [x for x in (entry.leader, entry.reference) if x is not None]
    illustrative = c.is_illustrative or any(x.is_illustrative for x in leaders)
    return Contestant(key=key, name=name, cost=float(entry.front.cost), cost_unit="Order tokens", group=c.key,
                      play=(_plays(c), entry.formation, entry.card, *((x.orders, x.faction) for x in leaders),
                            *_companion_plays(entry.catalog)),
                      labels=(("character", c.name), ("formation", "yes" if entry.formation else "no")),
                      illustrative=illustrative, subject=entry)


def _plays(character):
    """What decides how a character plays: its card without sources, quirks and notes."""
    return dataclasses.replace(character, sources=(), quirks=(), notes="", origin="")


def _companion_plays(catalog) -> tuple:
    """The cards companions may be drawn from (WB-warband=with-companions): a change to one changes every
    contest it may join."""
    from rulesets.warbound.warband import COMPANIONS

    if catalog is None:
        return ()
    return tuple((_plays(catalog.characters[k]), catalog.formation_for(k)) for k in COMPANIONS
                 if k in catalog.characters)


def _features(n: tuple[int, int]) -> tuple[tuple[str, int, int], ...]:
    """(name, record column, value or -1) of every record feature the metrics are linear in, for sides of
    n[0] and n[1] characters (rulesets.warbound.kernels_warband.Record)."""
    from rulesets.warbound.kernels_warband import Outcome, Record, damage_column

    feats = [(f"ahead_{o.name}", Record.AHEAD, o) for o in Outcome]
    feats += [(f"removed_all_{s}", Record.OUTCOME, (Outcome.SIDE_0, Outcome.SIDE_1)[s]) for s in (0, 1)]
    for name in ("WOUNDS", "TOKENS", "ENTRY_ACTS", "ENTRY_PANIC", "LOST"):
        feats += [(f"{name.lower()}_{s}", Record[f"{name}_{s}"], -1) for s in (0, 1)]
    feats += [(f"damage_{s}_{k}", damage_column(s, k), -1) for s in (0, 1) for k in range(n[s])]
    return tuple((name, int(col), int(value)) for name, col, value in feats)


def _linear(result, a: Contestant, b: Contestant, entry_worths: tuple[float, float] | None = None
            ) -> LinearScore:
    """Every metric of both sides as weights on the record features (the one definition of the metrics).
    A character's worth is its total activation cost (the entry's: its contestant's cost, or
    ``entry_worths``: an army's first character's own); a Health token it loses is worth its worth / its
    front Health; the per-token metric divides by the contestant's cost (an army's: its characters')."""
    import numpy as np

    from rulesets.warbound.kernels_warband import Outcome

    bands = (result.a, result.b)
    n = (len(result.a.members), len(result.b.members))
    feats = _features(n)
    f = {name: k for k, (name, _, _) in enumerate(feats)}
    cost = (a.cost, b.cost)
    first = cost if entry_worths is None else entry_worths
    # worth of one Health token of side s's k-th character (the entry at today's contestant cost)
    per_token = [[(first[s] if k == 0 else band.worths[k]) / band.members[k].front.health
                  for k in range(n[s])] for s, band in enumerate(bands)]
    weights = np.zeros((2 * len(METRIC_NAMES), len(feats)))
    for s in (0, 1):
        o = 1 - s

        def lost(side: int, start: int = 0) -> dict[int, float]:
            return {f[f"damage_{side}_{k}"]: per_token[side][k] for k in range(start, n[side])}

        destroyed, own = lost(o), lost(s)
        entry = {f[f"damage_{s}_0"]: 1.0 / bands[s].members[0].front.health}
        rows = {
            "win": {f[f"ahead_{Outcome(s).name}"]: 1.0},
            "loss": {f[f"ahead_{Outcome(o).name}"]: 1.0},
            "neither": {f["ahead_NEITHER"]: 1.0},
            "removed_all": {f[f"removed_all_{s}"]: 1.0},
            "wounds_inflicted": {f[f"wounds_{o}"]: 1.0},
            "wounds_taken": {f[f"wounds_{s}"]: 1.0},
            "tokens_spent": {f[f"tokens_{s}"]: 1.0},
            "entry_activations": {f[f"entry_acts_{s}"]: 1.0},
            "panicked": {f[f"entry_panic_{s}"]: 1.0},
            "characters_lost": {f[f"lost_{s}"]: 1.0},
            "fraction_lost": entry,
            "cost_destroyed": destroyed,
            "cost_lost": own,
            "trade_gain": {**destroyed, **{k: -w for k, w in lost(s, 1).items()}},
            "net_tokens": {**destroyed, **{k: -w for k, w in own.items()}},
            "net_per_token": {**{k: w / cost[s] for k, w in destroyed.items()},
                              **{k: -w / cost[s] for k, w in own.items()}},
        }
        for m, name in enumerate(METRIC_NAMES):
            for k, w in rows[name].items():
                weights[2 * m + s, k] = w
    columns = np.array([col for _, col, _ in feats], np.int64)
    equals = np.array([value for _, _, value in feats], np.int64)
    offsets = np.zeros(2 * len(METRIC_NAMES))
    return LinearScore(METRIC_NAMES, result.records, columns, equals, weights, offsets)


def _fields(result, a: Contestant, b: Contestant):
    return _linear(result, a, b).samples()


#: Formation rules a contest does not play, whose worth cannot arise in it: they leave the verdict standing.
_FORMATION_BESIDE_THE_POINT = (
    "moving its two miniatures by separate paths (the second follows the first's trail: every character "
    "moves by the contest's stated policy)",
    "one miniature's line of sight sufficing (no line of sight is ever blocked)")


def coverage(entry: Entry) -> Coverage:
    """Which of a character's rules a contest plays: both sides of its card (attack, shooting, armor, Health,
    morale, activation cost; the Equipment its icons say it carries is in that profile) and its Formation
    card (two miniatures, the +1s); not its skills (their texts are not played: decisive), nor the
    Formation's free paths and line of sight (every character moves by the stated policy, nothing blocks a
    line of sight)."""
    c = entry.character
    played = ["profile", *(["Panic side"] if c.panic is not None else []), "activation cost"]
    icons = c.front.equipment_icons
    if icons:
        played.append(f"the {', '.join(icons)} equipment its icons show (in its profile)")
    unplayed = []
    if entry.formation:
        f = entry.card
        played.append(f"{f.name} (+{f.cost_colourless} cost, +{f.hit_bonus} to hit, +{f.extra_dice} die, "
                      f"+{f.extra_health} Health)")
        unplayed += [f"{f.name}: {rule}" for rule in _FORMATION_BESIDE_THE_POINT]
    decisive = []
    for side, profile in (("", c.front), (" (Panic side)", c.panic)):
        for skill in profile.skills if profile is not None else ():
            kind = "active" if skill.active else "passive"
            decisive.append(f"{skill.name}{side} ({kind} skill: the contest plays no skill)")
    return Coverage(tuple(played), (*unplayed, *decisive), tuple(decisive))


class WarboundRuleset(Ruleset):
    """Warbound (seed 004) fulfilling the contract: Warband contests over the five turns, on one Order
    economy."""

    cost_unit = "Order tokens"
    examples = {"efficiency": "--unit copp --unit analyst --unit splatter --format markdown",
                "whatif": '--set "copp.speed=4" --cost "copp=2" --unit copp --unit analyst',
                "sweep": '--cost "copp=1..5" --plot copp.png'}
    engagement = ("a Warband contest: each side fields its entry and, under WB-warband=with-companions, the "
                  "same three companion characters (an 8-card Exploration deck), on one 16 x 8 hex board, "
                  "deployed in lines 6 tiles apart (illustrative), paying every activation from the Order "
                  "tokens of the Leader WB-economy names (same-leader: the same Reference Leader for both); "
                  "for the five turns the sides alternate activations, the Hand holder first, each "
                  "activating its first character in warband order (the entry first) with an attack it can "
                  "pay for, else one that moves (shoot when it can, else walk to its target and Fight; "
                  "additional activations while they add no Panic); targets by WB-targeting; the Hand and "
                  "the Hourglass change hands by WB-hourglass-policy")
    roles = ("starts with the Hand", "starts with the Hourglass")
    army_text = ("an army is an Exploration deck (seed 004 lines 65-79: \"no need to calculate army "
                 "lists\"): 8 cards, exactly one Leader (WB-economy's: same-leader, the Reference Leader; "
                 "faction-leader, that of its first character's faction), at most 5 characters, no two "
                 "cards of one name (Roh'na and Rah'na taken as one), at least 2 Upgrades: its Formation "
                 "cards and, when a card of the 8 is left, the catalog's first Vocation the Leader can "
                 "take, whose text is not printed (it does nothing); so an army spends the 7 cards beside "
                 "the Leader, a character alone 1, in Formation 2 (its card), and no other Equipment or "
                 "Vocation is played. Its characters act in the catalog's order (the stated policy "
                 "activates a side's first character in warband order first), and two decks meet in the "
                 "entries' Warband contest on the board. The field: each entry's own deck under "
                 "WB-warband=with-companions, the entry with the first three companions that are not it "
                 "(the first two in Formation); its P(win) is the win metric (ahead on tokens' worth)")
    army_kinds = MAX_CHARACTERS
    metrics = (
        Metric("win", "P(this side ends ahead: it removes every enemy, or destroys more tokens' worth than "
                      "it loses)"),
        Metric("loss", "P(the enemy ends ahead)"),
        Metric("neither", "P(both end even)"),
        Metric("removed_all", "P(this side removes every enemy character)"),
        Metric("wounds_inflicted", "Wound tokens this side dealt"),
        Metric("wounds_taken", "Wound tokens this side's characters took"),
        Metric("tokens_spent", "Order tokens this side spent on activations"),
        Metric("entry_activations", "activations of this side's entry"),
        Metric("panicked", "P(this side's entry panicked)"),
        Metric("characters_lost", "this side's characters removed"),
        Metric("fraction_lost", "fraction of the entry's Health destroyed (1 when removed)"),
        Metric("cost_destroyed", "Order tokens' worth of the enemy destroyed (each character's cost x the "
                                 "fraction of its Health destroyed)"),
        Metric("cost_lost", "Order tokens' worth of this side destroyed"),
        Metric("trade_gain", "tokens' worth destroyed - the companions' worth lost (what the entry's own "
                             "loss is set against: the even-trade gain)"),
        Metric("net_tokens", "tokens' worth destroyed - tokens' worth lost"),
        Metric("net_per_token", "net tokens' worth per token of the entry's cost (the primary value)"),
    )
    primary_metric = "net_per_token"
    win_metric = "win"
    payoff_metric = "net_tokens"
    payoff_description = "net tokens' worth per token of the pair's mean cost, averaged over both roles"
    fair_cost_rule = FairCostRule(
        "even-trade", "the even-trade price: the entry's activation cost at which its side's net tokens' "
                      "worth is zero over its contests, the tokens' worth its side destroys less its "
                      "companions' losses set against the share of itself it loses (sum of trade_gain / sum "
                      "of fraction_lost); an entry against a copy of itself is even at its own cost",
        gain="trade_gain", loss="fraction_lost")
    value_per_cost_description = "net tokens' worth per token spent on its cost (the primary value)"

    def load_catalog(self, paths: Sequence[Path] = ()) -> Any:
        from rulesets.warbound import catalog as catalog_io

        return catalog_io.load(user_paths=tuple(paths))

    def catalog_files(self, catalog: Any) -> list[tuple[str, str]]:
        return list(getattr(catalog, "files", ())) or [(catalog.source, catalog.sha256)]

    def contestants(self, catalog: Any, only: Sequence[str] = ()) -> list[Contestant]:
        from rulesets.warbound.catalog import REFERENCE_LEADER
        from rulesets.warbound.simulate import default_leader

        wanted = None
        if only:
            wanted = set()
            for name in only:
                base, formation = _split(name)
                character = catalog.character(base)
                if character.panic is None:
                    raise RulesError(f"{character.name} has no panic side in the catalog, and a contest "
                                     f"flips a panicking character's card (line 517): give its panic "
                                     f"profile")
                key = character.key
                wanted.add(key + (FORMATION_SUFFIX if formation else ""))
                if not formation and not name.strip().lower().endswith(FORMATION_SUFFIX):
                    wanted.add(key + FORMATION_SUFFIX)
        out = []
        for c in catalog.characters.values():
            if c.panic is None:
                continue  # a contest needs the panic side (reports say which were left out)
            leader = default_leader(c, catalog)
            for formation in (False, True):
                entry = Entry(c, formation, leader, catalog.formation_for(c.key) if formation else None,
                              catalog.board, catalog.leaders.get(REFERENCE_LEADER), catalog)
                contestant = _contestant(entry)
                if wanted is None or contestant.key in wanted:
                    out.append(contestant)
        return out

    def engage(self, a: Contestant, b: Contestant, rulings: WarboundRulings, *, seed: int,
               trials: int | None = None, precision: float | None = None,
               threads: int | None = None) -> Engagement:
        from rulesets.warbound.warband import contest_sides, simulate_warband
        from simcore.config import ENGAGEMENT_BATCH, ENGAGEMENT_BLOCK

        trials = self.engagement_trials(trials, precision)
        side_a, side_b = contest_sides(a.subject, b.subject, rulings)
        result = simulate_warband(side_a, side_b, a.subject.board, rulings, trials=trials, seed=seed,
                                  threads=threads, precision=precision, block_trials=ENGAGEMENT_BLOCK,
                                  max_batch_trials=ENGAGEMENT_BATCH)
        return Engagement(a, b, seed=seed, raw=result, score=_fields, method="Monte Carlo", linear=_linear)

    def army_budget(self, rulings: WarboundRulings) -> ArmyBudget:
        """An army spends an Exploration deck's cards beside its Leader (rulesets.warbound.warband)."""
        from rulesets.warbound.warband import ARMY_CARDS

        return ArmyBudget(ARMY_CARDS, "cards", f"an Exploration deck: {ARMY_CARDS + 1} cards, one of them "
                                               "the Leader (seed 004 lines 69, 77)", one="card")

    def army_price(self, contestant: Contestant) -> float:
        """A character's card, and its Formation card when in Formation."""
        return 2.0 if contestant.subject.formation else 1.0

    def check_army(self, force: Sequence[tuple[Contestant, int]], rulings: WarboundRulings) -> None:
        """What a deck may hold at most: each character once (one card of a name, line 71; Roh'na and
        Rah'na as one), no more than MAX_CHARACTERS (8 cards less the Leader and 2 Upgrades, lines 69, 77,
        79), their cards within the 7 beside the Leader."""
        from rulesets.warbound.warband import ARMY_CARDS, army_names

        for c, n in force:
            if not isinstance(c.subject, Entry):
                raise RulesError(f"{c.name} is no Warbound character")
            if n != 1:
                raise RulesError(f"an army holds one card of {c.subject.character.name}, not {n}: cards are "
                                 "unique by name (line 71); its Formation card adds the second miniature")
        by_name: dict[str, list[str]] = {}
        for (c, _), name in zip(force, army_names(force), strict=True):
            by_name.setdefault(name, []).append(c.name)
        twice = [" and ".join(held) for held in by_name.values() if len(held) > 1]
        if twice:
            raise RulesError(f"an army holds {'; '.join(twice)}: one card of a name (line 71; Roh'na and "
                             "Rah'na taken as one)")
        if len(force) > MAX_CHARACTERS:
            raise RulesError(f"an army of {len(force)} characters is more than the {MAX_CHARACTERS} of an "
                             "Exploration deck (8 cards, one Leader, at least 2 Upgrades: lines 69, 77, 79)")
        cards = sum(self.army_price(c) for c, _ in force)
        if cards > ARMY_CARDS:
            raise RulesError(f"an army of {cards:g} character and Formation cards is more than the "
                             f"{ARMY_CARDS} an Exploration deck holds beside its Leader (lines 69, 77)")

    def army_incomplete(self, force: Sequence[tuple[Contestant, int]], rulings: WarboundRulings
                        ) -> str | None:
        """Why the deck of ``force`` (:func:`rulesets.warbound.warband.army_deck`) is not an Exploration deck
        yet (8 cards, at least 2 Upgrades, ...); None when it is one."""
        from rulesets.warbound.warband import army_deck

        _, problems = army_deck(force, rulings)
        return f"not an Exploration deck: {'; '.join(problems)}" if problems else None

    def field_army(self, contestant: Contestant, entries: Sequence[Contestant], rulings: WarboundRulings
                   ) -> tuple[tuple[Contestant, int], ...]:
        """The entry's own deck: the entry and, under WB-warband=with-companions, the first N_COMPANIONS
        companions that are not it (the first IN_FORMATION in Formation), as its contests field it beside
        an entry that is none of them."""
        from rulesets.warbound.simulate import default_leader
        from rulesets.warbound.warband import companions

        if rulings.warband != "with-companions":
            raise RulesError("armies are Exploration decks, and WB-warband=alone plays each entry alone, in "
                             "no deck: use --ruling WB-warband=with-companions")
        entry = contestant.subject
        fielded = companions(entry.catalog, entry.character.key)
        made = [_contestant(dataclasses.replace(entry, character=c, formation=card is not None, card=card,
                                                leader=default_leader(c, entry.catalog)))
                for c, card in fielded]
        return ((contestant, 1), *((c, 1) for c in made))

    def army_engage(self, force_a: Sequence[tuple[Contestant, int]],
                    force_b: Sequence[tuple[Contestant, int]], rulings: WarboundRulings, *, seed: int,
                    trials: int | None = None, precision: float | None = None,
                    threads: int | None = None) -> Engagement:
        """Two decks' Warband contest, played as :meth:`engage` plays two entries' (the same board, turns
        and policies), each side its characters in warband order (rulesets.warbound.warband.army_warband).
        The metrics are :func:`_linear`'s, each character worth its own activation cost; those of "the
        entry" (entry_activations, panicked, fraction_lost, trade_gain) read the army's first character."""
        from rulesets.base import army_contestant
        from rulesets.warbound.warband import army_warband, simulate_warband
        from simcore.config import ENGAGEMENT_BATCH, ENGAGEMENT_BLOCK

        sides = self.checked_armies(force_a, force_b, rulings)
        trials = self.engagement_trials(trials, precision)
        band_a, band_b = (army_warband(force, rulings) for force in sides)
        result = simulate_warband(band_a, band_b, sides[0][0][0].subject.board, rulings, trials=trials,
                                  seed=seed, threads=threads, precision=precision,
                                  block_trials=ENGAGEMENT_BLOCK, max_batch_trials=ENGAGEMENT_BATCH)
        worths = (float(band_a.worths[0]), float(band_b.worths[0]))

        def linear(raw, a: Contestant, b: Contestant) -> LinearScore:
            return _linear(raw, a, b, worths)

        return Engagement(army_contestant(sides[0]), army_contestant(sides[1]), seed=seed, raw=result,
                          score=lambda raw, a, b: linear(raw, a, b).samples(), method="Monte Carlo",
                          linear=linear)

    def stats(self) -> tuple[str, ...]:
        return STATS

    variant_table = "characters"
    variant_word = "character"

    def variant_name(self, target: str) -> str:
        """``NAME@formation`` changes the character NAME."""
        return _split(target)[0]

    def changed_stat(self, catalog: Any, entry: Any, change: StatChange) -> Any:
        return self.with_entry(catalog, _changed(entry, change))

    def recosted(self, catalog: Any, entry: Any, change: CostChange) -> Any:
        cost = change.cost
        if _split(change.target)[1]:  # NAME@formation=COST: the Formation's total, its card's share out
            cost -= catalog.formation_for(entry.key).cost_colourless
        return self.with_entry(catalog, _recosted(entry, cost, change.text))

    def representative(self, catalog: Any, target: str) -> str:
        """A character's name stands for the character alone; NAME@formation for its Formation."""
        base, formation = _split(target)
        return catalog.character(base).key + (FORMATION_SUFFIX if formation else "")

    price_features_text = ("Health, Attack, Accuracy, Armor: of the character's own card (Attack and "
                           "Accuracy: the faces of the 12 on a Warbound die that hit, times its dice; Armor: "
                           "the faces that pass an armor roll, times its armor points; 0 where it has none); "
                           "Formation: 1 in Formation (the price of its Formation card)")

    def price_features(self, contestant: Contestant) -> dict[str, float]:
        """The pricing rule's features: the stats of the character's card that vary across the catalog
        (seed 004, "Attributes", lines 197-239), and the Formation it may fight in. A target value counts
        the faces of the 12 on a Warbound die (1, 2, 3, 4, 5, 5, 6, 7, 8, 9, 10, 10: lines 111-115) that
        reach it, so that more is better and a price reads per face (7+: 5 faces):

        - Health: "if the number of tokens in this pool equals or exceeds the Character's total Health
          Points, the Character is removed" (227).
        - Attack: "the result to roll on a Warbound die in order to hit an opponent in melee" (197): its
          faces times its melee dice.
        - Accuracy: "the result needed to hit an opponent with a ranged shot", the first value "for
          targeting the nearest enemy" (203): its faces times its ranged dice; 0: it cannot Shoot.
        - Armor: "The value next to the armor point indicate the result to roll on a die to pass an armor
          check" (239), one wound saved per armor point (478): its faces times its armor points.
        - Formation: 1 in Formation: the card adds to the cost (543), "+1 bonus to all its Hit rolls"
          (545), "an additional melee attack die" (565) and "an additional Health Point" (573).

        Left out, to keep the fit far smaller than the 16 entries (8 characters): Morale (one more than
        Health on every card of the catalog), Speed and Run (3 or 4, 1 or 2) and the skills (two cards
        have one, and no contest plays them).
        """
        from rulesets.warbound.rules import FACES

        def faces(value: int | None, dice: int) -> float:
            return 0.0 if value is None else float(dice * sum(face >= value for face in FACES))

        entry = contestant.subject
        card = entry.character.front
        return {"Health": float(card.health), "Attack": faces(card.attack, card.attack_dice),
                "Accuracy": faces(card.accuracy_near, card.shoot_dice),
                "Armor": faces(card.armor_value, card.armor_points), "Formation": float(entry.formation)}

    def tables(self) -> dict[str, StandardTable]:
        from rulesets.warbound import tables

        return tables.standard_tables()

    def value_per_cost(self, value: float, cost: float) -> float:
        return value

    def payoff_scale(self, a: Contestant, b: Contestant) -> float:
        return 1.0 / ((a.cost + b.cost) / 2.0)

    def notes(self, catalog: Any, contestants: Sequence[Contestant]) -> list[str]:
        from rulesets.warbound.warband import NOT_MODELLED

        notes = ["the rulebook prints no character profiles: values marked illustrative are invented to make "
                 "the characters playable (`balance units warbound` lists them); give real ones with "
                 "--catalog",
                 _economy_note(catalog),
                 _warband_note(catalog),
                 "the board: two 8 x 8 sections read as one 16 x 8 parallelogram of hexes (its picture is "
                 "missing); each side deploys in a line facing the other, 6 tiles apart (the duel's "
                 "distance), its entry at the centre, each character on the next free tile of the line "
                 "and a Formation's second miniature beside its first (illustrative: the scenario that "
                 "places the characters is not in the rulebook, line 324); the Action Board's layout is an "
                 "image missing from the text, so the packaged board is illustrative",
                 "a side activates its first character in warband order (the entry first) whose plan is an "
                 "attack it can pay for, else the first that can move, then additional activations (never "
                 "one that would panic it); WB-targeting picks each attack's and each approach's target, "
                 "ties going to the enemy's first in warband order (its entry); a contest is scored by the "
                 "tokens' worth each side destroys (each character's cost x the fraction of its Health "
                 "destroyed), and a side is ahead when it removed every enemy or destroyed more than it "
                 "lost (Victory Points are the scenario's, line 322)",
                 "initiative is played (WB-hourglass-policy): side A starts with the Hand (the roles: who "
                 "starts with it); each turn the Hourglass holder places it on an Action the Hand "
                 "holder's side would not use, and the Hand changes sides at Cleanup by the ruling's "
                 "policy; a mirror is even with roles averaged, but not per role (the starter holds the "
                 "Hand in turns 1, 3 and 5 when it changes every turn)"]
        illustrative = sorted({c.group for c in contestants if c.illustrative})
        if illustrative:
            notes.append(f"illustrative data in: {', '.join(illustrative)}")
        left_out = sorted(c.key for c in catalog.characters.values() if c.panic is None)
        if left_out:
            notes.append(f"left out (no panic side to flip to): {', '.join(left_out)}")
        notes.append(f"not modelled in contests: {'; '.join(NOT_MODELLED)}")
        return notes

    def coverage(self, contestant: Contestant, rulings: WarboundRulings) -> Coverage:
        return coverage(contestant.subject)


METRIC_NAMES = tuple(m.name for m in WarboundRuleset.metrics)


def _warband_note(catalog) -> str:
    """What WB-warband fields, with this catalog's companions named."""
    from rulesets.warbound.catalog import ANY_FACTION, REFERENCE_LEADER
    from rulesets.warbound.warband import COMPANIONS, IN_FORMATION, N_COMPANIONS, companions

    pool = [catalog.characters[k].name for k in COMPANIONS if k in catalog.characters]
    usual = ", ".join(c.name + (" (Formation)" if card is not None else "")
                      for c, card in companions(catalog)) if len(pool) >= N_COMPANIONS else "too few"
    def fits(leader) -> list:
        return [v for v in catalog.vocations.values()
                if v.faction is None or leader.faction in (v.faction, ANY_FACTION)]

    ref = catalog.leaders.get(REFERENCE_LEADER)
    bare = [x.name for x in catalog.leaders.values() if x is not ref and not fits(x)]
    spare = ("and, when the entry is alone, the first Vocation its Leader can take"
             + (f" ({fits(ref)[0].name} for the {ref.name})" if ref is not None and fits(ref) else "")
             + " to make 8 cards (its text is not printed: nothing is played)"
             + (f"; none fits {', '.join(bare)} (WB-economy=faction-leader): 7 cards" if bare else ""))
    return (f"what each side fields (WB-warband): with-companions, the default: its entry and the same "
            f"{N_COMPANIONS} companions, the first {N_COMPANIONS} of {', '.join(pool)} that neither side's "
            f"entry is (a deck holds no two cards of a name, line 71; Rah'na counts as Roh'na), the first "
            f"{IN_FORMATION} in Formation: {usual} unless an entry is one of them; an Exploration deck of 8 "
            f"cards, 1 Leader, at least 2 Upgrades (lines 69-87): the Leader, the entry (and its Formation "
            f"card), the companions and their Formation cards {spare}; the companions carry no skill the "
            f"contest cannot play; alone: the entry only, one character a side, no deck")


def _economy_note(catalog) -> str:
    """What WB-economy means for this catalog: which Leader pays, with its Orders."""
    from rulesets.warbound.catalog import ANY_FACTION, REFERENCE_LEADER

    ref = catalog.leaders.get(REFERENCE_LEADER)
    same = (f"{ref.name}, {ref.orders[0]} then {ref.orders[1]} Order tokens a turn (Periods 1 and 2) of "
            f"{'any colour' if ref.faction == ANY_FACTION else ref.faction + ' colour'}"
            f"{', illustrative: not a printed card' if ref.is_illustrative else ''}"
            if ref is not None else f"no {REFERENCE_LEADER!r} Leader in this catalog")
    return (f"the Order economy (WB-economy): same-leader, the default, prices every character on one "
            f"economy: both sides spend the same Leader's tokens ({same}), so that a cost is paid from the "
            f"same tokens whoever it meets and no faction's coloured cost is favoured; faction-leader: each "
            f"side spends its own faction's Leader (a contest of two factions compares two economies)")


def _split(name: str) -> tuple[str, bool]:
    low = name.strip().lower()
    if low.endswith(FORMATION_SUFFIX):
        return low[: -len(FORMATION_SUFFIX)], True
    return low, False


def _changed(c, change: StatChange):
    """``c`` with ``change`` made (a stat of STATS: Ruleset.variant checked it)."""
    if change.stat == "cost":
        return _recosted(c, change.number(), change.text)
    side, stat = ("panic", change.stat[6:]) if change.stat.startswith("panic.") else ("front", change.stat)
    profile = getattr(c, side)
    if profile is None:
        raise RulesError(f"change {change.text!r}: {c.name} has no panic side in the catalog")
    if stat in OPTIONAL and change.value.strip().lower() == "none":
        value = None
    else:
        value = change.whole(*_bounds(stat))
    changed = dataclasses.replace(profile, **{stat: value})
    # the catalog's pairings (rulesets.warbound.catalog.Profile): no attack, no attack dice; no near
    # accuracy, no shooting at all; no armor points, no armor value
    if stat == "attack":
        dice = 0 if value is None else max(1, profile.attack_dice)
        changed = dataclasses.replace(changed, attack_dice=dice)
    if stat == "accuracy_near":
        changed = dataclasses.replace(changed, shoot_dice=0 if value is None else max(1, profile.shoot_dice),
                                      accuracy_far=None if value is None else profile.accuracy_far)
    if stat == "accuracy_far" and value is not None and changed.accuracy_near is None:
        raise RulesError(f"change {change.text!r}: {c.name} cannot Shoot (no accuracy_near): set it first")
    if stat in ("attack_dice", "shoot_dice") and getattr(changed, "attack" if stat == "attack_dice"
                                                         else "accuracy_near") is None:
        raise RulesError(f"change {change.text!r}: {c.name} cannot "
                         f"{'Fight' if stat == 'attack_dice' else 'Shoot'} on its {side} side")
    if stat == "armor_points" and value == 0:
        changed = dataclasses.replace(changed, armor_value=None)
    if stat == "armor_points" and value and changed.armor_value is None:
        raise RulesError(f"change {change.text!r}: armor points need an armor value (set armor_value too)")
    if stat == "armor_value" and value is not None and changed.armor_points == 0:
        raise RulesError(f"change {change.text!r}: {c.name} has no armor points on its {side} side")
    if changed.cost < 1:
        raise RulesError(f"change {change.text!r}: an activation cost of {changed.cost} Order tokens is not "
                         f">= 1")
    return dataclasses.replace(c, **{side: changed})


def _bounds(stat: str) -> tuple[int, int]:
    """The range a catalog accepts for ``stat`` (rulesets.warbound.catalog): the one rule for both."""
    from rulesets.warbound import catalog as cat

    return {"attack": cat.HIT, "accuracy_near": cat.HIT, "accuracy_far": cat.HIT, "armor_value": cat.HIT,
            "attack_dice": cat.DICE, "shoot_dice": cat.DICE, "speed": cat.MOVE, "run": cat.MOVE,
            "cost_colourless": cat.COST, "cost_coloured": cat.COST, "health": cat.HEALTH,
            "morale": cat.MORALE, "armor_points": cat.ARMOR_POINTS}[stat]


def _recosted(c, cost: float, text: str):
    """The front card's activation cost set to ``cost`` tokens: its coloured part kept, the rest
    colourless (a panic side keeps its own cost, raised by as much)."""
    if not float(cost).is_integer() or cost < 1:
        raise OptionError(f"change {text!r}: an activation cost is a whole number of Order tokens >= 1, "
                          f"not {cost:g}")
    total = int(cost)
    front = c.front
    coloured = min(front.cost_coloured, total)
    delta = total - front.cost
    new_front = dataclasses.replace(front, cost_coloured=coloured, cost_colourless=total - coloured)
    panic = c.panic
    if panic is not None:
        colourless = max(0, panic.cost_colourless + delta)
        panic = dataclasses.replace(panic, cost_colourless=colourless)
    return dataclasses.replace(c, front=new_front, panic=panic)
