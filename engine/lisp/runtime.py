"""The run context (prints, tool calls, definitions, limits) and the helpers compiled code calls.

Compiled code never holds run state: every generated function starts with `_r = _h.s`, the
RunContext of the run in progress on this thread. So a function defined in one run and
passed in memory to a later run (in any thread) reads that later run's deadline, limits,
prints and definitions.
"""

from __future__ import annotations

import contextvars
import inspect
import time
import types
import threading

from engine.lisp.access import MISSING, as_fn, flex_lookup, keyword_call
from engine.lisp.compare import check_keys, collection_items, expanded_size
from engine.lisp.convert import ConversionError, from_python, to_python
from engine.lisp.errors import PtcError, Signal, error
from engine.lisp.limits import Limits
from engine.lisp.results import Definition, ToolCall, ToolFailure
from engine.lisp.values import (EMPTY_MAP, Keyword, MAPS, Map, ToolValue, Var, as_keys, from_key,
                                is_fn, type_name)

class _Running(threading.local):
    s: "RunContext | None" = None    # the RunContext of the run in progress on this thread


RUNNING = _Running()


def current() -> "RunContext":
    return RUNNING.s


def current_or_none() -> "RunContext | None":
    return RUNNING.s


class RunContext:
    """Everything one run records and needs; compiled code reads it as `_r`."""

    __slots__ = ("limits", "data", "tools", "deadline", "wall_deadline", "prints", "print_chars",
                 "tool_calls", "definitions", "ns", "depth", "max_depth", "max_loop", "max_coll",
                 "previous")

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
        self.previous = (None, None, None)   # *1 *2 *3: earlier turns' values, latest first

    # --- called by compiled code ----------------------------------------------------------
    def define(self, name: str, value, doc):
        self.ns[name] = value
        self.definitions.append(Definition(name, doc, is_fn(value)))
        return Var(name)

    def data_get(self, key: str):
        return flex_lookup(self.data, key, None)

    def add_print(self, text: str) -> None:
        cap = self.limits.print_chars
        if len(text) > cap:                      # the reference's marker: how much was cut
            text = f"{text[:cap]}... ({cap}/{len(text)} chars)"
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


# --- helpers of compiled code -----------------------------------------------------------

def check_deadline() -> None:
    """A timeout if the run in progress on this thread is past its deadline."""
    ctx = RUNNING.s
    if ctx is not None and time.perf_counter() > ctx.deadline:
        _timeout()


def _timeout():
    ctx = current()
    hint = "do less work per turn: fewer items, or no deep recursion"
    if time.perf_counter() > ctx.wall_deadline:
        raise error("timeout", f"the run exceeded its wall-clock limit of "
                               f"{ctx.limits.run_wall_ms} ms (run_wall_ms, tool time included)",
                    hint)
    raise error("timeout", f"execution exceeded the time limit of {ctx.limits.time_ms} ms", hint)


def _too_deep():
    depth = current().limits.recursion_depth
    raise error("recursion_limit_exceeded", f"more than {depth} nested function calls",
                "use loop/recur or reduce instead of deep recursion")


def _loop_limit():
    n = current().limits.loop_iterations
    raise error("loop_limit_exceeded", f"loop ran more than {n} iterations",
                "use reduce, map or filter over the collection instead of loop/recur")


def _too_big():
    n = current().limits.collection_size
    raise error("memory_exceeded", f"collection larger than {n} items")


def _arity_mismatch(label: str, expected: str, got: int):
    raise error("arity_mismatch", f"{label} expects {expected} arguments, got {got}")


def _make_map(flat: tuple):
    if not flat:
        return EMPTY_MAP
    keys = flat[0::2]
    check_keys(keys)
    try:
        return Map(zip(as_keys(keys), flat[1::2]))
    except TypeError:
        raise error("type_error", "a map key must not be a function or contain a map value "
                                  "that cannot be compared") from None


def _make_plain_map(flat: tuple):
    """A map literal whose keys are keywords, strings or integers written in the source."""
    return Map(zip(flat[0::2], flat[1::2]))


def _make_set(items: tuple):
    check_keys(items)
    try:
        return frozenset(as_keys(items))
    except TypeError:
        raise error("type_error", "a set item must be comparable data") from None


def _seq_pattern(value):
    t = type(value)
    if t is tuple:
        return value
    if value is None:
        return ()
    if t is str:
        return tuple(value)
    raise error("destructure_error", f"cannot destructure a {type_name(value)} with a vector "
                                     "pattern; it needs a vector or nil",
                "use a map pattern {:keys [...]} for maps")


def _keyword_arguments(rest: tuple):
    """The rest arguments `:a 1 :b 2` (or one trailing map) of `[& {:keys [a b]}]` as a map."""
    if len(rest) == 1 and type(rest[0]) in MAPS:
        return rest[0]
    if len(rest) % 2 == 0:
        try:
            return Map(zip(as_keys(rest[0::2]), rest[1::2]))
        except TypeError:
            pass
    raise error("destructure_error", "the arguments after & of a map destructuring must come "
                f"in key value pairs, got {len(rest)} value{'s' * (len(rest) != 1)}")


def _map_pattern(value):
    t = type(value)
    if t in MAPS or value is None:
        return value
    raise error("destructure_error", f"cannot destructure a {type_name(value)} with a map "
                                     "pattern; it needs a map or nil",
                "use a vector pattern [a b] for vectors")


def _nth_or_nil(seq: tuple, i: int):
    return seq[i] if i < len(seq) else None


def _nthrest(seq: tuple, i: int):
    return seq[i:]


def _field(m, kw, name: str):
    """`(:k m)`: the keyword, else its name (maps from JSON have string keys), else nil."""
    if type(m) in MAPS:
        value = m.get(kw, MISSING)
        return m.get(name) if value is MISSING else value
    return keyword_call(kw, m)


def _dget(m, key):
    if m is None:
        return None
    return flex_lookup(m, key, None)


def _dget_or_missing(m, key):
    if m is None:
        return MISSING
    return flex_lookup(m, key, MISSING)


def _no_match(value):
    from engine.lisp.printer import pr_str
    raise error("no_matching_clause", f"no matching clause for {pr_str(value, limit=60)}",
                "add a default as the last form")


def _previous(index: int):
    """`*1`, `*2`, `*3`: the value of the program `index + 1` turns back, or nil."""
    return current().previous[index]


def _return(value):
    raise Signal("return", value)


def _fail(value):
    raise Signal("fail", value)


def _iterate(coll):
    """What doseq and for iterate over: items, map entries, characters; nil is empty."""
    seq = collection_items(coll)
    if seq is None:
        raise error("type_error", f"expected a collection to iterate over, got {type_name(coll)}")
    return seq


def base_globals() -> dict:
    """What every run's globals start from: builtins and the helpers above."""
    from engine.lisp.builtins import BUILTINS
    from engine.lisp.builtins.support import chunks, items
    from engine.lisp.builtins.transducers import Reduced
    from engine.lisp.where import where
    g = {"__builtins__": {}, "_h": RUNNING, "_len": len, "_tuple": tuple, "_type": type, "_int": int,
         "_NUMS": frozenset({int, float}), "_MAPS": MAPS, "_items": items, "_chunks": chunks,
         "_Reduced": Reduced,
         "_Function": types.FunctionType, "_clock": time.perf_counter, "_MISSING": MISSING,
         "_as_fn": as_fn, "_keyword_get": keyword_call, "_where": where}
    for name, value in globals().items():
        if name.startswith("_") and callable(value) and not name.startswith("__"):
            g.setdefault(name, value)
    for b in BUILTINS.values():
        g[b.pyname] = b.fn
        for n, fn in b.variants.items():
            g[f"{b.pyname}__{n}"] = fn
    return g


__all__ = ["RunContext", "current", "current_or_none", "base_globals", "PtcError"]
