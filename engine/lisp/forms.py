"""Forms: what the reader produces, each with its Span. The analyzer turns them into nodes."""

from __future__ import annotations

from dataclasses import dataclass

from engine.lisp.errors import Span
from engine.lisp.printer import pr_str


@dataclass(frozen=True, slots=True)
class Const:
    """A literal: number, string, character, keyword, nil, true or false."""
    value: object
    span: Span


@dataclass(frozen=True, slots=True)
class Sym:
    """A symbol as written; `ns` is the part before `/` (`str/join`), or None."""
    ns: str | None
    name: str
    span: Span

    @property
    def text(self) -> str:
        return f"{self.ns}/{self.name}" if self.ns else self.name


@dataclass(frozen=True, slots=True)
class ListForm:
    items: tuple
    span: Span


@dataclass(frozen=True, slots=True)
class VectorForm:
    items: tuple
    span: Span


@dataclass(frozen=True, slots=True)
class MapForm:
    """`{k v ...}`: `items` alternates keys and values."""
    items: tuple
    span: Span


@dataclass(frozen=True, slots=True)
class SetForm:
    items: tuple
    span: Span


@dataclass(frozen=True, slots=True)
class FnLiteral:
    """`#(...)`: `items` are the forms inside the parentheses."""
    items: tuple
    span: Span


@dataclass(frozen=True, slots=True)
class RegexForm:
    """`#"..."`: `source` is the pattern text as written."""
    source: str
    span: Span


@dataclass(frozen=True, slots=True)
class VarQuote:
    """`#'name`."""
    target: object
    span: Span


Form = Const | Sym | ListForm | VectorForm | MapForm | SetForm | FnLiteral | RegexForm | VarQuote


def is_sym(form, name: str | None = None) -> bool:
    """True for an unqualified symbol (named `name`, when given)."""
    return type(form) is Sym and form.ns is None and (name is None or form.name == name)


def show(form, limit: int = 60) -> str:
    """Source-like text of a form, for error messages."""
    text = _show(form)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _show(form) -> str:
    t = type(form)
    if t is Sym:
        return form.text
    if t is Const:
        return pr_str(form.value)
    brackets = {ListForm: ("(", ")"), VectorForm: ("[", "]"), MapForm: ("{", "}"),
                SetForm: ("#{", "}"), FnLiteral: ("#(", ")")}
    if t in brackets:
        open_, close = brackets[t]
        return open_ + " ".join(_show(x) for x in form.items) + close
    if t is RegexForm:
        return f'#"{form.source}"'
    if t is VarQuote:
        return "#'" + _show(form.target)
    return "?"
