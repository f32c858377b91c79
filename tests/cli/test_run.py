"""`ptc-tui run AGENT.py`: an agent file run headless, turn by turn, its trace saved."""

import dataclasses
import json

from engine.agent.files import PINNED_CLOCK, load_agent_file, record
from engine.trace import dumps_trace, load_trace
from tests.cli.conftest import PRODUCT_AGENT


def pinned(trace):
    return dumps_trace(dataclasses.replace(trace.pinned(), created_at=PINNED_CLOCK))


def test_saved_trace_is_what_record_gives(cli, tmp_path):
    saved = tmp_path / "run.json"
    r = cli("run", PRODUCT_AGENT, "--save", saved, "--no-tui")
    assert r.status == 0 and r.err == ""
    assert pinned(load_trace(saved)) == dumps_trace(record(load_agent_file(PRODUCT_AGENT)))


def test_each_turn_then_the_outcome(cli):
    out = cli("run", PRODUCT_AGENT).out.splitlines()
    assert out[0].endswith("product-search, strategy coalesced, max 5 turns, "
                           "LLM scripted:product_search.py")
    assert out[1] == "turn 1: ok"
    assert out[2] == "  program: (def electronics (filter #(= (:category %) \"Electronics\") data/products))"
    assert "  tool call: get-inventory() -> \"Warehouse Inventory Report (as of 09:00):\\nLaptop - 23 units ...\"" in out
    assert "  print: Reviews: Customer Review Summary for Electronics: ..." in out
    assert "turn 3: return" in out
    assert out[-1] == 'returned: ["Laptop" "Monitor"]'


def test_options_from_the_command_line_reach_the_trace(cli, tmp_path):
    saved = tmp_path / "run.json"
    r = cli("run", PRODUCT_AGENT, "--compress", "namespaced", "--println-limit", 4,
            "--tool-call-limit", 1, "--save", saved)
    assert r.status == 0
    opts = load_trace(saved).agent.history
    assert (opts.strategy, opts.println_limit, opts.tool_call_limit) == ("namespaced", 4, 1)
    assert cli("validate", saved).status == 0
    cli("run", PRODUCT_AGENT, "--compress", "false", "--save", saved)
    assert load_trace(saved).agent.history.strategy == "full"


def test_out_of_turns_fails_with_status_1_and_still_saves(cli, tmp_path):
    saved = tmp_path / "run.json"
    r = cli("run", PRODUCT_AGENT, "--max-turns", 2, "--save", saved)
    assert r.status == 1
    assert "failed (max_turns_exceeded): no (return ...) after 2 turns" in r.out
    trace = load_trace(saved)
    assert trace.outcome.fail_reason == "max_turns_exceeded" and len(trace.turns) == 2


def test_an_llm_that_runs_out_ends_the_run_as_llm_error(cli, tmp_path):
    replies = tmp_path / "replies.json"
    replies.write_text(json.dumps(["```clojure\n(println 1)\n```"]))
    r = cli("run", PRODUCT_AGENT, "--llm", f"scripted:{replies}")
    assert r.status == 1
    assert "turn 1: ok" in r.out
    assert "failed (llm_error): scripted: no reply left for request 2" in r.out


def test_replay_of_a_saved_trace(cli, tmp_path):
    saved = tmp_path / "run.json"
    cli("run", PRODUCT_AGENT, "--save", saved)
    r = cli("run", PRODUCT_AGENT, "--llm", f"replay:{saved}", "--compress", "full")
    assert r.status == 0 and r.out.splitlines()[-1] == 'returned: ["Laptop" "Monitor"]'


def test_on_a_terminal_run_opens_the_app_on_the_session(monkeypatch, tmp_path):
    import sys
    import ptc_tui.launch
    from ptc_tui.cli import main
    opened = []
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    monkeypatch.setattr(ptc_tui.launch, "run_app",
                        lambda path=None, session=None, save_path=None, spans=None:
                        opened.append((session, save_path)) or 0)
    replies = tmp_path / "replies.json"
    replies.write_text(json.dumps(['```clojure\n(return 1)\n```']))
    assert main(["run", str(PRODUCT_AGENT), "--llm", f"scripted:{replies}",
                 "--compress", "namespaced", "--println-limit", "4",
                 "--save", str(tmp_path / "run.json")]) == 0
    [(session, save_path)] = opened
    assert save_path == str(tmp_path / "run.json")
    assert session.turns == [] and session.llm.name == f"scripted:{replies}"
    assert session.opts.strategy == "namespaced" and session.opts.println_limit == 4
    assert main(["run", str(PRODUCT_AGENT), "--no-tui"]) == 0 and len(opened) == 1
