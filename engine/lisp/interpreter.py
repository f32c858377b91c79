"""`run`: read, analyze, compile and execute a program, one top-level form at a time.

Forms run in order, as in Clojure: prints made before a failing form are kept. Whatever the
program does, `run` returns a RunResult; a Python exception escaping from here is a bug.
"""

from __future__ import annotations

import re
import threading
import time
import types
import uuid
import warnings
import weakref
from collections import OrderedDict
from collections.abc import Mapping

from engine.lisp import fn_forms, macros, refused, special_forms  # noqa: F401  (they register the special forms)
from engine.lisp.analyzer import Analyzer
from engine.lisp.builtins import BUILTINS
from engine.lisp.builtins.registry import named
from engine.lisp.compiler import FILENAME, Compiler
from engine.lisp.pyast import demangle
from engine.lisp.convert import ConversionError, from_python
from engine.lisp.errors import PtcError, Signal, Span, cut, did_you_mean, plural
from engine.lisp.helpers import base_globals
from engine.lisp.limits import Limits
from engine.lisp.reader import read
from engine.lisp.results import RunResult
from engine.lisp.running import RUNNING, current_or_none
from engine.lisp.runtime import RunContext
from engine.lisp.values import FN_INFO, MAPS, HostMap, Map, type_name, with_lisp_functions

_BASE = base_globals()
_COLLECTIONS = {tuple, frozenset, Map, HostMap}
_BUILTIN_CODES = {}
for _b in BUILTINS.values():
    for _fn in (_b.fn, *_b.variants.values()):
        if hasattr(_fn, "__code__"):
            _BUILTIN_CODES.setdefault(_fn.__code__, _b.name)
_BUILTIN_NAMES = {code.co_name: name for code, name in _BUILTIN_CODES.items()}


def run(source: str, data=None, tools=None, memory=None, limits=None, *,
        previous=()) -> RunResult:
    """Run PTC-Lisp `source` and return its RunResult; never raises for any program, nor for
    any content of `data`, `memory`, `previous` or tool results (bad content is an
    `invalid_data` error).

    `data` is read as `data/name`; `tools` maps names to Python callables (`tool/name`);
    `memory` maps names defined by earlier runs to their values; `limits` overrides Limits;
    `previous` holds the values of earlier turns' programs, latest first, read as `*1`, `*2`,
    `*3` (nil where missing). Bad arguments from the host (data or memory not a dict,
    previous not a tuple or list, tools not callables, an unknown limit) raise ValueError.
    """
    limits = Limits.from_dict(limits)
    tools = _host_tools(tools)
    memory = dict(_mapping("memory", memory))
    _check_previous(previous)
    started = time.perf_counter()
    try:
        data_map = _host_data(_mapping("data", data), limits)
        namespace = {name: _host_value(v, limits, f"memory/{name}") for name, v in memory.items()}
        earlier = _previous_values(previous, limits)
    except ConversionError as e:
        return RunResult(None, None, PtcError("invalid_data", str(e)), memory=memory,
                         duration_ms=round((time.perf_counter() - started) * 1000, 3))
    ctx = RunContext(limits, data_map, tools, started, namespace)
    ctx.previous = earlier
    outer = current_or_none()   # a tool may itself run a program
    RUNNING.s = ctx
    value, signal, err = None, None, None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            value = _execute(source, ctx, limits)
    except Signal as s:
        value, signal = s.value, s.kind
    except Exception as e:  # every failure becomes the run's error, located in the source
        err = _locate(translate(e), e.__traceback__)
        # the error goes back to the host: it must not keep the run's frames and values alive
        err.__traceback__ = err.__context__ = err.__cause__ = None
    finally:
        RUNNING.s = outer
    if err is None:
        err = _check_result(value, ctx, limits)
    if err is not None:
        value, signal, new_memory = None, None, memory
    else:
        value, new_memory = with_lisp_functions(value), ctx.ns
        for name in {d.name for d in ctx.definitions}:
            if name in new_memory:
                new_memory[name] = with_lisp_functions(new_memory[name])
    return RunResult(value, signal, err, ctx.prints, ctx.tool_calls, new_memory,
                     ctx.definitions, round((time.perf_counter() - started) * 1000, 3))


def _execute(source: str, ctx: RunContext, limits: Limits):
    g = dict(_BASE)
    value = None
    for code, main, constants in compiled_forms(source, limits, ctx.deadline):
        g.update(constants)
        exec(code, g)
        value = g[main]()
    return value


_COMPILED: "OrderedDict[tuple, tuple]" = OrderedDict()   # the most recently run programs
_COMPILED_MAX = 256
_COMPILED_LOCK = threading.Lock()


def compiled_forms(source: str, limits: Limits, deadline: float):
    """The top-level forms of `source` compiled, one at a time: (code, name of its main
    function, the constants it reads). Each form is compiled just before it runs, as in
    Clojure, so a form that does not compile keeps the prints of the ones before it.

    A program compiled to its end is kept (by source text and the limits that shape reading)
    for the next run of the same text: replays and forks run the same programs again. The
    code holds no state of a run: the run's context is read from `_h.s` when it runs."""
    if len(source) > limits.source_chars:
        raise PtcError("parse_error", f"program of {len(source)} characters is longer than "
                                      f"the limit of {limits.source_chars}")
    key = (source, limits.nesting_depth, limits.symbols)
    with _COMPILED_LOCK:
        cached = _COMPILED.get(key)
        if cached is not None:
            _COMPILED.move_to_end(key)
    if cached is not None:
        yield from cached
        return
    forms = read(source, max_depth=limits.nesting_depth, max_symbols=limits.symbols,
                 deadline=deadline)
    unit = "x" + uuid.uuid4().hex[:10]
    analyzer = Analyzer(unit)
    constants: dict = {}      # of all the forms (their names are unique in the program)
    done = []
    for form in forms:
        frame, node = analyzer.analyze_top(form)
        compiler = Compiler(constants, unit)
        code, main = compiler.compile_top(frame, node)
        _register_fn_info(code, compiler.fn_infos)
        done.append((code, main, constants))
        if len(done) == len(forms):
            _remember(key, tuple(done))
        yield code, main, constants
    if not forms:
        _remember(key, ())


def _remember(key: tuple, forms: tuple) -> None:
    with _COMPILED_LOCK:
        _COMPILED[key] = forms
        while len(_COMPILED) > _COMPILED_MAX:
            _COMPILED.popitem(last=False)


def _register_fn_info(code, infos: dict) -> None:
    stack = [code]
    while stack:
        c = stack.pop()
        info = infos.get(c.co_name)
        if info is not None:
            FN_INFO[c] = info
            _CODE_BY_NAME[c.co_name] = c
        stack.extend(k for k in c.co_consts if isinstance(k, types.CodeType))


def _mapping(what: str, given) -> Mapping:
    if given is None:
        return {}
    if not isinstance(given, Mapping):
        raise ValueError(f"{what} must be a dict of names to values, got {type(given).__name__}")
    return given


def _host_data(data: Mapping, limits: Limits) -> Map:
    """`data` as a map of PTC-Lisp values; a Map is already that (an agent converts its data
    once per session). Each entry is named in errors: `data/products[3].tags: ...`."""
    if type(data) in MAPS:
        return data
    converted = {}
    for name, value in data.items():
        if type(name) is not str:
            raise ConversionError("data: every key must be a name (a string)")
        converted[name] = from_python(value, limits.nesting_depth, f"data/{name}", depth=1)
    return Map(converted)


def _host_tools(tools) -> dict:
    tools = dict(tools or {})
    for name, fn in tools.items():
        if not isinstance(name, str) or not callable(fn):
            raise ValueError(f"tools must map names to callables; {name!r} is not")
    return tools


def _host_value(value, limits: Limits, where: str):
    """A value of memory or `previous`: Python data converted, PTC-Lisp values as they are."""
    if isinstance(value, (dict, list, set)) and type(value) is not HostMap:
        return from_python(value, limits.nesting_depth, where)
    return value


def _check_previous(previous) -> None:
    if not isinstance(previous, (tuple, list)):
        raise ValueError(f"previous must be a tuple of earlier values, latest first, got "
                         f"{type(previous).__name__}")


def _previous_values(previous, limits: Limits) -> tuple:
    """`*1 *2 *3` from the host's `previous` (latest first): converted, padded with nil."""
    values = [_host_value(v, limits, f"*{i + 1}") for i, v in enumerate(previous[:3])]
    return tuple(values) + (None,) * (3 - len(values))


def _check_result(value, ctx: RunContext, limits: Limits) -> PtcError | None:
    """The value and this run's definitions may not nest deeper than the limit."""
    defined = {d.name for d in ctx.definitions}
    for v in [value, *(ctx.ns[name] for name in defined if name in ctx.ns)]:
        if _depth_exceeds(v, limits.nesting_depth):
            return PtcError("memory_exceeded", f"a value is nested deeper than "
                                               f"{limits.nesting_depth} levels")
    return None


def _depth_exceeds(value, limit: int) -> bool:
    """Whether `value` nests deeper than `limit`; shared parts are visited once."""
    seen: set[int] = set()
    stack = [(value, 0)]
    while stack:
        v, depth = stack.pop()
        t = type(v)
        if t is tuple or t is frozenset or t in MAPS:
            if depth >= limit:
                return True
            if id(v) in seen:
                continue
            seen.add(id(v))
            parts = (*v.keys(), *v.values()) if t in MAPS else v
            if _COLLECTIONS.isdisjoint(set(map(type, parts))):   # only scalars: done (in C)
                continue
            stack.extend((x, depth + 1) for x in parts)
    return False


# --- errors ------------------------------------------------------------------------------

_ARITY = re.compile(r"^(?:[\w.<>]*\.)?(\w+)\(\) (?:takes|missing) .*")
_COUNTS = re.compile(r"takes (?:from (\d+) to )?(\d+) positional arguments? but (\d+) (?:was|were) given")
_MISSING = re.compile(r"missing (\d+) required positional argument")
_CODE_BY_NAME: "weakref.WeakValueDictionary[str, types.CodeType]" = weakref.WeakValueDictionary()


def translate(e: BaseException) -> PtcError:
    """Any exception from a run as the PtcError the program's author can act on."""
    if isinstance(e, PtcError):
        return named(e, e.__traceback__)
    if isinstance(e, RecursionError):
        return PtcError("recursion_limit_exceeded", "nesting too deep (recursion or data)",
                        None, "use loop/recur or reduce instead of deep recursion")
    if isinstance(e, MemoryError):
        return PtcError("memory_exceeded", "out of memory")
    if isinstance(e, (ZeroDivisionError, OverflowError)):
        return PtcError("arithmetic_error", "division by zero" if isinstance(
            e, ZeroDivisionError) else "number out of range")
    if isinstance(e, KeyError) and _raised_in_program(e.__traceback__) and e.args and \
            type(e.args[0]) is str:
        return _unbound(e.args[0])
    if isinstance(e, TypeError):
        arity = _arity_error(str(e))
        if arity is not None:
            return arity
    return _type_error(e)


def _raised_in_program(tb) -> bool:
    """Whether the innermost frame of a traceback is compiled program code."""
    last = None
    while tb is not None:
        last, tb = tb, tb.tb_next
    return last is not None and last.tb_frame.f_code.co_filename == FILENAME


def _unbound(lisp: str) -> PtcError:
    import difflib
    candidates = [n for n in BUILTINS if "/" not in n]
    close = difflib.get_close_matches(lisp, candidates, n=1, cutoff=0.8)
    hint = did_you_mean(close[0]) if close else None
    if "_" in lisp:
        hint = f"names use hyphens, not underscores: {cut(lisp.replace('_', '-'))}"
    if hint is None:
        hint = "define it first with (def name value), or use data/name for input data"
    return PtcError("unbound_var", f"undefined symbol: {cut(lisp)}", None, hint)


def _arity_error(text: str) -> PtcError | None:
    m = _ARITY.match(text)
    if not m:
        return None
    pyname = m.group(1)
    if pyname in _BUILTIN_NAMES:
        b = BUILTINS[_BUILTIN_NAMES[pyname]]
        got = _given(text, b.min_arity)
        return PtcError("arity_error", f"{b.name} expects {plural(b.arity_text(), 'argument')}"
                                       f"{got}")
    if pyname.startswith("fn_"):
        label = demangle("u_" + pyname[3:].rsplit("_fn_", 1)[0])
        code = _CODE_BY_NAME.get(pyname)
        info = FN_INFO.get(code) if code is not None else None
        expected = " or ".join(info.arities) if info else "a different number of"
        got = _given(text, code.co_argcount if code is not None else None)
        return PtcError("arity_mismatch", f"{label} expects {plural(expected, 'argument')}{got}")
    return None


def _given(text: str, required: int | None) -> str:
    """", got N" from Python's "... but N were given" or "missing K required ..." message."""
    counts = _COUNTS.search(text)
    if counts:
        return f", got {counts.group(3)}"
    missing = _MISSING.search(text)
    if missing and required is not None:
        return f", got {required - int(missing.group(1))}"
    return ""


def _type_error(e: Exception) -> PtcError:
    name, args = _failing_builtin(e.__traceback__)
    if name is None:
        return PtcError("type_error", "invalid argument types")
    types_text = ", ".join(type_name(a) for a in args)
    return PtcError("type_error", f"{name}: invalid argument types: {types_text}", None,
                    _builtin_hint(name))


def _failing_builtin(tb):
    name, args = None, ()
    while tb is not None:
        code = tb.tb_frame.f_code
        if code in _BUILTIN_CODES:
            name = _BUILTIN_CODES[code]
            local = tb.tb_frame.f_locals
            args = tuple(local[v] for v in code.co_varnames[:code.co_argcount] if v in local)
            if code.co_flags & 0x04:
                args += tuple(local.get(code.co_varnames[code.co_argcount], ()))
        tb = tb.tb_next
    return name, args


def _builtin_hint(name: str) -> str | None:
    b = BUILTINS.get(name)
    if b is None or not b.doc:
        return None
    return b.doc.splitlines()[0]


def _locate(err: PtcError, tb) -> PtcError:
    if err.span is not None:
        return err
    span = None
    while tb is not None:
        code = tb.tb_frame.f_code
        if code.co_filename == FILENAME:
            span = _position(code, tb.tb_lasti) or span
        tb = tb.tb_next
    return err.with_span(span)


def _position(code, lasti: int) -> Span | None:
    if lasti < 0:
        return None
    for i, pos in enumerate(code.co_positions()):
        if i == lasti // 2:
            line, end_line, col, end_col = pos
            if line is None or col is None:
                return None
            return Span(line, col + 1, end_line or line, (end_col or col) + 1)
    return None
