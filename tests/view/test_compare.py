"""The compare view-model without Textual: turn pairs aligned on number, side-by-side rows of
two texts, the fork form's checks and finding a saved fork's parent."""

import shutil

import pytest

from engine.agent import fork, fork_llm
from engine.history import HistoryOpts
from engine.llm import ScriptedLLM
from engine.trace import load_trace, save_trace
from ptc_tui.view.compare import Comparison
from ptc_tui.view.forks import find_parent, parse_request
from ptc_tui.view.side_by_side import CONTEXT, SideRow, request_text, side_by_side
from sample_traces import HERE


def test_side_by_side_pairs_changed_lines_and_pads_the_shorter_side():
    rows = side_by_side("a\nb\nc", "a\nB\nc\nd")
    assert rows == (SideRow("same", "a", "a"), SideRow("changed", "b", "B"),
                    SideRow("same", "c", "c"), SideRow("right", None, "d"))
    assert side_by_side("x\ny", "y")[0] == SideRow("left", "x", None)
    assert side_by_side(None, "z") == (SideRow("right", None, "z"),)


def test_folding_keeps_context_around_a_change_and_says_how_much_it_hid():
    same = "\n".join(f"line {i}" for i in range(40))
    rows = side_by_side(same + "\nend A", same + "\nend B", fold=True)
    assert rows[0] == SideRow("folded", "⋯ 37 identical lines", "⋯ 37 identical lines")
    assert [r.left for r in rows[1:1 + CONTEXT]] == ["line 37", "line 38", "line 39"]
    assert rows[-1] == SideRow("changed", "end A", "end B")
    assert len(side_by_side(same, same)) == 40            # not folded unless asked


def test_a_request_reads_as_role_headed_messages():
    text = request_text([{"role": "system", "content": "S"}, {"role": "user", "content": "U"}])
    assert text == "── SYSTEM ──\nS\n── USER ──\nU"


def test_runs_of_different_lengths_align_on_turn_number():
    parent = load_trace(HERE / "out_of_turns.json")
    longer = fork(parent, 4, ScriptedLLM(["```clojure\n(def x 1)\n```",
                                         "```clojure\n(return 2)\n```"]), max_turns=5)
    while not longer.done:
        longer.step()
    c = Comparison.of(parent, longer.trace())
    assert [p.number for p in c.pairs] == [1, 2, 3, 4, 5]
    assert c.pairs[4].a is None and c.pairs[4].b.status == "return"
    assert c.first_divergent_turn == 4 and c.b.outcome == "returned"
    assert c.a.outcome == "out of turns"
    assert [p.b.origin for p in c.pairs] == ["parent"] * 3 + ["fork"] * 2
    assert {p.a.origin for p in c.pairs if p.a} == {""}             # not a fork: no origin


@pytest.mark.parametrize("fields, problem", [
    (("", "full", "x", "5", "8", ""), "println_limit: not a whole number: x"),
    (("", "full", "3", "5", "2", ""), "max_turns: at least 3"),
    (("", "full", "3", "5", "", ""), "max_turns: not a whole number"),
    (("", "full", "3", "5", "8", "/no/such/agent.py"), "agent file: no such file"),
])
def test_the_fork_form_names_the_field_that_is_wrong(fields, problem):
    with pytest.raises(ValueError, match=problem):
        parse_request(3, *fields, HistoryOpts())


def test_the_fork_form_gives_the_request():
    r = parse_request(3, " openai:gpt-4o ", "namespaced", "4", "2", "9", "", HistoryOpts())
    assert (r.at, r.llm, r.max_turns, r.agent) == (3, "openai:gpt-4o", 9, None)
    assert (r.opts.strategy, r.opts.println_limit, r.opts.tool_call_limit) == ("namespaced", 4, 2)
    assert parse_request(3, "", "full", "4", "2", "9", "", HistoryOpts()).llm is None


def test_a_saved_forks_parent_is_found_beside_it_and_checked(tmp_path):
    parent_path = tmp_path / "parent.json"
    shutil.copy(HERE / "product_search.json", parent_path)
    parent = load_trace(parent_path)
    child = fork(parent, 2, fork_llm(None, parent, 2), parent_file=parent_path).trace()
    assert find_parent(child, tmp_path / "fork.json") == (parent_path, "")
    parent_path.write_text(parent_path.read_text() + " ")
    path, note = find_parent(child, tmp_path / "fork.json")
    assert path == parent_path and "has changed since the fork" in note
    parent_path.unlink()
    assert find_parent(child, tmp_path / "fork.json")[0] is None
    save_trace(parent, tmp_path / "other.json")
    assert find_parent(parent, None) == (None, "this trace is not a fork")


def test_a_huge_side_is_cut_with_a_line_saying_so():
    """A 50 MB reply quoted in a request must not be laid out whole on the compare screen."""
    huge = "word " * 1_000_000
    rows = side_by_side(huge, "short")
    left = "\n".join(r.left for r in rows if r.left is not None)
    assert len(left) < 300_000 and "more characters" in left and "the trace has them all" in left
    many = "\n".join(map(str, range(20_000)))
    rows = side_by_side(many, many)
    assert len(rows) < 6_000 and "more lines" in rows[-1].left


def test_each_side_is_priced_from_the_providers_usage_part_by_part():
    import dataclasses
    from engine.history import Usage
    from engine.tokens import price_for
    trace = load_trace(HERE / "product_search.json")
    agent = dataclasses.replace(trace.agent, llm="openai:gpt-4.1")
    reported = dataclasses.replace(trace, agent=agent, turns=tuple(
        dataclasses.replace(t, usage=Usage(2000, 100, 1024)) for t in trace.turns))
    c = Comparison.of(trace, reported)
    n = len(trace.turns)
    assert (c.b.input_tokens, c.b.output_tokens) == (2000 * n, 100 * n)
    price = price_for("gpt-4.1")
    cached = price.cached_input if price.cached_input is not None else price.input
    per_turn = (976 * price.input + 1024 * cached + 100 * price.output) / 1e6
    assert c.b.cost == pytest.approx(per_turn * n)
    assert c.a.cost is None                     # a scripted run: no model, no price
    assert [p.b.input_tokens for p in c.pairs] == [2000] * n


def test_a_side_without_reported_cache_figures_is_priced_with_the_cache_model():
    """The compare screen's cost is `stats`' cost of the recorded calls, prompt caching
    included: the same number from the same function."""
    import dataclasses
    from engine.tokens import TokenCounter, encoding_for_model, price_for, total_cost
    from engine.tokens import run_costs
    trace = load_trace(HERE / "tool_heavy.json")
    agent = dataclasses.replace(trace.agent, llm="openai:gpt-4.1")
    priced = dataclasses.replace(trace, agent=agent)
    c = Comparison.of(trace, priced)
    counter = TokenCounter(encoding_for_model("gpt-4.1"))
    price = price_for("gpt-4.1")
    with_cache = total_cost(run_costs(trace.turns, price, counter, "openai:gpt-4.1")).usd
    without = total_cost(run_costs(trace.turns, price, counter, "openai:gpt-4.1",
                                   caching=False)).usd
    assert c.b.cost == pytest.approx(with_cache) and with_cache < without
