"""`ptc-tui compare A B`: per-turn rows, both outcomes, totals, the first divergent turn, as
text and as JSON; runs of different lengths and of different missions; bad files."""

import json
import sys

import pytest

from engine.agent import fork
from engine.llm import ScriptedLLM
from engine.trace import load_trace, save_trace
from ptc_tui.view.compare import Comparison
from sample_traces import HERE

STRATEGY = HERE / "strategy_comparison.json"
PRODUCT = HERE / "product_search.json"


@pytest.fixture
def short_fork(tmp_path):
    """strategy_comparison forked at turn 4 under `full`, returning at once."""
    parent = load_trace(STRATEGY)
    session = fork(parent, 4, ScriptedLLM(['```clojure\n(return "early")\n```']),
                   opts=parent.agent.history.with_changes(strategy="full"),
                   parent_file=STRATEGY)
    session.step()
    path = tmp_path / "early.json"
    save_trace(session.trace(), path)
    return path


def test_the_json_has_both_runs_the_turns_and_the_first_divergent_turn(cli, short_fork):
    r = cli("compare", STRATEGY, short_fork, "--json")
    assert r.status == 0
    doc = json.loads(r.out)
    assert {"a", "b", "first_divergent_turn", "turns"} <= set(doc)
    for side in ("a", "b"):
        assert {"outcome", "turns", "input_tokens", "cost"} <= set(doc[side])
    assert doc["first_divergent_turn"] == 4
    assert (doc["a"]["turns"], doc["b"]["turns"]) == (11, 4)
    assert doc["a"]["cost"] is None                   # a scripted run has no price: unknown
    assert doc["b"]["answer"] == '"early"' and doc["b"]["fork_of"] == \
        "strategy_comparison.json at turn 4"
    turns = doc["turns"]
    assert [t["turn"] for t in turns] == list(range(1, 12))       # aligned on turn number
    assert turns[4]["b"] is None and turns[4]["a"]["status"] == "ok"
    assert [t["b"]["from_parent"] for t in turns[:4]] == [True, True, True, False]
    assert [t["b"]["origin"] for t in turns[:4]] == ["parent"] * 3 + ["fork"]
    parent = load_trace(STRATEGY)
    assert turns[0]["a"]["tool_calls"] == len(parent.turns[0].tool_calls)
    assert turns[1]["a"]["prints"] == len(parent.turns[1].prints)
    assert doc["a"]["input_tokens"] == sum(t["a"]["input_tokens"] for t in turns)


def test_the_text_has_outcomes_answers_totals_and_the_marked_turn(cli, short_fork):
    r = cli("compare", STRATEGY, short_fork)
    lines = r.out.splitlines()
    assert lines[0].startswith(f"A: {STRATEGY} · scripted:strategy_comparison.py · returned · "
                               "11 turns · ")
    assert lines[0].endswith("cost unknown")
    assert lines[2].startswith(f"B: {short_fork} · scripted · returned · 4 turns")
    assert lines[3] == '   answer: "early"'
    assert "first divergent turn: 4 (the programs differ from here)" in lines
    row4 = next(x for x in lines if x.split()[:1] == ["4"])
    assert row4.endswith("differs ◀ first")
    row5 = next(x for x in lines if x.split()[:1] == ["5"])
    assert " - " in row5 and row5.endswith("differs")
    total = next(x for x in lines if x.startswith("total"))
    doc = Comparison.of(load_trace(STRATEGY), load_trace(short_fork)).as_json()
    assert f"{doc['a']['input_tokens']:,}" in total and f"{doc['b']['input_tokens']:,}" in total


def test_identical_runs_have_no_divergent_turn(cli):
    r = cli("compare", PRODUCT, PRODUCT, "--json")
    assert json.loads(r.out)["first_divergent_turn"] is None
    assert "every program is identical" in cli("compare", PRODUCT, PRODUCT).out


def test_runs_of_different_missions_compare_with_a_warning(cli):
    r = cli("compare", PRODUCT, STRATEGY)
    assert r.status == 0
    assert "warning: the two runs have different missions" in r.out
    doc = json.loads(cli("compare", PRODUCT, STRATEGY, "--json").out)
    assert doc["first_divergent_turn"] == 1 and len(doc["warnings"]) == 1


def test_files_that_are_not_traces_are_one_line_each_and_exit_2(cli, tmp_path):
    a, b = tmp_path / "a.json", tmp_path / "b.txt"
    a.write_text("[1, 2")
    b.write_text("hello")
    r = cli("compare", a, b)
    assert r.status == 2 and r.out == ""
    lines = r.err.splitlines()
    assert len(lines) == 2 and all(x.startswith("ptc-tui: ") for x in lines)
    assert "a.json: the file ends in the middle of the JSON" in lines[0]
    assert "b.txt: not valid JSON" in lines[1]


def test_on_a_terminal_compare_opens_the_app(monkeypatch, cli):
    import ptc_tui.launch
    opened = []
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    monkeypatch.setattr(ptc_tui.launch, "run_app", lambda *a, **kw: opened.append(kw) or 0)
    assert cli("compare", PRODUCT, STRATEGY).status == 0
    assert [str(p) for p in opened[0]["compare"]] == [str(PRODUCT), str(STRATEGY)]
    assert cli("compare", PRODUCT, STRATEGY, "--json").status == 0 and len(opened) == 1
