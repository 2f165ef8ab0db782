"""Game-agnostic engine: dice, exact distributions, seeded parallel Monte Carlo, statistics."""
