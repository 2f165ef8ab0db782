"""Drakerys parameters (seed 002): the Action Table, its rolls' modifiers, the limits and defaults of the
other rolls and tables, and the rulings.

Free of numpy and of the catalog, so that the command line builds its options (their bounds, defaults and
choices) from these without loading either."""

from __future__ import annotations

from dataclasses import dataclass

from rulesets.base import RulesError, Rulings, parse_int_range, ruling, whole_number
from simcore.faces import TOP_EXPLODE, TOP_FAIL, TOP_SUCCESS

SOURCE = "seed 002 (Drakerys quick start rules)"

#: Drakerys rolls ten-sided dice only.
SIDES = 10
MIN_THRESHOLD = 2
MAX_THRESHOLD = 10
#: Largest roll the tool accepts (dice before Heroic Action).
MAX_DICE = 1000
#: "The Unit can add 1 to 5D10s" (HEROIC ACTION).
MAX_HEROIC = 5
#: DK-heroic-dice: the Heroic Action dice a unit with the skill adds to each Fight and Shooting in contests.
DEFAULT_HEROIC_DICE = 1
#: ACTION TABLE: the threshold when the action and opposition values are equal (6 - (action - opposition)).
EVEN_THRESHOLD = 6

# --- the TimePath and the actions (THE TIMEPATH, RESTRICTIONS OF ACTIONS, UNITS ACTIONS) --------------------
#: "The TimePath is a board made of 16 squares. Each square is a Time Section (TS)": one Round.
TS_PER_ROUND = 16
#: "The game ends after the sixth Round" (HEADQUARTERS PHASE / END OF THE ROUND).
ROUNDS = 6
#: "The players may not spend more TS during an Activation than there are on the TimePath."
MAX_ACTION_TS = TS_PER_ROUND
#: Base costs of the actions a duel uses: MARCH (1 TS), ATTACK (1 TS), CHARGE (3 TS), SHOOTING (1 TS).
MARCH_TS = 1
ATTACK_TS = 1
CHARGE_TS = 3
SHOOTING_TS = 1
#: JAMMED: "The cost of the Charge Actions made by the Unit is increased by 2 TS" (SKILLS).
JAMMED_CHARGE_TS = 2
#: QUICK SHOT: "The Shootings made by the Unit cost 1 TS less (with a minimum of 1)" (SKILLS).
QUICK_SHOT_TS = 1

# --- Fights, Shootings and Morale (FIGHTING, SHOOTING, MORALE, SKILLS) -------------------------------------
#: MORALE: "The player rolls 2D10s. They then add 1D10 for every complete share of five Warriors".
MORALE_DICE = 2
MORALE_WARRIORS_PER_DIE = 5
#: SHOOTING ROLL: opposition +1 "for every 10 cm-share, even incomplete".
SHOOTING_SHARE_CM = 10
#: MULTIPLE SHOTS: "The Shootings made by the Unit benefit from Power + 2" (SKILLS).
MULTIPLE_SHOTS_POWER = 2
#: SAFEGUARD: "1D10 is rolled for every Injury received": a 10 cancels it, 6 to 9 transfer it to an
#: escorting Guard unit (SKILLS).
SAFEGUARD_GUARD_FACE = 6
SAFEGUARD_CANCEL_FACE = 10
#: A die of 6-9 shows 10 with probability 1/5, as a d10 shows 9 or 10: a die of the 6-9-or-10 count is a 10
#: when a d10 rolled for it reaches this face (kernels._receive splits the count without a die roll).
SAFEGUARD_TEN_OF_SIX_UP = 9
#: SAFEGUARD: "the Unit must comply with the cohesion of the Unit endowed with Guard (2.5 cm or less away
#: from a fighter, 10 cm or less away from the Leader)": on the battle line, within 10 cm of it.
SAFEGUARD_COHESION_CM = 10
#: COMBINED CHARGE (5 TS): "no further than 10 cm away from an Infantry Unit fitted with the Guard Skill".
COMBINED_CHARGE_TS = 5
COMBINED_CHARGE_REACH_CM = 10
#: Most units a side may field in a battle (rulesets/drakerys/battle.py).
MAX_BATTLE_UNITS = 16
#: Most Stress markers, rerolls, Authority units, allied units engaged or obstacles a side may be given.
MAX_EXTRA_OPTION = 50

# --- the units' profiles (unit sheets, PROFILE) ------------------------------------------------------------
#: Largest characteristic a catalog or a change may give (Combat, Strength, ...).
MAX_CHARACTERISTIC = 20
#: March and Charge are distances in cm, not dice values (Crushers charge 25 cm).
MAX_MOVE_CM = 100

# --- magic (CASTING A SPELL, ELEMENTAL INVOCATION) ---------------------------------------------------------
#: Wizard levels accepted (Wizard [X]).
MAX_WIZARD_LEVEL = 5
#: "A Vortex produces 3 Manas ... each time a Wizard casts a Spell."
VORTEX_MANA = 3
#: "The Maelstroms provide up to 9 Mana points."
MAELSTROM_MANA = 9
#: Success counts that open each effect tier on the MIRAGE spell card: 1-2, 3-4, 5+.
MIRAGE_TIERS = (1, 3, 5)
#: Most extra d10 (1 TS each) an Elemental invocation takes, and the Magical Sources it may come from.
MAX_INVOCATION_EXTRA = 20
SOURCES = ("vortex", "maelstrom")

# --- the standard tables' defaults (rulesets/drakerys/tables.py) ------------------------------------------
#: The morale table's rows by default: 2 d10 up to 2 + 4 complete shares of five warriors + Discipline
#: + one Authority unit.
MORALE_MAX_DICE = 8
#: The spell table's opposition columns by default: one Source up to 60 cm, or fewer cm and more Sources.
SPELL_MAX_OPPOSITION = 6
#: The spell table's spell cost by default (the MIRAGE card's cost is not legible in the text).
SPELL_COST = 1
#: The invocation table's extra dice from a Vortex by default.
INVOCATION_MAX_EXTRA = 5

#: How the criticals of an injury roll count against the target ("PARRY", "EXPERT PARRY").
CRIT_MODES = {
    "normal": TOP_EXPLODE,  # a 10 is a success and adds one extra d10
    "parry": TOP_SUCCESS,  # a 10 counts as a normal success, no extra die
    "expert-parry": TOP_FAIL,  # a 10 counts as a failure
}


def _parse_frontage(text: str) -> str | int:
    """``all``, C (warriors in contact; every other one supports) or C/S (C in contact, S supporting, the
    others do not Attack)."""
    low = text.strip().lower().replace(" ", "")
    if low == "all":
        return "all"
    contact, slash, support = low.partition("/")
    value = int(contact)
    if value < 1:
        raise ValueError(text)
    if not slash:
        return value
    behind = int(support)
    if behind < 0:
        raise ValueError(text)
    return f"{value}/{behind}"


#: DK-budget: its default and range (AP). The default fields two units of the dearest entry (375 AP).
DEFAULT_BUDGET = 750
MIN_BUDGET = 50
MAX_BUDGET = 5000


def _parse_context(text: str) -> str:
    """DK-context: faction-guard, field, or a unit key (checked against the catalog when a contest runs)."""
    low = text.strip().lower()
    if not low or not all(ch.isalnum() or ch == "-" for ch in low):
        raise ValueError(text)
    return low


def _parse_start(text: str) -> str | int:
    low = text.strip().lower()
    if low == "contact":
        return "contact"
    value = int(low)
    if not 1 <= value <= 1000:
        raise ValueError(text)
    return value


def frontage_counts(frontage: str | int) -> tuple[int, int]:
    """(warriors in contact, warriors supporting) of a DK-frontage value; -1: every warrior (in contact),
    every other warrior (supporting)."""
    if frontage == "all":
        return -1, -1
    if isinstance(frontage, str):
        contact, _, support = frontage.partition("/")
        return int(contact), int(support)
    return int(frontage), -1


@dataclass(frozen=True)
class DrakerysRulings(Rulings):
    """Defaults for the Drakerys text that can be read more than one way (../shared/RULES.md §1)."""

    crit_chain: bool = ruling(
        "DK-crit-chain", True,
        meaning="an extra die from a critical that shows 10 is critical too and adds another die, "
                "without limit (false: extra dice are never critical; their 10s are plain successes)",
        source="seed 002, ACTION TABLE / CRITICAL SUCCESSES")
    frontage: str | int = ruling(
        "DK-frontage", "all", accepted="all | C | C/S (whole numbers, C >= 1)",
        meaning="warriors of the attacking unit in contact (full Power) and supporting (Power 1): all: every "
                "warrior is in contact; C: C in contact, every other warrior supports; C/S: C in contact, S "
                "supporting, and \"The other Warriors do not Attack\"",
        source="seed 002, FIGHTING / Supporting warriors", parse=_parse_frontage)
    heavy_loaded: str = ruling(
        "DK-heavy-loaded", "jammed",
        meaning="the skill Heavy-Loaded (Spearmen, Rockthrowers), which SKILLS never defines: jammed: read "
                "as Jammed, Charge actions cost 2 TS more; none: no effect",
        source="seed 002, unit sheets / SKILLS (JAMMED)", choices=("jammed", "none"))

    actions: str = ruling(
        "DK-actions", "all",
        meaning="Actions per activation in duels and efficiency: all: the Active Unit \"makes one after "
                "the other a number of Actions comprised between 1 and the Action Characteristics\" of its "
                "Leader, and takes them all while the enemy stands and the TimePath allows (at most 16 TS "
                "per activation; one Stress for the activation, +1 TS per Stress on each Action); one: a "
                "single Action per activation",
        source="seed 002, MAKE WAR! (Progress of a Game Phase, step 2) / STRESS / RESTRICTIONS OF ACTIONS",
        choices=("all", "one"))

    blocking: str = ruling(
        "DK-blocking", "auto",
        meaning="BLOCKING \"The Unit can use this Skill\" (it replaces the unit's Attack): always: a unit "
                "with Blocking blocks in every Fight; never: it attacks; auto: in each kind of Fight (it "
                "charges, attacks, is charged, is attacked) it blocks when that gives it the higher "
                "probability of winning the Fight, estimated on common random numbers (4,000 Fights each "
                "way) when the engagement starts",
        source="seed 002, SKILLS (BLOCKING)", choices=("auto", "always", "never"))
    engagement_start: str | int = ruling(
        "DK-engagement-start", 30, accepted="contact | a whole number of cm from 1 to 1000",
        meaning="where the engagements of efficiency, what-if and sweep start (a duel says its own: "
                "--start, --shoot-from; by default A charges): contact: side 0 charges side 1 from contact; "
                "N: the units start N cm apart, side 0 acting first, and each Action is the unit's best "
                "available one: Attack when Engaged, else Shooting when it has a ranged weapon and the enemy "
                "is in range, else Charge when the enemy is within its Charge, else March",
        source="not in the rulebook: a scenario choice of this tool (seed 002, UNITS ACTIONS lists the "
               "Actions and their prerequisites)", parse=_parse_start)
    heroic_passive: str = ruling(
        "DK-heroic-passive", "none",
        meaning="HEROIC ACTION: \"The Unit can add 1 to 5D10s rolling a Fight, Shooting or Spell Roll. Every "
                "extra D10 increases the cost of the Action by 1 TS.\" none: only the Active Unit adds them, "
                "each raising its own Action's cost; the unit that fights back has no Action to raise, so it "
                "adds none; own-ts: the unit that fights back adds them too, paying 1 TS each on its own "
                "Activation Token (no Stress)",
        source="seed 002, SKILLS (HEROIC ACTION) / UNITS ACTIONS", choices=("none", "own-ts"))
    heroic_dice: int = ruling(
        "DK-heroic-dice", DEFAULT_HEROIC_DICE, accepted=f"a whole number from 0 to {MAX_HEROIC}",
        meaning="HEROIC ACTION in the contests (efficiency, what-if, sweep, points): \"The Unit can add 1 to "
                "5D10s rolling a Fight, Shooting or Spell Roll. Every extra D10 increases the cost of the "
                "Action by 1 TS.\" The text leaves when and how many to the player; the policy played: a "
                "unit with Heroic Action adds this many d10 to every Fight and Shooting of its Actions (each "
                "Action costs as many TS more; the unit that fights back adds them only under "
                "DK-heroic-passive=own-ts); 0: none are used",
        source="seed 002, SKILLS (HEROIC ACTION): a player's choice", parse=parse_int_range(0, MAX_HEROIC))
    authority_range: str = ruling(
        "DK-authority-range", "all",
        meaning="AUTHORITY [X] in a battle of several units a side: \"The Allied Units within [X] cm of the "
                "Unit benefit from one additional D10 for their Morale Rolls. This bonus is cumulative\"; "
                "while the unit stands, all: every other allied unit is within reach (an army deploys "
                "around its heroes; the battle line holds no formation to measure); range: the allied units "
                "within [X] cm of it on the battle line",
        source="seed 002, SKILLS (AUTHORITY [X]); where units stand is a player's choice",
        choices=("all", "range"))

    safeguard_transfer: str = ruling(
        "DK-safeguard-transfer", "always",
        meaning="SAFEGUARD in a battle: \"Each result between 6 and 9 makes it possible to transfer an "
                "Injury to an Allied Unit endowed with Guard\" whose cohesion the unit keeps (on the battle "
                f"line: within {SAFEGUARD_COHESION_CM} cm); the text leaves it to the player; always: every "
                "6-9 moves to such a unit while one stands in reach (the first listed; what it cannot take, "
                "its warriors all withdrawn, stays); never: 6-9 stay on the unit (a 10 still cancels)",
        source="seed 002, SKILLS (SAFEGUARD, GUARD): a player's choice",
        choices=("always", "never"))
    combined_charge: str = ruling(
        "DK-combined-charge", "always",
        meaning="COMBINED CHARGE (5 TS) in a battle: a Hero \"no further than 10 cm away from an Infantry "
                "Unit fitted with the Guard Skill\" charges \"with their personal guard ... simultaneously a "
                "Charge movement towards the same targeted Enemy Unit\"; the guard \"does not actively "
                "participate in the Fight\" but, engaged with the target, gives the Hero +1 Initiative and "
                "a reroll per warrior. always: a Hero that would Charge makes a Combined Charge when such "
                "a unit stands within 10 cm and is not engaged (the first listed) and the 2 TS more fit; "
                "the guard moves its Charge value towards the target (in contact, engaged with it, when "
                "it reaches); never: Heroes charge alone",
        source="seed 002, UNITS ACTIONS (COMBINED CHARGE), FIGHTING (allied units engaged); when to use it "
               "is a player's choice", choices=("always", "never"))

    spearmen_sizes: str = ruling(
        "DK-spearmen-sizes", "sheet",
        meaning="the Spearmen have no RECRUITMENT TABLE row, and their sheet's 10 / 110 / 0 equals the "
                "Irosia Lancers' 10-size row: sheet: the sheet's size only; lancers: the Lancers' sizes "
                "(5 / 50 / 0, 10 / 110 / 0, 15 / 175 / 1), read as the Spearmen's (the printed data is "
                "unchanged)",
        source="seed 002, UNIT: Spearmen (line 1411) / RECRUITMENT TABLE, Lancers (line 2033)",
        choices=("sheet", "lancers"))

    maelstrom_ones: str = ruling(
        "DK-maelstrom-ones", "all",
        meaning="which natural 1s count for a Maelstrom's Cataclysmic Effect: all: every die of the spell "
                "roll, extra dice from criticals included (\"the number of 1 they obtained\"); first: "
                "only the dice first rolled (the base die, reinforcement and Heroic Action dice)",
        source="seed 002, CATACLYSMIC EFFECT OF THE MAELSTROMS", choices=("all", "first"))
    maelstrom_mana: str = ruling(
        "DK-maelstrom-mana", "includes-cost",
        meaning="includes-cost: a Maelstrom's 9 Mana pay the spell's cost too, the rest may reinforce; "
                "after-cost: a Maelstrom settles the cost and still offers 9 Mana for reinforcement",
        source="seed 002, CASTING A SPELL, STEP 2 and STEP 3", choices=("includes-cost", "after-cost"))

    battle_targeting: str = ruling(
        "DK-battle-targeting", "nearest",
        meaning="which enemy unit a unit acts against in a battle of several units a side (the Active "
                "Player chooses; the text gives no rule): an engaged unit always Attacks an enemy it is "
                "engaged with, the one with the fewest warriors; an unengaged unit targets, nearest: the "
                "nearest living enemy unit (ties: fewest warriors alive, then the first listed); focus: the "
                "living enemy unit with the fewest warriors alive (ties: the first listed)",
        source="not in the rulebook: a player's choice (seed 002, MAKE WAR! step 1; UNITS ACTIONS: ATTACK "
               "\"chooses an Enemy Unit engaged with the Active Unit\", CHARGE \"the selected Enemy Unit\")",
        choices=("nearest", "focus"))
    battle_tokens: str = ruling(
        "DK-battle-tokens", "player",
        meaning="Activation Tokens in a battle of several units a side: player: as THE TIMEPATH says, "
                "\"Every player have their own Activation Token\"; the Active Player activates one of their "
                "units (the one with the fewest Stress markers, then the first listed), spends its TS on "
                "the side's token, and a Headquarters Phase takes a Stress marker off each of its units; "
                "unit: every unit has its own token, played as a player's token (piled at START side 0's "
                "first unit on top, then side 1's first, side 0's second, ...)",
        source="seed 002, THE TIMEPATH / MAKE WAR! (Progress of a Game Phase) / HEADQUARTERS PHASE / FIRST "
               "PLAYER", choices=("player", "unit"))
    budget: int = ruling(
        "DK-budget", DEFAULT_BUDGET, accepted=f"a whole number of AP from {MIN_BUDGET} to {MAX_BUDGET}",
        meaning="the Army Points both sides of an equal-points contest (efficiency, what-if, sweep) spend: "
                "\"The players agree on the Strategic Value of their Armies at their discretion\"; 750 AP "
                "fields two units of the dearest entry (Rockthrowers (9), 375 AP) and no more than "
                f"{MAX_BATTLE_UNITS} of the cheapest",
        source="seed 002, ARMY COMPOSITION (line 705): the value is the players' choice",
        parse=parse_int_range(MIN_BUDGET, MAX_BUDGET))
    composition: str = ruling(
        "DK-composition", "copies",
        meaning="how a side of an equal-points contest fields its entry: copies: as many whole units of the "
                "entry, at its size, as DK-budget buys (at most " f"{MAX_BATTLE_UNITS}" "); copies-rarity: "
                "and no more Rarity than the advised 1 point for each full part of 100 AP of the budget; "
                "what is not spent is stated, and counts as kept (neither lost nor fighting)",
        source="seed 002, RECRUITING UNITS (lines 711-719: AP and Rarity totals may not exceed the limits) "
               "and line 705 (1 Rarity point per full 100 AP advised)",
        choices=("copies", "copies-rarity"))
    context: str = ruling(
        "DK-context", "faction-guard", accepted="faction-guard | field | a unit key (e.g. warriors)",
        meaning="value in context of an entry that acts through others (a Hero, or a unit with Authority, "
                "Wizard or Heroic Action): its side fields it with whole units of an escort bought with the "
                "rest of DK-budget, and its value is what that force gains over the same budget spent on "
                "the escort alone (the hero's points spent on more of it), on the same dice; faction-guard: "
                "each unit of the hero's own faction with Guard (Escort) in turn, at its sheet size, the "
                "values averaged; field: each entry of the field that acts through no other in turn, "
                "averaged (the field's average; a battle pair per escort: slow); a unit key: that unit at "
                "its sheet size escorts every hero",
        source="seed 002, HEROES (line 709: \"at least one Hero ... every Hero can be present only once\"), "
               "COMBINED CHARGE and GUARD (a hero's personal guard); not in the rulebook: a scenario of "
               "this tool", parse=_parse_context)


def action_threshold(action: int, opposition: int) -> int:
    """Threshold of the Action Table: 6 - (action - opposition), clamped to 2..10.

    Rulebook, ACTION TABLE: difference -4 or less -> 10, 0 -> 6, 4 or more -> 2.
    """
    action = whole_number("action value", action, -10**6, 10**6)
    opposition = whole_number("opposition value", opposition, -10**6, 10**6)
    return min(MAX_THRESHOLD, max(MIN_THRESHOLD, EVEN_THRESHOLD - (action - opposition)))


@dataclass(frozen=True)
class ActionRoll:
    """One roll on the Action Table.

    Attributes:
        dice: d10 rolled before Heroic Action.
        threshold: lowest face that succeeds (2..10).
        heroic: extra d10 from Heroic Action (0..5); they are ordinary dice of the roll.
        swashbuckler: every failed die (not an extra die from a critical) is rerolled once.
        rerolls: up to this many failed dice are rerolled once (e.g. one per allied warrior of another
            unit in contact); with ``swashbuckler`` every failure is rerolled already.
        crits: ``normal``, ``parry`` or ``expert-parry``: how 10s count (injury roll against a target
            with Parry or Expert Parry).
    """

    dice: int
    threshold: int
    heroic: int = 0
    swashbuckler: bool = False
    rerolls: int = 0
    crits: str = "normal"

    def __post_init__(self) -> None:
        # stored as plain ints (numpy integers are accepted) so that equal rolls compare and hash equal
        object.__setattr__(self, "dice", whole_number("dice", self.dice, 1, MAX_DICE))
        object.__setattr__(self, "threshold",
                           whole_number("threshold", self.threshold, MIN_THRESHOLD, MAX_THRESHOLD))
        object.__setattr__(self, "heroic", whole_number("heroic dice", self.heroic, 0, MAX_HEROIC))
        object.__setattr__(self, "rerolls", whole_number("rerolls", self.rerolls, 0, MAX_DICE + MAX_HEROIC))
        object.__setattr__(self, "swashbuckler", bool(self.swashbuckler))
        if self.crits not in CRIT_MODES:
            raise RulesError(f"crits {self.crits!r} is not one of {', '.join(CRIT_MODES)}")

    @property
    def total_dice(self) -> int:
        return self.dice + self.heroic

    @property
    def top_mode(self) -> int:
        return CRIT_MODES[self.crits]

    def describe(self) -> str:
        parts = [f"{self.dice}d10" + (f" + {self.heroic} heroic" if self.heroic else ""),
                 f"threshold {self.threshold}+"]
        return ", ".join(parts + describe_modifiers(self.swashbuckler, self.rerolls, self.crits))


def describe_modifiers(swashbuckler: bool, rerolls: int, crits: str) -> list[str]:
    """The reroll and critical modifiers of a roll, in words (empty when there are none)."""
    parts = []
    if swashbuckler:
        parts.append("swashbuckler")
    if rerolls:
        parts.append(f"{rerolls} reroll{'s' if rerolls != 1 else ''}")
    if crits != "normal":
        parts.append(f"criticals as {crits}")
    return parts


#: seed 002, SHOOTING (line 854): "Prerequisite: The Unit is not Engaged", and the target must be "a
#: non-Engaged Enemy Unit"; a unit is Engaged when a warrior is "in Contact with an Enemy Warrior" (557-558).
ENGAGED_CANNOT_SHOOT = ("at 0 cm the units are in contact, so both are Engaged, and an Engaged unit can "
                        "neither shoot nor be shot at (seed 002, SHOOTING: \"Prerequisite: The Unit is not "
                        "Engaged\")")
