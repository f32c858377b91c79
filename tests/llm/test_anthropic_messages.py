"""AnthropicMessages against a live fake server: system field, merged roles, headers, reply reading."""

import pytest

from engine.llm import AnthropicMessages, LLMError
from engine.llm.anthropic_messages import split_system
from tests.llm.conftest import FLAVORS, KEY
from tests.llm.fake_provider import Reply, anthropic_body

ANTHROPIC = FLAVORS[1]


def test_request_shape(fake, connect):
    fake.queue(Reply(body=anthropic_body("(+ 1 2)")))
    connect(ANTHROPIC, max_tokens=512, temperature=0.0, prompt_cache=False)([
        {"role": "system", "content": "You write PTC-Lisp."},
        {"role": "user", "content": "Sum 1 and 2"},
    ])
    [request] = fake.requests
    assert request.path == "/v1/messages"
    assert request.headers["x-api-key"] == KEY
    assert request.headers["anthropic-version"] == "2023-06-01"
    assert "authorization" not in request.headers
    assert request.body == {"model": "claude-test", "max_tokens": 512, "temperature": 0.0,
                            "system": "You write PTC-Lisp.",
                            "messages": [{"role": "user", "content": "Sum 1 and 2"}]}


def test_default_max_tokens_and_no_system(fake, connect):
    fake.queue(Reply(body=anthropic_body("ok")))
    connect(ANTHROPIC, prompt_cache=False)([{"role": "user", "content": "hi"}])
    assert fake.requests[0].body == {"model": "claude-test", "max_tokens": 4096,
                                     "messages": [{"role": "user", "content": "hi"}]}


@pytest.mark.parametrize("messages, system, turns", [
    ([{"role": "system", "content": "S1"}, {"role": "user", "content": "a"},
      {"role": "system", "content": "S2"}, {"role": "user", "content": "b"}],
     "S1\n\nS2", [{"role": "user", "content": "a\n\nb"}]),
    ([{"role": "user", "content": "a"}, {"role": "assistant", "content": "x"},
      {"role": "assistant", "content": "y"}, {"role": "user", "content": "b"}],
     "", [{"role": "user", "content": "a"}, {"role": "assistant", "content": "x\n\ny"},
          {"role": "user", "content": "b"}]),
], ids=["systems-joined-users-merged", "assistants-merged"])
def test_split_system(messages, system, turns):
    assert split_system(messages) == (system, turns)


def test_split_system_leaves_the_callers_messages_alone():
    messages = [{"role": "user", "content": "a"}, {"role": "user", "content": "b"}]
    split_system(messages)
    assert messages == [{"role": "user", "content": "a"}, {"role": "user", "content": "b"}]


@pytest.mark.parametrize("messages, problem", [
    ([{"role": "system", "content": "S"}, {"role": "assistant", "content": "x"}], "not assistant"),
    ([{"role": "system", "content": "S"}], "not nothing"),
    ([{"role": "user", "content": "a"}, {"role": "tool", "content": "x"}], "unknown message role 'tool'"),
], ids=["assistant-first", "no-turns", "unknown-role"])
def test_conversation_errors_before_any_request(fake, connect, messages, problem):
    with pytest.raises(LLMError, match=problem):
        connect(ANTHROPIC)(messages)
    assert fake.requests == []


def test_text_blocks_joined_and_usage(fake, connect):
    body = anthropic_body("(def x 1)", "\n(return x)", input=40, output=9, cached=32)
    body["content"].insert(1, {"type": "thinking", "thinking": "hmm"})
    fake.queue(Reply(body=body))
    completion = connect(ANTHROPIC)([{"role": "user", "content": "go"}])
    assert completion.text == "(def x 1)\n(return x)"
    # input_tokens counts the whole prompt: Anthropic reports cache reads apart
    assert (completion.input_tokens, completion.output_tokens, completion.cached_tokens) == (72, 9, 32)
    assert (completion.model, completion.provider) == ("claude-test", "anthropic")


def test_input_tokens_include_cache_writes_too(fake, connect):
    fake.queue(Reply(body=anthropic_body("(return 1)", input=10, output=2, cached=0,
                                         cache_write=500)))
    completion = connect(ANTHROPIC)([{"role": "user", "content": "go"}])
    assert (completion.input_tokens, completion.cached_tokens) == (510, 0)
    assert completion.cache_write_tokens == 500


def test_the_response_model_and_id(fake, connect):
    body = anthropic_body("ok", model="claude-sonnet-4-5-20250929")
    body["id"] = "msg_01XFDUDYJgAACzvnptvVoYEL"
    fake.queue(Reply(body=body))
    completion = connect(ANTHROPIC)([{"role": "user", "content": "go"}])
    assert (completion.model, completion.response_id) == \
        ("claude-sonnet-4-5-20250929", "msg_01XFDUDYJgAACzvnptvVoYEL")
    assert completion.reasoning_tokens is None            # not reported apart by Anthropic


def test_what_the_response_did_not_say_stays_unsaid(fake, connect):
    body = anthropic_body("ok")
    del body["model"], body["id"], body["stop_reason"]
    fake.queue(Reply(body=body))
    completion = connect(ANTHROPIC)([{"role": "user", "content": "go"}])
    assert (completion.model, completion.response_id, completion.finish_reason,
            completion.provider_finish_reason, completion.cache_write_tokens) == \
        (None, None, None, None, None)


@pytest.mark.parametrize("stop, normalised", [
    ("end_turn", "stop"), ("stop_sequence", "stop"), ("max_tokens", "length"),
    ("model_context_window_exceeded", "length"), ("tool_use", "tool_call"),
    ("refusal", "content_filter"), ("pause_turn", None),
])
def test_stop_reason_is_normalised_and_the_providers_own_kept(fake, connect, stop, normalised):
    fake.queue(Reply(body=anthropic_body("ok", stop=stop)))
    completion = connect(ANTHROPIC)([{"role": "user", "content": "go"}])
    assert (completion.finish_reason, completion.provider_finish_reason) == (normalised, stop)


def test_missing_key_is_an_error():
    with pytest.raises(LLMError, match="^anthropic: ANTHROPIC_API_KEY is not set"):
        AnthropicMessages("claude-sonnet-4-5")
