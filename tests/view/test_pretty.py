"""The memory detail's pretty-printing: a collection that fits the width on one line, else one
entry per line; whether it fits is learnt without writing a big value whole."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.lisp import Keyword, format_value, format_within, printer
from engine.lisp.values import Map
from ptc_tui.view import pretty as pretty_module
from ptc_tui.view.pretty import ITEMS, CHARS, pretty

values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.text("ab \n\"é中", max_size=12)
    | st.floats(allow_nan=False, width=32)
    | st.builds(Keyword, st.text("abc-_", min_size=1, max_size=4)),
    lambda inner: st.lists(inner, max_size=6).map(tuple)
    | st.dictionaries(st.text("ab_", max_size=4) | st.integers(0, 9), inner, max_size=6).map(Map)
    | st.frozensets(st.integers(0, 99) | st.text("xy", max_size=3), max_size=6),
    max_leaves=40)


LINES = pretty_module._lines


def written_whole(value, width: int) -> list[str]:
    """pretty's lines as first written: each collection written whole to see if it fits."""
    flat = format_value(value, ITEMS, CHARS, filter_hidden=False)[0]
    if len(flat) <= width or type(value) not in (Map, tuple, frozenset) or not value:
        return [flat]
    return LINES(value, width)       # its entries: written_whole again (see the test)


@settings(max_examples=300, deadline=None)
@given(values, st.integers(1, 80))
def test_pretty_prints_as_when_each_value_was_written_whole(value, width):
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(pretty_module, "_lines", written_whole)    # nested collections too
        expected = "\n".join(written_whole(value, width))
    assert pretty(value, width) == expected


@settings(max_examples=300, deadline=None)
@given(values, st.integers(0, 80), st.sampled_from([None, 2, 50]))
def test_format_within_is_format_value_when_it_fits(value, width, limit):
    text = format_value(value, limit, 30, filter_hidden=False)[0]
    within = format_within(value, width, limit, 30, filter_hidden=False)
    assert within == (text if len(text) <= width else None)


def test_a_big_value_is_found_too_wide_after_a_width_of_it(monkeypatch):
    """A 200,000-item vector: format_within stops once the width is passed."""
    charged = []
    charge = printer._Formatter.charge
    monkeypatch.setattr(printer._Formatter, "charge",
                        lambda self, text: charged.append(text) or charge(self, text))
    assert format_within(tuple(range(200_000)), 60) is None
    assert 10 < len(charged) < 40                   # a few dozen numbers, not 200,000
    assert pretty(Map({"k": tuple(range(200_000))})).startswith("{\"k\" [0 1 2")
