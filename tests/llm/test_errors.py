"""LLMError's one-line text, the provider's message pulled from error bodies, and keys kept out of both."""

import pytest

from engine.llm import LLMError
from engine.llm.errors import redact
from tests.llm.conftest import FLAVORS
from tests.llm.fake_provider import Reply

HELLO = [{"role": "user", "content": "hello"}]


@pytest.mark.parametrize("error, text", [
    (LLMError("openai", "Incorrect API key provided", 401),
     "openai: HTTP 401 Unauthorized: Incorrect API key provided"),
    (LLMError("anthropic", "request timed out after 60 s"), "anthropic: request timed out after 60 s"),
    (LLMError("anthropic", "Overloaded", 529), "anthropic: HTTP 529 Overloaded: Overloaded"),
    (LLMError("x", "odd", 599), "x: HTTP 599: odd"),
], ids=["status", "no-status", "529", "unknown-status"])
def test_error_text(error, text):
    assert str(error) == text


@pytest.mark.parametrize("status, body, text", [
    (400, FLAVORS[0].error("Invalid value for 'temperature'"),
     "HTTP 400 Bad Request: Invalid value for 'temperature'"),
    (404, FLAVORS[1].error("model: claude-nope"), "HTTP 404 Not Found: model: claude-nope"),
    (400, {"error": "model 'llama9' not found"}, "HTTP 400 Bad Request: model 'llama9' not found"),
    (400, {"object": "error", "message": "max_tokens is too large"},
     "HTTP 400 Bad Request: max_tokens is too large"),
    (422, {"detail": "field required"}, "HTTP 422 Unprocessable Entity: field required"),
    (403, "<html>Forbidden\n by proxy</html>" + "x" * 300,
     "HTTP 403 Forbidden: <html>Forbidden by proxy</html>" + "x" * 168),
    (400, "", "HTTP 400 Bad Request: (empty body)"),
    (400, {"error": {"message": "line one\nline two"}}, "HTTP 400 Bad Request: line one line two"),
], ids=["openai", "anthropic", "error-string", "vllm", "fastapi", "html-excerpt", "empty", "multi-line"])
def test_provider_message(fake, connect, flavor, status, body, text):
    fake.queue(Reply(status, body))
    with pytest.raises(LLMError) as caught:
        connect(flavor)(HELLO)
    assert str(caught.value) == f"{flavor.name}: {text}"


@pytest.mark.parametrize("body, problem", [
    ("not json at all", "malformed response: body is not JSON: 'not json at all'"),
    ([1, 2], "malformed response: expected a JSON object, got list"),
    ({"id": "x"}, None),
], ids=["not-json", "not-an-object", "no-reply-field"])
def test_malformed_success_body(fake, connect, flavor, body, problem):
    fake.queue(Reply(200, body))
    with pytest.raises(LLMError) as caught:
        connect(flavor)(HELLO)
    expected = problem or ("malformed response: no choices in the body" if flavor.name == "openai"
                           else "malformed response: no content in the body")
    assert str(caught.value) == f"{flavor.name}: {expected}"
    assert len(fake.requests) == 1


def test_openai_401_echoing_the_key_is_redacted(fake, connect, flavor):
    masked = flavor.key[:10] + "*" * 20 + flavor.key[-4:]
    fake.queue(Reply(401, flavor.error(f"Incorrect API key provided: {masked}. You can find your API key "
                                       f"at https://platform.openai.com/account/api-keys. ({flavor.key})")))
    llm = connect(flavor)
    with pytest.raises(LLMError) as caught:
        llm(HELLO)
    assert str(caught.value) == (
        f"{flavor.name}: HTTP 401 Unauthorized: Incorrect API key provided: ***. "
        "You can find your API key at https://platform.openai.com/account/api-keys. (***)")
    for text in (str(caught.value), repr(caught.value), repr(llm), str(vars(caught.value))):
        assert flavor.key[:8] not in text


@pytest.mark.parametrize("text, secret, expected", [
    ("key sk-abcdefgh123 here", "sk-abcdefgh123", "key *** here"),
    ("key sk-abcdef******h123.", "sk-abcdefgh123", "key ***."),
    ("key sk-abcdefgh...", "sk-abcdefgh123", "key ***..."),
    ("key sk-abc is short", "sk-abc", "key *** is short"),
    ("nothing to hide", None, "nothing to hide"),
    ("sk-abcd and sk-abcdeXY", "sk-abcdefgh123", "sk-abcd and ***"),
], ids=["exact", "masked", "truncated", "short-key", "no-key", "only-8-char-prefixes"])
def test_redact(text, secret, expected):
    assert redact(text, secret) == expected
