"""from_spec: each accepted form builds the right LLM, every other form is refused with the list."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.llm import (FORMS, AnthropicMessages, AzureChat, GeminiChat, LLMError, OllamaChat, OpenAIChat,
                        OpenRouterChat, ScriptedLLM, from_spec)
from tests.llm.conftest import KEY
from tests.llm.fake_provider import Reply, openai_body

ROOT = Path(__file__).parent.parent.parent


@pytest.mark.parametrize("spec, env, cls, base_url", [
    ("openai:gpt-4o-mini", {"OPENAI_API_KEY": KEY}, OpenAIChat, "https://api.openai.com/v1"),
    ("anthropic:claude-sonnet-4-5", {"ANTHROPIC_API_KEY": KEY}, AnthropicMessages,
     "https://api.anthropic.com"),
    ("openrouter:meta-llama/llama-3.1-8b-instruct", {"OPENROUTER_API_KEY": KEY}, OpenRouterChat,
     "https://openrouter.ai/api/v1"),
    ("ollama:qwen2.5-coder:7b", {}, OllamaChat, "http://localhost:11434/v1"),
    ("ollama:llama3", {"OLLAMA_BASE_URL": "http://gpu-box:11434/v1", "OPENAI_API_KEY": KEY}, OllamaChat,
     "http://gpu-box:11434/v1"),
    ("ollama:llama3", {"OLLAMA_HOST": "gpu-box:11500"}, OllamaChat, "http://gpu-box:11500/v1"),
    ("ollama:llama3", {"OLLAMA_HOST": "0.0.0.0"}, OllamaChat, "http://localhost:11434/v1"),
    ("ollama:llama3", {"OLLAMA_HOST": "https://ollama.example.com"}, OllamaChat,
     "https://ollama.example.com:443/v1"),
    ("ollama:llama3", {"OLLAMA_HOST": "gpu-box", "OLLAMA_BASE_URL": "http://ours:1/v1"}, OllamaChat,
     "http://ours:1/v1"),
    ("gemini:gemini-2.5-flash", {"GEMINI_API_KEY": KEY}, GeminiChat,
     "https://generativelanguage.googleapis.com/v1beta/openai"),
    ("gemini:gemini-2.5-flash", {"GOOGLE_API_KEY": KEY}, GeminiChat,
     "https://generativelanguage.googleapis.com/v1beta/openai"),
    ("azure:my-gpt4o", {"AZURE_OPENAI_API_KEY": KEY, "AZURE_OPENAI_ENDPOINT": "https://res.openai.azure.com/",
                        "OPENAI_API_VERSION": "2024-10-21"}, AzureChat, "https://res.openai.azure.com"),
], ids=["openai", "anthropic", "openrouter", "ollama", "ollama-env", "ollama-host-port",
        "ollama-host-any", "ollama-host-url", "ours-before-ollama-host", "gemini", "gemini-google-key",
        "azure"])
def test_http_specs(monkeypatch, spec, env, cls, base_url):
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    llm = from_spec(spec)
    assert type(llm) is cls
    assert (llm.name, llm.base_url) == (spec, base_url)
    assert KEY not in repr(llm)


def test_ollama_never_sends_the_openai_key(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    assert from_spec("ollama:llama3").headers() == {}


def test_openrouter_wants_its_own_key(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    with pytest.raises(LLMError, match="^openrouter: OPENROUTER_API_KEY is not set"):
        from_spec("openrouter:openai/gpt-4o")


def test_options_reach_the_client(fake, sleeps):
    fake.queue(Reply(500, {}), Reply(body=openai_body("ok")))
    llm = from_spec("openai:gpt-test", api_key=KEY, base_url=f"{fake.url}/v1", max_tokens=99,
                    backoff_s=0.25, sleep=sleeps.append)
    assert llm([{"role": "user", "content": "x"}]).text == "ok"
    assert fake.requests[-1].body["max_tokens"] == 99
    assert sleeps == [0.25]
    llm.close()


def test_scripted_spec(tmp_path):
    path = tmp_path / "replies.json"
    path.write_text(json.dumps(["(return 1)"]))
    llm = from_spec(f"scripted:{path}", timeout=5.0)
    assert isinstance(llm, ScriptedLLM)
    assert llm.name == f"scripted:{path}"


@pytest.mark.parametrize("spec, problem", [
    ("gpt-4o", "unknown LLM spec 'gpt-4o'"),
    ("vertex:gemini-2.5-pro", "unknown LLM spec 'vertex:gemini-2.5-pro'"),
    ("openai:", "names no model"),
    ("anthropic:  ", "names no model"),
    ("scripted:", "names no file"),
], ids=["no-prefix", "unknown-prefix", "no-model", "blank-model", "no-file"])
def test_bad_specs_list_the_accepted_forms(spec, problem):
    with pytest.raises(ValueError) as caught:
        from_spec(spec)
    assert problem in str(caught.value)
    assert ", ".join(FORMS) in str(caught.value)
    assert "gemini:MODEL" in FORMS and "azure:DEPLOYMENT" in FORMS


def test_replay_is_left_to_the_agent_layer():
    with pytest.raises(ValueError, match="replay specs are resolved by engine.agent"):
        from_spec("replay:trace.json")


def test_the_package_imports_nothing_else_of_ours():
    code = ("import sys, engine.llm; print(sorted(m for m in sys.modules"
            " if m.startswith(('engine.', 'ptc_tui')) and not m.startswith('engine.llm')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"
