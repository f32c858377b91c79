"""`ptc-tui render`: the exact messages of one turn's request, their tokens, what was dropped."""

import dataclasses
import json

import pytest

from engine.agent import execute_turn, fork, fork_llm
from engine.history import Response, Usage, render
from engine.tokens import TokenCounter, encoding_for_model, price_for
from engine.trace import load_trace, save_trace
from ptc_tui.view.status import turn_status
from sample_traces import HERE, trace_path
from tests.cli.conftest import PRODUCT_TRACE, SAMPLE_IDS, SAMPLES


def expected_request(trace, n, strategy, opts):
    memory = trace.turns[n - 2].memory if n > 1 else {}
    return render(strategy, trace.turns[:n - 1], memory, trace.context(), opts)


@pytest.mark.parametrize("agent", SAMPLES, ids=SAMPLE_IDS)
def test_recorded_strategy_shows_exactly_the_messages_sent(cli, agent):
    path = trace_path(agent)
    trace = load_trace(path)
    for turn in trace.turns:
        r = cli("render", path, "--turn", turn.number)
        assert r.status == 0 and r.err == ""
        counts = TokenCounter(encoding_for_model(None)).count_messages(turn.messages)
        for message, count in zip(turn.messages, counts.per_message):
            block = f"----- {message['role'].upper()} ({count:,} tokens) -----\n{message['content']}\n"
            assert block in r.out
        assert f"input tokens: {counts.total:,}" in r.out


@pytest.mark.parametrize("strategy", ["full", "coalesced", "compaction", "namespaced"])
def test_json_messages_equal_the_engine_render(cli, strategy):
    trace = load_trace(PRODUCT_TRACE)
    r = cli("render", PRODUCT_TRACE, "--turn", 3, "--strategy", strategy,
            "--println-limit", 1, "--sample-rule", "global", "--errors", "unrecovered", "--json")
    doc = json.loads(r.out)
    opts = trace.agent.history.with_changes(println_limit=1, sample_rule="global",
                                            errors="unrecovered")
    messages, stats = expected_request(trace, 3, strategy, opts)
    assert [{"role": m["role"], "content": m["content"]} for m in doc["messages"]] == messages
    counts = TokenCounter(encoding_for_model(None)).count_messages(messages)
    assert [m["tokens"] for m in doc["messages"]] == list(counts.per_message)
    assert doc["input_tokens"] == counts.total and doc["strategy"] == strategy
    assert [(p["turn"], p["index"]) for p in doc["dropped"]["prints"]] == \
        [tuple(ref) for ref in stats.prints_dropped]


def test_dropped_tool_calls_and_prints_are_listed(cli):
    r = cli("render", PRODUCT_TRACE, "--turn", 3, "--strategy", "coalesced",
            "--tool-call-limit", 0, "--println-limit", 1)
    assert r.status == 0
    dropped = r.out[r.out.index("\ndropped:"):]
    assert "tool calls (tool_call_limit): 2" in dropped
    assert "    turn 1: search-reviews(\"Electronics\")\n" in dropped
    assert "    turn 1: get-inventory()\n" in dropped
    assert "prints (println_limit): 3" in dropped
    assert "    turn 1: Reviews: Customer Review Summary for Electronics: ...\n" in dropped
    assert "definitions without samples:" in dropped


def test_first_turn_drops_nothing(cli):
    r = cli("render", PRODUCT_TRACE, "--turn", 1)
    assert r.out.rstrip().endswith("dropped: nothing")


def test_compared_with_full(cli):
    doc = json.loads(cli("render", PRODUCT_TRACE, "--turn", 3, "--json").out)
    full = json.loads(cli("render", PRODUCT_TRACE, "--turn", 3, "--strategy", "full",
                          "--json").out)
    assert doc["full_input_tokens"] == full["input_tokens"]
    text = cli("render", PRODUCT_TRACE, "--turn", 3).out
    diff = doc["input_tokens"] - full["input_tokens"]
    assert f"({full['input_tokens']:,} under full, {diff:+,})" in text


def test_the_recorded_llm_call_is_shown_priced_part_by_part(cli, tmp_path):
    trace = load_trace(PRODUCT_TRACE)
    second = dataclasses.replace(trace.turns[1], usage=Usage(3000, 200, 2048), llm_ms=1234.0,
                                 run_ms=5.25, response=Response("gpt-4o-mini-2024-07-18",
                                                                "chatcmpl-9", "stop", "stop"))
    path = tmp_path / "called.json"
    save_trace(dataclasses.replace(trace, turns=(trace.turns[0], second, *trace.turns[2:])), path)
    price = price_for("gpt-4o-mini")
    doc = json.loads(cli("render", path, "--turn", 2, "--model", "gpt-4o-mini", "--json").out)
    call = doc["recorded_call"]
    assert (call["model"], call["response_id"], call["finish_reason"]) == \
        ("gpt-4o-mini-2024-07-18", "chatcmpl-9", "stop")
    assert (call["input_tokens"], call["cached_tokens"], call["output_tokens"]) == (3000, 2048, 200)
    assert call["cost_usd"] == pytest.approx(
        (952 * price.input + 2048 * price.cached_input + 200 * price.output) / 1e6)
    out = cli("render", path, "--turn", 2, "--model", "gpt-4o-mini").out
    line = next(x for x in out.splitlines() if x.startswith("recorded LLM call"))
    assert "model gpt-4o-mini-2024-07-18 finish stop, LLM 1.23 s, program 5.2 ms" in line
    assert "input 3,000 (2,048 cached), output 200, cost $0.000" in line
    # a turn the provider reported nothing for: counted, and said so
    first = next(x for x in cli("render", path, "--turn", 1).out.splitlines()
                 if x.startswith("recorded LLM call"))
    assert "(counted), output" in first and first.endswith("(counted), cost unknown")


def test_the_first_lines_say_whether_the_options_are_the_recorded_ones(cli):
    lines = cli("render", PRODUCT_TRACE, "--turn", 2).out.splitlines()
    assert lines[1] == "recorded options: coalesced"
    what_if = cli("render", PRODUCT_TRACE, "--turn", 2, "--strategy", "compaction",
                  "--println-limit", 5).out.splitlines()
    assert what_if[1] == ("what-if: compaction, println_limit 5 "
                          "(recorded: coalesced, println_limit 15)")
    assert next(x for x in what_if if x.startswith("input tokens")).startswith(
        "input tokens (what-if): ")
    # the recorded options given again on the command line are still the recorded ones
    same = cli("render", PRODUCT_TRACE, "--turn", 2, "--strategy", "coalesced",
               "--println-limit", 15).out.splitlines()
    assert same[1] == "recorded options: coalesced"
    doc = json.loads(cli("render", PRODUCT_TRACE, "--turn", 2, "--errors", "unrecovered",
                         "--json").out)
    assert doc["recorded_options"] is False and doc["recorded_values"] == {"errors": "all"}
    doc = json.loads(cli("render", PRODUCT_TRACE, "--turn", 2, "--json").out)
    assert doc["recorded_options"] is True and doc["recorded_values"] == {}


def test_reply_shows_the_whole_reply_with_the_program_marked(cli):
    trace = load_trace(PRODUCT_TRACE)
    reply = trace.turns[1].raw_response
    out = cli("render", PRODUCT_TRACE, "--turn", 2, "--reply").out
    section = out[out.index("----- REPLY ("):out.index("----- end -----")]
    heading, *lines = section.rstrip("\n").split("\n")
    assert "▶ the program taken from it" in heading and "what-if" not in heading
    assert [line[2:] for line in lines] == reply.split("\n")           # the whole reply
    marked = [line[2:] for line in lines if line.startswith("▶ ")]
    assert marked[0] == "```clojure" and marked[-1] == "```"
    assert "\n".join(marked[1:-1]).strip() == trace.turns[1].program
    assert all(line.startswith("  ") for line in lines if "thinking:" in line)
    assert "REPLY" not in cli("render", PRODUCT_TRACE, "--turn", 2).out
    doc = json.loads(cli("render", PRODUCT_TRACE, "--turn", 2, "--reply", "--json").out)
    [(start, end)] = doc["reply"]["program_spans"]
    assert doc["reply"]["text"][start:end].startswith("```clojure")
    assert doc["reply"]["program_ran"] is True


def test_a_truncated_reply_says_its_program_did_not_run(cli, tmp_path):
    trace = load_trace(PRODUCT_TRACE)
    cut = execute_turn(1, trace.turns[0].raw_response, {}, messages=trace.turns[0].messages,
                       response=Response(finish_reason="length", provider_finish_reason="length"))
    assert cut.program is not None and turn_status(cut) == "error"    # not "ok", not "no code"
    path = tmp_path / "cut.json"
    save_trace(dataclasses.replace(trace, turns=(cut,)), path)
    out = cli("render", path, "--turn", 1, "--reply").out
    heading = next(x for x in out.splitlines() if x.startswith("----- REPLY"))
    assert "not run: truncated" in heading
    assert "finish length" in next(x for x in out.splitlines()
                                   if x.startswith("recorded LLM call"))


def test_a_forks_inherited_turn_says_the_parent_sent_it_under_other_options(cli, tmp_path):
    parent = load_trace(PRODUCT_TRACE)
    opts = parent.agent.history.with_changes(strategy="namespaced")
    session = fork(parent, 3, fork_llm(None, parent, 3, "product_search.json"), opts=opts)
    while not session.done:
        session.step()
    path = tmp_path / "fork.json"
    save_trace(session.trace(), path)
    second = cli("render", path, "--turn", 2).out.splitlines()[1]
    assert second == ("recorded options: namespaced; but turn 2 was sent by the parent run, "
                      "whose strategy was not the fork's")
    assert cli("render", path, "--turn", 3).out.splitlines()[1] == "recorded options: namespaced"


# a value for every history option far from the trace's (tool_heavy: 25 tool calls, prints)
OPTION_VALUES = {"println_limit": 0, "tool_call_limit": 1, "sample_limit": 0,
                 "sample_printable_limit": 5, "args_limit": 0, "args_printable_limit": 3,
                 "sample_rule": "global", "errors": "unrecovered", "compaction_turns": 1,
                 "compaction_tokens": 100, "keep_recent_turns": 0}


def test_every_history_option_has_a_value_here():
    from ptc_tui.view.options import FIELDS
    assert set(OPTION_VALUES) == {f.name for f in FIELDS} - {"strategy"}


@pytest.mark.parametrize("name", sorted(OPTION_VALUES))
def test_any_option_given_as_name_equals_value_renders_as_the_engine_does(cli, name):
    # headless parity with the options panel: every option, as the engine renders it
    path = str(trace_path(next(p for p in SAMPLES if p.stem == "tool_heavy")))
    trace = load_trace(path)
    value = OPTION_VALUES[name]
    for strategy in ("coalesced", "namespaced", "compaction"):
        r = cli("render", path, "--turn", 6, "--strategy", strategy,
                "--option", f"{name}={value}", "--json")
        assert r.status == 0, r.err
        opts = trace.agent.history.with_changes(**{name: value})
        messages, _ = expected_request(trace, 6, strategy, opts)
        assert [{"role": m["role"], "content": m["content"]}
                for m in json.loads(r.out)["messages"]] == messages


@pytest.mark.parametrize("given, problem", [
    ("bogus=1", "unknown history option 'bogus'"),
    ("args_limit", "expected NAME=VALUE"),
    ("args_limit=-1", "args_limit: must be ≥ 0"),
    ("sample_rule=sometimes", "sample_rule: one of turn, global"),
    ("strategy=full", "the strategy has its own flag"),
])
def test_a_bad_option_is_one_line_and_exit_2(cli, given, problem):
    r = cli("render", PRODUCT_TRACE, "--option", given)
    assert r.status == 2 and problem in r.err and len(r.err.strip().splitlines()) == 1


def test_a_named_flag_wins_over_the_same_option_given_with_option(cli):
    r = cli("render", PRODUCT_TRACE, "--turn", 3, "--option", "println_limit=0",
            "--println-limit", 2, "--json")
    assert json.loads(r.out)["options"]["println_limit"] == 2


def test_the_turns_calls_add_up_to_what_stats_says_the_run_cost(cli):
    """Priced one way everywhere: render's call of each turn has the cache model's reads
    where the provider reported none, as stats does."""
    trace = str(HERE / "tool_heavy.json")
    turns = len(load_trace(trace).turns)
    calls = [json.loads(cli("render", trace, "--turn", n, "--model", "gpt-4.1", "--json").out)
             ["recorded_call"] for n in range(1, turns + 1)]
    stats = json.loads(cli("stats", trace, "--model", "gpt-4.1", "--json").out)
    assert sum(c["cost_usd"] for c in calls) == pytest.approx(
        stats["recorded_calls"]["cost_usd"])
    assert sum(c["cached_tokens"] for c in calls) == stats["recorded_calls"]["cached_tokens"] > 0
