"""PtcError, the one error type a PTC-Lisp run reports, and Span, a place in the source."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Span:
    """Where a form sits in the source: 1-based line and column, end exclusive."""

    line: int
    col: int
    end_line: int
    end_col: int

    def __str__(self) -> str:
        return f"{self.line}:{self.col}"


class PtcError(Exception):
    """A failure of a PTC-Lisp program, as the LLM and the user see it.

    `reason` is the stable, snake_case contract (`unbound_var`, `type_error`...);
    `message` is one line; `span` says where; `hint` says what to write instead.
    """

    def __init__(self, reason: str, message: str, span: Span | None = None, hint: str | None = None):
        super().__init__(message)
        self.reason = reason
        self.message = message
        self.span = span
        self.hint = hint

    def __str__(self) -> str:
        # a reader message may name the place already ("1 unclosed '(' opened at 2:1")
        where = f" at {self.span}" if self.span and str(self.span) not in self.message else ""
        hint = f" (hint: {self.hint})" if self.hint else ""
        return f"{self.reason}: {self.message}{where}{hint}"

    def __repr__(self) -> str:
        return f"PtcError({self.reason!r}, {self.message!r}, span={self.span}, hint={self.hint!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PtcError) and (self.reason, self.message, self.span, self.hint) == (
            other.reason, other.message, other.span, other.hint)

    __hash__ = Exception.__hash__

    def with_span(self, span: Span | None) -> "PtcError":
        """This error, located at `span` unless it already has a place."""
        if self.span is None and span is not None:
            self.span = span
        return self

    def excerpt(self, source: str) -> str:
        """The source line of the error with a caret under its column."""
        if self.span is None:
            return ""
        lines = source.splitlines()
        if not 0 < self.span.line <= len(lines):
            return ""
        text = lines[self.span.line - 1]
        return f"{text}\n{' ' * (self.span.col - 1)}^"


def cut(text: str, limit: int = 60) -> str:
    """User text quoted in a message, cut so that a message stays one short line."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def did_you_mean(name: str) -> str:
    """"did you mean filter?", without a doubled "?" for names that end in one."""
    return f"did you mean {name}" + ("" if name.endswith("?") else "?")


def plural(count_text: str, noun: str) -> str:
    """"1 argument", "2 arguments", "1 or 2 arguments", "at least 1 argument"."""
    single = count_text == "1" or count_text.endswith(" 1")
    return f"{count_text} {noun}" if single else f"{count_text} {noun}s"


def error(reason: str, message: str, hint: str | None = None) -> PtcError:
    """A PtcError without a place yet; the run locates it from the failing form."""
    return PtcError(reason, message, None, hint)


class Signal(BaseException):
    """Control flow of `(return v)` and `(fail v)`: caught once, in `run`.

    BaseException so that no `except Exception` in a builtin can swallow it.
    """

    def __init__(self, kind: str, value: object):
        super().__init__(kind)
        self.kind = kind
        self.value = value
