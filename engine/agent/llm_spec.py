"""open_llm: an LLM from a spec string, including `replay:TRACE` (which needs engine.trace)."""

from __future__ import annotations

from engine.llm import ReplayLLM, from_spec
from engine.trace import load_trace


def open_llm(spec: str, **options):
    """`openai:MODEL`, `anthropic:MODEL`, `openrouter:MODEL`, `ollama:MODEL`, `scripted:FILE`,
    or `replay:TRACE` (the raw replies of a saved trace, to re-run it under other options)."""
    if spec.startswith("replay:"):
        path = spec[len("replay:"):]
        if not path:
            raise ValueError("replay: needs a trace file, e.g. replay:run.json")
        llm = ReplayLLM(load_trace(path).replies)
        llm.name = spec
        return llm
    return from_spec(spec, **options)
