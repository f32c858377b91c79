"""OpenAIChat against a live fake server: the request it sends and how it reads the reply."""

import pytest

from engine.llm import LLMError, OpenAIChat
from tests.llm.conftest import FLAVORS, KEY
from tests.llm.fake_provider import Reply, openai_body

OPENAI = FLAVORS[0]
MESSAGES = [{"role": "system", "content": "You write PTC-Lisp."},
            {"role": "user", "content": "Sum 1 and 2"},
            {"role": "assistant", "content": "(+ 1 2)"},
            {"role": "user", "content": "Again"}]


def test_request_shape(fake, connect):
    fake.queue(Reply(body=openai_body("(+ 1 2)")))
    connect(OPENAI, temperature=0.2, max_tokens=300, prompt_cache=False)(MESSAGES)
    [request] = fake.requests
    assert request.path == "/v1/chat/completions"
    assert request.headers["authorization"] == f"Bearer {KEY}"
    assert request.headers["content-type"] == "application/json"
    assert request.body == {"model": "gpt-test", "messages": MESSAGES, "temperature": 0.2, "max_tokens": 300}


def test_unset_options_are_not_sent(fake, connect):
    fake.queue(Reply(body=openai_body("ok")))
    connect(OPENAI, prompt_cache=False)(MESSAGES)
    assert set(fake.requests[0].body) == {"model", "messages"}


@pytest.mark.parametrize("usage, expected", [
    ({"prompt": 100, "completion": 7, "cached": 64}, (100, 7, 64)),
    ({"prompt": 100, "completion": 7}, (100, 7, None)),
], ids=["with-cache", "no-cache-details"])
def test_text_and_usage(fake, connect, usage, expected):
    fake.queue(Reply(body=openai_body("(+ 1 2)", model="gpt-test-2024", **usage)))
    completion = connect(OPENAI)(MESSAGES)
    assert completion.text == "(+ 1 2)"
    assert (completion.input_tokens, completion.output_tokens, completion.cached_tokens) == expected
    assert (completion.model, completion.provider) == ("gpt-test-2024", "openai")


def test_usage_absent_is_none(fake, connect):
    body = openai_body("hi")
    del body["usage"], body["model"], body["id"], body["choices"][0]["finish_reason"]
    fake.queue(Reply(body=body))
    completion = connect(OPENAI)(MESSAGES)
    assert (completion.input_tokens, completion.output_tokens, completion.cached_tokens) == (None, None, None)
    assert completion.reasoning_tokens is None
    # what the response did not say stays unsaid: never the model that was asked for
    assert (completion.model, completion.response_id, completion.finish_reason,
            completion.provider_finish_reason) == (None, None, None, None)


def test_the_response_model_id_and_reasoning_tokens(fake, connect):
    body = openai_body("ok", prompt=900, completion=300, cached=512, reasoning=256,
                       model="gpt-5-2025-08-07")
    body["id"] = "chatcmpl-Bx42"
    fake.queue(Reply(body=body))
    completion = connect(OPENAI)(MESSAGES)
    assert (completion.model, completion.response_id) == ("gpt-5-2025-08-07", "chatcmpl-Bx42")
    assert (completion.input_tokens, completion.cached_tokens, completion.output_tokens,
            completion.reasoning_tokens) == (900, 512, 300, 256)
    assert completion.cache_write_tokens is None          # OpenAI does not report it


@pytest.mark.parametrize("finish, normalised", [
    ("stop", "stop"), ("length", "length"), ("content_filter", "content_filter"),
    ("tool_calls", "tool_call"), ("function_call", "tool_call"), ("error", "error"),
    ("eos", None),                # a compatible server's own word: kept, not guessed at
])
def test_finish_reason_is_normalised_and_the_providers_own_kept(fake, connect, finish, normalised):
    fake.queue(Reply(body=openai_body("ok", finish=finish)))
    completion = connect(OPENAI)(MESSAGES)
    assert (completion.finish_reason, completion.provider_finish_reason) == (normalised, finish)


@pytest.mark.parametrize("message, text", [
    ({"role": "assistant", "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]}, "ab"),
    ({"role": "assistant", "content": None, "refusal": "I can't help with that."}, "I can't help with that."),
    ({"role": "assistant", "content": None}, ""),
], ids=["content-parts", "refusal", "null-content"])
def test_content_variants(fake, connect, message, text):
    fake.queue(Reply(body={"choices": [{"message": message}]}))
    assert connect(OPENAI)(MESSAGES).text == text


def test_openrouter_error_inside_a_200(fake, connect):
    fake.queue(Reply(body={"error": {"message": "Provider returned error", "code": 502}}))
    with pytest.raises(LLMError) as caught:
        connect(OPENAI)(MESSAGES)
    assert str(caught.value) == "openai: HTTP 502 Bad Gateway: Provider returned error"


def test_missing_key_is_an_error_for_a_remote_server():
    with pytest.raises(LLMError) as caught:
        OpenAIChat("gpt-4o-mini")
    assert str(caught.value).startswith("openai: OPENAI_API_KEY is not set")


@pytest.mark.parametrize("base_url", ["http://localhost:8000/v1", "http://127.0.0.1:11434/v1"])
def test_missing_key_is_fine_for_a_local_server(base_url):
    assert OpenAIChat("llama3", base_url=base_url).headers() == {}


def test_key_and_base_url_from_the_environment(monkeypatch, fake):
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.setenv("OPENAI_BASE_URL", f"{fake.url}/v1/")
    fake.queue(Reply(body=openai_body("ok")))
    with OpenAIChat("gpt-test") as llm:
        assert llm(MESSAGES).text == "ok"
    assert fake.requests[0].headers["authorization"] == f"Bearer {KEY}"
