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


TOOL_HEAVY = str(trace_path(next(p for p in SAMPLES if p.stem == "tool_heavy")))


def test_costs_with_caching_split_every_request_and_price_each_part(cli):
    doc = json.loads(cli("stats", TOOL_HEAVY, "--model", "gpt-4.1", "--json").out)
    assert doc["caching"] == {"family": "openai", "min_prefix_tokens": 1024,
                              "granularity_tokens": 128, "lifetime_seconds": 300.0,
                              "breakpoints": False}
    price = price_for("gpt-4.1")
    for s in ALL:
        total = doc["totals"][s]
        cached = [t["cached_tokens"][s] for t in doc["turns"]]
        assert total["cached_tokens"] == sum(cached) > 0
        assert all(n == 0 or (n >= 1024 and n % 128 == 0) for n in cached)
        assert cached[0] == 0                                   # nothing before the first
        assert total["cache_write_tokens"] == 0                 # OpenAI: no writes billed
        assert total["cost_with_caching_usd"] == pytest.approx(
            ((total["input_tokens"] - total["cached_tokens"]) * price.input
             + total["cached_tokens"] * price.cached_input) / 1e6)
        assert total["cost_with_caching_usd"] < total["cost_usd"]


def test_caching_can_make_the_compressing_strategy_the_dearer_one(cli):
    """The point of modelling it: on tool_heavy `coalesced` sends fewer tokens than `full` but,
    having broken the cached prefix, costs more once the cache is counted."""
    totals = json.loads(cli("stats", TOOL_HEAVY, "--model", "gpt-4.1", "--json").out)["totals"]
    full, coalesced = totals["full"], totals["coalesced"]
    assert coalesced["cost_usd"] < full["cost_usd"]
    assert coalesced["cost_with_caching_usd"] > full["cost_with_caching_usd"]
    assert coalesced["saved_percent_with_caching"] < 0 < coalesced["saved_percent"]


def test_no_cache_gives_the_figures_without_caching(cli):
    with_cache = json.loads(cli("stats", TOOL_HEAVY, "--model", "gpt-4.1", "--json").out)
    doc = json.loads(cli("stats", TOOL_HEAVY, "--model", "gpt-4.1", "--no-cache", "--json").out)
    assert doc["caching"] is None
    assert all("cost_with_caching_usd" not in t and "cached_tokens" not in t
               for t in doc["totals"].values())
    assert [t["cost_usd"] for t in doc["totals"].values()] == \
        [t["cost_usd"] for t in with_cache["totals"].values()]
    assert doc["recorded_calls"]["cached_tokens"] == 0
    assert with_cache["recorded_calls"]["cached_tokens"] > 0
    assert with_cache["recorded_calls"]["cost_usd"] < doc["recorded_calls"]["cost_usd"]
    out = cli("stats", TOOL_HEAVY, "--model", "gpt-4.1", "--no-cache").out
    assert "cost with caching" not in out and "costs without prompt caching" in out


def test_a_model_whose_provider_does_not_cache_shows_no_caching_columns(cli):
    out = cli("stats", TOOL_HEAVY, "--model", "ollama:llama3").out
    assert "cost with caching" not in out and "no prompt cache for this model's provider" in out


def test_reported_cache_reads_are_shown_beside_the_models(cli, tmp_path):
    trace = load_trace(TOOL_HEAVY)
    turns = tuple(dataclasses.replace(t, usage=Usage(None, None, 1024 * (i > 0)))
                  for i, t in enumerate(trace.turns))
    path = tmp_path / "reported.json"
    save_trace(dataclasses.replace(trace, turns=turns), path)
    doc = json.loads(cli("stats", path, "--model", "gpt-4.1", "--json").out)
    reported = 1024 * (len(turns) - 1)
    assert doc["reported_cached_tokens"] == reported
    modelled = doc["totals"][trace.agent.history.strategy]["cached_tokens"]
    assert doc["modelled_cached_tokens"] == modelled
    assert [t["reported_cached_tokens"] for t in doc["turns"]][:2] == [0, 1024]
    out = cli("stats", path, "--model", "gpt-4.1").out
    assert (f"cache reads the provider reported (coalesced, as sent): {reported:,}; "
            f"the cache model gives {modelled:,}") in out
    # the recorded calls take the provider's reads, not the model's
    assert doc["recorded_calls"]["cached_tokens"] == reported


@pytest.fixture
def cl100k_only(monkeypatch, tmp_path):
    """Counts with cl100k_base whatever tiktoken has downloaded on this machine (o200k_base is
    then unavailable offline), so pinned counts are the same everywhere."""
    from engine.tokens import encodings
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path))
    encodings._encoding.cache_clear()
    encodings.load_encoding.cache_clear()
    yield
    encodings._encoding.cache_clear()
    encodings.load_encoding.cache_clear()


def test_stats_table_with_caching(cli, snapshot, cl100k_only):
    """The tables as a user reads them, pinned (after the header lines, which name this
    machine's path and encoding); their numbers are the JSON's."""
    out = cli("stats", TOOL_HEAVY, "--model", "gpt-4.1").out
    head, tables = out.split("\n\n", 1)
    assert head.splitlines()[2].startswith("model: gpt-4.1; encoding ")
    doc = json.loads(cli("stats", TOOL_HEAVY, "--model", "gpt-4.1", "--json").out)
    for s, t in doc["totals"].items():
        row = next(line for line in out.splitlines() if line.startswith(s + " "))
        assert row.split()[-4:-2] == [f"{t['cached_tokens']:,}", f"{t['cache_write_tokens']:,}"]
    assert tables == snapshot
