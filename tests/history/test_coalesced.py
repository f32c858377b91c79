"""Strategy `coalesced`: the message array, failed turns, turn lines and whole runs."""

import pytest

from engine.agent.execute import execute_turn
from engine.history import HistoryOpts, RenderContext, Response, render, render_turns
from engine.history.sections import FINAL_TURN, reply_end, system_prompt
from engine.history.strategies import STRATEGIES
from tests.history.build import NO_CODE, context, make_turns
from tests.history.rendering import MISSION, TOOLS, coalesced, request

BROKEN = "(def y (+ x 1)"
PARSE_ERROR = ("Error: parse_error: unbalanced parentheses: 1 unclosed '(' opened at 1:1 "
               "(hint: add ) at the end of the form)")
NO_CODE_ERROR = ("Error: no_code: No valid PTC-Lisp code found in response. Please provide code "
                 "in a ```clojure or ```lisp code block, or as a raw s-expression starting with "
                 "'('.")


def block(program: str, error: str) -> str:
    return f"---\nYour previous attempt:\n```clojure\n{program}\n```\n\n{error}\n---"


# --- message array (MSG-*) ---------------------------------------------------------------

def test_MSG_001_successful_turns_accumulate_into_one_user_message():
    messages, _, _ = request("coalesced", ["(def a 1)", "(def b 2)", '(println "c")'])
    assert [m["role"] for m in messages] == ["system", "user"]
    user = messages[1]["content"]
    assert user.count("; No tool calls made") == 1
    for line in ("; Defined: a = integer, sample: 1", "; Defined: b = integer, sample: 2",
                 "; Output:\nc"):
        assert line in user


def test_MSG_002_array_is_system_then_user():
    messages, _, _ = request("coalesced", ["(def a 1)"])
    assert messages == [{"role": "system", "content": system_prompt(context(), 3, 80)},
                        {"role": "user", "content": coalesced(["(def a 1)"])}]


@pytest.mark.parametrize("programs", [[], ["(def a 1)"], ["(oops"], ["(def a 1)", NO_CODE]],
                         ids=["first", "after-success", "after-failure", "after-both"])
def test_MSG_003_mission_comes_first(programs):
    assert coalesced(programs).startswith(MISSION + "\n\n")


def test_MSG_004_blank_line_between_mission_and_context():
    assert coalesced(["(def a 1)"]).split("\n\n")[:2] == [
        MISSION, "; No tool calls made\n; Defined: a = integer, sample: 1"]


@pytest.mark.parametrize("done, last_line", [
    (0, "Turns left: 5"), (1, "Turns left: 4"), (3, "Turns left: 2"), (4, FINAL_TURN),
    (5, FINAL_TURN),
])
def test_MSG_005_turns_left_at_the_end(done, last_line):
    text = coalesced(["(def a 1)"] * done)
    assert text.endswith("\n\n" + last_line)
    assert text.count("Turns left") <= 1


def test_MSG_005_failed_turns_count_as_turns():
    assert coalesced(["(oops", NO_CODE]).endswith("\n\nTurns left: 3")


def test_MSG_006_system_prompt_unchanged_and_same_as_full():
    turns = make_turns(["(def a 1)", "(oops", '(println "x")'], tools=TOOLS)
    ctx = context(tools=(), data={"limit": 3})
    coalesced_systems = {r[0][0]["content"] for r in render_turns("coalesced", turns, ctx)}
    full_systems = {r[0][0]["content"] for r in render_turns("full", turns, ctx)}
    assert coalesced_systems == full_systems == {system_prompt(ctx, 3, 80)}


def test_MSG_007_mission_never_removed():
    programs = ['(println "x") (tool/ping)'] * 6 + ["(oops"] * 3
    text = coalesced(programs, max_turns=20, println_limit=0, tool_call_limit=0)
    assert text.startswith(MISSION + "\n\n")


def test_first_request_is_mission_and_turn_line():
    messages, stats, _ = request("coalesced", [])
    assert messages[1]["content"] == f"{MISSION}\n\nTurns left: 5"
    assert not stats.dropped_anything


def test_SS_002_default_max_turns_is_5():
    ctx = RenderContext(mission="m")
    assert ctx.max_turns == 5
    messages, _ = render("coalesced", [], {}, ctx)
    assert messages[1]["content"] == "m\n\nTurns left: 5"


@pytest.mark.parametrize("programs", [[], ["(def x 1)"], ["(oops"]],
                         ids=["before", "after-success", "after-failure"])
def test_SS_001_single_shot_has_no_summary_and_no_turn_line(programs):
    messages, stats, _ = request("coalesced", programs, max_turns=1)
    assert messages == [{"role": "system", "content": system_prompt(context(max_turns=1), 3, 80)},
                        {"role": "user", "content": MISSION}]
    assert not stats.dropped_anything


# --- compression and errors (CMP-*, ERR-*) -----------------------------------------------

def test_CMP_001_successful_code_is_replaced_by_its_summary():
    text = coalesced(['(def reviews (tool/search-reviews "Books")) (defn top [x] x)'])
    assert "(def reviews" not in text and "defn" not in text
    assert ';   search-reviews("Books")' in text and "; Function: top" in text


def test_CMP_002_ERR_001_failed_code_kept_in_full():
    long_program = "(def a 1)\n" + "\n".join(f"(def v{i} {i})" for i in range(40)) + "\n(oops"
    text = coalesced(["(def x 1)", long_program])
    assert "```clojure\n" + long_program + "\n```" in text


def test_CMP_003_ERR_003_failed_turn_keeps_code_then_error():
    text = coalesced(["(def x 1)", BROKEN])
    assert text.split("\n\n")[2:] == ["---\nYour previous attempt:\n```clojure\n" + BROKEN
                                      + "\n```", PARSE_ERROR + "\n---", "Turns left: 3"]


def test_ERR_002_every_failed_turn_kept_oldest_first():
    text = coalesced(["(oops", "(def x 1)", NO_CODE, "(undefined-fn)"])
    assert text == "\n\n".join([
        MISSION,
        "; No tool calls made\n; Defined: x = integer, sample: 1",
        block("(oops", PARSE_ERROR),
        block("(no code found)", NO_CODE_ERROR),
        block("(undefined-fn)", "Error: unbound_var: undefined symbol: undefined-fn at 1:2 "
              "(hint: define it first with (def name value), or use data/name for input data)"),
        FINAL_TURN])


def test_failures_only_no_summary():
    text = coalesced(["(oops", NO_CODE])
    assert text == "\n\n".join([MISSION, block("(oops", PARSE_ERROR),
                                block("(no code found)", NO_CODE_ERROR), "Turns left: 3"])


def test_failed_turn_contributes_nothing_to_the_summary():
    text = coalesced(['(def a 1) (tool/ping) (println "seen?") (oops)'])
    assert "; Defined" not in text and "; Output" not in text and "; Tool calls" not in text
    assert "; No tool calls made" not in text        # no summary until a turn succeeds
    assert "(tool/ping)" in text                      # the call shows only in the program


@pytest.mark.parametrize("programs, shown, collapsed", [
    pytest.param(["(oops", "(def x 1)"], [], [1], id="recovered"),
    pytest.param(["(def x 1)", "(oops"], [2], [], id="still-failing"),
    pytest.param(["(oops", NO_CODE, BROKEN], [3], [1, 2], id="only-the-last"),
    pytest.param(["(oops", "(def x 1)", BROKEN], [3], [1], id="failed-again"),
])
def test_errors_unrecovered(programs, shown, collapsed):
    messages, stats, _ = request("coalesced", programs, errors="unrecovered")
    text = messages[1]["content"]
    assert stats.failed_turns_shown == tuple(shown)
    assert stats.failed_turns_collapsed == tuple(collapsed)
    blocks = [part for part in text.split("\n\n---\n") if part.startswith("Your previous")]
    assert len(blocks) == len(shown)
    if shown:
        assert blocks[0].startswith(f"Your previous attempt:\n```clojure\n{programs[-1]}\n```")


def test_errors_all_keeps_recovered_failures():
    _, stats, _ = request("coalesced", ["(oops", "(def x 1)"])
    assert stats.failed_turns_shown == (1,) and stats.failed_turns_collapsed == ()


def test_CMP_004_compression_happens_when_rendering():
    turns = make_turns(['(def r (tool/ping)) (println "one")', "(def s 2)"], tools=TOOLS)
    assert turns[0].program == '(def r (tool/ping)) (println "one")'   # stored in full
    strategy = STRATEGIES["coalesced"](context(), HistoryOpts(strategy="coalesced"))
    strategy.add(turns[0])
    before, _ = strategy.render(turns[0].memory)
    strategy.add(turns[1])
    after, _ = strategy.render(turns[1].memory)
    assert "; Defined: s" not in before[1]["content"]
    assert "; Defined: s = integer, sample: 2" in after[1]["content"]
    # the same stored turns render differently under other options
    tight, _ = render("coalesced", turns, turns[1].memory, context(),
                      HistoryOpts(println_limit=0))
    assert "one" in after[1]["content"] and "one" not in tight[1]["content"]


def test_DBG_004_prompt_uses_the_summary_not_the_programs():
    programs = ['(def reviews (tool/search-reviews "Toys"))', '(println (count reviews))']
    turns = make_turns(programs, tools=TOOLS)
    text = coalesced(programs)
    for turn in turns:
        assert turn.program not in text and turn.raw_response not in text
    assert ('; Defined: reviews = string, sample: "Customer Review Summary for Toys"\n'
            '; Output:\n32') in text


# --- whole runs ---------------------------------------------------------------------------

def test_run_with_errors_redefinitions_and_a_return():
    text = coalesced([
        '(def users (tool/fetch-all)) (def n 1)',
        "(def n (count users)) (println \"n =\" n)",
        "(oops",
        '(def users (map inc users)) (tool/notify "Bob")',
        "(return n)",
    ], max_turns=8)
    assert text == "\n\n".join([
        MISSION,
        # users no longer holds fetch-all's result, so the call shows the result's type
        "; Tool calls:\n;   fetch-all() -> list[5]\n;   notify(\"Bob\") -> nil\n"
        "; Defined: users = list[5], sample: [2 3 4 ...] (5 items, showing first 3)\n"
        "; Defined: n = integer\n"
        "; Output:\nn = 5",
        block("(oops", PARSE_ERROR),
        "Turns left: 3"])


def test_render_turns_matches_render_of_each_prefix():
    # s is redefined with another value by a turn that, like the first, printed nothing
    turns = make_turns(['(def r (tool/ping)) (println r)', "(oops", NO_CODE, "(def s [1 2])",
                        '(tool/notify "a") (tool/notify "a")', "(def s [1 2 3])", "(return s)"],
                       tools=TOOLS)
    ctx, opts = context(max_turns=7), HistoryOpts(println_limit=1, tool_call_limit=2)
    for i, request_i in enumerate(render_turns("coalesced", turns, ctx, opts)):
        memory = turns[i - 1].memory if i else {}
        assert request_i == render("coalesced", turns[:i], memory, ctx, opts)


def test_rendering_twice_gives_the_same_request():
    turns = make_turns(['(def r (tool/ping)) (println r)', "(def s {:a 1})"], tools=TOOLS)
    strategy = STRATEGIES["coalesced"](context(), HistoryOpts(strategy="coalesced"))
    for turn in turns:
        strategy.add(turn)
    assert strategy.render(turns[-1].memory) == strategy.render(turns[-1].memory)


def test_a_truncated_turn_shows_where_the_reply_was_cut_not_code_that_looks_whole():
    cut = ("Step one.\n```clojure\n(return 1)\n```\nNow the rest:\n```clojure\n"
           "(def rows (map inc")
    turn = execute_turn(1, cut, {}, response=Response(finish_reason="length"))
    messages, _ = render("coalesced", [turn], {}, context(), HistoryOpts())
    text = messages[1]["content"]
    assert "Your previous attempt" not in text
    assert ("---\nYour previous reply was cut off; it ended with:\n...Now the rest:\n```clojure\n"
            "(def rows (map inc\n\nError: truncated: your reply was cut off at the output token "
            "limit before it ended, so none of its code was run (hint: write a shorter reply: "
            "one short program with few words around it; split large work over several turns)"
            "\n---") in text
    assert reply_end("(def rows") == "(def rows"          # nothing before: no "..."
    assert reply_end("x" * 500) == "..." + "x" * 300


def test_a_kept_definition_is_sampled_and_described_once_across_turns(monkeypatch):
    """Turn after turn (as the app renders a run), a name whose value and docstring stay is
    sampled and its line made once, not once per turn, so a long run's requests cost time in
    proportion to what changes; a new docstring or value makes its line again."""
    import engine.history.strategies.coalesced as module
    sampled, described = [], []
    sample, bucket = module.sample_text, module.bucket
    monkeypatch.setattr(module, "sample_text", lambda v, *a: sampled.append(v) or sample(v, *a))
    monkeypatch.setattr(module, "bucket", lambda v: described.append(v) or bucket(v))
    turns = make_turns(["(def a [1 2 3])", "(def b 1)", "(def b 2)", '(def a "doc" a)',
                        "(def a [1 2 4])", "(def c 3)"], tools=TOOLS)
    requests = render_turns("coalesced", turns, context(max_turns=7))
    assert sampled == [(1, 2, 3), 1, 2, (1, 2, 4)]       # each value once, not once a turn
    assert described == [(1, 2, 3), 1, 2, (1, 2, 3), (1, 2, 4)]    # and once more for the doc
    assert '; Defined: a - "doc" = list[3], sample: [1 2 3]' in requests[4][0][1]["content"]
    assert "; Defined: a = list[3], sample: [1 2 4]" in requests[5][0][1]["content"]
