"""Tool: a Python callable with the signature and description the LLM is shown.

Both are derived from the function's type hints and docstring unless given:
`def search(query: str, limit: int = 10) -> list[str]` shows as
`tool/search(query string, limit int) -> [string]`.
"""

from __future__ import annotations

import inspect
import types
import typing
from dataclasses import dataclass

from engine.history import ToolInfo

_TYPE_NAMES = {str: "string", int: "int", float: "float", bool: "bool", dict: "map",
               list: "[any]", tuple: "[any]", set: "#{any}", frozenset: "#{any}",
               type(None): "nil", typing.Any: "any", object: "any"}


@dataclass(frozen=True)
class Tool:
    """A tool an agent may call as `(tool/name ...)`."""

    name: str
    fn: typing.Callable
    params: str = "()"
    returns: str = "any"
    description: str = ""

    @property
    def info(self) -> ToolInfo:
        return ToolInfo(self.name, self.params, self.returns, self.description)


def make_tool(name: str, fn, *, params: str | None = None, returns: str | None = None,
              description: str | None = None) -> Tool:
    """A Tool for `fn`, with whatever is not given derived from its hints and docstring."""
    if isinstance(fn, Tool):
        return Tool(name, fn.fn, params or fn.params, returns or fn.returns,
                    fn.description if description is None else description)
    if not callable(fn):
        raise ValueError(f"tool {name!r} must be callable, not {type(fn).__name__}")
    derived_params, derived_returns = _signature_text(fn)
    doc = description if description is not None else _first_paragraph(inspect.getdoc(fn))
    return Tool(name, fn, params or derived_params, returns or derived_returns, doc)


def tool(fn=None, *, name: str | None = None, params: str | None = None,
         returns: str | None = None, description: str | None = None):
    """Decorator form: `@tool` or `@tool(description="...")`; the name defaults to the
    function's, with `_` turned into `-` (`get_inventory` → `get-inventory`)."""
    def wrap(f):
        return make_tool(name or f.__name__.replace("_", "-"), f, params=params,
                         returns=returns, description=description)
    return wrap(fn) if fn is not None else wrap


def _signature_text(fn) -> tuple[str, str]:
    try:
        signature = inspect.signature(fn)
    except (TypeError, ValueError):
        return "(...)", "any"
    try:
        hints = typing.get_type_hints(fn)
    except Exception:  # unresolvable annotations: show names without types
        hints = {}
    parts = []
    for p in signature.parameters.values():
        if p.kind is p.VAR_POSITIONAL:
            parts.append(f"& {p.name}")
        elif p.kind is p.VAR_KEYWORD:
            continue
        else:
            hint = hints.get(p.name)
            parts.append(f"{p.name} {type_text(hint)}" if hint is not None else p.name)
    returns = type_text(hints["return"]) if "return" in hints else "any"
    return "(" + ", ".join(parts) + ")", returns


def type_text(hint) -> str:
    """A Python type hint in the words the LLM reads: `list[str]` → `[string]`."""
    if hint in _TYPE_NAMES:
        return _TYPE_NAMES[hint]
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (list, tuple, typing.Sequence) or origin is getattr(typing, "List", None):
        return f"[{type_text(args[0]) if args else 'any'}]"
    if origin in (set, frozenset):
        return "#{" + (type_text(args[0]) if args else "any") + "}"
    if origin is dict:
        return "map"
    if origin in (typing.Union, types.UnionType):
        named = [type_text(a) for a in args if a is not type(None)]
        text = " or ".join(named)
        return text + " or nil" if len(named) < len(args) else text
    if origin is typing.Literal:
        return " or ".join(repr(a) for a in args)
    return getattr(hint, "__name__", str(hint)).lower()


def _first_paragraph(doc: str | None) -> str:
    if not doc:
        return ""
    return " ".join(doc.strip().split("\n\n")[0].split())
