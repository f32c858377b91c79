"""`ptc-tui fork TRACE --at N`: headless forks of the samples, every option taking effect, real
tools with --agent, bad input as one line with exit 2 and nothing written."""

import json
import os
import sys

import pytest

from engine.trace import load_trace
from sample_traces import HERE

STRATEGY = HERE / "strategy_comparison.json"
PRODUCT = HERE / "product_search.json"


def code(program: str) -> str:
    return f"```clojure\n{program}\n```"


def replies(tmp_path, *programs) -> str:
    path = tmp_path / "replies.json"
    path.write_text(json.dumps([code(p) for p in programs]))
    return f"scripted:{path}"


def test_a_fork_under_the_traces_options_reproduces_it_and_records_its_parent(cli, tmp_path):
    out = tmp_path / "fork.json"
    r = cli("fork", STRATEGY, "--at", 5, "-o", out)
    assert r.status == 0 and r.err == ""
    lines = r.out.splitlines()
    assert "fork at turn 5 (turns 1–4 taken over as recorded); LLM replay:strategy_comparison.json" \
        in lines[0]
    assert lines[1] == "turn 5: ok" and f"saved {out}" == lines[-1]
    fork, parent = load_trace(out), load_trace(STRATEGY)
    assert [t.program for t in fork.turns] == [t.program for t in parent.turns]
    assert (fork.parent.file, fork.parent.turn) == ("strategy_comparison.json", 5)
    assert fork.parent.changed == {"llm": "replay:strategy_comparison.json"}
    compared = json.loads(cli("compare", STRATEGY, out, "--json").out)
    assert compared["first_divergent_turn"] is None


def test_a_scripted_reply_diverges_at_exactly_n(cli, tmp_path):
    out = tmp_path / "fork.json"
    r = cli("fork", STRATEGY, "--at", 3, "--llm", replies(tmp_path, '(return "short")'),
            "-o", out)
    assert r.status == 0 and r.out.splitlines()[-2] == 'returned: "short"'
    compared = json.loads(cli("compare", STRATEGY, out, "--json").out)
    assert compared["first_divergent_turn"] == 3
    assert compared["b"]["turns"] == 3 and compared["b"]["outcome"] == "returned"


@pytest.mark.parametrize("flag, value, field, expected", [
    ("--compress", "namespaced", "strategy", "namespaced"),
    ("--compress", "false", "strategy", "full"),
    ("--println-limit", 2, "println_limit", 2),
    ("--tool-call-limit", 1, "tool_call_limit", 1),
])
def test_each_history_option_reaches_the_forks_requests(cli, tmp_path, flag, value, field,
                                                       expected):
    out = tmp_path / "fork.json"
    assert cli("fork", STRATEGY, "--at", 6, flag, value, "-o", out).status == 0
    fork = load_trace(out)
    assert getattr(fork.agent.history, field) == expected
    assert fork.parent.changed[field] == expected
    parent = load_trace(STRATEGY)
    assert fork.turns[5].messages != parent.turns[5].messages
    assert fork.turns[4].messages == parent.turns[4].messages
    # turn 6 on were sent what the new options render: validate re-renders and checks them
    r = cli("validate", out)
    assert r.status == 0 and "a fork: turns from 6 checked" in r.out


def test_validate_still_catches_a_forks_own_turn_that_was_not_sent_as_rendered(cli, tmp_path):
    out = tmp_path / "fork.json"
    assert cli("fork", STRATEGY, "--at", 6, "--compress", "namespaced", "-o", out).status == 0
    doc = json.loads(out.read_text())
    last = doc["turns"][7]["sent"][-1]
    doc["messages"][last]["content"] += " tampered"
    out.write_text(json.dumps(doc))
    r = cli("validate", out)
    assert r.status == 1 and "turn 8 (namespaced)" in r.err


def test_max_turns_changes_the_budget(cli, tmp_path):
    out = tmp_path / "fork.json"
    r = cli("fork", HERE / "out_of_turns.json", "--at", 4, "--max-turns", 5, "--llm",
            replies(tmp_path, "(def x 1)", "(return 2)"), "-o", out)
    assert r.status == 0 and load_trace(out).agent.max_turns == 5
    assert len(load_trace(out).turns) == 5


AGENT = '''
from engine.agent import SubAgent
from sample_traces.product_search import agent as recorded

def search_reviews(category: str) -> str:
    return "live reviews of " + category

agent = SubAgent(mission=recorded.mission, data=recorded.data,
                 tools={"search-reviews": search_reviews, "get-inventory": lambda: "none"})
'''


def test_with_an_agent_file_its_real_tools_run(cli, tmp_path):
    agent = tmp_path / "agent.py"
    agent.write_text(AGENT)
    out = tmp_path / "fork.json"
    r = cli("fork", PRODUCT, "--at", 2, "--agent", agent, "--llm",
            replies(tmp_path, '(return (tool/search-reviews "Garden"))'), "-o", out)
    assert r.status == 0 and 'returned: "live reviews of Garden"' in r.out
    assert load_trace(out).parent.tools == "agent"


def test_without_it_an_unrecorded_call_is_a_tool_error(cli, tmp_path):
    r = cli("fork", PRODUCT, "--at", 2, "--llm",
            replies(tmp_path, '(tool/search-reviews "Garden")', "(return 1)"))
    assert "not available in a fork without its agent file" in r.out


@pytest.mark.parametrize("args, problem", [
    (["--at", 9], "product_search.json: turn 9 is out of range: the trace has 3 turns (1–3)"),
    (["--at", 0], "product_search.json: turn 0 is out of range"),
    (["--at", 2, "--agent", "no_such_agent.py"], "no_such_agent.py: no such file"),
    (["--at", 2, "--llm", "nope:model"], "--llm nope:model: unknown LLM spec 'nope:model'"),
    (["--at", 3, "--max-turns", 2], "max_turns 2 is below the turn the fork starts at (3)"),
])
def test_bad_input_is_one_line_exit_2_and_nothing_written(cli, tmp_path, args, problem):
    out = tmp_path / "fork.json"
    r = cli("fork", PRODUCT, *args, "-o", out)
    assert r.status == 2 and r.out == ""
    assert r.err.startswith("ptc-tui: ") and problem in r.err and r.err.count("\n") == 1
    assert not out.exists()


def test_a_file_that_is_not_a_trace_is_refused(cli, tmp_path):
    bad = tmp_path / "notes.json"
    bad.write_text('{"hello": 1}')
    out = tmp_path / "fork.json"
    r = cli("fork", bad, "--at", 1, "-o", out)
    assert r.status == 2 and "notes.json: not a ptc-tui trace" in r.err and not out.exists()


def test_on_a_terminal_fork_opens_the_app_on_the_fork(monkeypatch, cli):
    import ptc_tui.launch
    opened = []
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    monkeypatch.setattr(ptc_tui.launch, "run_app", lambda *a, **kw: opened.append(kw) or 0)
    assert cli("fork", PRODUCT, "--at", 3, "-o", "out.json").status == 0
    session = opened[0]["session"]
    assert len(session.turns) == 2 and session.parent.turn == 3 and not session.done
    assert opened[0]["save_path"] == "out.json"        # written after every turn
    assert cli("fork", PRODUCT, "--at", 3, "--no-tui").status == 0 and len(opened) == 1


def test_the_fork_is_never_written_over_its_parent_nor_over_a_file_not_ours(cli, tmp_path):
    parent = tmp_path / "parent.json"
    parent.write_bytes(PRODUCT.read_bytes())
    linked = tmp_path / "linked.json"
    os.link(parent, linked)                   # the same file by another name
    for target in (parent, linked):
        r = cli("fork", parent, "--at", 2, "-o", target)
        assert r.status == 2 and "is the trace being forked" in r.err
    assert parent.read_bytes() == PRODUCT.read_bytes()
    notes = tmp_path / "notes.txt"
    notes.write_text("mine")
    r = cli("fork", parent, "--at", 2, "-o", notes)
    assert r.status == 2 and "--force" in r.err and notes.read_text() == "mine"
    assert cli("fork", parent, "--at", 2, "-o", notes, "--force").status == 0
    assert load_trace(notes).parent.turn == 2
