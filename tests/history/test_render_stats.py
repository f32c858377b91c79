"""RenderStats of `coalesced` (what the LLM did not see), and rendering cost on big runs."""

from dataclasses import FrozenInstanceError, replace

import pytest

from engine.history import HistoryOpts, render_turns
from engine.history.stats import CallRef
from engine.history.turn import Response, Usage
from engine.history import visibility
from engine.history.strategies import STRATEGIES
from tests.history.build import NO_CODE, context, make_turns
from tests.history.rendering import TOOLS, coalesced_stats, request


def refs(*pairs):
    return tuple(CallRef(*p) for p in pairs)


def test_calls_and_prints_dropped_oldest_first():
    stats = coalesced_stats(['(tool/ping) (tool/ping) (println "a") (println "b")',
                             '(tool/notify 1) (println "c") (oops)',
                             '(tool/notify 2) (println "d")'],
                            tool_call_limit=2, println_limit=1)
    assert stats.strategy == "coalesced"
    assert (stats.tool_calls_total, stats.tool_calls_shown) == (3, 2)
    assert stats.tool_calls_dropped == refs((1, 0))
    assert (stats.prints_total, stats.prints_shown) == (3, 1)
    assert stats.prints_dropped == refs((1, 0), (1, 1))
    assert stats.failed_turns_shown == (2,)
    assert stats.dropped_anything


@pytest.mark.parametrize("programs, omitted", [
    pytest.param(['(def a [1]) (def b nil) (def c []) (defn f [] 1) (println "x")'], ("a",),
                 id="only-values-that-have-a-sample"),
    pytest.param(['(def a 1) (println "x")', "(def b 2)"], ("a",), id="per-turn"),
    pytest.param(["(def a 1)", "(def b 2)"], (), id="nothing-printed"),
])
def test_samples_omitted(programs, omitted):
    assert coalesced_stats(programs).samples_omitted == omitted


def test_samples_omitted_under_the_global_rule():
    stats = coalesced_stats(['(def a 1)', '(def b 2) (println "x")'], sample_rule="global")
    assert stats.samples_omitted == ("a", "b")


UNSEEN_CASES = [
    pytest.param(["(tool/fetch-all)"], [(1, 0)], {}, id="bare-call"),
    pytest.param(["(def a (tool/fetch-all))"], [], {}, id="sampled-definition"),
    pytest.param(['(def a (tool/fetch-all)) (println "x")'], [(1, 0)], {}, id="sample-withheld"),
    pytest.param(["(def a [1 2 3 4 5]) (tool/fetch-all)"], [], {}, id="equal-definition-sampled"),
    pytest.param(["(println (tool/ping))"], [], {}, id="printed"),
    pytest.param(['(println "got" (tool/get-user 3))'], [], {}, id="printed-inside-a-line"),
    pytest.param(["(println (tool/ping))"], [(1, 0)], {"println_limit": 0}, id="print-not-shown"),
    pytest.param(["(println (tool/ping))", '(println "a") (println "b")'], [(1, 0)],
                 {"println_limit": 2}, id="print-dropped-later"),
    pytest.param(["(def r (tool/ping))", "(println r)"], [], {}, id="sampled-then-printed"),
    pytest.param(['(let [r (tool/ping)] (println "a") (println r) (println "x"))'], [],
                 {"println_limit": 2}, id="printed-in-the-middle-and-shown"),
    pytest.param(['(let [r (tool/ping)] (println r) (println "x"))'], [(1, 0)],
                 {"println_limit": 1}, id="only-a-later-print-shown"),
    pytest.param(["(def r (tool/ping)) (println 1)", "(println r)"], [(1, 0)], {},
                 id="printed-by-another-turn-does-not-count"),
    pytest.param(['(tool/notify "x")'], [], {}, id="nil"),
    pytest.param(["(def a (tool/fetch-all))", "(def a 1)"], [(1, 0)], {}, id="redefined-away"),
    pytest.param(["(tool/ping) (oops)"], [], {}, id="failed-turn-not-counted"),
    pytest.param([NO_CODE, "(tool/ping) (tool/ping)"], [(2, 0), (2, 1)], {},
                 id="turn-numbers-not-positions"),
]


@pytest.mark.parametrize("programs, unseen, opts", UNSEEN_CASES)
def test_results_unseen(programs, unseen, opts):
    assert coalesced_stats(programs, **opts).results_unseen == refs(*unseen)


def test_long_printed_result_is_matched_by_its_beginning():
    tools = {"long": lambda: "L" * 5000}
    stats = coalesced_stats(["(println (tool/long))"], tools=tools)
    assert stats.results_unseen == ()


class Spy:
    """A Turn stand-in that counts every attribute read after `armed` is set."""

    def __init__(self, turn):
        self._turn, self.reads, self.armed = turn, 0, False

    def __getattr__(self, name):
        if self.armed:
            self.reads += 1
        return getattr(self._turn, name)


@pytest.mark.parametrize("strategy", ["full", "coalesced"])
def test_render_reads_no_turn_once_it_is_added(strategy):
    turns = make_turns(['(def r (tool/ping)) (println r)', "(oops", "(def s [1 2])",
                        '(tool/notify "a") (tool/notify "a")'], tools=TOOLS)
    spies = [Spy(t) for t in turns]
    renderer = STRATEGIES[strategy](context(), HistoryOpts(strategy=strategy))
    for spy in spies:
        renderer.add(spy)
    for spy in spies:
        spy.armed = True
    for _ in range(3):
        renderer.render(turns[-1].memory)
    assert [s.reads for s in spies] == [0] * len(spies)


def test_a_recorded_turn_and_what_its_provider_reported_cannot_be_changed():
    # renderers keep what they read of a turn, and views share one trace: nothing may edit it
    turn = replace(make_turns(["(tool/ping)"], tools=TOOLS)[0], usage=Usage(10, 2),
                   response=Response("gpt-4o"))
    for record, name in [(turn, "program"), (turn.usage, "input_tokens"),
                         (turn.response, "model")]:
        with pytest.raises(FrozenInstanceError):
            setattr(record, name, None)


def test_the_stats_of_a_render_cannot_be_changed():
    # the app keeps each render's stats in its cache and several views read them
    stats = coalesced_stats(["(tool/ping)"])
    with pytest.raises(FrozenInstanceError):
        stats.results_unseen = ()


BIG_TOOLS = {"big": lambda: list(range(100_000)), "mb": lambda: "m" * 1_000_000,
             "ping": lambda: "pong"}


@pytest.fixture(scope="module")
def big_run():
    """40 turns that define and re-fetch 100,000-item vectors and 1 MB strings."""
    programs = []
    for i in range(40):
        programs.append([f"(def v{i % 7} (tool/big)) (tool/big) (tool/mb)",
                         f'(def s{i % 5} (tool/mb)) (tool/big) (println (count s{i % 5}))',
                         "(oops"][i % 3])
    return make_turns(programs, tools=BIG_TOOLS)


@pytest.mark.parametrize("strategy", ["full", "coalesced"])
@pytest.mark.parametrize("opts", [{}, {"sample_rule": "global", "errors": "unrecovered"}],
                         ids=["default", "global-unrecovered"])
def test_huge_values_render_without_comparing_them_whole(big_run, strategy, opts, monkeypatch):
    work = count_calls(monkeypatch, visibility, "equals")
    requests = render_turns(strategy, big_run, context(max_turns=50), HistoryOpts(**opts))
    assert len(requests) == 40
    assert work["equals"] == 0       # too large to fingerprint: matched by identity or print
    last = requests[-1][0][-1]["content"]
    assert len(last) < 20_000
    if strategy == "coalesced" and not opts:
        assert "; Defined: v0 = list[100000], sample: [0 1 2 ...] (100000 items, showing first 3)" \
            in last
        assert ";   big() -> list[100000]" in last       # too large to compare: no definition


def test_repeated_renders_reuse_work(big_run, monkeypatch):
    renderer = STRATEGIES["coalesced"](context(max_turns=50), HistoryOpts(strategy="coalesced"))
    for turn in big_run:
        renderer.add(turn)
    first = renderer.render(big_run[-1].memory)
    work = count_calls(monkeypatch, visibility, "_comparable", "equals")
    for _ in range(20):
        assert renderer.render(big_run[-1].memory) == first
    assert work == {"_comparable": 0, "equals": 0}    # no value sized or compared again


def count_calls(monkeypatch, module, *names) -> dict:
    """Count the calls of `module`'s functions `names` from now on (module globals, so every
    caller inside the module is counted)."""
    calls = dict.fromkeys(names, 0)
    for name in names:
        real = getattr(module, name)

        def counted(*args, _name=name, _real=real, **kwargs):
            calls[_name] += 1
            return _real(*args, **kwargs)
        monkeypatch.setattr(module, name, counted)
    return calls


BIG = 100_000      # items: past the budget within which values are compared (KEY_BUDGET)
BIG_TOOLS_SMALL_RUN = {"big": lambda: list(range(BIG)), "ping": lambda: "pong",
                       "notify": lambda name: None}


@pytest.mark.parametrize("programs, unseen", [
    pytest.param(["(println (tool/big))"], [], id="printed-too-large-to-compare"),
    pytest.param(["(def a (tool/big))"], [], id="sampled-the-same-object"),
    pytest.param([f"(def a (vec (range {BIG}))) (tool/big)"], [(1, 0)],
                 id="equal-but-too-large-to-compare-is-not-seen"),
    pytest.param(["(def a (tool/big)) (def b a)", "(def a 1)"], [], id="held-by-another-name"),
])
def test_results_too_large_to_compare_are_matched_by_print_or_identity(programs, unseen):
    stats = coalesced_stats(programs, tools=BIG_TOOLS_SMALL_RUN)
    assert stats.results_unseen == refs(*unseen)


def test_full_counts_a_result_after_a_nil_one():
    # a nil result is nothing to see, and it does not hide the results after it
    _, stats, _ = request("full", ['(tool/notify "x") (tool/ping)'], tools=BIG_TOOLS_SMALL_RUN)
    assert stats.results_unseen == refs((1, 1))
    _, stats, _ = request("full", ['(tool/notify "x") (println (tool/ping))'],
                          tools=BIG_TOOLS_SMALL_RUN)
    assert stats.results_unseen == ()


def test_repeated_renders_compare_two_large_call_arguments_once(monkeypatch):
    # two calls in a row whose arguments print alike are compared with `=` to tell whether
    # to show them as one; arguments too large to fingerprint go to `equals`, once a run
    tools = {**BIG_TOOLS_SMALL_RUN, "g": lambda *args: 1}
    turns = make_turns(["(let [a (tool/big) b (tool/big)] (tool/g a) (tool/g b))"], tools=tools)
    renderer = STRATEGIES["coalesced"](context(), HistoryOpts(strategy="coalesced"))
    renderer.add(turns[0])
    work = count_calls(monkeypatch, visibility, "equals")
    first = renderer.render(turns[0].memory)
    assert work["equals"] == 1
    assert first[0][1]["content"].count(";   g([0 1 2 ...] (100000 items, showing first 3))") == 2
    for _ in range(5):
        assert renderer.render(turns[0].memory) == first
    assert work["equals"] == 1


@pytest.mark.parametrize("strategy", sorted(STRATEGIES))
def test_the_first_request_of_a_run_left_nothing_out(strategy):
    turns = make_turns(['(tool/ping) (println "x")', "(def a 1)"], tools=TOOLS)
    [(_, first), (_, second)] = render_turns(strategy, turns, context())
    assert first.strategy == strategy
    assert (first.tool_calls_total, first.tool_calls_shown, first.prints_total,
            first.prints_shown) == (0, 0, 0, 0)
    assert not first.dropped_anything
    assert (second.tool_calls_total, second.prints_total) == (1, 1)
