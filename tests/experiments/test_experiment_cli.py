"""`ptc-tui experiment`: runs, traces, experiment.json and the table; deterministic for a
seed whatever the number of jobs; bad input is one line and exit 2."""

import json

import pytest

from engine.trace import load_trace
from ptc_tui.cli import main
from ptc_tui.experiments.record import load_experiment
from sample_traces import HERE
from tests.cli.conftest import cli  # noqa: F401  (the fixture)

SURVEY = HERE / "stock_survey.py"
STRATEGIES = "full,coalesced,namespaced,compaction"
VOLATILE = ("seconds",)


def rows(folder):
    return [{k: v for k, v in r.items() if k not in VOLATILE}
            for r in load_experiment(folder)["runs"]]


def test_same_seed_same_table_byte_for_byte(cli, tmp_path, monkeypatch):
    outputs = []
    for place in ("a", "b"):
        (tmp_path / place).mkdir()
        monkeypatch.chdir(tmp_path / place)
        result = cli("experiment", SURVEY, "--compress", STRATEGIES, "--repeat", 3, "--out", "runs")
        assert result.status == 0, result.err
        outputs.append(result.out)
    assert outputs[0] == outputs[1]
    assert "full" in outputs[0] and "compaction" in outputs[0]
    other = cli("experiment", SURVEY, "--compress", STRATEGIES, "--repeat", 3, "--seed", 5,
                "--out", "seed5")
    assert other.out != outputs[1]             # --seed takes effect


def test_four_jobs_make_the_same_rows_as_one(cli, tmp_path):
    for jobs in (1, 4):
        assert cli("experiment", SURVEY, "--compress", STRATEGIES, "--repeat", 3,
                   "--jobs", jobs, "--out", tmp_path / f"j{jobs}").status == 0
    assert rows(tmp_path / "j1") == rows(tmp_path / "j4")
    assert len(rows(tmp_path / "j4")) == 12


def test_parallel_traces_are_each_valid_and_separate(cli, tmp_path):
    out = tmp_path / "runs"
    assert cli("experiment", SURVEY, "--compress", STRATEGIES, "--repeat", 3, "--jobs", 4,
               "--out", out).status == 0
    saved = load_experiment(out)
    traces = sorted(p.name for p in out.glob("*.json") if p.name != "experiment.json")
    assert traces == sorted(r["trace"] for r in saved["runs"]) and len(traces) == 12
    for row in saved["runs"]:
        trace = load_trace(out / row["trace"])
        assert trace.agent.history.strategy == row["option_set"]
        assert trace.agent.llm == f"simulated:stock_survey.py@{row['seed']}"
        assert len(trace.turns) == row["turns"]
        assert (trace.outcome.status == "returned") == (row["outcome"] == "returned")
        assert main(["validate", str(out / row["trace"])]) == 0
    assert len({r["seed"] for r in saved["runs"]}) == 12


def test_experiment_json_has_the_header_and_a_row_per_run(cli, tmp_path):
    out = tmp_path / "runs"
    assert cli("experiment", SURVEY, "--compress", "full,coalesced", "--set",
               "println_limit=3,15", "--repeat", 2, "--model", "gpt-4o-mini", "--out", out).status == 0
    doc = load_experiment(out)
    assert (doc["format"], doc["version"], doc["finished"]) == ("ptc-experiment", 1, True)
    assert (doc["llm"], doc["seed"], doc["repeat"], doc["success_rule"], doc["model"]) == \
        ("simulated:stock_survey.py", 0, 2, "expected", "gpt-4o-mini")
    assert [s["label"] for s in doc["option_sets"]] == [
        "full", "coalesced println_limit=3", "coalesced println_limit=15"]
    assert [(r["set"], r["repeat"]) for r in doc["runs"]] == [(s, k) for s in range(3)
                                                             for k in range(2)]
    for row in doc["runs"]:
        assert row["cost"] > 0 and row["input_tokens"] > row["output_tokens"] > 0
        assert row["reported_input_tokens"] is None         # the simulated model reports none
        trace = load_trace(out / row["trace"])
        limit = trace.agent.history.println_limit
        assert row["option_set"] == "full" or row["option_set"].endswith(f"={limit}")


def test_the_table_shows_each_option_set_against_the_first(cli, tmp_path):
    result = cli("experiment", SURVEY, "--compress", "full,coalesced", "--set", "println_limit=3",
                 "--repeat", 4, "--out", tmp_path / "runs")
    lines = result.out.splitlines()
    assert lines[1] == "success: returns the file's `expected`"
    full = next(line for line in lines if line.startswith("full "))
    small = next(line for line in lines if line.startswith("coalesced println_limit=3"))
    assert "100%" in full and "unknown" in full         # no price for a simulated model
    assert " 0% " in small and "-100 pts" in small and "× max_turns_exceeded" in result.out


def test_json_summarizes_per_option_set(cli, tmp_path):
    result = cli("experiment", SURVEY, "--compress", "full,coalesced", "--set", "println_limit=3",
                 "--repeat", 3, "--json", "--out", tmp_path / "runs")
    doc = json.loads(result.out)
    first, second = doc["option_sets"]
    assert (first["option_set"], first["runs"], first["successes"]) == ("full", 3, 3)
    assert first["difference_to_first"]["success_rate"] == 0
    assert second["difference_to_first"]["success_rate"] == -1
    low, high = second["wilson_95"]
    assert low == 0 and 0.4 < high < 0.6
    assert second["cost"] is None and second["turns"]["sd"] == 0


@pytest.mark.parametrize("rule, shown", [
    ("expected = 42", "success: returns the file's `expected`"),
    ("def check(step):\n    return step.python_value() == 42", "success: the agent file's check(step)"),
    ("", "success: returned (no fail, not out of turns)"),
])
def test_the_success_rule_is_the_files_and_is_named(cli, tmp_path, coin_agent, rule, shown):
    result = cli("experiment", coin_agent(rule), "--repeat", 20, "--out", tmp_path / "runs")
    assert shown in result.out.splitlines()
    doc = load_experiment(tmp_path / "runs")
    answers = [r["answer"] for r in doc["runs"]]
    assert set(answers) == {"42", "7"}                   # the seed varies the coin
    expected = [a == "42" for a in answers] if rule else [True] * 20
    assert [r["success"] for r in doc["runs"]] == expected


def test_a_raising_check_fails_that_run_with_its_reason(cli, tmp_path, coin_agent):
    rule = ("def check(step):\n    if step.python_value() == 7:\n"
            "        raise ValueError('seven is unlucky')\n    return True")
    result = cli("experiment", coin_agent(rule), "--repeat", 20, "--out", tmp_path / "runs")
    assert result.status == 0 and result.err == ""
    doc = load_experiment(tmp_path / "runs")
    sevens = [r for r in doc["runs"] if r["answer"] == "7"]
    assert sevens and all(r["reason"] == "check raised ValueError: seven is unlucky"
                          and not r["success"] for r in sevens)
    assert all(r["success"] for r in doc["runs"] if r["answer"] == "42")
    assert f"{len(sevens)} × check raised ValueError: seven is unlucky" in result.out


def test_a_check_that_returns_no_bool_fails_the_run(cli, tmp_path, coin_agent):
    path = coin_agent("def check(step):\n    step.python_value() == 42")
    cli("experiment", path, "--repeat", 2, "--out", tmp_path / "runs")
    assert {r["reason"] for r in load_experiment(tmp_path / "runs")["runs"]} == {
        "check returned NoneType, not True or False"}


def test_options_take_effect(cli, tmp_path, coin_agent):
    out = tmp_path / "runs"
    assert cli("experiment", coin_agent(), "--compress", "namespaced", "--set", "max_turns=2",
               "--set", "tool_call_limit=4", "--repeat", 3, "--out", out).status == 0
    doc = load_experiment(out)
    assert [s["label"] for s in doc["option_sets"]] == ["namespaced max_turns=2 tool_call_limit=4"]
    trace = load_trace(out / doc["runs"][0]["trace"])
    assert (trace.agent.max_turns, trace.agent.history.tool_call_limit) == (2, 4)
    assert len(doc["runs"]) == 3


def test_default_strategy_is_the_agents_own(cli, tmp_path, coin_agent):
    cli("experiment", coin_agent(), "--repeat", 1, "--out", tmp_path / "runs")
    assert [s["label"] for s in load_experiment(tmp_path / "runs")["option_sets"]] == ["coalesced"]


def test_an_option_full_does_not_read_makes_no_extra_sets(cli, tmp_path, coin_agent):
    cli("experiment", coin_agent(), "--compress", "full,coalesced", "--set", "println_limit=1,2",
        "--repeat", 1, "--out", tmp_path / "runs")
    assert [s["label"] for s in load_experiment(tmp_path / "runs")["option_sets"]] == [
        "full", "coalesced println_limit=1", "coalesced println_limit=2"]


def test_resume_skips_the_runs_already_saved(cli, tmp_path, coin_agent):
    out, path = tmp_path / "runs", coin_agent("expected = 42")
    assert cli("experiment", path, "--repeat", 2, "--out", out).status == 0
    before = load_experiment(out)["runs"]
    stamps = {r["trace"]: (out / r["trace"]).stat().st_mtime_ns for r in before}
    assert cli("experiment", path, "--repeat", 4, "--out", out, "--resume").status == 0
    after = load_experiment(out)["runs"]
    assert len(after) == 4 and after[:2] == before
    assert all((out / name).stat().st_mtime_ns == ns for name, ns in stamps.items())
    again = cli("experiment", path, "--repeat", 4, "--out", tmp_path / "fresh")
    assert rows(tmp_path / "fresh") == rows(out) and again.status == 0


@pytest.mark.parametrize("argv, problem", [
    (["--set", "nonsense=1"], "--set nonsense=1: unknown option 'nonsense'; known: "),
    (["--set", "println_limit=three"], "--set println_limit=three: println_limit takes whole "
                                       "numbers, not 'three'"),
    (["--set", "println_limit=-1"], "--set println_limit=-1: println_limit must be a whole "
                                    "number ≥ 0, not -1"),
    (["--set", "errors=some"], "--set errors=some: errors must be one of all, unrecovered"),
    (["--set", "println_limit"], "--set println_limit: expected NAME=VALUE[,VALUE...]"),
    (["--compress", "full,squeezed"], "--compress: unknown strategy 'squeezed'; known: "),
    (["--compress", "full", "--set", "println_limit=3"], "--set println_limit: no strategy "
                                                        "given reads it"),
    (["--llm", "nosuch:model"], "unknown LLM spec 'nosuch:model'"),
    (["--repeat", "0"], "argument --repeat: expected a whole number ≥ 1, got 0"),
    (["--repeat", "10001"], "argument --repeat: expected at most 10,000 runs per option set, "
                            "got 10,001"),
    (["--repeat", "99999999999999999"], "argument --repeat: expected at most 10,000 runs per "
                                        "option set, got 99,999,999,999,999,999"),
    (["--jobs", "257"], "argument --jobs: expected at most 256 runs at once, got 257"),
    # each limit alone is allowed, the plan is not (it grew to gigabytes before a first run)
    (["--compress", "coalesced", "--set", "println_limit=" + ",".join(map(str, range(11))),
      "--repeat", "10000"], "11 option sets × --repeat 10,000 = 110,000 runs; an experiment "
                            "makes at most 100,000"),
    (["--compress", "coalesced"] + [a for name in ("println_limit", "tool_call_limit",
                                                   "max_turns")
                                    for a in ("--set", f"{name}=" + ",".join(map(str, range(
                                        1, 101))))],
     "--set: 1,000,000 combinations of values to try; an experiment makes at most 100,000 runs"),
])
def test_bad_options_are_one_line_and_exit_2(cli, tmp_path, coin_agent, argv, problem):
    result = cli("experiment", coin_agent(), *argv, "--out", tmp_path / "runs")
    assert result.status == 2 and result.out == ""
    assert result.err.startswith("ptc-tui: ") and problem in result.err
    assert result.err.count("\n") == 1
    assert not (tmp_path / "runs").exists()              # nothing ran


def test_an_agent_file_without_agent_is_one_line(cli, tmp_path):
    path = tmp_path / "empty.py"
    path.write_text("x = 1\n")
    result = cli("experiment", path, "--out", tmp_path / "runs")
    assert (result.status, result.err) == (2, f"ptc-tui: {path}: defines no `agent = "
                                               "SubAgent(...)`\n")


def test_a_folder_that_is_not_empty_needs_resume(cli, tmp_path, coin_agent):
    out = tmp_path / "runs"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    result = cli("experiment", coin_agent(), "--out", out)
    assert (result.status, result.err) == (2, f"ptc-tui: {out}: exists and is not empty; "
                                               "--resume continues the experiment in it, or "
                                               "give another --out\n")
    resumed = cli("experiment", coin_agent(), "--out", out, "--resume")
    assert resumed.status == 2 and "cannot resume: " in resumed.err
    assert sorted(p.name for p in out.iterdir()) == ["notes.txt"]


def test_resume_refuses_another_experiment(cli, tmp_path, coin_agent):
    out = tmp_path / "runs"
    cli("experiment", coin_agent(), "--repeat", 1, "--out", out)
    result = cli("experiment", coin_agent(), "--seed", 3, "--out", out, "--resume")
    assert result.status == 2
    assert result.err == (f"ptc-tui: {out}: holds an experiment with another seed (0, not 3); "
                          "give another --out\n")


def test_llm_spec_gives_each_run_a_fresh_llm(cli, tmp_path, coin_agent):
    replies = tmp_path / "replies.json"
    replies.write_text(json.dumps(["```clojure\n(return 42)\n```"]))
    out = tmp_path / "runs"
    assert cli("experiment", coin_agent("expected = 42"), "--llm", f"scripted:{replies}",
               "--repeat", 3, "--out", out).status == 0
    doc = load_experiment(out)
    assert doc["llm"] == f"scripted:{replies}"
    assert [r["success"] for r in doc["runs"]] == [True] * 3     # each run had the reply


def test_an_llm_error_fails_that_run_not_the_experiment(cli, tmp_path, coin_agent):
    replies = tmp_path / "replies.json"
    replies.write_text(json.dumps(["```clojure\n(def x 1)\n```"]))
    result = cli("experiment", coin_agent(), "--llm", f"scripted:{replies}", "--repeat", 2,
                 "--out", tmp_path / "runs")
    assert result.status == 0
    assert {r["outcome"] for r in load_experiment(tmp_path / "runs")["runs"]} == {"llm_error"}
    assert "2 × llm_error: scripted: no reply left for request 2" in result.out


def test_simulated_spec_takes_another_files_policy(cli, tmp_path, coin_agent):
    other = tmp_path / "always.py"
    other.write_text("def policy(request, rng):\n    return '```clojure\\n(return 42)\\n```'\n")
    out = tmp_path / "runs"
    cli("experiment", coin_agent("expected = 42"), "--llm", f"simulated:{other}", "--repeat", 4,
        "--out", out)
    doc = load_experiment(out)
    assert doc["llm"] == f"simulated:{other}"
    assert all(r["success"] for r in doc["runs"])
