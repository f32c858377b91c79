"""What the analyzer and its special forms share while they turn forms into nodes: the names
visible at a point (`Scope`), the analysis environment (`Env`), the error they raise
(`invalid`) and the names of the last turns' values (`*1`, `*2`, `*3`)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.lisp import nodes as N
from engine.lisp.errors import PtcError, Span

PREVIOUS_RESULTS = {"*1": 0, "*2": 1, "*3": 2}   # the values of the last three turns' programs


class Scope:
    """Names visible at one point: a chain of dicts from inner to outer."""

    __slots__ = ("names", "parent")

    def __init__(self, parent: "Scope | None" = None):
        self.names: dict[str, N.Binding] = {}
        self.parent = parent

    def lookup(self, name: str) -> N.Binding | None:
        scope = self
        while scope is not None:
            b = scope.names.get(name)
            if b is not None:
                return b
            scope = scope.parent
        return None


@dataclass(frozen=True)
class Env:
    scope: Scope
    frame: N.Frame
    recur: tuple | None = None        # (frame, number of recur arguments) of the target
    placeholders: dict | None = None  # inside #(): "%1" -> Binding

    def child(self) -> "Env":
        return replace(self, scope=Scope(self.scope))


def invalid(message: str, span: Span | None, hint: str | None = None,
            reason: str = "invalid_form") -> PtcError:
    return PtcError(reason, message, span, hint)
