"""One table of providers (engine.llm.PROVIDERS): every provider in it has its model priced and
counted with its tokenizer, is asked again by a fork (CLI and app), and is listed by every
command's --llm help. A provider added to the table gets all of these, or one of these tests fails."""

import dataclasses

import pytest

from engine.agent import SPEC_FORMS, fork_llm
from engine.llm import FORMS, MODEL_PROVIDERS, PROVIDERS, ReplayLLM, spec_model
from engine.tokens import encoding_for_model, price_for
from engine.trace import load_trace
from ptc_tui.view.forks import default_llm_text
from tests.cli.conftest import PRODUCT_TRACE, cli  # noqa: F401  (the fixture)

MODEL_SPECS = [f"{p.prefix}:gpt-4o" for p in PROVIDERS if p.names_model]
ENV = {"OPENAI_API_KEY": "k", "ANTHROPIC_API_KEY": "k", "GEMINI_API_KEY": "k",
       "OPENROUTER_API_KEY": "k", "AZURE_OPENAI_API_KEY": "k", "OPENAI_API_VERSION": "2024-10-21",
       "AZURE_OPENAI_ENDPOINT": "https://res.openai.azure.com"}


def test_the_table_names_every_form_once():
    assert FORMS == tuple(p.form for p in PROVIDERS)
    assert len(set(FORMS)) == len(FORMS)
    assert MODEL_PROVIDERS == ("openai", "anthropic", "gemini", "azure", "openrouter", "ollama")
    assert SPEC_FORMS == (*FORMS, "replay:TRACE")


@pytest.mark.parametrize("spec", MODEL_SPECS)
def test_a_model_run_is_priced_counted_and_forked_on_its_own_model(spec, monkeypatch):
    for name, value in ENV.items():
        monkeypatch.setenv(name, value)
    parent = load_trace(PRODUCT_TRACE)
    parent = dataclasses.replace(parent, agent=dataclasses.replace(parent.agent, llm=spec))
    assert spec_model(parent.agent.llm) == spec
    assert price_for(spec_model(parent.agent.llm)) is not None
    assert encoding_for_model(spec_model(parent.agent.llm)).wanted == "o200k_base"
    llm = fork_llm(None, parent, 2)
    assert not isinstance(llm, ReplayLLM) and llm.name == spec
    assert default_llm_text(parent) == f"the trace's own: {spec}"        # the app's fork dialog


@pytest.mark.parametrize("command", ["run", "fork", "experiment"])
def test_every_form_is_in_the_llm_help(cli, command):
    help_text = " ".join(cli(command, "--help").out.split())
    assert ", ".join(SPEC_FORMS) in help_text


@pytest.mark.parametrize("model, rates", [
    ("gemini-2.5-pro", (1.25, 0.125, 10.0)), ("gemini-2.5-flash", (0.30, 0.03, 2.50)),
    ("gemini-2.5-flash-lite", (0.10, 0.01, 0.40)),
])
def test_a_gemini_run_is_priced_at_googles_rates(model, rates):
    parent = load_trace(PRODUCT_TRACE)
    trace = dataclasses.replace(parent, agent=dataclasses.replace(parent.agent, llm=f"gemini:{model}"))
    price = price_for(spec_model(trace.agent.llm))
    assert (price.input, price.cached_input, price.output) == rates
