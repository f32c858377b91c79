"""The language reference the LLM is given, read from the text files in `prompts/`."""

from __future__ import annotations

from functools import cache
from importlib.resources import files


@cache
def prompt_file(name: str) -> str:
    return files("engine.agent").joinpath("prompts", name).read_text(encoding="utf-8").strip()


def reference_text(max_turns: int) -> str:
    """Language reference, turn guidance (multi-turn or single-shot) and output format."""
    mode = "single_shot.md" if max_turns == 1 else "multi_turn.md"
    return "\n\n".join(prompt_file(n) for n in ("reference.md", mode, "output_format.md"))
