"""Tool signatures and descriptions derived from Python functions, as the LLM sees them."""

from typing import Any, Optional

import pytest

from engine.agent import make_tool, tool
from engine.agent.tools import type_text


def search(query: str, limit: int = 10) -> list[str]:
    """Search the catalogue by text.

    Longer explanation that the LLM does not need."""
    return []


def untyped(a, b):
    return a


def variadic(*items: int, **options) -> dict[str, int]:
    return {}


@pytest.mark.parametrize("fn, params, returns, description", [
    (search, "(query string, limit int)", "[string]", "Search the catalogue by text."),
    (untyped, "(a, b)", "any", ""),
    (variadic, "(& items)", "map", ""),
])
def test_signature_and_description_come_from_hints_and_docstring(fn, params, returns, description):
    t = make_tool("t", fn)
    assert (t.params, t.returns, t.description) == (params, returns, description)
    assert t.info.signature == f"{params} -> {returns}"


@pytest.mark.parametrize("hint, text", [
    (str, "string"), (int, "int"), (float, "float"), (bool, "bool"), (dict, "map"),
    (list[dict], "[map]"), (Optional[int], "int or nil"), (int | str, "int or string"),
    (Any, "any"), (set[str], "#{string}"), (tuple[int, ...], "[int]"),
])
def test_type_text(hint, text):
    assert type_text(hint) == text


def test_given_signature_and_description_win():
    t = make_tool("s", search, params="(q string)", returns="[map]", description="Find it.")
    assert (t.params, t.returns, t.description) == ("(q string)", "[map]", "Find it.")


def test_decorator_names_the_tool_in_kebab_case():
    @tool(description="Stock levels.")
    def get_inventory() -> str:
        return ""
    assert (get_inventory.name, get_inventory.params, get_inventory.description) == (
        "get-inventory", "()", "Stock levels.")


def test_a_tool_that_is_not_callable_is_refused():
    with pytest.raises(ValueError, match="tool 'x' must be callable"):
        make_tool("x", 42)
