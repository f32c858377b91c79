"""A huge print or program is cut in the panes and diffs (Textual lays out every line it is
given), while search, copy and the token counts still use all of it."""

import dataclasses

import pytest

from ptc_tui.view import TraceView
from ptc_tui.view.panes import BLOCK_CHARS, BLOCK_LINES, clipped
from ptc_tui.view.trace_view import DIFF_LINES

HUGE = "\n".join(f"line {i} " + "x" * 80 for i in range(20_000))


@pytest.fixture
def huge(view):
    """error_recovery with a 20,000-line print in turn 2."""
    trace = view("error_recovery").trace
    turns = list(trace.turns)
    turns[1] = dataclasses.replace(turns[1], prints=(HUGE,))
    return TraceView.of(dataclasses.replace(trace, turns=tuple(turns)))


def test_short_text_is_kept_whole():
    assert clipped("a\nb") == "a\nb"
    exactly = "\n".join(["x"] * BLOCK_LINES)
    assert clipped(exactly) == exactly


def test_long_text_keeps_its_start_and_says_what_was_left_out():
    shown = clipped(HUGE)
    kept, marker = shown.rsplit("\n", 1)
    assert kept == "\n".join(HUGE.split("\n")[:BLOCK_LINES])
    assert marker == (f"… {len(HUGE) - len(kept):,} more characters "
                      f"({20_000 - BLOCK_LINES:,} more lines) not shown here; the trace has them all")


def test_one_enormous_line_is_cut_by_characters():
    shown = clipped("y" * 1_000_000)
    assert shown.startswith("y" * BLOCK_CHARS + "\n… 970,000 more characters (0 more lines)")


def test_the_panes_show_a_cut_print_but_search_and_counts_see_all_of_it(huge, view):
    turn = huge.turn(2)
    [shown] = turn.program.prints
    assert shown == clipped(HUGE) and len(shown) < len(HUGE)
    assert all(len(m.content) <= BLOCK_CHARS + 200 for m in huge.turn(3).messages.messages)
    hits = huge.search("line 19999 ")
    assert {(h.turn, h.where) for h in hits} >= {(2, "prints")}
    assert huge.turn(3).messages.tokens > view("error_recovery").turn(3).messages.tokens + 20_000


def test_a_huge_diff_is_cut_with_a_count_of_what_is_left(huge):
    diff = huge.message_diff(3)
    assert len(diff) == DIFF_LINES + 1
    assert diff[-1].startswith("… ") and diff[-1].endswith(" more diff lines not shown")
