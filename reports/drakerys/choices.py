"""The tables a Drakerys spell report can show, apart from reports.drakerys.magic (which imports numpy), so
that the command line offers them as choices without importing it."""

SPELL_SECTIONS = ("successes", "tiers", "cataclysm", "effect", "outcome", "injuries")
#: Sections that exist only when a Maelstrom is among the sources.
MAELSTROM_SECTIONS = ("cataclysm", "effect", "outcome", "injuries")
