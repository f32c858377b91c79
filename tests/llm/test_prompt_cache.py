"""Live runs ask for the prompt caching the cost model assumes: Anthropic requests carry
`cache_control` breakpoints where the history stays the same from one request to the next,
OpenAI requests a `prompt_cache_key` per run; the cache usage each reports is kept in the trace."""

import pytest

from engine.agent import SubAgent
from engine.llm import AnthropicMessages, OpenAIChat
from engine.llm.anthropic_messages import cache_breakpoint
from engine.trace import dumps_trace, loads_trace
from tests.llm.conftest import KEY
from tests.llm.fake_provider import Reply, anthropic_body, openai_body

EPHEMERAL = {"type": "ephemeral"}
PROGRAM = "```clojure\n(println \"step\")\n```"
LAST = "```clojure\n(return 1)\n```"


def user(text):
    return {"role": "user", "content": text}


def assistant(text):
    return {"role": "assistant", "content": text}


@pytest.mark.parametrize("previous, turns, expected", [
    (None, [user("a")], 0),                                                   # a first request
    ([user("a")], [user("a"), assistant("x"), user("b")], 2),                 # appended: the last
    ([user("a"), assistant("x"), user("b")], [user("a"), assistant("x"), user("b2")], 1),
    ([user("mission + 3 turns")], [user("mission + 4 turns")], None),         # all rewritten
    ([user("m"), assistant("x"), user("b")], [user("m"), assistant("y"), user("c")], 0),
], ids=["first", "appended", "last-rewritten", "all-rewritten", "first-kept"])
def test_the_breakpoint_ends_what_stays_the_same(previous, turns, expected):
    assert cache_breakpoint(previous, turns) == expected


def breakpoints(body: dict) -> tuple[bool, list[int]]:
    """Whether the system prompt carries a breakpoint, and the indexes of the messages that do."""
    system = isinstance(body.get("system"), list) and body["system"][-1].get("cache_control") == EPHEMERAL
    marked = [i for i, m in enumerate(body["messages"])
              if isinstance(m["content"], list) and m["content"][-1].get("cache_control") == EPHEMERAL]
    return system, marked


def run_three_turns(fake, strategy: str, **options):
    fake.queue(Reply(body=anthropic_body(PROGRAM, input=1500, output=20, cache_write=1400)),
               Reply(body=anthropic_body(PROGRAM, input=60, output=20, cached=1400, cache_write=90)),
               Reply(body=anthropic_body(LAST, input=60, output=10, cached=1490, cache_write=70)))
    llm = AnthropicMessages("claude-test", base_url=fake.url, api_key=KEY, **options)
    try:
        session = SubAgent("Print, then return 1.", max_turns=3).start(llm, compress_history=strategy)
        while not session.done:
            session.step()
    finally:
        llm.close()
    return session.trace()


def test_full_history_caches_each_whole_request(fake):
    run_three_turns(fake, "full")
    marks = [breakpoints(r.body) for r in fake.requests]
    # full only appends, so each request's last message starts the next request's prefix
    assert marks == [(True, [0]), (True, [2]), (True, [4])]
    assert [len(r.body["messages"]) for r in fake.requests] == [1, 3, 5]


def test_a_strategy_that_rewrites_the_history_caches_what_it_keeps(fake):
    run_three_turns(fake, "coalesced")
    marks = [breakpoints(r.body) for r in fake.requests]
    # coalesced rewrites its one user message every turn: after the first request, only the
    # system prompt is worth a breakpoint
    assert marks == [(True, [0]), (True, []), (True, [])]


def test_no_prompt_cache_sends_plain_text(fake):
    trace = run_three_turns(fake, "full", prompt_cache=False)
    assert all(isinstance(r.body["system"], str) and
               all(isinstance(m["content"], str) for m in r.body["messages"])
               for r in fake.requests)
    assert trace.agent.llm_settings == {"base_url": fake.url, "prompt_cache": False}


def test_reported_cache_reads_and_writes_are_kept_in_the_trace(fake):
    trace = loads_trace(dumps_trace(run_three_turns(fake, "full")))
    usage = [(t.usage.input_tokens, t.usage.cached_tokens, t.usage.cache_write_tokens)
             for t in trace.turns]
    # input_tokens is the whole prompt: Anthropic's input_tokens plus its cache reads and writes
    assert usage == [(2900, None, 1400), (1550, 1400, 90), (1620, 1490, 70)]
    assert trace.agent.llm_settings == {"base_url": fake.url, "prompt_cache": True}


def test_openai_requests_of_one_run_share_a_prompt_cache_key(fake):
    fake.queue(*[Reply(body=openai_body(PROGRAM, prompt=2048, cached=1920))] * 2,
               Reply(body=openai_body("ok")))
    first = OpenAIChat("gpt-4.1", base_url=fake.url, api_key=KEY)
    first([user("a")])
    first([user("a"), assistant("x"), user("b")])
    other = OpenAIChat("gpt-4.1", base_url=fake.url, api_key=KEY)
    other([user("a")])
    keys = [r.body["prompt_cache_key"] for r in fake.requests]
    assert keys[0] == keys[1] != keys[2]
    assert keys[0].startswith("ptc-")
    for llm in (first, other):
        llm.close()


def test_openai_cached_tokens_are_kept_in_the_trace(fake):
    fake.queue(Reply(body=openai_body(LAST, prompt=2048, completion=12, cached=1920)))
    llm = OpenAIChat("gpt-4.1", base_url=fake.url, api_key=KEY)
    session = SubAgent("Return 1.").start(llm)
    session.step()
    llm.close()
    turn = loads_trace(dumps_trace(session.trace())).turns[0]
    assert (turn.usage.input_tokens, turn.usage.cached_tokens) == (2048, 1920)


def test_no_prompt_cache_sends_no_key(fake):
    fake.queue(Reply(body=openai_body("ok")))
    with OpenAIChat("gpt-4.1", base_url=fake.url, api_key=KEY, prompt_cache=False) as llm:
        llm([user("a")])
    assert "prompt_cache_key" not in fake.requests[0].body
