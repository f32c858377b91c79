"""Strategy `full`: the uncompressed conversation, message by message."""

from dataclasses import FrozenInstanceError

import pytest

from engine.history import HistoryOpts, render, render_turns
from engine.lisp import from_python
from engine.history.sections import FINAL_TURN, system_prompt
from engine.history.stats import CallRef
from tests.history.build import NO_CODE, SEARCH, context, make_turns, reply
from tests.history.rendering import MISSION, TOOLS, request

NOTE = "\n... (truncated, use println selectively)"


def feedback(programs, **kw) -> list[str]:
    """The USER feedback messages of `full`, one per turn."""
    messages, _, _ = request("full", programs, **kw)
    return [m["content"] for m in messages[3::2]]


def test_two_turns_whole_conversation():
    messages, _, _ = request("full", ['(def reviews (tool/search-reviews "Electronics"))',
                                      '(println "Reviews:" reviews)'])
    assert messages == [
        {"role": "system", "content": system_prompt(context(), 3, 80)},
        {"role": "user", "content": MISSION},
        {"role": "assistant", "content": reply('(def reviews (tool/search-reviews "Electronics"))')},
        {"role": "user", "content": "Stored (access as symbols): reviews\nTurn 2 of 5 (4 remaining)"},
        {"role": "assistant", "content": reply('(println "Reviews:" reviews)')},
        {"role": "user", "content": "Reviews: Customer Review Summary for Electronics\n"
                                    "Stored (access as symbols): reviews\n"
                                    "Turn 3 of 5 (3 remaining)"},
    ]


@pytest.mark.parametrize("programs, expected", [
    pytest.param(['(println "a")', '(println "b\\nc") (println "d")'],
                 ["a\nTurn 2 of 5 (4 remaining)", "b\nc\nd\nTurn 3 of 5 (3 remaining)"],
                 id="prints-only-no-stored-line"),
    pytest.param(["(def b 1) (def a 2) (defn c [] 3)"],
                 ["Stored (access as symbols): a, b, c\nTurn 2 of 5 (4 remaining)"],
                 id="stored-names-sorted"),
    pytest.param(["(+ 1 2)"], ["Turn 2 of 5 (4 remaining)"], id="nothing-to-say"),
    pytest.param(["(def x 1)", "(def y 2)", "(def z 3)", "(def w 4)"],
                 ["Stored (access as symbols): x\nTurn 2 of 5 (4 remaining)",
                  "Stored (access as symbols): x, y\nTurn 3 of 5 (3 remaining)",
                  "Stored (access as symbols): x, y, z\nTurn 4 of 5 (2 remaining)",
                  "Stored (access as symbols): w, x, y, z\n" + FINAL_TURN],
                 id="final-turn-warning"),
])
def test_feedback(programs, expected):
    assert feedback(programs) == expected


def test_MSG_006_system_prompt_is_the_same_for_every_request():
    turns = make_turns(["(def x 1)", "(oops", '(println "hi")'], tools=TOOLS)
    requests = render_turns("full", turns, context())
    assert len({r[0][0]["content"] for r in requests}) == 1
    assert requests[0][0][0]["content"] == system_prompt(context(), 3, 80)


@pytest.mark.parametrize("prints, shown, dropped", [
    pytest.param(["x" * 512], "x" * 512, (), id="exactly-512-not-cut"),
    pytest.param(["x" * 600], "x" * 512 + NOTE, (0,), id="one-long-print"),
    pytest.param(["a" * 300, "b" * 300], "a" * 300 + "\n" + "b" * 211 + NOTE, (1,),
                 id="second-print-cut"),
    pytest.param(["a" * 511, "b", "c"], "a" * 511 + "\n" + NOTE, (1, 2), id="cut-at-newline"),
])
def test_output_cut_at_512_characters(prints, shown, dropped):
    program = " ".join(f'(println "{p}")' for p in prints)
    messages, stats, _ = request("full", [program])
    assert messages[3]["content"] == shown + "\nTurn 2 of 5 (4 remaining)"
    assert stats.prints_total == len(prints)
    assert stats.prints_dropped == tuple(CallRef(1, i) for i in dropped)


@pytest.mark.parametrize("programs, expected", [
    pytest.param(["(def x 1)", "(undefined-fn x)"],
                 "Error: unbound_var: undefined symbol: undefined-fn at 1:2 (hint: define it "
                 "first with (def name value), or use data/name for input data)\n"
                 "Turn 3 of 5 (3 remaining)", id="runtime-error"),
    pytest.param(["(def x 1)", "(def y (+ x 1)"],
                 "Error: parse_error: unbalanced parentheses: 1 unclosed '(' opened at 1:1 "
                 "(hint: add ) at the end of the form)\nTurn 3 of 5 (3 remaining)",
                 id="parse-error"),
    pytest.param(["(def x 1)", NO_CODE],
                 "Error: no_code: No valid PTC-Lisp code found in response. Please provide code "
                 "in a ```clojure or ```lisp code block, or as a raw s-expression starting with "
                 "'('.\nTurn 3 of 5 (3 remaining)", id="no-code"),
])
def test_ERR_003_error_feedback_after_the_failed_reply(programs, expected):
    messages, stats, turns = request("full", programs)
    assert messages[4]["content"] == turns[1].raw_response     # the reply as sent, in full
    assert messages[5]["content"] == expected
    assert stats.failed_turns_shown == (2,)


def test_failed_turn_prints_and_stored_names_are_not_in_its_feedback():
    fb = feedback(['(println "before") (def x 1) (/ 1 :a)'])
    assert fb[0].startswith("Error: ") and "before" not in fb[0] and "Stored" not in fb[0]


def test_raw_reply_is_sent_as_written_even_with_several_blocks():
    raw = "First:\n```clojure\n(def a 1)\n```\nthen\n```clojure\n(def b 2)\n```\nDone."
    messages, _, _ = request("full", [(raw,)])
    assert messages[2] == {"role": "assistant", "content": raw}
    assert messages[3]["content"].startswith("Stored (access as symbols): a, b\n")


def test_turn_that_returns_still_gets_its_feedback():
    fb = feedback(["(def x 1)", "(return x)"])
    assert fb[1] == "Stored (access as symbols): x\nTurn 3 of 5 (3 remaining)"


@pytest.mark.parametrize("programs", [[], ["(def x 1)"]], ids=["before-any-turn", "after-turn"])
def test_SS_001_single_shot_is_system_and_mission_only(programs):
    messages, stats, _ = request("full", programs, max_turns=1)
    assert messages == [{"role": "system", "content": system_prompt(context(max_turns=1), 3, 80)},
                        {"role": "user", "content": MISSION}]
    assert not stats.dropped_anything


def test_first_request_is_system_and_mission():
    messages, stats, _ = request("full", [])
    assert [m["role"] for m in messages] == ["system", "user"]
    assert messages[1]["content"] == MISSION
    assert (stats.tool_calls_total, stats.prints_total) == (0, 0)


def test_stats_count_successful_turns_only():
    _, stats, _ = request("full", ['(tool/ping) (println "a")', '(tool/ping) (println "b") (oops',
                                   '(tool/notify "x")'])
    assert stats.strategy == "full"
    assert (stats.tool_calls_total, stats.prints_total) == (2, 1)
    assert stats.failed_turns_shown == (2,)
    assert stats.tool_calls_dropped == () and stats.samples_omitted == ()


@pytest.mark.parametrize("programs, unseen", [
    pytest.param(["(def r (tool/ping))"], [(1, 0)], id="defined-but-full-shows-no-samples"),
    pytest.param(["(println (tool/ping))"], [], id="printed"),
    pytest.param(['(tool/notify "a")'], [], id="nil-result"),
    pytest.param(["(def r (tool/ping))", "(println r)"], [(1, 0)], id="printed-in-a-later-turn"),
    pytest.param(["(tool/get-user 1) (println (tool/get-user 2))"], [(1, 0)],
                 id="only-the-printed-call-of-two"),
    pytest.param(["(tool/fetch-all) (println (tool/fetch-all))"], [],
                 id="same-result-printed-once-counts-for-both"),
    pytest.param(['(println (apply str (repeat 600 "y"))) (def r (tool/ping)) (println r)'],
                 [(1, 0)], id="print-lost-to-the-cut"),
])
def test_results_unseen(programs, unseen):
    _, stats, _ = request("full", programs)
    assert stats.results_unseen == tuple(CallRef(*u) for u in unseen)


def test_render_turns_matches_render_of_each_prefix():
    turns = make_turns(['(def r (tool/ping)) (println r)', "(oops", NO_CODE, "(def s 2)",
                        "(return s)"], tools=TOOLS)
    ctx = context()
    requests = render_turns("full", turns, ctx)
    for i, (messages, stats) in enumerate(requests):
        memory = turns[i - 1].memory if i else {}
        assert (messages, stats) == render("full", turns[:i], memory, ctx, HistoryOpts())
        assert len(messages) == 2 + 2 * i


def test_requests_share_message_dicts_and_an_llm_changing_its_messages_changes_none():
    """Each request is a new list of the same dicts (a copy per request made a long run's
    requests quadratic in dicts: 180 MB at 1,000 turns); the LLM is given copies."""
    from engine.history.strategies import STRATEGIES
    from engine.llm.completion import complete
    turns = make_turns(["(def x 1)", "(def y 2)"])
    strategy = STRATEGIES["full"](context(), HistoryOpts())
    strategy.add(turns[0])
    first, _ = strategy.render(turns[0].memory)
    strategy.add(turns[1])
    second, _ = strategy.render(turns[1].memory)
    assert second[2] is first[2] and second is not first

    def meddling_llm(messages):
        messages[2]["content"] = "changed"
        messages.append({"role": "user", "content": "more"})
        return "(return 1)"
    complete(meddling_llm, second)
    again, _ = strategy.render(turns[1].memory)
    assert again[2]["content"] == turns[0].raw_response and len(again) == len(second)


@pytest.mark.parametrize("convert", [False, True], ids=["plain-python", "ptc-values"])
def test_input_data_is_sampled_as_ptc_values_whether_given_plain_or_converted(convert):
    data = {"user": {"name": "Alice"}, "ids": [1, 2, 3, 4]}
    ctx = context(data=from_python(data) if convert else data, tools=[SEARCH])
    messages, _ = render("full", [], {}, ctx)
    assert messages[0]["content"].endswith(
        ";; === tools ===\n"
        "tool/search-reviews(category string) -> string  ; Customer review summary for a category"
        "\n\n;; === data/ ===\n"
        'data/user                     ; map[1], sample: {"name" "Alice"}\n'
        "data/ids                      ; list[4], sample: [1 2 3 ...] (4 items, showing first 3)")


def test_what_every_request_of_a_run_shares_cannot_be_changed():
    ctx = context(tools=[SEARCH])
    for record, name in [(ctx, "mission"), (ctx.tools[0], "name")]:
        with pytest.raises(FrozenInstanceError):
            setattr(record, name, "changed")


@pytest.mark.parametrize("lengths, dropped", [
    ((512, 1), [(1, 1)]),            # the first print fills the 512 characters: shown whole
    ((10, 501, 1), [(1, 2)]),        # 10 + newline + 501: the second ends at the cut
    ((10, 502, 1), [(1, 1), (1, 2)]),
])
def test_a_print_that_ends_exactly_at_the_output_cut_counts_as_shown(lengths, dropped):
    program = " ".join(f'(println (apply str (repeat {n} "x")))' for n in lengths)
    _, stats, _ = request("full", [program])
    assert stats.prints_dropped == tuple(CallRef(*ref) for ref in dropped)
