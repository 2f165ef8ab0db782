"""The five games share one shape (issue 33): one home for an engagement's default trials and cap."""

from __future__ import annotations

import pytest

import rulesets
from rulesets.base import Ruleset
from simcore import config

GAMES = ("drakerys", "dragonbond", "warbound", "uberdrakes", "dragoborne")
#: Each game's trials without trials or precision, and its cap under a precision, as they were when each
#: contest module held its own copy of the constants.
TRIALS = {"drakerys": (10_000, 10**6), "dragonbond": (10_000, 10**6), "warbound": (10_000, 10**6),
          "uberdrakes": (10_000, 10**6), "dragoborne": (10_000, 400_000)}


@pytest.mark.parametrize("game", GAMES)
def test_each_game_keeps_its_default_trials_and_cap(game):
    rs = rulesets.get(game)
    assert (rs.engagement_trials(None, None), rs.engagement_trials(None, 0.01)) == TRIALS[game]
    assert rs.engagement_trials(2_000, 0.01) == 2_000  # given trials win


def test_the_defaults_live_in_simcore_config():
    assert (Ruleset.default_trials, Ruleset.precision_trial_cap) == (config.ENGAGEMENT_TRIALS,
                                                                      config.ENGAGEMENT_TRIAL_CAP)
    overriding = [g for g in GAMES if "precision_trial_cap" in vars(type(rulesets.get(g)))
                  or "default_trials" in vars(type(rulesets.get(g)))]
    assert overriding == ["dragoborne"]
