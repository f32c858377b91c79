"""The one rule for costs, prices and percentages, shared by every screen and command."""

import pytest

from ptc_tui.view.formats import (cost_spread_text, cost_text, count_text, per_million_text,
                                  percent_text)


@pytest.mark.parametrize("amount, text", [
    (None, "unknown"),                 # unknown price: never a made-up $0
    (0.0, "$0"),
    (0.000613, "$0.000613"),
    (0.0000204, "$0.0000204"),         # tiny but real: still three figures, not <$0.0001
    (0.0006, "$0.000600"),
    (0.01234, "$0.0123"),
    (1.234, "$1.23"),
    (9.996, "$10.0"),                  # rounding up a decade keeps three figures
    (12.34, "$12.3"),
    (99.96, "$100"),
    (123.4, "$123"),
    (1234.4, "$1,234"),
    (1_234_567.8, "$1,234,568"),
    (-0.0123, "-$0.0123"),             # a cost difference
])
def test_a_cost_has_three_significant_figures(amount, text):
    assert cost_text(amount) == text


def test_close_costs_are_told_apart():
    # four strategies' costs of one run that 4 decimals all showed as $0.0006
    texts = {cost_text(v) for v in (0.000613, 0.000582, 0.000644, 0.000561)}
    assert len(texts) == 4


@pytest.mark.parametrize("mean, sd, text", [
    (0.0188, 0.0036, "$0.0188 ± 0.0036"),
    (0.000613, 0.0001, "$0.000613 ± 0.000100"),
    (0.5, 0.0123, "$0.500 ± 0.012"),   # the spread has the mean's decimals
    (150.0, 12.3, "$150 ± 12"),
    (0.0, 0.0, "$0 ± 0"),
])
def test_a_cost_spread_has_the_means_decimals(mean, sd, text):
    assert cost_spread_text(mean, sd) == text


def test_price_per_million_tokens():
    assert per_million_text(0.15) == "$0.15/M"
    assert per_million_text(2.5) == "$2.5/M"


@pytest.mark.parametrize("percent, text", [
    (47.234, "47.2%"), (0.0, "0.0%"), (-12.34, "-12.3%"), (None, "—"),
])
def test_a_percentage_has_one_decimal_and_no_figure_is_a_dash_not_a_minus(percent, text):
    assert percent_text(percent) == text


@pytest.mark.parametrize("count, noun, text", [
    (0, "turn", "0 turns"), (1, "turn", "1 turn"), (2, "run", "2 runs"),
    (1234, "identical line", "1,234 identical lines"),
])
def test_a_count_says_its_noun_singular_for_one_only(count, noun, text):
    assert count_text(count, noun) == text
