"""A println of several values is cut at the per-call limit (2000 characters) with the
reference's marker, also when the limit falls between two values."""

import pytest

from engine.lisp import run


@pytest.mark.parametrize("first", [1999, 2000])
def test_a_print_cut_between_two_values_keeps_its_marker(first):
    r = run(f'(println (str/join (repeat {first} "a")) "bc")')
    shown = ("a" * first + " bc")[:2000]
    assert r.prints == [f"{shown}... (2000/{first + 3} chars)"]


def test_a_print_just_under_the_limit_is_whole():
    r = run('(println (str/join (repeat 1997 "a")) "bc")')
    assert r.prints == ["a" * 1997 + " bc"]


def test_a_vector_of_characters_past_the_limit_is_cut_with_the_marker():
    r = run('(println (vec (str/join (repeat 2001 "a"))))')
    assert r.prints == ["a" * 2000 + "... (2000/2001 chars)"]


# The marker's N is the print's full length, counted without building the text past the cut.
NUMBERS = " ".join(str(i) for i in range(1000))     # (range 1000) prints as [0 1 ... 999]


@pytest.mark.parametrize("source, length", [
    ("(println (range 1000))", len(NUMBERS) + 2),
    ('(println (range 1000) "end")', len(NUMBERS) + 2 + 4),
    ('(println "start" (range 1000) [1 2] "end")', 6 + len(NUMBERS) + 2 + 6 + 4),
    ('(println (str/join (repeat 2500 "a")) [1 2 3])', 2500 + 8),
    ('(prn (str/join (repeat 2500 "a")) "b")', 2502 + 4),
    ('(print {:n (range 1000)})', len(NUMBERS) + 2 + 5),
    ("(apply println (range 1000))", len(NUMBERS)),
])
def test_a_cut_print_states_its_full_length(source, length):
    r = run(source)
    assert r.error is None and r.prints[0].endswith(f"... (2000/{length} chars)")
    assert len(r.prints[0]) == 2000 + len(f"... (2000/{length} chars)")


def test_the_cut_text_is_the_start_of_the_print():
    r = run('(println "start" (range 1000))')
    assert r.prints[0][:2000] == f"start [{NUMBERS}]"[:2000]


def test_a_long_string_states_its_length_however_long():
    r = run('(println (str/join (repeat 300000 "a")))')
    assert r.prints == ["a" * 2000 + "... (2000/300000 chars)"]


def test_counting_stops_past_ten_times_the_cut():
    # a value printing as 99, 100 or 101 characters, cut at 10 and so counted up to 100
    for width, marker in [(99, "(10/99 chars)"), (100, "(10/100 chars)"),
                          (101, "(10/100+ chars)")]:
        r = run(f'(println ["{"a" * (width - 4)}"])', limits={"print_chars": 10})
        assert r.error is None and r.prints == ['["aaaaaaaa... ' + marker]


def test_a_huge_or_self_sharing_value_is_counted_only_up_to_ten_times_the_cut():
    r = run("(println (range 1000000))")
    assert r.prints[0].endswith("... (2000/20000+ chars)")
    r = run('(let [v (reduce (fn [v _] [v v]) [1] (range 60))] (println "v:" v))')
    assert r.error is None and r.prints[0].endswith("... (2000/20000+ chars)")
    # a long string before another value: the count stops there too
    r = run('(println (str/join (repeat 300000 "a")) 1)')
    assert r.prints == ["a" * 2000 + "... (2000/20000+ chars)"]
