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


def test_the_cache_break_of_full_is_after_the_whole_previous_request(view):
    v = view("tool_heavy").with_strategy("full")
    before, now = (v.rendering.requests[i][0] for i in (1, 2))
    brk = turn_diff(v, 3).cache
    assert brk.appends and brk.message == len(before) + 1 and brk.messages == len(now)
    assert brk.role == now[len(before)]["role"]
    counts = v.rendering.count(2)
    assert brk.shared_tokens == sum(counts.per_message[:len(before)])
    assert brk.shared_tokens + brk.full_tokens == counts.total
    assert brk.text().startswith(f"cache breaks at message {len(before) + 1} of {len(now)} "
                                 f"({brk.role}, new after the whole previous request): "
                                 f"{brk.shared_tokens:,} tokens before it")


def test_a_rewriting_strategy_breaks_the_cache_where_it_rewrote(view):
    """coalesced folds the history into one user message after the system prompt: each
    request departs from the previous one at that message, whatever follows."""
    v = view("tool_heavy").with_strategy("coalesced")
    brk = turn_diff(v, 3).cache
    before, now = (v.rendering.requests[i][0] for i in (1, 2))
    first = next(k for k, (a, b) in enumerate(zip(before, now)) if a != b)
    assert not brk.appends and brk.message == first + 1
    assert brk.shared_tokens == sum(v.rendering.count(2).per_message[:first])
    assert "the previous request had another message here" in brk.text()
    assert f"{brk.full_tokens:,} from it on are billed in full" in brk.text()


def test_the_first_turn_has_no_cache_break(view):
    assert turn_diff(view("tool_heavy"), 1).cache is None
