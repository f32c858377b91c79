"""Model names: provider prefixes stripped, and which tiktoken encoding a model's tokenizer uses."""

from __future__ import annotations

import re

# "openai:gpt-4o", "anthropic/claude-sonnet-4", "openrouter:openai/gpt-4o" -> the bare name.
# A provider has no digits, which keeps "llama3:8b" and "ft:gpt-4o-mini:org::id" model names.
_PROVIDER_PREFIX = re.compile(r"^(?:[a-z][a-z_-]*[:/])+(?=.)")

# OpenAI's GPT-4o-era and later families count with o200k_base (as tiktoken's own model table
# says); every other model, Anthropic's and local ones included, is estimated with cl100k_base.
O200K_FAMILIES = ("gpt-4o", "gpt-4.1", "gpt-4.5", "gpt-5", "o1", "o3", "o4", "chatgpt-4o")


def bare_model(model: str | None) -> str:
    """The model name in lower case without a provider prefix ("" for None)."""
    if not model:
        return ""
    return _PROVIDER_PREFIX.sub("", model.strip().lower())


def starts_family(name: str, family: str) -> bool:
    """True when `name` is `family` or `family` followed by a separator ("gpt-4o-mini", "o3").

    A letter or digit right after the family means another name ("o30", "gpt-4omni").
    """
    return name.startswith(family) and (len(name) == len(family) or not name[len(family)].isalnum())


def encoding_name_for_model(model: str | None) -> str:
    """The tiktoken encoding a model's own tokenizer is closest to: o200k_base or cl100k_base."""
    name = bare_model(model)
    if any(starts_family(name, family) for family in O200K_FAMILIES):
        return "o200k_base"
    return "cl100k_base"
