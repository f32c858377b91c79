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
