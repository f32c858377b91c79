"""What engine/trace/strict_json.py refuses, at the edge of each rule, and the place each error
names: a user mending a trace by hand needs the field, not a parser's character offset."""

import json

import pytest

from engine.trace.strict_json import BadValue, DuplicateKey, loads


@pytest.mark.parametrize("text", ["9" * 19, "-" + "9" * 19, "9223372036854775807"])
def test_integers_of_up_to_19_digits_load_as_they_are(text):
    assert loads(f'{{"n": {text}}}') == {"n": int(text)}


@pytest.mark.parametrize("text", ["1" + "0" * 19, "-" + "1" * 20])
def test_a_20_digit_integer_is_an_error_naming_its_field(text):
    with pytest.raises(BadValue, match=r"^turns\[0\]\.n: a 20-digit integer is out of range"):
        loads(f'{{"turns": [{{"n": {text}}}]}}')


@pytest.mark.parametrize("text, shown", [("NaN", "'NaN'"), ("-Infinity", "'-Infinity'"),
                                         ("1e400", "'1e400'"), ("9" * 400 + ".5", repr("9" * 20))])
def test_a_number_no_trace_holds_is_named_by_its_first_20_characters(text, shown):
    with pytest.raises(BadValue) as raised:
        loads(f'{{"a": [1, {{"b": {text}}}]}}')
    assert str(raised.value) == f"a[1].b: {shown} is out of range for a trace"


def test_a_value_out_of_range_at_the_top_is_in_the_document():
    with pytest.raises(BadValue, match="^the document: 'NaN' is out of range"):
        loads("NaN")


def test_a_key_given_twice_is_named_and_a_long_key_is_cut():
    with pytest.raises(DuplicateKey, match="^the key 'x' appears twice in one object"):
        loads('{"a": {"w": 0, "x": 1, "y": 2, "x": 3}}')
    for key, shown in [("k" * 40, "k" * 40), ("k" * 41, "k" * 40 + "…")]:
        with pytest.raises(DuplicateKey, match=f"^the key '{shown}' appears twice"):
            loads(json.dumps({key: 1})[:-1] + f', "{key}": 2}}')
    assert loads('{"a": {"x": 1}, "b": {"x": 1}}') == {"a": {"x": 1}, "b": {"x": 1}}


def test_a_lone_surrogate_is_an_error_naming_its_field_and_a_pair_is_text():
    with pytest.raises(BadValue, match=r"^\[1\]: holds a lone surrogate"):
        loads('["ok", "\\udc00 half"]')
    with pytest.raises(BadValue, match="^m.k: a key holds a lone surrogate"):
        loads('{"m": {"k": {"\\ud800": 1}}}')
    with pytest.raises(BadValue, match="^the document: a key holds a lone surrogate"):
        loads('{"\\uDBFF": 1}')
    assert loads('["\\ud83d\\ude00", "\\u00e9"]') == ["😀", "é"]


def test_another_programs_records_keep_their_long_integers_and_nothing_else_does():
    long = "123456789012345678901234"
    doc = loads(f'{{"upstream": {{"a": [{long}, {{"b": [-{long}]}}]}}, "n": 1}}',
                long_integers_in="upstream")
    assert doc == {"upstream": {"a": [int(long), {"b": [-int(long)]}]}, "n": 1}
    with pytest.raises(BadValue, match="^n: a 24-digit integer"):
        loads(f'{{"upstream": {{}}, "n": {long}}}', long_integers_in="upstream")
    with pytest.raises(BadValue, match=r"^upstream\.a\[0\]: 'NaN' is out of range"):
        loads('{"upstream": {"a": [NaN]}}', long_integers_in="upstream")
    with pytest.raises(BadValue, match="^upstream: a 24-digit integer"):     # only the field
        loads(f'{{"upstream": {long}}}', long_integers_in="upstream")


def test_an_integer_past_what_python_reads_is_refused_even_in_another_programs_records():
    with pytest.raises(BadValue, match=r"^upstream\[0\]: a 5,000-digit integer"):
        loads(f'{{"upstream": [{"1" * 5000}]}}', long_integers_in="upstream")
