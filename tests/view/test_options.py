"""The editable option fields: one per HistoryOpts field, parsed and stepped for the panel."""

from dataclasses import fields

import pytest

from engine.history import STRATEGIES, HistoryOpts
from engine.history.opts import ERROR_DISPLAYS, SAMPLE_RULES
from ptc_tui.view.options import BY_NAME, FIELDS

COUNTS = [f for f in FIELDS if f.kind != "choice"]


def test_every_history_option_has_exactly_one_field_in_declaration_order():
    assert [f.name for f in FIELDS] == [f.name for f in fields(HistoryOpts)]


def test_choice_fields_offer_exactly_the_values_the_engine_accepts():
    assert set(BY_NAME["strategy"].choices) == set(STRATEGIES)
    assert BY_NAME["sample_rule"].choices == SAMPLE_RULES
    assert BY_NAME["errors"].choices == ERROR_DISPLAYS
    assert {f.name for f in FIELDS if f.kind == "choice"} == {"strategy", "sample_rule", "errors"}


def test_only_compaction_tokens_may_be_empty():
    assert [f.name for f in FIELDS if f.kind == "optional"] == ["compaction_tokens"]
    assert HistoryOpts().compaction_tokens is None


@pytest.mark.parametrize("field", FIELDS, ids=lambda f: f.name)
def test_help_is_one_short_line(field):
    assert field.help and "\n" not in field.help and len(field.help) <= 90


@pytest.mark.parametrize("field", FIELDS, ids=lambda f: f.name)
def test_the_default_shows_and_parses_back_to_itself(field):
    assert field.parse(field.show(field.default)) == field.default


@pytest.mark.parametrize("field", COUNTS, ids=lambda f: f.name)
@pytest.mark.parametrize("text, value", [("0", 0), ("7", 7), (" 12 ", 12), ("1_000", 1000)])
def test_counts_parse_whole_numbers(field, text, value):
    assert field.parse(text) == value


@pytest.mark.parametrize("field", COUNTS, ids=lambda f: f.name)
@pytest.mark.parametrize("text", ["-1", "-", "+", "1.5", "x"])
def test_counts_refuse_negatives_and_junk(field, text):
    with pytest.raises(ValueError):
        field.parse(text)


@pytest.mark.parametrize("field", COUNTS, ids=lambda f: f.name)
def test_empty_is_refused_except_where_none_means_off(field):
    if field.kind == "optional":
        assert field.parse("") is None
    else:
        with pytest.raises(ValueError, match="whole number"):
            field.parse("")


def test_a_choice_outside_its_list_is_refused():
    with pytest.raises(ValueError, match="coalesced"):
        BY_NAME["strategy"].parse("fancy")


@pytest.mark.parametrize("name, value, direction, expected", [
    ("println_limit", 15, 1, 16), ("println_limit", 15, -1, 14), ("println_limit", 0, -1, 0),
    ("sample_printable_limit", 80, 1, 90), ("sample_printable_limit", 5, -1, 0),
    ("compaction_tokens", None, 1, 1000), ("compaction_tokens", 1000, -1, 0),
    ("compaction_tokens", 0, -1, None), ("compaction_tokens", None, -1, None),
])
def test_steps_never_go_below_zero_and_optional_steps_down_to_off(name, value, direction,
                                                                  expected):
    assert BY_NAME[name].stepped(value, direction) == expected

