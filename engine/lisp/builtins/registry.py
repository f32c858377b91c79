"""The one builtin registry: `@builtin("sort-by", "ordering")` on a plain function.

Arity comes from the signature. A builtin's body never spells its own name: its error messages
say `NAME` (`f"{NAME} expects a collection"`), which the interpreter replaces, when the error
ends the run, with the registered name of the innermost builtin running where it was raised
(`named`), so a message gives the name as registered. (A builtin that hands its arguments to
another, as mapv to map, reports under the other's name.)

The same registry drives the analyzer's arity errors, "did you mean" hints and namespace
aliases (`str/join`, `Math/abs`), and the tests that every builtin has conformance cases and
that the builtins the LLM's reference (engine/agent/prompts/reference.md) names exist.
"""

from __future__ import annotations

import inspect
import re
from dataclasses import dataclass, field
from typing import Callable

from engine.lisp.errors import PtcError
from engine.lisp.values import FN_INFO, FnInfo

# Each category is one module of this package, named after it (`string-replace` is in
# string_replace.py), so the category says where a builtin's code is.
CATEGORIES = ("collections", "sequences", "slicing", "ordering", "grouping", "transducers", "maps",
              "updates", "sets", "strings", "string-replace", "string-format", "conversion", "regex",
              "math", "comparison", "predicates", "functions", "output", "interop")


@dataclass
class Builtin:
    name: str
    fn: Callable
    category: str
    min_arity: int
    max_arity: int | None          # None: variadic
    doc: str
    returns_bool: bool = False     # the compiler may test the result without a truthiness check
    calls_fns: bool = False        # higher-order: may call back into user code
    variants: dict[int, Callable] = field(default_factory=dict)   # fixed-arity fast paths
    pyname: str = ""
    constant: bool = False         # a value such as Math/PI, not a function

    def arity_text(self) -> str:
        if self.max_arity is None:
            return f"at least {self.min_arity}"
        if self.min_arity == self.max_arity:
            return str(self.min_arity)
        if self.max_arity == self.min_arity + 1:
            return f"{self.min_arity} or {self.max_arity}"
        return f"{self.min_arity} to {self.max_arity}"

    def accepts(self, n: int) -> bool:
        return n >= self.min_arity and (self.max_arity is None or n <= self.max_arity)


BUILTINS: dict[str, Builtin] = {}
_QUALNAMES: set[str] = set()   # arity errors name the builtin from the Python function name
NAME = "\x00builtin\x00"      # stands for the builtin's name in its error messages
_NAME_OF_CODE: dict = {}       # code of a builtin, a variant or a function inside one -> name


def _owns(fn, name: str) -> None:
    """Record that errors raised in `fn`'s code (and in functions defined inside it) are
    builtin `name`'s."""
    code = getattr(fn, "__code__", None)
    stack = [code] if code is not None else []
    while stack:
        code = stack.pop()
        _NAME_OF_CODE.setdefault(code, name)
        stack.extend(c for c in code.co_consts if hasattr(c, "co_consts"))


def named(err: PtcError, tb) -> PtcError:
    """`err` with NAME replaced by the name of the innermost builtin in traceback `tb`."""
    if NAME not in err.message and NAME not in (err.hint or ""):
        return err
    name = "a builtin"
    while tb is not None:
        name = _NAME_OF_CODE.get(tb.tb_frame.f_code, name)
        tb = tb.tb_next
    err.message = err.message.replace(NAME, name)
    if err.hint:
        err.hint = err.hint.replace(NAME, name)
    return err


def _arity(fn) -> tuple[int, int | None]:
    params = inspect.signature(fn).parameters.values()
    lo = hi = 0
    for p in params:
        if p.kind is p.VAR_POSITIONAL:
            return lo, None
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            hi += 1
            if p.default is p.empty:
                lo += 1
    return lo, hi


def pyname_of(name: str) -> str:
    """A Python identifier for a Lisp name: letters and digits kept, the rest escaped."""
    return "b_" + re.sub(r"[^a-zA-Z0-9]", lambda m: f"_{ord(m.group()):x}_", name)


def builtin(name: str, category: str, *, returns_bool: bool = False,
            calls_fns: bool = False, aliases: tuple[str, ...] = ()):
    """Register the decorated function as builtin `name` (and under each alias)."""
    if category not in CATEGORIES:
        raise ValueError(f"builtin {name}: unknown category {category!r}")

    def register(fn):
        lo, hi = _arity(fn)
        doc = inspect.getdoc(fn) or ""
        if fn.__qualname__ in _QUALNAMES:
            raise ValueError(f"builtin {name}: Python name {fn.__qualname__} is already used")
        _QUALNAMES.add(fn.__qualname__)
        for n in (name, *aliases):
            if n in BUILTINS:
                raise ValueError(f"builtin {n} registered twice")
            BUILTINS[n] = Builtin(n, fn, category, lo, hi, doc, returns_bool, calls_fns,
                                  pyname=pyname_of(n))
        FN_INFO[fn] = FnInfo(name, None, ())
        _owns(fn, name)
        fn.builtin_name = name
        return fn
    return register


def constant(name: str, value, category: str = "math") -> None:
    """Register a named value such as `Math/PI`."""
    BUILTINS[name] = Builtin(name, value, category, 0, 0, f"{name}: the constant {value!r}",
                             pyname=pyname_of(name), constant=True)


TWO_ARGUMENT_VARIANTS: dict = {}   # builtin function -> its 2-argument fast path (for reduce)


def variant(name: str, arity: int):
    """Register a fast path of builtin `name` for exactly `arity` arguments."""
    def register(fn):
        BUILTINS[name].variants[arity] = fn
        _owns(fn, name)
        if arity == 2:
            TWO_ARGUMENT_VARIANTS[BUILTINS[name].fn] = fn
        return fn
    return register
