"""ScriptedLLM, ReplayLLM and `complete`, the LLMs and the call that need no network."""

import json

import pytest

from engine.llm import Completion, LLMError, ReplayLLM, ScriptedLLM, complete

HELLO = [{"role": "user", "content": "hello"}]


@pytest.mark.parametrize("cls, provider, source", [(ScriptedLLM, "scripted", "the script"),
                                                   (ReplayLLM, "replay", "the trace")])
def test_replies_in_order_then_a_clear_error(cls, provider, source):
    llm = cls(["one", "two", "three"])
    assert [complete(llm, HELLO).text for _ in range(3)] == ["one", "two", "three"]
    with pytest.raises(LLMError) as caught:
        llm(HELLO)
    assert str(caught.value) == f"{provider}: no reply left for request 4 ({source} has 3 replies)"
    assert llm.calls == 4


def test_one_reply_is_singular():
    llm = ScriptedLLM(["only"])
    llm(HELLO)
    with pytest.raises(LLMError, match=r"request 2 \(the script has 1 reply\)"):
        llm(HELLO)


def test_requests_are_recorded_as_copies():
    llm, messages = ScriptedLLM(["a"]), [{"role": "user", "content": "hi"}]
    llm(messages)
    messages[0]["content"] = "changed"
    assert llm.requests == [[{"role": "user", "content": "hi"}]]


def test_completion_has_provider_and_no_usage():
    assert ScriptedLLM(["x"])(HELLO) == Completion(text="x", provider="scripted")


def test_replies_must_be_strings():
    with pytest.raises(ValueError, match="reply 1 is int"):
        ScriptedLLM(["ok", 2])


@pytest.mark.parametrize("content", [json.dumps(["a", "b"]), json.dumps({"replies": ["a", "b"]})],
                         ids=["list", "object"])
def test_from_file(tmp_path, content):
    path = tmp_path / "replies.json"
    path.write_text(content)
    llm = ScriptedLLM.from_file(path)
    assert llm.replies == ["a", "b"]
    assert llm.name == f"scripted:{path}"


@pytest.mark.parametrize("content, problem", [
    (None, "cannot read"),
    ("[\"a\",", "is not valid JSON"),
    ('{"reply": ["a"]}', "must hold a list of strings"),
    ('["a", 3]', "must hold a list of strings"),
], ids=["missing", "broken-json", "wrong-key", "not-strings"])
def test_from_file_errors_name_the_file(tmp_path, content, problem):
    path = tmp_path / "replies.json"
    if content is not None:
        path.write_text(content)
    with pytest.raises(ValueError) as caught:
        ScriptedLLM.from_file(path)
    assert str(path) in str(caught.value) and problem in str(caught.value)


def plain(messages):
    return "just text"


def broken(messages):
    raise KeyError("choices")


class Named:
    name = "my-llm"

    def __call__(self, messages):
        raise RuntimeError("socket closed")


@pytest.mark.parametrize("llm, outcome", [
    (plain, Completion(text="just text")),
    (lambda m: Completion("c", 1, 2, 0, "m", "p"), Completion("c", 1, 2, 0, "m", "p")),
    (broken, "broken: KeyError: 'choices'"),
    (Named(), "my-llm: RuntimeError: socket closed"),
    (lambda m: 42, "<lambda>: returned int, expected str or Completion"),
], ids=["str", "completion", "function-raises", "named-raises", "wrong-type"])
def test_complete(llm, outcome):
    if isinstance(outcome, Completion):
        assert complete(llm, HELLO) == outcome
    else:
        with pytest.raises(LLMError) as caught:
            complete(llm, HELLO)
        assert str(caught.value) == outcome


def test_complete_passes_llm_errors_through_unchanged():
    error = LLMError("openai", "boom", 500)

    def failing(messages):
        raise error
    with pytest.raises(LLMError) as caught:
        complete(failing, HELLO)
    assert caught.value is error


def test_complete_lets_keyboard_interrupt_through():
    def interrupted(messages):
        raise KeyboardInterrupt
    with pytest.raises(KeyboardInterrupt):
        complete(interrupted, HELLO)
