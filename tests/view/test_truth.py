"""Every turn tells the whole truth: the model's reply (folded, with the code that ran marked),
the LLM call as recorded (reported or counted tokens, time, cost, finish), and whether what is
on screen is recorded or a what-if."""

from dataclasses import replace

import pytest

from engine.history import Response, Usage
from engine.tokens import cost, load_prices
from ptc_tui.view import TraceView
from ptc_tui.view.calls import run_totals
from ptc_tui.view.reply import FOLDED_LINES, RAN, reply_lines, reply_view


# --- the reply --------------------------------------------------------------------------------
def test_a_reply_is_its_prose_and_the_code_block_that_ran():
    reply = reply_view("thinking: first\nsecond\n```clojure\n(+ 1 2)\n```\nafter")
    assert [(p.text, p.ran) for p in reply.parts] == [
        ("thinking: first\nsecond", False), ("```clojure\n(+ 1 2)\n```", True), ("after", False)]
    assert reply.has_code and reply.parts[1].code_lines == 1


def test_folded_the_reply_shows_the_first_lines_of_prose_and_one_line_per_run_block():
    prose = "\n".join(f"line {i}" for i in range(1, 8))
    reply = reply_view(f"{prose}\n```clojure\n(def a 1)\n(def b 2)\n```")
    folded = reply_lines(reply, expanded=False)
    assert folded == (*(("prose", f"line {i}") for i in range(1, FOLDED_LINES + 1)),
                      ("more", "… 4 more lines (r)"),
                      ("ran", f"{RAN}2 lines of code: ran as the program below"))
    whole = reply_lines(reply, expanded=True)
    assert [line for kind, line in whole if kind == "prose"] == prose.splitlines()
    assert [line for kind, line in whole if kind == "ran"] == [
        RAN + "```clojure", RAN + "(def a 1)", RAN + "(def b 2)", RAN + "```"]


def test_only_the_blocks_the_agent_ran_are_marked():
    raw = "data:\n```json\n{\"a\": 1}\n```\n```clojure\n(def a 1)\n```\nthen\n```clojure\n(a)\n```"
    reply = reply_view(raw)
    assert [p.ran for p in reply.parts] == [False, True, False, True]
    assert '{"a": 1}' in reply.parts[0].text


def test_a_reply_with_no_code_is_never_folded():
    raw = "\n".join(f"I cannot do that, reason {i}" for i in range(10))
    reply = reply_view(raw)
    assert not reply.has_code and not reply.foldable
    assert [line for _, line in reply_lines(reply, expanded=False)] == raw.splitlines()


def test_a_bare_s_expression_reply_is_all_code():
    reply = reply_view("(return 42)")
    assert [(p.text, p.ran) for p in reply.parts] == [("(return 42)", True)]


def test_the_turn_view_carries_the_reply_as_recorded(view):
    v = view("error_recovery")
    turn = v.turn(3)
    raw = v.trace.turns[2].raw_response
    assert turn.reply == reply_view(raw)
    assert turn.reply.parts[0].text == raw.split("```")[0].strip("\n")


# --- the LLM call -----------------------------------------------------------------------------
USAGE = Usage(input_tokens=2_000, output_tokens=150, cached_tokens=1_500, reasoning_tokens=40)
RESPONSE = Response("gpt-4o-2024-08-06", "chatcmpl-1", "stop", "stop")


def reported(view_of_trace, name="error_recovery") -> TraceView:
    """A sample as if run on openai:gpt-4o with every call reported by the provider."""
    trace = view_of_trace(name).trace
    turns = tuple(replace(t, usage=USAGE, response=RESPONSE, llm_ms=1_250.0, run_ms=3.0)
                  for t in trace.turns)
    agent = replace(trace.agent, llm="openai:gpt-4o")
    return TraceView.of(replace(trace, turns=turns, agent=agent))


def test_a_reported_call_is_shown_as_the_provider_reported_it(view):
    call = reported(view).turn(2).call
    assert call.model == "gpt-4o-2024-08-06"
    assert (call.input_tokens, call.output_tokens, call.cached_tokens) == (2_000, 150, 1_500)
    assert not call.input_counted and not call.output_counted
    assert (call.llm_ms, call.run_ms, call.finish_reason) == (1_250.0, 3.0, "stop")
    price = load_prices().price_for("gpt-4o")
    assert call.cost == pytest.approx(cost(price, 500, 150, 1_500))
    assert call.cost != pytest.approx(cost(price, 2_000))        # output and cache count


def test_an_unreported_call_is_counted_and_says_so(view):
    v = view("error_recovery")
    turn, call = v.trace.turns[1], v.turn(2).call
    counter = v.renders.counter
    assert call.model == v.trace.agent.llm and call.finish_reason is None
    assert call.input_counted and call.output_counted
    assert call.input_tokens == counter.count_messages(turn.messages).total
    assert call.output_tokens == counter.count(turn.raw_response)
    assert call.cost is None                     # a scripted run has no price: unknown


def test_the_header_sums_the_recorded_calls(view):
    v = reported(view)
    totals = v.header().totals
    assert totals == run_totals([v.turn(t.number).call for t in v.trace.turns])
    n = len(v.trace.turns)
    assert (totals.input_tokens, totals.output_tokens) == (2_000 * n, 150 * n)
    assert totals.llm_ms == 1_250.0 * n and not totals.counted
    assert totals.cost == pytest.approx(n * v.turn(1).call.cost)


def test_the_call_is_the_same_under_any_options(view):
    v = reported(view)
    assert v.with_strategy("compaction").with_options(println_limit=1).turn(4).call == \
        v.turn(4).call


# --- recorded or what-if --------------------------------------------------------------------
def test_the_recorded_options_are_not_a_what_if(view):
    v = view("strategy_comparison")
    header = v.header()
    assert not v.what_if and not header.what_if and not v.turn(2).what_if
    assert (header.strategy, header.limits) == (header.recorded_strategy, header.recorded_limits)
    assert not any(r.what_if for r in v.rows())


@pytest.mark.parametrize("change", [{"strategy": "compaction"}, {"println_limit": 1},
                                    {"args_limit": 9}])
def test_any_option_changed_is_a_what_if_and_the_recorded_ones_are_kept(view, change):
    v = view("strategy_comparison")
    other = v.with_options(**change)
    header = other.header()
    assert other.what_if and header.what_if and other.turn(2).what_if
    assert all(r.what_if for r in other.rows())
    assert header.recorded_strategy == v.trace.agent.history.strategy
    assert header.recorded_limits == v.header().limits
    assert not other.with_opts(other.recorded_opts).what_if
