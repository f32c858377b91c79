"""The run context: prints, tool calls, definitions and limits of one run, and the calling
of the host's tools.

Compiled code never holds run state: every generated function starts with `_r = _h.s`, the
RunContext of the run in progress on this thread (`running.RUNNING`). So a function defined
in one run and passed in memory to a later run (in any thread) reads that later run's
deadline, limits, prints and definitions. The helpers compiled code calls are in helpers.py.
"""

from __future__ import annotations

import contextvars
import inspect
import threading
import time

from engine.lisp.access import flex_lookup
from engine.lisp.keys import expanded_size, from_key
from engine.lisp.convert import ConversionError, from_python, to_python
from engine.lisp.errors import PtcError, error
from engine.lisp.limits import Limits
from engine.lisp.results import Definition, ToolCall, ToolFailure
# the run in progress, named here too for the builtins and values that read it from here
from engine.lisp.running import RUNNING, check_deadline, current, current_or_none
from engine.lisp.values import Keyword, MAPS, Map, ToolValue, Var, is_fn

class RunContext:
    """Everything one run records and needs; compiled code reads it as `_r`."""

    __slots__ = ("limits", "data", "tools", "deadline", "wall_deadline", "prints", "print_chars",
                 "tool_calls", "definitions", "ns", "depth", "max_depth", "max_loop", "max_coll",
                 "max_string", "previous")

    def __init__(self, limits: Limits, data: Map, tools: dict, started: float, ns: dict):
        self.limits = limits
        self.data = data
        self.tools = tools
        # the whole run, tools included, ends by wall_deadline; the program's own time by
        # deadline, which moves on by the time spent in tools (never past wall_deadline)
        self.wall_deadline = started + limits.run_wall_ms / 1000
        self.deadline = min(started + limits.time_ms / 1000, self.wall_deadline)
        self.prints: list[str] = []
        self.print_chars = 0
        self.tool_calls: list[ToolCall] = []
        self.definitions: list[Definition] = []
        self.ns = ns                  # the user namespace: name -> value
        self.depth = 0
        self.max_depth = limits.recursion_depth
        self.max_loop = limits.loop_iterations
        self.max_coll = limits.collection_size
        self.max_string = limits.string_length
        self.previous = (None, None, None)   # *1 *2 *3: earlier turns' values, latest first

    # --- called by compiled code ----------------------------------------------------------
    def define(self, name: str, value, doc):
        self.ns[name] = value
        self.definitions.append(Definition(name, doc, is_fn(value)))
        return Var(name)

    def data_get(self, key: str):
        return flex_lookup(self.data, key, None)

    def add_print(self, text: str, length: int, more: bool = False) -> None:
        """One print of `length` characters (or more, if `more`), given as `text`, at least
        its first print_chars: cut there if it is longer, with the reference's marker saying
        how much was cut."""
        cap = self.limits.print_chars
        if more or length > cap:
            text = f"{text[:cap]}... ({cap}/{length}{'+' if more else ''} chars)"
        self.print_chars += len(text)
        if self.print_chars > self.limits.print_total_chars:
            raise error("output_limit_exceeded",
                        f"printed more than {self.limits.print_total_chars} characters",
                        "print less: a sample, a count, or (take 5 coll)")
        self.prints.append(text)

    def call_tool(self, name: str, args: tuple):
        if len(self.tool_calls) >= self.limits.tool_calls:
            raise error("tool_limit_exceeded", f"more than {self.limits.tool_calls} tool calls")
        fn = self.tools.get(name)
        if fn is None:
            raise self._unknown_tool(name)
        for arg in args:
            if expanded_size(arg, self.limits.collection_size + 1) > self.limits.collection_size:
                raise error("memory_exceeded", f"tool/{name}: an argument holds more than "
                                               f"{self.limits.collection_size} items")
        try:
            positional, named = tool_arguments(fn, args)
        except ConversionError as e:
            raise error("type_error", f"tool/{name}: {e}") from None
        _check_tool_arity(name, fn, positional, named)
        start = time.perf_counter()
        wait = min(self.limits.tool_timeout_ms / 1000, self.wall_deadline - start)
        returned, result, failure = _call_in_thread(fn, positional, named, wait)
        if not returned:
            self._record(name, args, None, "no answer in time: the call was abandoned", start)
            raise self._tool_timeout(name, wait)
        try:
            if isinstance(failure, Exception):
                raise failure
            if failure is not None:     # SystemExit and the like: the tool failed, no more
                raise RuntimeError(type(failure).__name__)
            value = from_python(result, self.limits.nesting_depth, f"result of tool/{name}")
        except Exception as e:  # the tool's own failure, reported to the program as data
            message = str(e) if isinstance(e, (ConversionError, ToolFailure)) else _exception_text(e)
            self._record(name, args, None, message, start)
            raise error("tool_error", f"tool/{name} failed: {message}") from None
        self._record(name, args, value, None, start)
        return value

    def _tool_timeout(self, name: str, waited: float) -> PtcError:
        hint = "the tool is slow or stuck: ask it for less, or go on without it"
        if waited < self.limits.tool_timeout_ms / 1000:
            return error("timeout", f"tool/{name} was still running when the run reached its "
                                    f"wall-clock limit of {self.limits.run_wall_ms} ms "
                                    f"(run_wall_ms, tool time included)", hint)
        return error("timeout", f"tool/{name} did not return within {self.limits.tool_timeout_ms}"
                                f" ms (tool_timeout_ms)", hint)

    def tool_value(self, name: str) -> ToolValue:
        """`tool/name` as a value; calling it is calling the tool (see call_tool)."""
        if name not in self.tools:
            raise self._unknown_tool(name)
        return ToolValue(name)

    def _unknown_tool(self, name: str) -> PtcError:
        if "/" in name:                          # `ns/name` with no such namespaced tool
            return error("invalid_form", f"unknown namespace {name.split('/')[0]}/",
                         "use tool/ for tools and data/ for input data")
        available = ", ".join(sorted(self.tools)) or "none"
        return error("unknown_tool", f"unknown tool: {name}. Available tools: {available}")

    def _record(self, name, args, value, message, start) -> None:
        elapsed = time.perf_counter() - start
        # time spent inside tools does not count against the program's time limit
        self.deadline = min(self.deadline + elapsed, self.wall_deadline)
        self.tool_calls.append(ToolCall(name, args, value, message, round(elapsed * 1000, 3)))


def _call_in_thread(fn, positional: list, named: dict, seconds: float) -> tuple:
    """`fn(*positional, **named)` in a daemon thread, waited on for at most `seconds`:
    (returned, result, exception). A call still running then is abandoned: Python cannot
    stop a thread, so it runs on in the background and its result is dropped."""
    outcome: list = []

    def call():
        try:
            outcome.append((fn(*positional, **named), None))
        except BaseException as e:  # noqa: BLE001 - any failure of the tool is its result
            outcome.append((None, e))

    thread = threading.Thread(target=contextvars.copy_context().run, args=(call,),
                              name="ptc-tool-call", daemon=True)
    thread.start()
    thread.join(max(seconds, 0.0))
    if not outcome:
        return False, None, None
    return True, *outcome[0]


def _check_tool_arity(name: str, fn, positional: list, named: dict) -> None:
    """A tool called with arguments its signature cannot take: say so in the tool's terms."""
    try:
        signature = inspect.signature(fn)
    except (TypeError, ValueError):
        return
    try:
        signature.bind(*positional, **named)
    except TypeError:
        params = " ".join(signature.parameters)
        given = len(positional) + len(named)
        call = f"(tool/{name} {params})" if params else f"(tool/{name})"
        raise error("tool_error", f"tool/{name} takes ({params}), got {given} argument"
                                  f"{'' if given == 1 else 's'}", f"call it as {call}") from None


def _exception_text(e: Exception) -> str:
    text = str(e)
    return f"{type(e).__name__}: {text}" if text else type(e).__name__


def tool_arguments(fn, args: tuple) -> tuple[list, dict]:
    """Python arguments for a tool: keyword arguments when a map's keys (or keyword/value
    pairs) all name parameters of `fn`, else positional plain values."""
    if len(args) == 1 and type(args[0]) in MAPS:
        pairs = {from_key(k): v for k, v in args[0].items()}
    elif len(args) >= 2 and len(args) % 2 == 0 and all(type(k) is Keyword for k in args[0::2]):
        pairs = dict(zip(args[0::2], args[1::2]))
    else:
        return [to_python(a) for a in args], {}
    plain = {(k.name if type(k) is Keyword else k): to_python(v) for k, v in pairs.items()}
    named = _as_parameters(fn, plain)
    if named is not None:
        return [], named
    return [plain], {}


def _as_parameters(fn, plain: dict) -> dict | None:
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return None
    takes_any = any(p.kind is p.VAR_KEYWORD for p in params.values())
    named = {}
    for key in plain:
        if type(key) is not str:
            return None
        name = key if key in params else key.replace("-", "_")
        if name not in params and not takes_any:
            return None
        if name in params and params[name].kind in (inspect.Parameter.VAR_POSITIONAL,
                                                    inspect.Parameter.POSITIONAL_ONLY):
            return None
        named[name if name.isidentifier() else key] = plain[key]
    return named



__all__ = ["RunContext", "RUNNING", "current", "current_or_none", "check_deadline",
           "PtcError", "tool_arguments"]
