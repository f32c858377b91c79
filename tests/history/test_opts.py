"""The `compress_history` option, normalised, and its effect on rendering (docs/history-rules.md,
API-001..006)."""

from dataclasses import FrozenInstanceError, fields

import pytest

from engine.history import HistoryOpts
from tests.history.rendering import coalesced, request

TEN_PRINTS = ["(doseq [i (range 10)] (println (str \"line \" i)))"]
TEN_CALLS = ["(doseq [i (range 10)] (tool/notify i))"]


@pytest.mark.parametrize("value, strategy", [
    pytest.param(True, "coalesced", id="API-001-true"),
    pytest.param({}, "coalesced", id="API-002-empty-dict"),
    pytest.param(False, "full", id="API-003-false"),
    pytest.param(None, "full", id="API-003-none"),
    pytest.param("coalesced", "coalesced", id="name"),
    pytest.param({"strategy": "full"}, "full", id="dict-with-strategy"),
])
def test_option_picks_strategy(value, strategy):
    opts = HistoryOpts.from_option(value)
    assert opts.strategy == strategy
    assert opts.enabled is (strategy != "full")


def test_API_001_true_enables_compression_with_defaults():
    opts = HistoryOpts.from_option(True)
    assert opts.enabled
    assert (opts.println_limit, opts.tool_call_limit) == (15, 20)


def test_API_002_custom_limits():
    opts = HistoryOpts.from_option({"println_limit": 3, "tool_call_limit": 4})
    assert opts.enabled and opts.strategy == "coalesced"
    assert (opts.println_limit, opts.tool_call_limit) == (3, 4)
    assert opts.sample_limit == 3    # the others keep their defaults


def test_API_002_custom_limits_change_the_request():
    text = coalesced(TEN_PRINTS, println_limit=3)
    assert text.count("\nline ") == 3 and "line 9" in text and "line 6" not in text
    text = coalesced(TEN_CALLS, tool_call_limit=4)
    assert text.count(";   notify(") == 4 and "notify(5)" not in text


def test_API_003_false_renders_the_full_conversation():
    messages, _, _ = request("full", ["(def x 1)", "(def y 2)"])
    assert [m["role"] for m in messages] == ["system", "user", "assistant", "user",
                                             "assistant", "user"]


def test_API_004_default_println_limit_is_15():
    assert HistoryOpts().println_limit == 15
    text = coalesced(["(doseq [i (range 20)] (println (str \"p\" i)))"])
    shown = [line for line in text.splitlines() if line.startswith("p")]
    assert shown == [f"p{i}" for i in range(5, 20)]


def test_API_005_default_tool_call_limit_is_20():
    assert HistoryOpts().tool_call_limit == 20
    text = coalesced(["(doseq [i (range 25)] (tool/notify i))"])
    shown = [line for line in text.splitlines() if line.startswith(";   notify(")]
    assert shown == [f";   notify({i}) -> nil" for i in range(5, 25)]


def test_API_006_every_form_normalises_to_HistoryOpts():
    for value in (None, False, True, "coalesced", {"println_limit": 2}, HistoryOpts()):
        assert isinstance(HistoryOpts.from_option(value), HistoryOpts)
    same = HistoryOpts(strategy="coalesced", println_limit=2)
    assert HistoryOpts.from_option(same) is same
    assert HistoryOpts.from_option({"println_limit": 2}) == same


@pytest.mark.parametrize("value", [
    {"println_limt": 3}, {"println_limit": -1}, {"tool_call_limit": 2.5}, "nonesuch",
    {"sample_rule": "sometimes"}, {"errors": "some"}, 3,
])
def test_bad_options_raise_ValueError(value):
    with pytest.raises(ValueError):
        HistoryOpts.from_option(value)


@pytest.mark.parametrize("name", [f.name for f in fields(HistoryOpts)])
def test_each_option_is_checked_by_the_kind_on_its_field(name):
    info = next(f.metadata for f in fields(HistoryOpts) if f.name == name)
    assert info["help"]
    default = getattr(HistoryOpts(), name)
    assert HistoryOpts.from_option({name: default}).checked()          # the default is allowed
    bad = {"choice": "no-such-value", "count": -1, "optional": -1}[info["kind"]]
    with pytest.raises(ValueError, match=name):
        HistoryOpts.from_option({name: bad})
    if info["kind"] in ("count", "optional"):                          # 0, the edge, is allowed
        assert getattr(HistoryOpts.from_option({name: 0}), name) == 0
    if info["kind"] == "optional":
        assert getattr(HistoryOpts.from_option({name: None}), name) is None
    if info["kind"] == "choice":
        for choice in info["choices"]:
            assert getattr(HistoryOpts.from_option({name: choice}), name) == choice


def test_options_cannot_change_in_place_and_equal_ones_are_one_key():
    """A run, the app and its render cache share one HistoryOpts: a change is a new one."""
    opts = HistoryOpts.from_option({"println_limit": 2})
    with pytest.raises(FrozenInstanceError):
        opts.println_limit = 3
    assert opts.with_changes(println_limit=3).println_limit == 3 and opts.println_limit == 2
    assert {opts: "cached"}[HistoryOpts(strategy="coalesced", println_limit=2)] == "cached"
