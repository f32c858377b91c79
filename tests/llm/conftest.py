"""Fixtures of the LLM tests: a live FakeProvider, recorded sleeps, a clean environment, both providers."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest

from engine.llm import AnthropicMessages, OpenAIChat
from tests.llm.fake_provider import anthropic_body, anthropic_error, openai_body, openai_error
from tests.llm.fixtures import ENV_VARS, KEY, clean_env, fake  # noqa: F401  (fixtures, and names tests import)

@dataclass(frozen=True)
class Flavor:
    """One provider as the tests see it: where it listens, how its bodies look, its client."""

    name: str
    path: str
    make: Callable[..., object]          # (server url, **options) -> the client
    ok: Callable[..., dict]              # reply text -> a success body
    error: Callable[[str], dict]         # message -> an error body
    key: str = KEY


FLAVORS = [
    Flavor("openai", "/v1/chat/completions",
           lambda url, **kw: OpenAIChat("gpt-test", base_url=f"{url}/v1", **{"api_key": KEY, **kw}),
           openai_body, openai_error),
    Flavor("anthropic", "/v1/messages",
           lambda url, **kw: AnthropicMessages("claude-test", base_url=url, **{"api_key": KEY, **kw}),
           anthropic_body, anthropic_error),
]


@pytest.fixture
def sleeps() -> list[float]:
    """The waits a client asked for, recorded instead of slept."""
    return []


@pytest.fixture(params=FLAVORS, ids=lambda f: f.name)
def flavor(request) -> Flavor:
    return request.param


@pytest.fixture
def connect(fake, sleeps):
    """connect(flavor, **options): a client of `fake` whose sleeps are recorded; closed afterwards."""
    made = []

    def connect(flavor: Flavor, **options):
        options.setdefault("sleep", sleeps.append)
        llm = flavor.make(fake.url, **options)
        made.append(llm)
        return llm

    yield connect
    for llm in made:
        llm.close()
