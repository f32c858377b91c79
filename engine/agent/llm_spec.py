"""open_llm: an LLM from a spec string, including `replay:TRACE` (which needs engine.trace), and
fork_llm: the LLM a fork runs."""

from __future__ import annotations

from engine.agent.extract import extract_program
from engine.llm import FORMS, ReplayLLM, from_spec, spec_model
from engine.llm.transport import options_from_settings
from engine.trace import Trace, load_trace

# Every spec a command line takes: engine.llm's providers, and replay:TRACE.
SPEC_FORMS = (*FORMS, "replay:TRACE")


def open_llm(spec: str, **options):
    """The LLM of one of SPEC_FORMS: a provider's model, a file of replies, or `replay:TRACE`
    (the raw replies of a saved trace, to re-run it under other options); `options` go to an
    HTTP client (base_url, temperature, max_tokens, timeout...)."""
    if spec.startswith("replay:"):
        path = spec[len("replay:"):]
        if not path:
            raise ValueError("replay: needs a trace file, e.g. replay:run.json")
        return replay_llm(load_trace(path).turns, spec)
    return from_spec(spec, **options)


def replay_llm(turns, name: str) -> ReplayLLM:
    """The recorded replies of `turns`, each ending as it was recorded to (cut or whole)."""
    return ReplayLLM([replayed_reply(t) for t in turns], name=name,
                     finishes=[(t.response.finish_reason, t.response.provider_finish_reason)
                               if t.response is not None else (None, None) for t in turns])


def replayed_reply(turn) -> str:
    """The reply that gives `turn`'s program again: its recorded reply, with the program added
    in a ```clojure block when the model sent it in a tool call (a reference run's
    `run_ptc_lisp` call) rather than in the reply's text, which is where our loop reads it."""
    text = turn.raw_response or ""
    found = extract_program(text)
    if turn.program is None or found == turn.program:
        return text
    block = f"```clojure\n{turn.program}\n```"
    return f"{text}\n\n{block}" if text.strip() and found is None else block


def fork_llm(spec: str | None, parent: Trace, at: int, parent_name: str = "parent", **options):
    """The LLM of a fork of `parent` at turn `at`: `spec`, else the parent's own LLM, set up
    as the parent's `llm_settings` say, each of `options` (the HTTP client's) overriding.

    Replies are aligned on turn numbers: `replay:TRACE` answers turn k with that trace's reply
    for turn k, so replaying the parent under its own options reproduces it. A parent run on
    recorded replies (scripted: or replay:) has no model to ask again: the default replays the
    parent itself (named `replay:<parent_name>`). `scripted:FILE` answers turn `at` with the
    file's first reply."""
    if spec is None:
        own = parent.agent.llm
        if spec_model(own) is not None:
            return open_llm(own, **{**options_from_settings(parent.agent.llm_settings), **options})
        return _replay(parent, at, f"replay:{parent_name}")
    if spec.startswith("replay:"):
        path = spec[len("replay:"):]
        if not path:
            raise ValueError("replay: needs a trace file, e.g. replay:run.json")
        return _replay(load_trace(path), at, spec)
    return open_llm(spec, **options)


def _replay(trace: Trace, at: int, name: str) -> ReplayLLM:
    return replay_llm(trace.turns[at - 1:], name)
