"""Dragoborne (seed 001): a whole game between two decks, played by stated policies.

This docstring is the specification of the game the compiled kernel (rulesets/dragoborne/kernels.py) and
the plain-Python twin (tests/naive_dragoborne.py) both play; "line N" is a line of
shared/seeds/001_1c5696b006866d5d.txt. Rulings (rulesets/dragoborne/rules.py) are written DG-...; every
policy below is a reading of ours, not the guide's, and reports say so.

Cards
-----
A card is a creature or a spell. A creature has cost (``-``: not playable from hand, line 33), colour, ATK,
EDR, keywords, dragocross colour bonuses and DICE X-Y conditions (catalog.py). **Not modelled** (card texts
are free text, no machine reading of them exists): only the spells whose text the game reads are cast
(DG-spells=all, the default: the removal spells, step 5, the pump spells and the Ambush spell, step 6b,
which says why "Stand a creature in rest." stays dead; removal: the removal spells only; under
DG-spells=none none is: held in hand, they count toward the hand limit), a creature with Ambush is set as
an ambush only under DG-spells=all, when its text is the one the game reads (summoned to the fort attacked,
it blocks) and it is still in hand after the summons (step 6b); otherwise it is summoned for its cost,
Fort Burst is never played (every broken barrier goes to hand, which is what both DG-fort-burst readings do
when it is not played), Immune has no effect (it acts against spells and abilities only, line 316), trait
conditions (``assassin:trait=...``) never match (cards have no traits in the catalog), other card text
does nothing. Line 226's moves (moving to a fort with an opening, and switching the position of creatures)
are played by the policy of DG-move (steps 5 and 6c).

Effective stats of a creature on the board: its base ATK/EDR; if dragocrossed, +1/+1 (line 217) plus the
bonus the card gives for the crossing die's colour (a ``white`` bonus applies to every colour; a card with
both a white and a coloured bonus gets both); plus the gain of every DICE X-Y it meets: the owner has a die
of that colour (white: any colour) whose current value is in low..high (line 282). Under DG-condition-dice
``any`` every die not discarded counts at its current value (a die in the zone: its roll; a dragoshield: its
current value after damage; a dragocross die: its roll); under ``unassigned`` only dice in the Dice Zone.
Keywords gained (Deadly, Assassin, Invade) add to the printed ones.

Indices
-------
The game is given a card table: the distinct cards of both decks (and of any replacement card), sorted by
catalog key; "card index" is a position in it. "Colour index" is a position in the sorted list of every
colour named by the two decks' banners and the table's cards. Each fort has slots 0 and 1; a creature
placed at a fort takes its lowest free slot; "fort, slot order" is fort 0 slot 0, fort 0 slot 1, fort 1
slot 0, ... Dice are numbered 0, 1, 2 like the banners.

Setup (lines 166-174), for each player
--------------------------------------
1. The deck is shuffled (uniformly). The first player is chosen with probability 1/2 each (line 170).
2. Five cards are drawn. Mulligan policy (line 172): the player returns every spell, every card costing
   ``-`` and every creature costing 4 or more; the returned cards are put in the deck, the deck is
   shuffled, and that many cards are drawn.
3. Six barriers, two on each fort, from the top of the deck (line 173). Fort i has banner i's colour (the
   deck's banners in their catalog order, line 169) and die i has the same colour (lines 147-149).
4. Dice start in the Dice Zone; they are first rolled at their owner's first Dice Step.

A turn of the active player P against O (lines 176-257); game turns count both players' turns from 1
---------------------------------------------------------------------------------------------------------
1. **Stand** (line 182: "all of the turn player's cards"): P's creatures and resources stand (so every
   resource, banners included, pays once each turn).
2. **Dice** (line 186), DG-reroll-assigned: ``unassigned-only``: each of P's dice in the Dice Zone is rolled
   (uniform on 1..DG-die); ``all-keep``: every die not discarded is rolled; a dragoshield's value becomes the
   new roll (its damage gone) and a dragocross die stays on its creature; ``all-return``: every die not
   discarded returns to the Dice Zone (shields and crosses end), then is rolled.
3. **Draw** (line 190): if P's deck is empty P loses (deck-out, line 8). Else P draws its top card.
4. **Resource** (line 194): skipped on the first player's first turn. Else, if P's deck is not empty and
   P's resources (3 banners + resource cards) are fewer than the resource target, the top card goes to
   P's resources (a resource of that card's colour, standing: it pays this turn). Resource target: the
   highest cost among the playable creatures of the deck as built (fixed for the game; at least 1).
5. **Spells** (lines 202, 207), DG-spells: ``none``: no spell is cast; ``removal``: first, repeat: among
   the spells in P's hand whose text the game reads (whole text, case and blanks aside) - "Deal N damage to
   a creature." (a creature), "Deal N damage to a creature and M damage to each other creature at its
   fort." (a creature), "Destroy a creature with ATK N or less." (a creature of effective ATK <= N),
   "Deal N damage to each creature at a fort." (a fort; N is the number of its first DICE X-Y "Deal N
   damage instead." when P's dice meet it as a creature's DICE X-Y is met) - that P can pay now (as a
   creature below), each at each target of O's (never P's own; an Immune creature of the spell's colour,
   line 316, printed keyword, is neither a target nor dealt damage): its worth is, over the creatures
   it would destroy (damage taken + damage >= effective EDR, or destroyed outright), 8 x cost ('-': 0)
   + 1. Cast the spell and target of highest worth if it is > 0 (ties: the cheaper spell, then the lower
   card index; the first target in fort, slot order or the lower fort), paid as a creature is; the card
   goes to the discard pile; the creatures destroyed are removed as after an attack (step 7, in passes).
   Then **Summon** (lines 200-205), from the resources left unrested: repeat: among creatures in P's
   hand with a cost, those P can pay now (line
   202: unrested resources >= cost, and if cost >= 1 at least one unrested resource of the creature's
   colour), take the costliest (ties: higher base ATK + EDR, then the lower card index). Pay: one resource
   of its colour, then each further one from the colour with the most unrested resources (ties: the lower
   colour index). Place it at the fort with an opening (fewer than 2 creatures, line 122) that has barriers
   and the fewest creatures (ties: fewer barriers, then the lower fort); if no fort with barriers has an
   opening, the lowest destroyed fort with one. If all six places are full: if its base ATK + EDR exceeds
   that of P's weakest creature (lowest base ATK + EDR; ties: the first in fort, slot order), that creature
   goes to the discard pile (not destroyed, line 205; its dragocross die follows DG-cross-die) and the new
   one takes its place, else summoning stops (nothing paid; the card stays in hand). A summoned creature
   enters standing. A creature summoned this turn cannot attack under
   DG-summoning-sickness=true. The loop ends when no creature can be paid for. **Moves** (line 226: "You
   may switch the position of creatures, or move a creature from one fort to another fort with an
   opening"), DG-move: ``switch`` (the default) and ``guard``: then each of P's creatures at a fort with
   no barriers (it can never block there), in fort, slot order, moves to a fort with barriers and an
   opening (the fewest creatures; ties: fewer barriers, then the lower fort; its lowest free slot);
   none moves when no such fort has an opening. Then each fort with barriers and no creature, in fort
   order, takes the creature in slot 1 of the lowest fort holding two (its slot 0): a creature blocks
   only at its own fort (line 238). A moved creature keeps its damage, rest and dragocross die. ``none``:
   no creature moves (nor switches, step 6c). Under ``guard`` creatures never switch places.
6. **Dice assignment** (lines 210-217): each of P's dice in the Dice Zone, by value from highest (ties: the
   lower die index), once:
   - shield candidates: P's forts of the die's colour that have barriers and no dragoshield (under
     DG-shield-stack=stack, if none: those with one); the candidate with the fewest barriers (ties: lower);
   - cross candidates: P's creatures without a dragocross die; the one gaining most from this die: gain =
     (1 + colour bonus ATK) + (1 + colour bonus EDR) + 2 if the colour bonus gives Deadly (ties: higher
     base ATK, then the first in fort, slot order; the colour bonus: the card's bonus for the die's colour
     plus its white bonus);
   - if there is a shield candidate and (the value >= 3 or there is no cross candidate): a dragoshield of
     that value; else if there is a cross candidate: dragocross it; else the die stays in the Dice Zone.
6b. **Pumps and ambushes** (lines 207, 209; DG-spells=all only), from the resources left unrested:
   - only if P has a combat phase this turn (step 7): repeat: the payable (as a creature, step 5) spell
     of P's hand reading "A creature gets +N/+0 until the end of the turn." of lowest card index, on P's
     creature that may attack this turn (standing; not summoned this turn under DG-summoning-sickness=true)
     and has had no +N/+0 this turn, of highest effective ATK (ties: fort, slot order), while there is
     such a card and creature; then the same for "A creature gets +0/+N until the end of the turn.",
     among such creatures with effective ATK >= 1. The creature has +N ATK (or EDR) until the End Phase;
     the card goes to the discard pile.
   - then repeat: an Ambush card (printed keyword) of P's hand, a spell reading "If this card is an ambush:
     when an opposing creature attacks this fort, it gets -N/-0 until the end of the battle." or a creature
     reading "If this card is an ambush: when an opposing creature attacks this fort, summon this creature
     to it; it blocks that attack." (one left in hand by step 5: its cost could not be paid), whose colour is
     one of P's banners (line 209: "usable only if you have a banner of the same color"), the lowest card
     index, is set face-down at P's fort with barriers and no ambush (one per fort, line 116) with the
     fewest barriers (ties: the lower fort), for two resources of any colour (line 209; each from the
     colour with the most unrested, ties: the lower colour index), while P has 2 unrested resources and
     there is such a card and fort. It stays until it is played.
   - "Stand a creature in rest." is never cast: spells are cast in the Main Phase only (line 207, spec
     steps 5-6b), when every creature of P stands (Stand, step 1; a summoned creature enters standing); only
     O's creatures can be rested then, and standing one of them only lets it block P's attacks.
6c. **Switches** (line 226: "You may switch the position of creatures"; DG-move=switch only, the default;
   the Main Phase's actions come in any order, line 198, so this follows the dice and the spells): P's
   *stayers* are its creatures step 7 will not list as attackers, which will still stand in O's next turn (P's
   creatures stand only in P's Stand Step, line 182): every one of them when P has no combat phase this
   turn, else those of effective ATK below 1 and, under DG-summoning-sickness=true, those summoned this
   turn. A stayer guards its fort in O's turn (line 238: a standing creature at the fort attacked may
   block), unless a dragoshield is there (it blocks first, line 238). Repeat: the *exposed* fort - P's fort
   with barriers, no dragoshield and no stayer, the one with the fewest barriers (ties: the lower fort),
   which O's attackers take first (step 7: unblocked scores 100 less the barriers, above every other
   option) - takes the *spare* stayer of highest effective EDR (ties: fort, slot order); a stayer is
   spare at a fort with no barriers, at a fort with a dragoshield, or beside another stayer. The spare
   switches places with the creature in the exposed fort's slot 1, else its slot 0; when the fort holds
   none it moves to its slot 0 (line 226's move: the fort has an opening). Each creature keeps its
   damage, pumps and dragocross die. The repeat ends when no fort is exposed or no stayer is spare (each
   pass guards one more fort, so it ends within three).
7. **Combat** (lines 228-249), skipped on game turn 1 (DG-first-turn=game-turn-1) or on each player's first
   turn (each-player-first). Attackers: P's standing creatures with effective ATK >= 1 (summoned this turn
   excluded under DG-summoning-sickness=true), each once, in order of effective ATK at the start of combat
   from highest (ties: fort, slot order). When its turn comes (a creature destroyed or rested meanwhile, or
   whose effective ATK is now 0, is skipped), the attacker scores every option against the board as it is
   then, and takes the best one if its score is > 0 (ties: the first listed: forts 0, 1, 2, then
   assassinations by fort, slot); else it does not attack and stays standing.
   - Attack fort f of O that has barriers:
     - O has a dragoshield at f (the oldest, under stack): it blocks (line 238). Score 40 if ATK >= its
       value, else 15.
     - else if O has standing creatures at f and the attacker has no Invade for f's colour: O's block choice
       (below). No blocker chosen: as unblocked. Blocker B: the attacker kills B if its ATK >= 1 and (its
       ATK >= B's EDR - B's damage, or it is Deadly), B kills the attacker likewise. Score: kills and
       survives 50; kills and dies 20 if B's cost >= the attacker's cost, else -1; survives without killing
       10; dies without killing -10.
     - else unblocked: 100 - f's barriers.
   - Assassinate (line 308, Assassin of colour C): a rested creature R of O of colour C, at any fort (R is
     then the blocker; no shield or other creature may block). Score: kills and survives 60; kills and dies
     25 if R's cost >= the attacker's cost, else -1; does not kill -10.
   O's block choice (line 238: one standing creature at that fort may block): among O's standing creatures
   at f, the first category present: (a) survives and kills the attacker; (b) survives; (c) kills the
   attacker and dies; (d) dies without killing, only if O has exactly 1 barrier left in all. Within a
   category the lowest cost (ties: the first in slot order). None: no block.
   Ambush (DG-spells=all; lines 230, 303): when the option taken attacks a fort (not an assassination)
   holding an ambush of O's and the attacker is not Immune (printed) to the ambush's colour, O plays it
   as the attack is declared (its score, above, ignored the face-down card). A spell: the attacker has -N
   ATK for this attack; the ambush goes to O's discard pile; then, if no dragoshield is at the fort and the
   attacker has no Invade for its colour, O makes its block choice again against the lowered ATK. A
   creature: it is summoned to the fort, standing, in its first open slot; at a fort holding two it takes
   the place of the one of lower base ATK + EDR (ties: slot 1), which goes to the discard pile, not destroyed
   (line 205); it blocks the attack, in place of a dragoshield too (its text names the blocker), unless the
   attacker has Invade for the fort's colour (line 320: it then stands, and the attack goes on as below). An
   attacker with ATK below 1 deals no damage (to a blocker, a dragoshield or the fort, line 246).
   Resolution: the attacker rests. A dragoshield: its value drops by the attacker's ATK; at 0 or below it is
   destroyed and its die discarded (line 215); nothing reaches the fort or the attacker (line 246). A
   blocker (or the assassinated creature) rests; both deal their effective ATK to each other at once
   (Deadly: a creature dealt damage by a Deadly creature with ATK >= 1 is destroyed, line 312). Unblocked
   with ATK >= 1: O's fort f loses its top barrier, which goes to O's hand (line 246).
   After each attack, every creature whose accumulated damage >= its effective EDR is destroyed (discard
   pile), all of them at once, and again (a die coming back can change a DICE X-Y) until none is; a destroyed
   creature's dragocross die goes back to its owner's Dice Zone at its value (DG-cross-die=return) or to the
   discard pile (discard).
8. **End** (lines 251-257): P discards down to 7 cards in hand (line 253), one card at a time: a spell if
   it holds one (the one of highest card index), else a creature costing ``-`` (highest card index), else
   the costliest creature (ties: the higher card index). Damage on every creature is
   removed (line 255), and so is every pump (step 6b). DG-shield-persist=false:
   every dragoshield's value returns to its die's value when it
   was assigned (or rolled, under all-keep). Then O loses if it has no barrier left (line 257; P cannot lose
   barriers in its own turn).

A game ends at a loss, or as a draw after MAX_TURNS game turns (a safety bound never reached by 50-card
decks: each turn draws a card).

Records (one per game)
----------------------
The kernel's record fields are named in kernels.Record: the winner (0 or 1 by deck, 2 a draw), which deck went
first, the game turns played, how the game ended (barriers, deck-out, draw), and for each deck its barriers
left, creatures summoned and dice lost.
"""

from __future__ import annotations

from enum import IntEnum

#: Game turns after which a game is a draw (each turn draws a card, so 50-card decks end long before).
MAX_TURNS = 200
#: Most cards of a hand after the Draw Step and broken barriers (7 kept at each End Phase, line 253).
#: A hand can reach 7 + 1 (draw) + 6 (barriers) cards; the bound leaves room.
MAX_HAND = 40
#: A shield candidate is taken when the die shows at least this (policy, step 6).
SHIELD_MIN = 3
#: The mulligan returns creatures costing at least this (policy, setup 2).
MULLIGAN_COST = 4
#: Creature places: 2 at each of 3 forts (line 122).
FORTS, PER_FORT = 3, 2
HAND_LIMIT = 7  # line 253
#: "place 2 cards from the top of the deck face down on each fort" (line 173): the barriers of a fort.
BARRIERS_PER_FORT = 2
#: "A die placed on a creature will dragocross it. The creature will get +1/+1" (line 217).
CROSS_ATK = CROSS_EDR = 1
#: Dice assignment (policy, step 6): what a colour bonus's Deadly adds to a cross candidate's gain.
DEADLY_CROSS_GAIN = 2


class BlockCategory(IntEnum):
    """O's block choice (policy, step 7): the categories of a blocker, in O's order of preference."""

    SURVIVES_AND_KILLS = 0  # (a) it survives and kills the attacker
    SURVIVES = 1  # (b) it survives
    KILLS_AND_DIES = 2  # (c) it kills the attacker and dies
    DIES = 3  # (d) it dies without killing: taken only when O has exactly 1 barrier left in all


#: The attacker's scores of its options (policy, step 7): it takes the best option scoring above 0.
SCORE_SHIELD_BROKEN = 40  # a dragoshield at the fort: ATK >= its value
SCORE_SHIELD_WORN = 15  # a dragoshield at the fort: ATK below its value
SCORE_UNBLOCKED = 100  # unblocked: this, less the fort's barriers (the weakest fort first)
SCORE_KILLS_SURVIVES = 50  # blocked: kills the blocker and survives (the blocker's category DIES)
SCORE_TRADE = 20  # blocked: kills and dies, the blocker costing at least the attacker's cost
SCORE_BAD_TRADE = -1  # kills and dies against a cheaper creature (blocked or assassinated)
SCORE_SURVIVES = 10  # blocked: survives without killing
SCORE_DIES = -10  # blocked: dies without killing; or an assassination that does not kill
SCORE_ASSASSINATE = 60  # assassinate: kills and survives
SCORE_ASSASSIN_TRADE = 25  # assassinate: kills and dies, the target costing at least the attacker's cost
