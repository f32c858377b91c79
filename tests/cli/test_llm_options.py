"""The LLM options of `run`, `fork` and `experiment`: one group built by one helper, each option
reaching the request a fake provider receives and the trace's llm_settings, and a missing key
said in the user's terms."""

import argparse

import pytest

from engine.trace import load_trace
from ptc_tui.cli import build_parser
from tests.cli.conftest import cli  # noqa: F401  (the fixture)
from tests.llm.fake_provider import Reply, anthropic_body, openai_body
from tests.llm.fixtures import KEY, clean_env, fake  # noqa: F401  (the fixtures)

AGENT = '''
from engine.agent import SubAgent

agent = SubAgent(mission="Return 42.", max_turns=2, compress_history=False, name="answer")
replies = ["```clojure\\n(return 42)\\n```"]
'''
RETURN = "```clojure\n(return 42)\n```"
LLM_FLAGS = ["--llm", "--base-url", "--api-key-env", "--temperature", "--max-output-tokens",
             "--reasoning-effort", "--timeout", "--no-prompt-cache"]


@pytest.fixture
def agent(tmp_path):
    path = tmp_path / "answer.py"
    path.write_text(AGENT)
    return path


def llm_group(command: str) -> list[str]:
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    group = next(g for g in sub.choices[command]._action_groups if g.title == "LLM")
    return [a.option_strings[0] for a in group._group_actions]


def test_run_fork_and_experiment_take_the_same_llm_options():
    assert llm_group("run") == llm_group("fork") == llm_group("experiment") == LLM_FLAGS


def test_every_option_reaches_the_request_and_the_trace(cli, fake, agent, tmp_path, monkeypatch):
    monkeypatch.setenv("WORK_KEY", KEY)
    fake.queue(Reply(body=openai_body(RETURN, model="gpt-test")))
    saved = tmp_path / "run.json"
    r = cli("run", agent, "--llm", "openai:gpt-test", "--base-url", f"{fake.url}/v1",
            "--api-key-env", "WORK_KEY", "--temperature", "0.3", "--max-output-tokens", "400",
            "--timeout", "20", "--no-prompt-cache", "--save", saved)
    assert r.status == 0, r.err
    [request] = fake.requests
    assert request.path == "/v1/chat/completions"
    assert request.headers["authorization"] == f"Bearer {KEY}"
    assert {k: v for k, v in request.body.items() if k != "messages"} == \
        {"model": "gpt-test", "temperature": 0.3, "max_tokens": 400}
    settings = load_trace(saved).agent.llm_settings
    assert settings == {"base_url": f"{fake.url}/v1", "api_key_env": "WORK_KEY",
                        "temperature": 0.3, "max_output_tokens": 400, "timeout_s": 20.0,
                        "prompt_cache": False}
    assert KEY not in saved.read_text()


def test_reasoning_effort_reaches_a_reasoning_model(cli, fake, agent):
    fake.queue(Reply(body=openai_body(RETURN, reasoning=128)))
    r = cli("run", agent, "--llm", "openai:gpt-5-mini", "--base-url", fake.url,
            "--reasoning-effort", "low", "--max-output-tokens", "900")
    assert r.status == 0, r.err
    body = fake.requests[0].body
    assert (body["reasoning_effort"], body["max_completion_tokens"]) == ("low", 900)
    assert "max_tokens" not in body and "prompt_cache_key" in body


def test_timeout_takes_effect(cli, fake, agent, monkeypatch):
    monkeypatch.setattr("engine.llm.retry.RetryPolicy.wait_before_retry", lambda *args: 0.0)
    fake.queue(*[Reply(body=openai_body(RETURN), delay_s=30)] * 4)     # the first and 3 retries
    r = cli("run", agent, "--llm", "openai:gpt-test", "--base-url", fake.url, "--timeout", "0.2")
    assert r.status == 1
    assert ("failed (llm_error): openai: request timed out after 0.2 s (gave up after 4 "
            "attempts)") in r.out


def test_a_fork_takes_the_options_and_a_fork_of_a_model_run_keeps_its_setup(cli, fake, agent,
                                                                             tmp_path):
    parent = tmp_path / "parent.json"
    fake.queue(Reply(body=anthropic_body(RETURN)))
    assert cli("run", agent, "--llm", "anthropic:claude-test", "--base-url", fake.url,
               "--max-output-tokens", "300", "--no-prompt-cache", "--save", parent).status == 0
    fake.queue(Reply(body=anthropic_body(RETURN)), Reply(body=anthropic_body(RETURN)))
    assert cli("fork", parent, "--at", 1, "-o", tmp_path / "same.json").status == 0
    assert fake.requests[1].body["max_tokens"] == 300                  # the parent's setup
    assert isinstance(fake.requests[1].body["messages"][0]["content"], str)
    assert cli("fork", parent, "--at", 1, "--max-output-tokens", "50", "--temperature", "0",
               "-o", tmp_path / "other.json").status == 0
    assert (fake.requests[2].body["max_tokens"], fake.requests[2].body["temperature"]) == (50, 0.0)
    assert load_trace(tmp_path / "other.json").agent.llm_settings["max_output_tokens"] == 50


def test_an_experiment_sets_up_every_runs_llm(cli, fake, agent, tmp_path):
    fake.queue(*[Reply(body=openai_body(RETURN))] * 2)
    r = cli("experiment", agent, "--llm", "ollama:llama3", "--base-url", f"{fake.url}/v1",
            "--temperature", "0.7", "--repeat", 2, "--jobs", 1, "--out", tmp_path / "runs")
    assert r.status == 0, r.err
    assert [q.body["temperature"] for q in fake.requests] == [0.7, 0.7]


@pytest.mark.parametrize("spec, line", [
    ("openai:gpt-4o-mini", "ptc-tui: openai: OPENAI_API_KEY is not set: export it, or pass "
                           "--api-key-env NAME"),
    ("anthropic:claude-sonnet-4-5", "ptc-tui: anthropic: ANTHROPIC_API_KEY is not set: export "
                                    "it, or pass --api-key-env NAME"),
    ("gemini:gemini-2.5-flash", "ptc-tui: gemini: GEMINI_API_KEY (or GOOGLE_API_KEY) is not "
                                "set: export it, or pass --api-key-env NAME"),
])
def test_a_missing_key_is_one_line_saying_what_to_do(cli, agent, spec, line):
    for command in (("run", agent), ("experiment", agent, "--out", agent.parent / "runs")):
        r = cli(*command, "--llm", spec)
        assert (r.status, r.err.strip()) == (2, line)


@pytest.mark.parametrize("flag, value, problem", [
    ("--temperature", "3", "expected a number from 0 to 2, got 3"),
    ("--timeout", "0", "expected a number > 0, got 0"),
    ("--max-output-tokens", "0", "expected a whole number ≥ 1, got 0"),
    ("--reasoning-effort", "max", "invalid choice: 'max'"),
])
def test_bad_values_are_refused_before_anything_runs(cli, agent, flag, value, problem):
    r = cli("run", agent, "--llm", "openai:gpt-4o", flag, value)
    assert r.status == 2 and problem in r.err


def test_a_temperature_for_a_reasoning_model_is_refused_before_any_request(cli, fake, agent):
    r = cli("run", agent, "--llm", "openai:o3", "--base-url", fake.url, "--temperature", "0.2")
    assert r.status == 2
    assert r.err.strip() == ("ptc-tui: openai: o3 is a reasoning model: it takes no temperature "
                             "but the default 1 (leave --temperature out)")
    assert fake.requests == []
