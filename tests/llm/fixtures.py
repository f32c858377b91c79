"""The fake LLM server as a fixture, and a clean environment, for every test that talks to one
(tests/llm, the CLI's LLM options, the agent loop against a provider): import them from here."""

from __future__ import annotations

import pytest

from tests.llm.fake_provider import FakeProvider

KEY = "sk-test-0123456789abcdefXYZ"
ENV_VARS = ("OPENAI_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL",
            "OPENROUTER_API_KEY", "OLLAMA_BASE_URL", "OLLAMA_HOST", "GEMINI_API_KEY", "GOOGLE_API_KEY",
            "AZURE_OPENAI_API_KEY", "AZURE_OPENAI_ENDPOINT", "OPENAI_API_VERSION", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY",
            "http_proxy", "https_proxy", "all_proxy")


@pytest.fixture(autouse=True)
def clean_env(monkeypatch):
    """No test sees the developer's keys, base URLs or proxies: in every module that imports
    it (an imported autouse fixture applies to the whole module)."""
    for name in ENV_VARS:
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def fake():
    """A FakeProvider listening on 127.0.0.1, stopped afterwards."""
    provider = FakeProvider().start()
    yield provider
    provider.stop()
