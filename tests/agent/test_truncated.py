"""A reply cut at the output limit, end to end through SubAgent and a live fake provider: the
turn fails as `truncated`, nothing of it runs (not even a whole code block before the cut), and
the next request tells the model so, under every history strategy."""

import pytest

from engine.agent import SubAgent
from engine.history import STRATEGIES
from engine.llm import AnthropicMessages, OpenAIChat
from tests.llm.fake_provider import Reply, anthropic_body, openai_body, text_of
from tests.llm.fixtures import fake  # noqa: F401  (the fixture)

# A whole block that would return at once, then the cut: a program that only looks finished.
CUT = ("I'll count first.\n```clojure\n(def n (tool/count-items))\n(return n)\n```\n"
       "Then the per-category breakdown:\n```clojure\n(def by-cat (group-by :cat")
WHOLE = "```clojure\n(return (* 2 (tool/count-items)))\n```"


def openai(url):
    return OpenAIChat("gpt-test", base_url=f"{url}/v1", api_key="sk-test", max_tokens=60)


def anthropic(url):
    return AnthropicMessages("claude-test", base_url=url, api_key="sk-test", max_tokens=60)


PROVIDERS = {
    "openai": (openai, lambda text, **kw: openai_body(text, finish="length" if kw else "stop")),
    "anthropic": (anthropic,
                  lambda text, **kw: anthropic_body(text, stop="max_tokens" if kw else "end_turn")),
}


def sent_text(body: dict) -> str:
    """Everything a request showed the model: system field (Anthropic) and messages."""
    return "\n".join([text_of(body.get("system", ""))] + [text_of(m["content"]) for m in body["messages"]])


@pytest.mark.parametrize("strategy", sorted(STRATEGIES))
@pytest.mark.parametrize("provider", PROVIDERS)
def test_a_cut_reply_is_a_truncated_turn_the_model_is_told_about(fake, provider, strategy):
    make, body = PROVIDERS[provider]
    fake.queue(Reply(body=body(CUT, cut=True)), Reply(body=body(WHOLE)))
    counted = []
    agent = SubAgent("Count the items, doubled.", max_turns=3, compress_history=strategy,
                     tools={"count-items": lambda: counted.append(1) or 21})
    with make(fake.url) as llm:
        step = agent.run(llm)
    first, second = step.turns
    assert first.error.reason == "truncated"
    assert first.response.finish_reason == "length"
    assert first.response.provider_finish_reason == ("length" if provider == "openai"
                                                     else "max_tokens")
    assert first.tool_calls == () and first.memory == {}
    assert first.program is not None and "(return n)" in first.program   # kept, never run
    # the next request says why, with what to do about it
    told = sent_text(fake.requests[1].body)
    assert "truncated: your reply was cut off at the output token limit" in told
    assert "none of its code was run" in told and "write a shorter reply" in told
    assert "(def by-cat (group-by :cat" in told           # where it was cut, in every strategy
    assert "Your previous attempt" not in told            # never the cut code as if whole
    # the model's next, whole reply runs as usual
    assert second.error is None and step.return_value == 42 and counted == [1]


def test_a_single_shot_run_fails_with_the_reason(fake):
    fake.queue(Reply(body=openai_body(CUT, finish="length")))
    with openai(fake.url) as llm:
        step = SubAgent("Count.", max_turns=1, tools={"count-items": lambda: 21}).run(llm)
    assert step.failed and step.fail.reason == "truncated"
    assert step.return_value is None


def test_a_whole_reply_with_the_same_code_runs(fake):
    fake.queue(Reply(body=openai_body(CUT.split("Then")[0], finish="stop")))
    with openai(fake.url) as llm:
        step = SubAgent("Count.", max_turns=2, tools={"count-items": lambda: 21}).run(llm)
    assert not step.failed and step.return_value == 21
