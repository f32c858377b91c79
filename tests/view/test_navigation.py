"""Failed-turn navigation, search and diffs."""

import pytest


@pytest.mark.parametrize("start, expected", [(0, 1), (1, 3), (3, 5), (5, 7), (7, None), (8, None)])
def test_next_failed(view, start, expected):
    assert view("error_recovery").next_failed(start) == expected


@pytest.mark.parametrize("start, expected", [(8, 7), (7, 5), (4, 3), (2, 1), (1, None)])
def test_previous_failed(view, start, expected):
    assert view("error_recovery").previous_failed(start) == expected


def test_fail_turn_counts_as_failed(view):
    assert view("fail_not_found").next_failed(1) == 3


def test_search_is_case_insensitive_across_programs_prints_and_messages(view):
    hits = view("error_recovery").search("CHARGES")
    assert all("charges" in h.line.lower() for h in hits)
    where = {(h.turn, h.where) for h in hits}
    assert (3, "program") in where
    assert (4, "prints") in where
    assert (5, "messages") in where            # turn 4's prints, in turn 5's request


def test_search_hit_names_the_line(view):
    v = view("error_recovery")
    hit = next(h for h in v.search("->> PAYMENT") if h.turn == 3)
    assert (hit.where, hit.line_no) == ("program", 2)
    assert hit.line == v.turns[3].program.splitlines()[1]


def test_search_without_a_match(view):
    assert view("error_recovery").search("zebra-xylophone") == []
    assert view("error_recovery").search("") == []


def test_program_diff_shows_the_fix(view):
    diff = view("error_recovery").program_diff(4)
    assert diff[0] == "--- turn 3" and diff[1] == "+++ turn 4"
    assert "-(def dupes (->> payment" in diff
    assert "+(def dupes (->> payments" in diff


def test_program_diff_of_the_first_turn_adds_everything(view):
    v = view("error_recovery")
    diff = v.program_diff(1)
    added = [line[1:] for line in diff if line.startswith("+") and not line.startswith("+++")]
    assert added == v.turns[1].program.splitlines()


def test_program_diff_with_no_code(view):
    diff = view("error_recovery").program_diff(7)
    assert all(not line.startswith("+") or line.startswith("+++") for line in diff)
    assert any(line.startswith("-") and not line.startswith("---") for line in diff)


def test_message_diff_shows_the_new_feedback(view):
    diff = view("error_recovery").message_diff(4)
    assert "-Turns left: 8" in diff and "+Turns left: 7" in diff
    assert "+(def dupes (->> payment" in diff


def test_message_diff_follows_the_strategy(view):
    v = view("error_recovery")
    assert v.message_diff(4) != v.with_strategy("full").message_diff(4)
