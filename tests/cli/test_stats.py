"""`ptc-tui stats`: per-turn input tokens per strategy, totals, savings, cost."""

import dataclasses
import json

import pytest

from engine.history import render_turns
from engine.history.turn import Usage
from engine.tokens import TokenCounter, cost, encoding_for_model, price_for
from engine.trace import load_trace, save_trace
from sample_traces import trace_path
from tests.cli.conftest import PRODUCT_TRACE, SAMPLE_IDS, SAMPLES

ALL = ["full", "coalesced", "compaction", "namespaced"]


@pytest.mark.parametrize("agent", SAMPLES, ids=SAMPLE_IDS)
def test_json_numbers_are_what_the_engine_computes(cli, agent):
    path = trace_path(agent)
    r = cli("stats", path, "--json", "--println-limit", "2")
    assert r.status == 0 and r.err == ""
    doc = json.loads(r.out)
    trace = load_trace(path)
    opts = trace.agent.history.with_changes(println_limit=2)
    counter = TokenCounter(encoding_for_model(None))
    expected = {s: [counter.count_messages(m).total
                    for m, _ in render_turns(s, trace.turns, trace.context(), opts)] for s in ALL}
    assert doc["strategies"] == ALL
    assert [t["turn"] for t in doc["turns"]] == [t.number for t in trace.turns]
    for s in ALL:
        assert [t["input_tokens"][s] for t in doc["turns"]] == expected[s]
        total = sum(expected[s])
        assert doc["totals"][s]["input_tokens"] == total
        assert doc["totals"][s]["saved_tokens"] == sum(expected["full"]) - total
        assert doc["totals"][s]["cost_usd"] is None          # scripted: no model, no price
    assert doc["options"]["println_limit"] == 2
    assert doc["encoding"]["name"] == "cl100k_base"


@pytest.mark.parametrize("agent", SAMPLES, ids=SAMPLE_IDS)
def test_plain_table_has_a_row_per_turn_and_every_strategy(cli, agent):
    r = cli("stats", trace_path(agent))
    assert r.status == 0
    lines = r.out.splitlines()
    header = next(line for line in lines if line.split()[:2] == ["turn", "status"])
    assert header.split()[2:] == ALL
    trace = load_trace(trace_path(agent))
    for turn in trace.turns:
        assert any(line.split()[:1] == [str(turn.number)] for line in lines)
    assert any(line.startswith("total") for line in lines)
    assert "unknown" in r.out and "$" not in r.out        # no price: never $0
    assert "\x1b" not in r.out                              # not a terminal: no styling


def test_product_search_totals_and_savings_line(cli):
    doc = json.loads(cli("stats", PRODUCT_TRACE, "--json").out)
    out = cli("stats", PRODUCT_TRACE).out
    row = next(line for line in out.splitlines() if line.startswith("coalesced "))
    t = doc["totals"]["coalesced"]
    assert row.split() == ["coalesced", "recorded", f"{t['input_tokens']:,}",
                           f"{t['saved_tokens']:,}", f"{t['saved_percent']:.1f}%", "unknown"]


def test_strategy_subset_and_model_price(cli):
    r = cli("stats", PRODUCT_TRACE, "--strategy", "coalesced", "--strategy", "namespaced",
            "--model", "gpt-4o-mini", "--json")
    doc = json.loads(r.out)
    assert doc["strategies"] == ["coalesced", "namespaced"]
    assert set(doc["turns"][0]["input_tokens"]) == {"coalesced", "namespaced"}
    full = doc["full_input_tokens"]
    assert doc["totals"]["coalesced"]["saved_tokens"] == full - doc["totals"]["coalesced"]["input_tokens"]
    price = price_for("gpt-4o-mini")
    assert doc["totals"]["coalesced"]["cost_usd"] == cost(price, doc["totals"]["coalesced"]["input_tokens"])
    assert doc["model"] == "gpt-4o-mini" and doc["price"]["input_per_million"] == price.input
    assert doc["encoding"]["wanted"] == "o200k_base"
    plain = cli("stats", PRODUCT_TRACE, "--strategy", "coalesced", "--model", "gpt-4o-mini").out
    assert "$0.000" in plain and "model: gpt-4o-mini" in plain


def test_unpriced_model_shows_unknown_cost(cli):
    doc = json.loads(cli("stats", PRODUCT_TRACE, "--model", "no-such-model-9", "--json").out)
    assert all(t["cost_usd"] is None for t in doc["totals"].values())
    assert doc["price"] is None


def test_reported_usage_is_shown_beside_the_estimate(cli, tmp_path):
    trace = load_trace(PRODUCT_TRACE)
    reported = [1000 + t.number for t in trace.turns]
    turns = tuple(dataclasses.replace(t, usage=Usage(n, 50, None))
                  for t, n in zip(trace.turns, reported))
    path = tmp_path / "reported.json"
    save_trace(dataclasses.replace(trace, turns=turns), path)
    doc = json.loads(cli("stats", path, "--json").out)
    assert [t["reported_input_tokens"] for t in doc["turns"]] == reported
    assert doc["reported_input_tokens"] == sum(reported)
    out = cli("stats", path).out
    assert "reported" in out.splitlines()[4] and f"{sum(reported):,}" in out


def test_sample_without_usage_has_no_reported_column(cli):
    out = cli("stats", PRODUCT_TRACE).out
    assert "reported" not in out
    assert json.loads(cli("stats", PRODUCT_TRACE, "--json").out)["reported_input_tokens"] is None


def test_recorded_calls_are_priced_from_the_reported_usage(cli, tmp_path):
    trace = load_trace(PRODUCT_TRACE)
    turns = tuple(dataclasses.replace(t, usage=Usage(2000, 100, 1500)) for t in trace.turns)
    path = tmp_path / "reported.json"
    save_trace(dataclasses.replace(trace, turns=turns), path)
    doc = json.loads(cli("stats", path, "--model", "gpt-4o-mini", "--json").out)
    n = len(turns)
    price = price_for("gpt-4o-mini")
    calls = doc["recorded_calls"]
    assert (calls["input_tokens"], calls["cached_tokens"], calls["output_tokens"]) == \
        (2000 * n, 1500 * n, 100 * n)
    assert not calls["input_counted"] and not calls["output_counted"]
    assert calls["cost_usd"] == pytest.approx(
        n * (500 * price.input + 1500 * price.cached_input + 100 * price.output) / 1e6)
    line = next(line for line in cli("stats", path, "--model", "gpt-4o-mini").out.splitlines()
                if line.startswith("recorded LLM calls"))
    assert f"input {2000 * n:,} ({1500 * n:,} cached), output {100 * n:,}, cost $" in line


def test_recorded_calls_without_usage_say_their_tokens_were_counted(cli):
    doc = json.loads(cli("stats", PRODUCT_TRACE, "--json").out)
    calls = doc["recorded_calls"]
    assert calls["input_counted"] and calls["output_counted"] and calls["output_tokens"] > 0
    assert calls["cost_usd"] is None                 # scripted: no model, no price
    line = next(line for line in cli("stats", PRODUCT_TRACE).out.splitlines()
                if line.startswith("recorded LLM calls"))
    assert "(counted), output" in line and line.endswith("(counted), cost unknown")


def test_each_strategy_row_says_whether_its_counts_are_recorded_or_what_if(cli):
    def counts(*argv):
        out = cli("stats", PRODUCT_TRACE, *argv).out.splitlines()
        start = next(i for i, x in enumerate(out) if x.startswith("strategy "))
        return {x.split()[0]: x.split()[1] for x in out[start + 1:start + 5]}, out

    labels, out = counts()
    assert labels == {"full": "what-if", "coalesced": "recorded", "compaction": "what-if",
                      "namespaced": "what-if"}
    assert not any(x.startswith("what-if for every strategy") for x in out)
    # another limit makes every row a what-if, the recorded strategy's too
    labels, out = counts("--println-limit", "2")
    assert set(labels.values()) == {"what-if"}
    assert "what-if for every strategy: println_limit 2 (recorded: println_limit 15)" in out
    assert out[1].startswith("recorded strategy: coalesced; println_limit 15,")
    doc = json.loads(cli("stats", PRODUCT_TRACE, "--json").out)
    assert {s: t["recorded_options"] for s, t in doc["totals"].items()} == \
        {"full": False, "coalesced": True, "compaction": False, "namespaced": False}
    doc = json.loads(cli("stats", PRODUCT_TRACE, "--println-limit", "2", "--json").out)
    assert not any(t["recorded_options"] for t in doc["totals"].values())


@pytest.mark.parametrize("name, value", [("args_printable_limit", 3), ("sample_limit", 0),
                                         ("keep_recent_turns", 0), ("compaction_tokens", 100)])
def test_any_option_given_as_name_equals_value_counts_as_the_engine_renders(cli, name, value):
    path = str(trace_path(next(p for p in SAMPLES if p.stem == "tool_heavy")))
    doc = json.loads(cli("stats", path, "--json", "--option", f"{name}={value}").out)
    trace = load_trace(path)
    opts = trace.agent.history.with_changes(**{name: value})
    counter = TokenCounter(encoding_for_model(None))
    for s in ALL:
        expected = [counter.count_messages(m).total
                    for m, _ in render_turns(s, trace.turns, trace.context(), opts)]
        assert [t["input_tokens"][s] for t in doc["turns"]] == expected
    assert doc["options"][name] == value
