"""The functions that builtins return (partial, comp, juxt, memoize...) check the run's
deadline each time they are called, as a function of the program does on entry: a program
made only of builtins calling builtins through them cannot run past the time limit."""

import pytest

from engine.lisp import run

# Each call sorts 30,000 numbers out of order: 3,000 calls take tens of seconds on any machine
# (numbers in order sort in one pass, and a fast machine sorted 3,000 of them 3,000 times
# within the 500 ms). mapv and pmap check the deadline once before a collection this short,
# so only the returned function's own check stops them.
SLOW_CALLS = ("(count ({mapper} {f} (repeat 3000 (mapv #(mod (* % 7919) 30011) "
              "(range 30000)))))")

RETURNED = ["(partial sort compare)", "(comp count sort)", "(complement sort)", "(juxt sort)",
            "(every-pred sort)", "(some-fn sort)", "(all-of sort)", "(any-of sort)",
            "(none-of sort)", "(fnil sort [])", "(memoize sort)"]


@pytest.mark.parametrize("f", RETURNED)
def test_a_function_a_builtin_returned_checks_the_deadline(f):
    r = run(SLOW_CALLS.format(mapper="mapv", f=f), limits={"time_ms": 500})
    assert r.error is not None and r.error.reason == "timeout", r.error


def test_pmap_checks_the_deadline_before_each_item():
    r = run(SLOW_CALLS.format(mapper="pmap", f="sort"), limits={"time_ms": 500})
    assert r.error is not None and r.error.reason == "timeout", r.error
