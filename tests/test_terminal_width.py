"""The terminal: every verb's default output fits 100 columns with the answer first (the click tree walked,
every game's fast commands run), and Monte Carlo estimates are shown to the digits their error bars
support."""

from __future__ import annotations

import math

import pytest

from reports.tables import decimals_for, estimate_cells, share_text


@pytest.mark.parametrize("half, decimals", [(0.0218, 3), (0.0999, 3), (0.1, 2), (2.4, 1), (9.9, 1),
                                            (10.0, 0), (350.0, 0), (1e-9, 6)])
def test_an_estimate_shows_its_half_width_to_two_significant_digits(half, decimals):
    assert decimals_for(half) == decimals


@pytest.mark.parametrize("half", [0.0, -1.0, math.nan, math.inf])
def test_no_error_bar_gives_no_rounding_rule(half):
    assert decimals_for(half) is None


def test_estimate_cells_round_the_value_and_interval_alike():
    assert estimate_cells(0.441895, 0.420113, 0.463677) == ("0.442", "[0.420, 0.464]")
    assert estimate_cells(111.2, 108.576316, 113.823684) == ("111.2", "[108.6, 113.8]")
    assert estimate_cells(0.0, 0.0, 0.000768) == ("0", "[0, 0.00077]")  # none seen; Wilson's upper end
    assert estimate_cells(0.25, 0.25, 0.25) == ("0.25", "")  # exact: as it is, no interval
    assert estimate_cells(math.nan, math.nan, math.nan) == ("", "")


def test_share_text_is_a_percentage_rounded_as_its_interval_allows():
    assert share_text(0.4455, 0.011114) == "44.6% ± 2.2%"
    assert share_text(0.004, 0.0014) == "0.40% ± 0.27%"
    assert share_text(1 / 3, 0.0) == "33.3%"
    assert share_text(1.0, 0.0) == "100%"
