"""Dragoborne in the balance layer (the contract of rulesets/base.py).

Contestants are the catalog's creature cards that can be played from hand, priced by their cost in
resources (lines 33, 202). A card's worth is measured in its deck: in every game one copy of it takes the
place of one copy of the deck's cards of the same cost class (lines 158-164, Ambush counting as 2), drawn
uniformly, so that it replaces "an average card of the same cost". Its home deck is the catalog deck with
the most banners of its colour (ties: the first by key).

An engagement of card A (side 0) against card B is a run of whole games (rulesets/dragoborne/game.py): A's
home deck holding A against B's home deck holding B. Each game is played three times from the same random
stream (common random numbers): as it is, with side 0's deck unchanged, and with side 1's unchanged. The
primary value, ``win_gain``, is the change in a side's win (1 or 0) that its card made in that game: what one
copy of the card adds to its deck's win rate over an average card of the same cost, against a deck holding
the other card. A fair card's gain is 0 at any cost, so the fair-cost rule is ``zero`` (the verdict is the
sign of the gain's interval; a cost sweep finds the cost where it crosses 0).

Spells are not contestants: the game casts none under DG-spells=none (removal casts four removal texts, all
also the pumps and the Ambush spell), so their worth is not measured; reports say so.

numpy and the kernels are imported by the functions that use them: the command tree imports this.
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
    Metric,
    OptionError,
    RulesError,
    Ruleset,
    StandardTable,
    StatChange,
)
from rulesets.dragoborne import army
from rulesets.dragoborne.game import MAX_TURNS
from rulesets.dragoborne.rules import DragoborneRulings

STATS = ("atk", "edr", "cost")
STAT_RANGE = (0, 20)


def home_deck(card: Any, catalog: Any) -> Any:
    """The catalog deck with the most banners of the card's colour (ties: the first by key)."""
    if not catalog.decks:
        raise RulesError("the catalog has no deck: a card's worth is measured in a deck (give one with "
                         "--catalog)")
    return max(sorted(catalog.decks.values(), key=lambda d: d.key),
               key=lambda d: sum(b == card.colour for b in d.banners))


def _contestant(card: Any, catalog: Any) -> Contestant:
    deck = home_deck(card, catalog)
    play = (card, deck.key, tuple(sorted(deck.copies.items())), tuple(deck.banners))
    return Contestant(key=card.key, name=card.name, cost=float(card.cost), cost_unit="resources",
                      group=card.key, play=play,
                      labels=(("card", card.name), ("colour", card.colour), ("deck", deck.name)),
                      illustrative=card.is_illustrative, subject=(card, deck, catalog))


def _samples(records, a: Contestant, b: Contestant):
    import numpy as np

    from rulesets.dragoborne import kernels as K

    w = records[:, K.R_WINNER]
    out = {}
    sides = (0, 1)
    win = np.stack([(w == s).astype(np.float64) for s in sides])
    loss = np.stack([(w == 1 - s).astype(np.float64) for s in sides])
    base = np.stack([(records[:, K.R_BASE_WINNER_0 + s] == s).astype(np.float64) for s in sides])
    out["win"] = win
    out["loss"] = loss
    out["draw"] = np.stack([(w == K.DRAW).astype(np.float64)] * 2)
    out["win_gain"] = win - base
    out["net_win"] = win - loss
    out["first"] = np.stack([(records[:, K.R_FIRST] == s).astype(np.float64) for s in sides])
    out["turns"] = np.stack([records[:, K.R_TURNS].astype(np.float64)] * 2)
    out["barriers_left"] = np.stack([records[:, K.R_BARRIERS_0 + s].astype(np.float64) for s in sides])
    out["summoned"] = np.stack([records[:, K.R_SUMMONED_0 + s].astype(np.float64) for s in sides])
    out["dice_lost"] = np.stack([records[:, K.R_DICE_LOST_0 + s].astype(np.float64) for s in sides])
    out["decked_out"] = np.stack([((w == 1 - s) & (records[:, K.R_END] == K.END_DECK_OUT)).astype(np.float64)
                                  for s in sides])
    return out


def _army_samples(records, a: Contestant, b: Contestant):
    """:func:`_samples` of two decks' games: no card replaced, so win_gain is 0 (no baseline was played)."""
    import numpy as np

    out = _samples(records, a, b)
    out["win_gain"] = np.zeros_like(out["win"])
    return out


#: Keywords the game does not play, with why (rulesets.dragoborne.simulate.NOT_MODELLED): each can change a
#: card's worth in its deck's games, so each is decisive.
_UNPLAYED_KEYWORDS = {
    "ambush": "never set: the card is summoned for its cost; DG-spells=all sets one whose text the game "
              "reads",
    "immune": "no effect: it acts against spells and abilities, which the game never casts or plays "
              "under DG-spells=none",
}


def coverage(card, spells: str = "all") -> Coverage:
    """Which of a creature card's rules the game plays: ATK/EDR, the dragocross +1/+1 and colour bonuses,
    its DICE X-Y gains, Deadly, Assassin and Invade of a colour; not Immune, a trait condition, Fort Burst or
    other card text (decisive), nor Ambush but under DG-spells=all for the Ambush text the game plays
    (catalog.AMBUSHER_TEXT: summoned to the fort attacked, it blocks). Under DG-spells=removal or all
    (``spells``) a printed Immune of a colour is played: the removal spells the game casts neither choose
    nor damage it, nor does an Ambush of that colour act on it under all (the only spells and abilities
    the game plays)."""
    played, unplayed = ["ATK/EDR", "dragocross +1/+1"], []
    ambusher = spells == "all" and card.ambusher

    def keywords(where: str, found) -> list[str]:
        out = []
        for k in found:
            printed_immune = spells != "none" and k.name == "immune" and not where and not k.trait
            played_ambush = ambusher and k.name == "ambush" and not where
            why = "" if printed_immune or played_ambush else _UNPLAYED_KEYWORDS.get(k.name) or (
                "trait conditions never match: the catalog's cards have no traits" if k.trait else "")
            if why:
                unplayed.append(f"{where}{k.label} ({why})")
            else:
                out.append(k.label)
        return out

    played += keywords("", card.keywords)
    gains = [(f"dragocross {b.colour}", b) for b in card.dragocross]
    gains += [(f"DICE {d.colour} {d.low}-{d.high}", d) for d in card.dice]
    for name, gain in gains:
        stats = [f"{gain.atk:+d}/{gain.edr:+d}"] if gain.atk or gain.edr else []
        played.append(f"{name} ({', '.join([*stats, *keywords(f'{name}: ', gain.keywords)]) or 'nothing'})")
        if gain.text:
            unplayed.append(f"{name}: \"{gain.text}\" (card text does nothing in the game)")
    if card.fort_burst:
        unplayed.append(f"Fort Burst \"{card.fort_burst}\" (never played)")
    if card.text and not ambusher:
        unplayed.append(f"\"{card.text}\" (card text does nothing in the game)")
    return Coverage(tuple(played), tuple(unplayed), tuple(unplayed))


class DragoborneRuleset(Ruleset):
    """Dragoborne (seed 001) fulfilling the contract: creature cards measured in their decks' games."""

    cost_unit = "resources"
    examples = {"efficiency": "--unit pyre-drake --unit magma-hound --unit scorch-knight --format markdown",
                "whatif": '--set "pyre-drake.atk=3" --unit pyre-drake --unit magma-hound '
                          '--unit scorch-knight',
                "sweep": '--cost "pyre-drake=2..6" --unit pyre-drake --unit magma-hound --unit scorch-knight '
                         '--plot drake.png'}
    engagement = ("whole games (rulesets/dragoborne/game.py's stated policies): card A's home deck, one copy "
                  "of A replacing an average card of its cost class, against card B's home deck with B; each "
                  "game played again from the same shuffles and dice with either deck unchanged")
    roles = ("deck with A", "deck with B")
    army_text = ("an army is a deck (seed 001 lines 143-149): a catalog deck's spells and banners, kept "
                 "as they stand, and creature cards, at most 4 of a name, 50 cards in all (\"50 or more\", "
                 "read as 50: a card beyond 50 only makes the others less likely drawn); the field is the "
                 "entries' home decks as they stand; two decks play the contests' game (the same policies "
                 "for both), no card replaced, so win_gain is 0")
    metrics = (
        Metric("win", "P(this side's deck wins)"),
        Metric("loss", "P(this side's deck loses)"),
        Metric("draw", f"P(a draw: the safety bound of {MAX_TURNS} game turns)"),
        Metric("win_gain", "change in this deck's win that its card made, over an average card of the same "
                           "cost (paired games; the primary value)"),
        Metric("net_win", "win - loss (the meta-game payoff)"),
        Metric("first", "P(this side went first)"),
        Metric("turns", "game turns played"),
        Metric("barriers_left", "this side's barriers left at the end"),
        Metric("summoned", "creatures this side summoned"),
        Metric("dice_lost", "this side's dice destroyed as dragoshields (or discarded with a creature)"),
        Metric("decked_out", "P(this side lost by drawing from an empty deck)"),
    )
    primary_metric = "win_gain"
    win_metric = "win"
    payoff_metric = "net_win"
    payoff_description = "P(win) - P(loss) of the deck holding the card, averaged over both roles"
    #: A card's value is against an average card (0 is par): fair within 1 win-rate point.
    default_tolerance = 1.0
    fair_cost_rule = FairCostRule(
        "zero", "par: a card whose win_gain is 0 is worth its cost (it is measured against an average card "
                "of the same cost); fair when the gain's 95% interval contains 0, under-costed above, "
                "over-costed below; `balance sweep dragoborne --cost CARD=A..B` finds the cost where the "
                "gain crosses 0")
    value_per_cost_description = "win_gain per resource of the card's cost"
    #: A run stopped by precision plays at most 400,000 trials (every game's cap: 10**6): each trial of an
    #: engagement plays a whole game three times (as it is, and with either deck unchanged), far slower
    #: than another game's trial. Its value (win_gain, a difference on the same dice) is far narrower than
    #: the P(win) the precision is judged on.
    precision_trial_cap = 400_000

    def load_catalog(self, paths: Sequence[Path] = ()) -> Any:
        from rulesets.dragoborne import catalog as catalog_io

        return catalog_io.load(user_paths=tuple(paths))

    def catalog_files(self, catalog: Any) -> list[tuple[str, str]]:
        return list(catalog.files)

    def contestants(self, catalog: Any, only: Sequence[str] = ()) -> list[Contestant]:
        playable = {c.key: c for c in catalog.cards.values() if c.is_creature and c.cost is not None}
        if only:
            keys = []
            for name in only:
                card = catalog.card(name)
                if card.key not in playable:
                    why = ("a spell: only creatures are contestants (the game casts no spell but, under "
                           "DG-spells=removal or all, the removal, pump and Ambush texts), so its worth is "
                           "not measured") \
                        if not card.is_creature else \
                        "costs \"-\": not playable from hand (line 33)"
                    raise RulesError(f"{card.name} is {why}")
                keys.append(card.key)
            wanted = set(keys)
        else:
            wanted = set(playable)
        return [_contestant(playable[k], catalog) for k in sorted(playable) if k in wanted]

    def engage(self, a: Contestant, b: Contestant, rulings: DragoborneRulings, *, seed: int,
               trials: int | None = None, precision: float | None = None,
               threads: int | None = None) -> Engagement:
        from rulesets.dragoborne import simulate
        from simcore.config import ENGAGEMENT_BATCH, ENGAGEMENT_BLOCK

        card_a, deck_a, catalog = a.subject
        card_b, deck_b, _ = b.subject
        trials = self.engagement_trials(trials, precision)
        m = simulate.matchup(catalog, deck_a, deck_b, (card_a, card_b), baselines=True, rulings=rulings)
        result = simulate.run(m, trials, seed, threads=threads, precision=precision,
                              block_trials=ENGAGEMENT_BLOCK, max_batch_trials=ENGAGEMENT_BATCH)
        return Engagement(a, b, seed=seed, raw=result.records, score=_samples, method="Monte Carlo")

    # --- armies: decks (rulesets/dragoborne/army.py) ---

    army_kinds = army.DECK_CARDS + 1  # a frame and at most one card of each name: no limit of its own

    def army_budget(self, rulings: DragoborneRulings) -> ArmyBudget:
        return ArmyBudget(army.DECK_CARDS, "cards", f"a deck: {army.DECK_CARDS} cards beside its banners "
                          "(seed 001 lines 145-146: 50 or more, read as 50)", one="card")

    def army_price(self, contestant: Contestant) -> float:
        """A creature card 1 card of the deck, a frame its spells."""
        return float(army.price(contestant))

    def check_army(self, force: Sequence[tuple[Contestant, int]], rulings: DragoborneRulings) -> None:
        army.check(force)

    def army_incomplete(self, force: Sequence[tuple[Contestant, int]], rulings: DragoborneRulings
                        ) -> str | None:
        return army.incomplete(force)

    def field_army(self, contestant: Contestant, entries: Sequence[Contestant], rulings: DragoborneRulings
                   ) -> tuple[tuple[Contestant, int], ...]:
        """The entry's home deck as it stands (its contests measure it there)."""
        _, deck, catalog = contestant.subject
        return army.field_force(deck, catalog, lambda card: _contestant(card, catalog))

    def army_name(self, force: Sequence[tuple[Contestant, int]]) -> str | None:
        return army.name(force)

    def army_engage(self, force_a: Sequence[tuple[Contestant, int]],
                    force_b: Sequence[tuple[Contestant, int]], rulings: DragoborneRulings, *, seed: int,
                    trials: int | None = None, precision: float | None = None,
                    threads: int | None = None) -> Engagement:
        """Two decks' games, played as :meth:`engage` plays two cards' (the same game and policies), with
        no card replaced and no baseline game: win_gain is 0."""
        from rulesets.base import army_contestant, army_key
        from rulesets.dragoborne import simulate
        from simcore.config import ENGAGEMENT_BATCH, ENGAGEMENT_BLOCK

        sides = self.checked_armies(force_a, force_b, rulings)
        trials = self.engagement_trials(trials, precision)
        catalog = next(c.subject.catalog for c, _ in sides[0] if army.is_frame(c))
        decks = [army.deck(force, army_key(force)) for force in sides]
        m = simulate.matchup(catalog, decks[0], decks[1], rulings=rulings)
        result = simulate.run(m, trials, seed, threads=threads, precision=precision,
                              block_trials=ENGAGEMENT_BLOCK, max_batch_trials=ENGAGEMENT_BATCH)
        a, b = (army_contestant(force, name=army.name(force)) for force in sides)
        return Engagement(a, b, seed=seed, raw=result.records, score=_army_samples, method="Monte Carlo")

    def stats(self) -> tuple[str, ...]:
        return STATS

    variant_table = "cards"
    variant_word = "card"

    def variant_entry(self, catalog: Any, change: StatChange | CostChange) -> Any:
        """A creature card (a spell: an OptionError, since its worth is not measured)."""
        card = super().variant_entry(catalog, change)
        if not card.is_creature:
            raise OptionError(f"change {change.text!r}: {card.name} is a spell; only creatures are "
                              "measured (the game casts no spell but, under DG-spells=removal or all, the "
                              "removal, pump and Ambush texts)")
        return card

    def changed_stat(self, catalog: Any, entry: Any, change: StatChange) -> Any:
        value = change.whole(*STAT_RANGE)
        return self.with_entry(catalog, dataclasses.replace(entry, **{change.stat: value}))

    def recosted(self, catalog: Any, entry: Any, change: CostChange) -> Any:
        low, high = STAT_RANGE
        if not (float(change.cost).is_integer() and low <= change.cost <= high):
            raise OptionError(f"change {change.text!r}: a cost is a whole number of resources from {low} to "
                              f"{high}, not {change.cost:g}")
        return self.with_entry(catalog, dataclasses.replace(entry, cost=int(change.cost)))

    def tables(self) -> dict[str, StandardTable]:
        from rulesets.dragoborne import tables

        return tables.standard_tables()

    def value_per_cost(self, value: float, cost: float) -> float:
        return value / cost if cost > 0 else value

    def notes(self, catalog: Any, contestants: Sequence[Contestant]) -> list[str]:
        from rulesets.dragoborne.simulate import NOT_MODELLED, POLICY, dead_cards

        contestants = [c for c in contestants if not army.is_frame(c)]  # an army's entries hold frames too
        notes = ["the game guide prints no card: every card and deck of the packaged catalog is illustrative "
                 "(`balance units dragoborne` lists them); give real ones with --catalog",
                 f"policies (a reading of ours, the same for both decks): {POLICY}",
                 f"not modelled: {'; '.join(NOT_MODELLED)}"]
        spells = sorted(c.key for c in catalog.cards.values() if not c.is_creature)
        if spells:
            notes.append(f"not measured (spells: under DG-spells=all, the default, the game casts four "
                         f"removal texts, two pumps and an Ambush spell; removal the four removal texts; "
                         f"none casts no spell): {', '.join(spells)}")
        # the home decks the cards are measured in (every deck of the catalog when none is given)
        decks = [c.subject[1] for c in contestants] or list(catalog.decks.values())
        dead = dead_cards(catalog, sorted(set(decks), key=lambda d: d.key))
        if dead:
            notes.append(dead)
        homes = sorted({f"{c.labels[1][1]} cards: {c.labels[2][1]}" for c in contestants})
        notes.append("home decks (the most banners of the card's colour): " + "; ".join(homes))
        alone = []
        for c in contestants:
            card, deck, _ = c.subject
            same = [k for k in deck.copies if k != card.key]
            if not any(catalog.card(k).curve_class == card.curve_class for k in same):
                alone.append(f"{card.name} (in {deck.name})")
        if alone:
            notes.append("no other card of the same cost class in the home deck, so the card replaces a copy "
                         "of any card: " + ", ".join(alone))
        return notes

    def coverage(self, contestant: Contestant, rulings: DragoborneRulings) -> Coverage:
        if army.is_frame(contestant):  # an army's catalog deck's spells and banners
            return army.frame_coverage(contestant.subject, rulings.spells)
        return coverage(contestant.subject[0], rulings.spells)

    price_features_text = ("ATK, EDR: the card's; Bonus: the ATK and EDR its colour bonuses add (dragocross "
                           "with a die of a colour, DICE X-Y); Invade, Deadly: 1 when the card has the "
                           "keyword, printed or granted by a colour bonus")

    def price_features(self, contestant: Contestant) -> dict[str, float]:
        """The pricing rule's features: a creature card's stats and the keywords that several cards of
        the catalog have and the game plays (seed 001):

        - ATK: "Attack power of the creature" (line 48).
        - EDR: "Endurance of the creature. A creature is destroyed when it has taken damage equal to or
          higher than this value" (51).
        - Bonus: the ATK + EDR that "some creatures will gain ... when dragocrossed with a die of a
          specific color" (19) or "when you have a die of the specified color with a value within the
          specified range" (DICE X-Y, 282); the +1/+1 every dragocrossed creature gets is the same for
          all and left out.
        - Invade: "cannot be blocked by creatures when attacking a fort of the specified color" (320).
        - Deadly: a creature it damages "is destroyed regardless of how much damage it has taken" (312);
          1 also when only a colour bonus grants it (three of the catalog's four Deadly cards).

        Left out, to keep the fit far smaller than the 16 cards: Assassin (two cards), Immune and Ambush
        (the game does not play them) and card text.
        """
        card = contestant.subject[0]
        gains = (*card.dragocross, *card.dice)
        names = {k.name for k in card.keywords} | {k.name for g in gains for k in g.keywords}
        bonus = sum(g.atk + g.edr for g in gains)
        return {"ATK": float(card.atk), "EDR": float(card.edr), "Bonus": float(bonus),
                "Invade": float("invade" in names), "Deadly": float("deadly" in names)}
