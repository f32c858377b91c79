"""Strategy `compaction`: `full`'s conversation until the trigger, then SYSTEM, the mission and
the most recent turns verbatim."""

import pytest

from engine.history import HistoryOpts, render, render_turns
from engine.history.stats import CallRef
from tests.history.build import context, make_turns, reply

TOOLS = {"search-reviews": lambda category: f"Reviews for {category}"}
SYSTEM = {"role": "system", "content": "REFERENCE\n\n;; No tools available"}
MISSION = {"role": "user", "content": "Find well-reviewed products in stock"}
PROGRAMS = ['(def a (tool/search-reviews "x")) (println "a is" a)',   # 1
            '(+ 1 "a")',                                               # 2 fails
            "(def b 2)",                                               # 3
            '(tool/search-reviews "y")',                               # 4
            '(println "four") (def c 3)']                              # 5


def assistant(program):
    return {"role": "assistant", "content": reply(program)}


def feedback(content):
    return {"role": "user", "content": content}


# What `full` sends for PROGRAMS, written out from docs/history-rules.md, "Strategies".
PAIRS = [
    [assistant(PROGRAMS[0]),
     feedback("a is Reviews for x\nStored (access as symbols): a\nTurn 2 of 5 (4 remaining)")],
    [assistant(PROGRAMS[1]),
     feedback('Error: type_error: + expects numbers, got string "a" at 1:1\n'
              "Turn 3 of 5 (3 remaining)")],
    [assistant(PROGRAMS[2]),
     feedback("Stored (access as symbols): a, b\nTurn 4 of 5 (2 remaining)")],
    [assistant(PROGRAMS[3]),
     feedback("Stored (access as symbols): a, b\n"
              "⚠️ FINAL TURN - you must call (return result) or (fail response) next.")],
]

TURNS = make_turns(PROGRAMS, tools=TOOLS)


def compaction(n, **opts):
    """The request after the first `n` turns of PROGRAMS."""
    memory = TURNS[n - 1].memory if n else {}
    return render("compaction", TURNS[:n], memory, context(), HistoryOpts(**opts))


def full(n):
    memory = TURNS[n - 1].memory if n else {}
    return render("full", TURNS[:n], memory, context())


def pairs(first, last):
    """Messages of turns first..last (1-based, inclusive)."""
    return [m for pair in PAIRS[first - 1:last] for m in pair]


# --- before the trigger: exactly `full` --------------------------------------------------------

@pytest.mark.parametrize("n", [0, 1, 2, 3, 4])
def test_until_the_turn_trigger_the_request_is_the_full_conversation(n):
    messages, stats = compaction(n, compaction_turns=4)
    assert messages == [SYSTEM, MISSION] + pairs(1, n)
    assert messages == full(n)[0]
    assert stats.turns_dropped == ()


def test_untriggered_stats_are_fulls_under_its_own_name():
    messages, stats = compaction(4, compaction_turns=4)
    full_stats = full(4)[1]
    assert stats.strategy == "compaction"
    assert (stats.tool_calls_total, stats.prints_total, stats.failed_turns_shown,
            stats.results_unseen) == (full_stats.tool_calls_total, full_stats.prints_total,
                                      full_stats.failed_turns_shown, full_stats.results_unseen)


# --- the turn trigger --------------------------------------------------------------------------

def test_one_turn_more_than_compaction_turns_keeps_mission_and_recent_pairs():
    messages, stats = compaction(4, compaction_turns=3, keep_recent_turns=2)
    assert messages == [SYSTEM, MISSION] + pairs(3, 4)
    assert stats.turns_dropped == (1, 2)


def test_default_trigger_is_more_than_eight_turns():
    programs = [f"(def x{i} {i})" for i in range(1, 10)]
    turns = make_turns(programs)
    eight = render("compaction", turns[:8], turns[7].memory, context(max_turns=20))
    nine = render("compaction", turns, turns[8].memory, context(max_turns=20))
    assert len(eight[0]) == 2 + 2 * 8 and eight[1].turns_dropped == ()
    assert len(nine[0]) == 2 + 2 * 3 and nine[1].turns_dropped == (1, 2, 3, 4, 5, 6)


@pytest.mark.parametrize("keep", [0, 1, 2, 3, 4, 9])
def test_roles_alternate_whatever_is_kept(keep):
    messages, stats = compaction(4, compaction_turns=1, keep_recent_turns=keep)
    kept = min(keep, 4)
    assert [m["role"] for m in messages] == ["system", "user"] + ["assistant", "user"] * kept
    assert messages[2:] == (pairs(5 - kept, 4) if kept else [])
    assert stats.turns_dropped == tuple(range(1, 5 - kept))


def test_mission_and_system_are_kept_verbatim():
    messages, _ = compaction(5, compaction_turns=0, keep_recent_turns=1)
    assert messages[:2] == [SYSTEM, MISSION]
    assert messages[2] == assistant(PROGRAMS[4])
    assert messages[3]["content"] == ("four\nStored (access as symbols): a, b, c\n"
                                      "⚠️ FINAL TURN - you must call (return result) or "
                                      "(fail response) next.")


# --- the token trigger -------------------------------------------------------------------------

def _chars(messages):
    return sum(len(m["content"]) for m in messages)


@pytest.mark.parametrize("margin, trimmed", [(0, False), (-1, True)])
def test_token_trigger_fires_above_a_quarter_of_the_characters(margin, trimmed):
    chars = _chars(full(3)[0])
    tokens = -(-chars // 4) + margin          # ceil(chars / 4) tokens: 4 × tokens ≥ chars
    messages, stats = compaction(3, compaction_tokens=tokens, keep_recent_turns=1)
    assert (messages == [SYSTEM, MISSION] + pairs(3, 3)) is trimmed
    assert stats.turns_dropped == ((1, 2) if trimmed else ())


def test_token_trigger_counts_the_uncompacted_request_so_it_stays_triggered():
    tokens = _chars(full(2)[0]) // 4 - 1
    requests = render_turns("compaction", TURNS, context(),
                            HistoryOpts(compaction_tokens=tokens, keep_recent_turns=1))
    assert [stats.turns_dropped for _, stats in requests] == [(), (), (1,), (1, 2), (1, 2, 3)]


def test_no_token_trigger_by_default():
    messages, _ = compaction(5)
    assert messages == full(5)[0]


# --- stats after the trigger -------------------------------------------------------------------

def test_dropped_turns_calls_prints_results_and_errors_are_reported():
    _, stats = compaction(5, compaction_turns=2, keep_recent_turns=2)
    assert stats.turns_dropped == (1, 2, 3)
    assert stats.tool_calls_total == 2 and stats.prints_total == 2
    assert stats.tool_calls_dropped == (CallRef(1, 0),)
    assert stats.prints_dropped == (CallRef(1, 0),)
    # turn 4's result was never printed (full's rule); turn 1's left with its turn
    assert stats.results_unseen == (CallRef(1, 0), CallRef(4, 0))
    assert stats.failed_turns_shown == ()
    assert stats.failed_turns_collapsed == (2,)


def test_kept_failed_turn_is_still_shown():
    _, stats = compaction(3, compaction_turns=2, keep_recent_turns=2)
    assert stats.turns_dropped == (1,)
    assert stats.failed_turns_shown == (2,) and stats.failed_turns_collapsed == ()


def test_fulls_own_cut_of_long_output_survives_in_kept_turns():
    programs = ['(println "early")', "(doseq [i (range 100)] (println (str \"line \" i)))"]
    turns = make_turns(programs)
    opts = HistoryOpts(compaction_turns=1, keep_recent_turns=1)
    _, full_stats = render("full", turns, turns[1].memory, context())
    _, stats = render("compaction", turns, turns[1].memory, context(), opts)
    assert full_stats.prints_dropped                          # the 512-character cut
    assert stats.prints_dropped == (CallRef(1, 0),) + full_stats.prints_dropped


# --- single-shot and purity --------------------------------------------------------------------

def test_single_shot_is_never_compacted():
    turns = make_turns(["(def x 1)"])
    messages, stats = render("compaction", turns, turns[0].memory, context(max_turns=1),
                             HistoryOpts(compaction_turns=0))
    assert messages == [SYSTEM, MISSION]
    assert not stats.dropped_anything


def test_render_turns_matches_one_off_renders():
    opts = HistoryOpts(compaction_turns=2, keep_recent_turns=1)
    incremental = render_turns("compaction", TURNS, context(), opts)
    for i in range(len(TURNS)):
        assert compaction(i, compaction_turns=2, keep_recent_turns=1) == incremental[i]


def test_rendering_twice_gives_the_same_and_returns_fresh_messages():
    messages, _ = compaction(5, compaction_turns=1, keep_recent_turns=1)
    messages[2]["content"] = "changed"
    assert compaction(5, compaction_turns=1, keep_recent_turns=1)[0][2] == assistant(PROGRAMS[4])
