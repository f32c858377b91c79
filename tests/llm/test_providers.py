"""Gemini, Azure OpenAI, Ollama and OpenAI's reasoning models against a live fake server: the
URL, headers and body each is sent, usage, finish reasons and errors read back, and what a
user without a key is told."""

import pytest

from engine.llm import AzureChat, GeminiChat, LLMError, OllamaChat, OpenAIChat
from engine.llm.openai_chat import is_reasoning_model
from tests.llm.conftest import KEY
from tests.llm.fake_provider import Reply, openai_body, openai_error

MESSAGES = [{"role": "system", "content": "You write PTC-Lisp."},
            {"role": "user", "content": "Sum 1 and 2"}]


@pytest.fixture
def make(fake, sleeps):
    """make(cls, model, **options): a client of `fake`, closed afterwards."""
    made = []

    def make(cls, model, **options):
        options.setdefault("sleep", sleeps.append)
        llm = cls(model, **options)
        made.append(llm)
        return llm

    yield make
    for llm in made:
        llm.close()


# -- Gemini (ai.google.dev/gemini-api/docs/openai)

def test_gemini_request_and_reply(fake, make, monkeypatch):
    monkeypatch.setenv("GEMINI_API_KEY", KEY)
    fake.queue(Reply(body=openai_body("(+ 1 2)", prompt=40, completion=9, cached=32, reasoning=4,
                                      model="gemini-2.5-flash", finish="length")))
    llm = make(GeminiChat, "gemini-2.5-flash", base_url=f"{fake.url}/v1beta/openai/",
               temperature=0.3, max_tokens=200, reasoning_effort="low")
    completion = llm(MESSAGES)
    [request] = fake.requests
    assert request.path == "/v1beta/openai/chat/completions"
    assert request.headers["authorization"] == f"Bearer {KEY}"
    # Gemini documents no prompt_cache_key (it caches implicitly): none is sent
    assert request.body == {"model": "gemini-2.5-flash", "messages": MESSAGES, "temperature": 0.3,
                            "max_tokens": 200, "reasoning_effort": "low"}
    assert (completion.input_tokens, completion.cached_tokens, completion.output_tokens,
            completion.reasoning_tokens) == (40, 32, 9, 4)
    assert (completion.provider, completion.finish_reason) == ("gemini", "length")


def test_gemini_takes_the_google_key_when_there_is_no_gemini_key(fake, make, monkeypatch):
    monkeypatch.setenv("GOOGLE_API_KEY", "google-key-0123456789")
    fake.queue(Reply(body=openai_body("ok")))
    make(GeminiChat, "gemini-2.5-pro", base_url=fake.url)(MESSAGES)
    assert fake.requests[0].headers["authorization"] == "Bearer google-key-0123456789"


def test_gemini_without_a_key_says_which_variables():
    with pytest.raises(LLMError) as caught:
        GeminiChat("gemini-2.5-flash")
    assert str(caught.value) == ("gemini: GEMINI_API_KEY (or GOOGLE_API_KEY) is not set: export it, "
                                 "or pass --api-key-env NAME")


def test_gemini_error_body_is_one_line(fake, make):
    fake.queue(Reply(400, [{"error": {"code": 400, "message": "API key not valid.\nPlease pass a "
                                      "valid API key.", "status": "INVALID_ARGUMENT"}}]))
    with pytest.raises(LLMError) as caught:
        make(GeminiChat, "gemini-2.5-flash", base_url=fake.url, api_key=KEY)(MESSAGES)
    assert str(caught.value).startswith("gemini: HTTP 400 Bad Request: ")
    assert "\n" not in str(caught.value)


# -- Azure OpenAI (learn.microsoft.com/azure/ai-services/openai/reference)

@pytest.fixture
def azure_env(monkeypatch, fake):
    monkeypatch.setenv("AZURE_OPENAI_ENDPOINT", f"{fake.url}/")
    monkeypatch.setenv("AZURE_OPENAI_API_KEY", KEY)
    monkeypatch.setenv("OPENAI_API_VERSION", "2024-10-21")


def test_azure_request_and_reply(fake, make, azure_env):
    fake.queue(Reply(body=openai_body("(+ 1 2)", prompt=1500, completion=30, cached=1280,
                                      model="gpt-4o-2024-11-20")))
    completion = make(AzureChat, "prod-chat", max_tokens=300, temperature=0.0)(MESSAGES)
    [request] = fake.requests
    assert request.path == "/openai/deployments/prod-chat/chat/completions?api-version=2024-10-21"
    assert request.headers["api-key"] == KEY
    assert "authorization" not in request.headers
    # the deployment names the model; its name need not say the family, so the limit is the
    # field every Azure model takes
    assert request.body == {"messages": MESSAGES, "temperature": 0.0, "max_completion_tokens": 300}
    assert (completion.input_tokens, completion.cached_tokens) == (1500, 1280)
    assert (completion.model, completion.provider) == ("gpt-4o-2024-11-20", "azure")


@pytest.mark.parametrize("unset, message", [
    ("AZURE_OPENAI_API_KEY", "azure: AZURE_OPENAI_API_KEY is not set: export it, or pass "
                             "--api-key-env NAME"),
    ("AZURE_OPENAI_ENDPOINT", "azure: AZURE_OPENAI_ENDPOINT is not set: export it, or pass "
                              "--base-url URL"),
    ("OPENAI_API_VERSION", "azure: OPENAI_API_VERSION is not set: export it (e.g. "
                           "OPENAI_API_VERSION=2024-10-21; reasoning models need "
                           "2024-12-01-preview or later)"),
])
def test_azure_says_which_variable_is_missing(monkeypatch, unset, message):
    monkeypatch.setenv("AZURE_OPENAI_ENDPOINT", "https://res.openai.azure.com")
    monkeypatch.setenv("AZURE_OPENAI_API_KEY", KEY)
    monkeypatch.setenv("OPENAI_API_VERSION", "2024-10-21")
    monkeypatch.delenv(unset)
    with pytest.raises(LLMError) as caught:
        AzureChat("prod-chat")
    assert str(caught.value) == message


def test_azure_error_keeps_the_providers_message(fake, make, azure_env):
    fake.queue(Reply(404, {"error": {"code": "DeploymentNotFound", "message": "The API "
                                     "deployment for this resource does not exist."}}))
    with pytest.raises(LLMError) as caught:
        make(AzureChat, "nope")(MESSAGES)
    assert str(caught.value) == ("azure: HTTP 404 Not Found: The API deployment for this resource "
                                 "does not exist.")


# -- Ollama (docs.ollama.com/api/openai-compatibility)

def test_ollama_host_is_where_requests_go(fake, monkeypatch, make):
    monkeypatch.setenv("OLLAMA_HOST", fake.url.removeprefix("http://"))
    fake.queue(Reply(body=openai_body("ok", finish="stop")))
    make(OllamaChat, "qwen2.5-coder:7b", max_tokens=50)(MESSAGES)
    [request] = fake.requests
    assert request.path == "/v1/chat/completions"
    assert "authorization" not in request.headers
    assert request.body == {"model": "qwen2.5-coder:7b", "messages": MESSAGES, "max_tokens": 50}


def test_a_bad_ollama_host_is_one_line(monkeypatch):
    monkeypatch.setenv("OLLAMA_HOST", "box:port")
    with pytest.raises(ValueError, match="^OLLAMA_HOST='box:port' is not host:port or a URL$"):
        OllamaChat("llama3")


# -- OpenAI's reasoning models (platform.openai.com/docs/guides/reasoning)

@pytest.mark.parametrize("model, reasoning", [
    ("o1", True), ("o3-mini", True), ("o4-mini-2025-04-16", True), ("gpt-5", True),
    ("gpt-5-mini", True), ("gpt-5.1", True), ("openai/gpt-5-nano", True),
    ("gpt-4o", False), ("gpt-4.1-mini", False), ("gpt-5-chat-latest", False), ("o30", False),
    ("gpt-50", False), ("llama3", False),
])
def test_reasoning_families(model, reasoning):
    assert is_reasoning_model(model) is reasoning


def test_a_reasoning_model_gets_max_completion_tokens_and_effort(fake, make):
    fake.queue(Reply(body=openai_body("ok", prompt=900, completion=700, reasoning=512,
                                      model="gpt-5-2025-08-07")))
    completion = make(OpenAIChat, "gpt-5", base_url=fake.url, api_key=KEY, max_tokens=2000,
                      reasoning_effort="minimal", prompt_cache=False)(MESSAGES)
    assert fake.requests[0].body == {"model": "gpt-5", "messages": MESSAGES,
                                     "max_completion_tokens": 2000, "reasoning_effort": "minimal"}
    assert (completion.output_tokens, completion.reasoning_tokens) == (700, 512)


def test_the_default_temperature_is_not_sent_to_a_reasoning_model(fake, make):
    fake.queue(Reply(body=openai_body("ok")))
    make(OpenAIChat, "o3", base_url=fake.url, api_key=KEY, temperature=1, prompt_cache=False)(MESSAGES)
    assert set(fake.requests[0].body) == {"model", "messages"}


@pytest.mark.parametrize("model, options, problem", [
    ("gpt-5", {"temperature": 0.2}, "openai: gpt-5 is a reasoning model: it takes no temperature but "
                                    "the default 1 (leave --temperature out)"),
    ("gpt-4o", {"reasoning_effort": "high"}, "openai: gpt-4o takes no reasoning effort "
                                              "(--reasoning-effort)"),
    ("gpt-5", {"reasoning_effort": "extreme"}, "openai: unknown reasoning effort 'extreme' (choose "
                                               "from none, minimal, low, medium, high, xhigh)"),
])
def test_options_a_model_does_not_take_are_refused_before_any_request(model, options, problem):
    with pytest.raises(LLMError) as caught:
        OpenAIChat(model, **options)        # no key either: the command line's mistake comes first
    assert str(caught.value) == problem


def test_a_400_for_an_option_is_reported_as_the_provider_said_it(fake, make):
    fake.queue(Reply(400, openai_error("Unsupported parameter: 'max_tokens' is not supported with "
                                       "this model. Use 'max_completion_tokens' instead.")))
    with pytest.raises(LLMError, match="^openai: HTTP 400 Bad Request: Unsupported parameter"):
        make(OpenAIChat, "ft:custom", base_url=fake.url, api_key=KEY, max_tokens=5)(MESSAGES)
    assert len(fake.requests) == 1                       # a 400 is never retried


# -- keys and settings

def test_missing_openai_key_says_what_to_do():
    with pytest.raises(LLMError) as caught:
        OpenAIChat("gpt-4o-mini")
    assert str(caught.value) == ("openai: OPENAI_API_KEY is not set: export it, or pass "
                                 "--api-key-env NAME")


def test_api_key_env_names_the_variable(fake, make, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "the-wrong-key-0123456789")
    monkeypatch.setenv("WORK_OPENAI_KEY", KEY)
    fake.queue(Reply(body=openai_body("ok")))
    llm = make(OpenAIChat, "gpt-4o", base_url=fake.url, api_key_env="WORK_OPENAI_KEY")
    llm(MESSAGES)
    assert fake.requests[0].headers["authorization"] == f"Bearer {KEY}"
    with pytest.raises(LLMError, match="^openai: UNSET_KEY \\(named by --api-key-env\\) is not set: "
                                       "export it$"):
        OpenAIChat("gpt-4o", api_key_env="UNSET_KEY")


def test_settings_record_what_was_given_and_never_the_key(monkeypatch):
    monkeypatch.setenv("MY_KEY", KEY)
    llm = OpenAIChat("gpt-5", api_key_env="MY_KEY", base_url="https://proxy.example.com/v1",
                     max_tokens=800, reasoning_effort="low", timeout=30.0, prompt_cache=False)
    assert llm.settings == {"base_url": "https://proxy.example.com/v1", "api_key_env": "MY_KEY",
                            "max_output_tokens": 800, "reasoning_effort": "low", "timeout_s": 30.0,
                            "prompt_cache": False}
    assert OpenAIChat("gpt-4o", api_key=KEY).settings == {"prompt_cache": True}
    assert KEY not in repr(llm.settings)
