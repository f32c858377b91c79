"""TurnDiff: diff lines classified for colouring, the turn compared with, and walking turns."""

import pytest

from ptc_tui.view.diff import classify, turn_diff
from ptc_tui.view.trace_view import neighbour


def test_classify_names_each_kind_and_only_the_first_two_lines_are_headers():
    lines = ["--- turn 1", "+++ turn 2", "@@ -1,2 +1,2 @@", " (def x 1)", "-(println x)",
             "+(println [x])", "--- a removed line that looks like a header"]
    assert [line.kind for line in classify(lines)] == [
        "header", "header", "hunk", "context", "removed", "added", "removed"]
    assert [line.text for line in classify(lines)] == lines


@pytest.mark.parametrize("name", ["error_recovery", "long_exploration"])
def test_turn_diff_compares_each_turn_with_the_one_before(view, name):
    v = view(name)
    numbers = list(v.turns)
    for before, number in zip([None, *numbers], numbers):
        diff = turn_diff(v, number)
        assert diff.previous == before
        assert [line.text for line in diff.program] == list(v.program_diff(number))
        assert [line.text for line in diff.message] == list(v.message_diff(number))


def test_first_turn_is_all_new(view):
    diff = turn_diff(view("error_recovery"), 1)
    body = [line for line in diff.program if line.kind not in ("header", "hunk")]
    assert body and all(line.kind == "added" for line in body)


@pytest.mark.parametrize("number, step, expected", [
    (3, 1, 4), (3, -1, 2), (1, -1, 1), (8, 1, 8), (2, 5, 7), (6, 5, 8)])
def test_neighbour_stays_within_the_turns(number, step, expected):
    assert neighbour([1, 2, 3, 4, 5, 6, 7, 8], number, step) == expected
