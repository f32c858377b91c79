"""The three panes of a turn: program, what the LLM saw, memory."""

from dataclasses import replace

from engine.history import render_turns
from engine.lisp import Definition, format_value
from ptc_tui.view import TraceView


# --- program pane ---------------------------------------------------------------------------
def test_parse_error_span_marks_the_unclosed_form(view):
    pane = view("error_recovery").turn(1).program
    err = pane.error
    assert err.reason == "parse_error"
    assert err.hint == "add ) at the end of the form"
    assert (err.line, err.col) == (2, 1)
    assert pane.program.splitlines()[err.line - 1].startswith('(println "orders:"')
    assert pane.result is None


def test_no_code_turn_has_no_program(view):
    pane = view("error_recovery").turn(7).program
    assert pane.program is None
    assert pane.error.reason == "no_code" and pane.error.line is None


def test_tool_calls_prints_and_result(view):
    v = view("error_recovery")
    turn = v.trace.turns[3]
    pane = v.turn(4).program
    assert pane.prints == turn.prints and len(pane.prints) == 2
    assert [c.call for c in pane.tool_calls] == [
        'get-payments("A-5502")', 'get-payments("A-5531")', 'get-payments("A-5560")']
    assert pane.tool_calls[0].result == format_value(turn.tool_calls[0].result, 10, 200)[0]
    assert pane.error is None and pane.signal is None


def test_return_turn_shows_result_and_signal(view):
    pane = view("error_recovery").turn(8).program
    assert pane.signal == "return"
    assert '"A-5531"' in pane.result


def test_failed_tool_call(view):
    pane = view("error_recovery").turn(5).program
    (call,) = pane.tool_calls
    assert call.error and "customer not found" in call.error and call.result is None


# --- message pane ---------------------------------------------------------------------------
def test_messages_are_what_the_strategy_sent(view):
    v = view("error_recovery")
    pane = v.turn(4).messages
    expected, _ = render_turns("coalesced", v.trace.turns, v.trace.context(), v.opts)[3]
    assert [(m.role, m.content) for m in pane.messages] == [
        (m["role"], m["content"]) for m in expected]
    assert pane.tokens == v.rows()[3].tokens
    assert pane.tokens >= sum(m.tokens for m in pane.messages) > 0
    assert pane.full_tokens == v.rows()[3].full_tokens
    assert pane.difference == pane.full_tokens - pane.tokens > 0


def test_println_limit_changes_a_long_run(view):
    v = view("long_exploration")
    before = v.turn(26).messages
    after = v.with_options(println_limit=5).turn(26).messages
    assert before.messages[-1].content != after.messages[-1].content
    assert after.tokens < before.tokens
    old = [d for d in before.dropped if d.kind == "print"]
    new = [d for d in after.dropped if d.kind == "print"]
    assert len(new) > len(old) > 0


def test_dropped_prints_read_as_the_print_cut_to_a_line(view):
    v = view("long_exploration").with_options(println_limit=2)
    _, stats = v.rendering.requests[25]
    lines = [d.text for d in v.turn(26).messages.dropped if d.kind == "print"]
    assert len(lines) == len(stats.prints_dropped)
    for ref, line in zip(stats.prints_dropped, lines):
        text = v.turns[ref.turn].prints[ref.index]
        assert line.startswith(f"turn {ref.turn}: ")
        assert "\n" not in line
        assert text.splitlines()[0][:40] in line


def test_println_limit_leaves_a_short_run_alone(view):
    v = view("product_search")
    w = v.with_options(println_limit=5)
    for n in (1, 2, 3):
        assert v.turn(n).messages == w.turn(n).messages


def test_dropped_tool_calls_name_the_call(view):
    v = view("strategy_comparison")
    _, stats = v.rendering.requests[8]
    assert stats.tool_calls_dropped
    lines = [d.text for d in v.turn(9).messages.dropped if d.kind == "tool_call"]
    assert lines == [f"turn {r.turn}: " + v.turns[r.turn].tool_calls[r.index].call_text()
                     for r in stats.tool_calls_dropped]
    assert lines[0].startswith("turn 1: list-employees(")


def test_a_dropped_item_is_made_once_for_every_turn_that_drops_it(view):
    """A late turn of a long run drops what the turns before it did: the items are looked up,
    not made again; under other limits a call reads as those limits cut it."""
    v = view("strategy_comparison")
    before, after = v.turn(9).messages.dropped, v.turn(10).messages.dropped
    again = [d for d in before if d in after and d.kind in ("tool_call", "unseen_result")]
    assert len(again) > 10
    assert {id(d) for d in again} <= {id(d) for d in after}       # the same items, looked up
    cut = v.with_options(args_limit=1, args_printable_limit=5).turn(9).messages.dropped
    calls = [d.text for d in cut if d.kind == "tool_call"]
    _, stats = v.rendering.requests[8]
    assert calls == [f"turn {r.turn}: " + v.turns[r.turn].tool_calls[r.index].call_text(1, 5)
                     for r in stats.tool_calls_dropped]
    assert calls != [d.text for d in before if d.kind == "tool_call"]


def test_collapsed_failed_turns_are_listed(view):
    v = view("error_recovery").with_options(errors="unrecovered")
    lines = [d.text for d in v.turn(6).messages.dropped if d.kind == "failed_turn"]
    assert lines and all("failed turn collapsed" in t for t in lines)
    assert not [d for d in view("error_recovery").turn(6).messages.dropped
                if d.kind == "failed_turn"]


def test_samples_and_unseen_results_are_listed(view):
    dropped = view("error_recovery").turn(3).messages.dropped
    assert [d.text for d in dropped if d.kind == "sample"] == ["orders: shown without a sample"]
    (unseen,) = [d.text for d in dropped if d.kind == "unseen_result"]
    assert unseen.startswith('turn 2: get-orders("C-1042") → [')


# --- memory pane ----------------------------------------------------------------------------
def test_memory_marks_names_defined_this_turn(view):
    rows = {r.name: r for r in view("error_recovery").turn(4).memory}
    assert list(rows) == ["orders", "payments", "dupes"]
    assert rows["payments"].changed and rows["dupes"].changed and not rows["orders"].changed
    assert rows["orders"].defined_in == 2 and rows["payments"].defined_in == 4
    assert rows["payments"].type == "list[4]"
    assert rows["payments"].sample.endswith("(4 items, showing first 3)")


def test_failed_turn_defines_nothing(view):
    v = view("error_recovery")
    assert [r.name for r in v.turn(3).memory] == ["orders"]
    assert not any(r.changed for r in v.turn(3).memory)
    assert not any(r.changed for r in v.turn(5).memory)


def test_failed_redefinition_keeps_the_earlier_definition(traces):
    trace = traces("error_recovery")
    turns = list(trace.turns)
    # turn 5 failed; pretend it had redefined `payments` before failing (rolled back)
    turns[4] = replace(turns[4], definitions=(Definition("payments", "lost doc", False),))
    v = TraceView.of(replace(trace, turns=tuple(turns)))
    row = next(r for r in v.turn(5).memory if r.name == "payments")
    assert (row.defined_in, row.changed, row.doc) == (4, False, None)


def test_memory_sample_follows_the_sample_limit(view):
    v = view("error_recovery").with_options(sample_limit=1)
    row = next(r for r in v.turn(4).memory if r.name == "payments")
    assert row.sample.endswith("(4 items, showing first 1)")


def test_memory_docstring_is_the_latest_definitions(view):
    v = view("long_exploration")
    before = next(r for r in v.turn(11).memory if r.name == "avg")
    after = next(r for r in v.turn(12).memory if r.name == "avg")
    assert before.doc == "Mean of xs; nil when xs is empty"
    assert (before.defined_in, before.changed) == (4, False)
    assert after.doc == "Mean of xs rounded to 2 decimals; nil when xs is empty"
    assert (after.defined_in, after.changed) == (12, True)
    assert after.type == "#fn[...]" and after.sample is None


def test_memory_detail_shows_each_turns_own_value_when_texts_are_kept_between_turns():
    # the samples cache keeps pretty-printed values between turns: a redefined name must show
    # its new value, never the text kept for the old one
    from benchmarks.long_trace import long_trace
    from ptc_tui.view.panes import clipped, memory_rows
    from ptc_tui.view.pretty import pretty
    trace = long_trace(40)
    turns = {t.number: t for t in trace.turns}
    kept: dict = {}
    redefined = 0
    for t in trace.turns:
        rows = memory_rows(turns, t.number, trace.agent.history, kept)
        assert [r.whole for r in rows] == [clipped(pretty(v)) for v in t.memory.values()]
        redefined += sum(r.changed and bool(r.defined_before) for r in rows)
    assert redefined > 0


def test_calls_made_turn_by_turn_are_the_calls_of_the_whole_run():
    # a call is made with the turns before it (the cache model's need) and some after it:
    # whatever order they are asked in, each is the call the whole run's split gives
    from benchmarks.long_trace import long_trace
    trace = long_trace(30)
    whole = TraceView.of(trace).calls()
    for order in (range(30), reversed(range(30)), (29, 3, 17, 0, 8)):
        view = TraceView.of(trace)
        assert all(view.call(i) == whole[i] for i in order)


def test_a_value_kept_from_turn_to_turn_is_pretty_printed_once(monkeypatch):
    # the definition under the memory table shows the chosen value whole: a late key printed
    # it again on every turn (about half of that pane's part of the key)
    from benchmarks.long_trace import long_trace
    from ptc_tui.view import panes
    trace = long_trace(12)
    turns = {t.number: t for t in trace.turns}
    printed = []
    pretty = panes.pretty
    monkeypatch.setattr(panes, "pretty", lambda v: printed.append(v) or pretty(v))
    kept: dict = {}
    before = {r.name: r.whole for r in panes.memory_rows(turns, 10, trace.agent.history, kept)}
    printed.clear()
    after = panes.memory_rows(turns, 11, trace.agent.history, kept)
    assert [r.whole for r in after] == [panes.clipped(pretty(r.value)) for r in after]
    same = [r for r in after if r.name in before and turns[10].memory[r.name] is r.value]
    assert same and len(printed) == len(after) - len(same)      # the new values only
