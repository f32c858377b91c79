"""A replace whose result would be far past the string length limit fails with
memory_exceeded before it is built: the replacement done in C is taken only when its result
cannot be huge, and the match-by-match one stops at the limit."""

import tracemalloc

import pytest

from engine.lisp import run

BIG = '(str/join (repeat 1000000 "a"))'      # 1,000,000 characters, the string limit


@pytest.mark.parametrize("replacement", [
    '(str/join (repeat 20 "b"))',      # 20 literal characters a match: 21,000,000 in all
    '(str/join (repeat 20 "$0"))',     # the match itself 20 times
])
def test_a_replacement_far_past_the_limit_is_refused_before_it_is_built(replacement):
    tracemalloc.start()
    try:
        r = run(f'(str/replace {BIG} #"a" {replacement})')
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert r.error is not None and r.error.reason == "memory_exceeded"
    assert "replace" in r.error.message
    assert peak < 12_000_000, f"{peak:,} bytes at the peak"


def test_a_replacement_within_the_limit_is_made():
    r = run(f'(count (str/replace {BIG} #"a" "$0"))')
    assert r.error is None and r.value == 1_000_000
