"""PTC-Lisp: the sandboxed Clojure dialect that agents write. `run` is the entry point."""

from engine.lisp.convert import from_python, to_json, to_python
from engine.lisp.errors import PtcError, Span
from engine.lisp.interpreter import run
from engine.lisp.limits import Limits
from engine.lisp.printer import format_value, format_within, pr_str
from engine.lisp.results import Definition, RunResult, ToolCall, ToolFailure
from engine.lisp.values import Keyword

__all__ = ["run", "Keyword", "PtcError", "Span", "Limits", "RunResult", "ToolCall",
           "ToolFailure", "Definition", "format_value", "format_within", "pr_str", "to_python",
           "to_json", "from_python"]
