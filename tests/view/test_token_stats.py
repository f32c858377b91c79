"""The token view-model the `stats` command and the app share (no Rich, no Textual)."""

import dataclasses
import subprocess
import sys

import pytest

from engine.history import Turn
from engine.lisp import PtcError
from engine.llm import spec_model
from engine.tokens import TokenCounter, encoding_for_model
from engine.trace import load_trace
from ptc_tui.view.status import turn_status
from ptc_tui.view.token_stats import check_strategies, token_stats
from tests.cli.conftest import PRODUCT_TRACE


@pytest.mark.parametrize("turn, status", [
    (Turn(1, "", "(+ 1 2)"), "ok"),
    (Turn(1, "", None, error=PtcError("no_code", "no code")), "no code"),
    (Turn(1, "", "(foo)", error=PtcError("unbound_var", "foo")), "error"),
    (Turn(1, "", "(return 1)", signal="return"), "return"),
    (Turn(1, "", "(fail 1)", signal="fail"), "fail"),
])
def test_turn_status(turn, status):
    assert turn_status(turn) == status


@pytest.mark.parametrize("llm, model", [
    ("openai:gpt-4o-mini", "openai:gpt-4o-mini"), ("anthropic:claude-sonnet-4", "anthropic:claude-sonnet-4"),
    ("scripted:replies.json", None), ("replay:run.json", None), ("", None), ("my_llm", None),
    ("openai:", None), ("simulated:policy.py", None),
])
def test_the_model_an_llm_spec_names(llm, model):
    assert spec_model(llm) == model


def test_savings_against_full_even_when_full_is_not_asked_for():
    stats = token_stats(load_trace(PRODUCT_TRACE), ["namespaced"])
    assert stats.strategies == ("namespaced",)
    total = stats.total("namespaced")
    assert total.saved == stats.baseline_tokens - total.tokens
    assert total.saved_percent == pytest.approx(100 * total.saved / stats.baseline_tokens)
    assert total.cost is None and stats.price is None


def test_an_empty_trace_has_no_percent():
    trace = dataclasses.replace(load_trace(PRODUCT_TRACE), turns=())
    stats = token_stats(trace)
    assert stats.turns == () and stats.baseline_tokens == 0
    assert all(t.saved_percent is None for t in stats.totals)
    assert stats.reported_total is None and not stats.has_reported


def test_a_shared_counter_is_reused():
    counter = TokenCounter(encoding_for_model("gpt-4o"))
    first = token_stats(load_trace(PRODUCT_TRACE), counter=counter)
    assert first.encoding is counter.encoding
    assert token_stats(load_trace(PRODUCT_TRACE), counter=counter) == first


def test_overrides_apply_to_every_strategy():
    trace = load_trace(PRODUCT_TRACE)
    stats = token_stats(trace, overrides={"println_limit": 0, "tool_call_limit": None})
    assert stats.opts.println_limit == 0
    assert stats.opts.tool_call_limit == trace.agent.history.tool_call_limit
    assert stats.total("coalesced").tokens < token_stats(trace).total("coalesced").tokens


def test_unknown_strategy_is_refused():
    with pytest.raises(ValueError, match="unknown history strategy 'bogus'"):
        check_strategies(["full", "bogus"])
    assert check_strategies(["coalesced", "coalesced"]) == ("coalesced",)


def test_view_model_imports_no_ui_library():
    code = ("import sys, ptc_tui.view.token_stats; "
            "print('rich' in sys.modules, 'textual' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.stdout.split() == ["False", "False"], out.stderr


class _Request(list):
    """A request's messages that can be watched with a weak reference."""


def test_stats_hold_one_request_at_a_time_not_a_strategys_all(monkeypatch):
    """A long run's requests under one strategy take many times its file: each is counted
    and cache-split as it is rendered, then let go (the cache model keeps only the one before,
    to compare the next with)."""
    import weakref

    from benchmarks.long_trace import long_trace
    import ptc_tui.view.token_stats as module

    render = module.iter_requests
    seen: list[weakref.ref] = []
    most_alive = 0

    def watched(*args, **kwargs):
        nonlocal most_alive
        for messages, stats in render(*args, **kwargs):
            request = _Request(messages)
            seen.append(weakref.ref(request))
            most_alive = max(most_alive, sum(r() is not None for r in seen))
            yield request, stats
            del request
    monkeypatch.setattr(module, "iter_requests", watched)
    trace = long_trace(12)
    stats = token_stats(trace, model="openai:gpt-4o")
    assert len(seen) == 12 * len(set(stats.strategies) | {"full"})
    assert most_alive <= 2
    assert stats.totals[0].cached > 0                   # the cache model still saw each one
