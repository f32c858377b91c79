"""The analyzer: forms to nodes. Resolves every symbol once (local slot, builtin, data,
user namespace), checks the shape of special forms, and records which outer locals each
frame captures, so the compiler only has to emit code.

Special forms live in `special_forms.py` and `macros.py` and register their handlers here
(`special_form`), as builtins register in `builtins/registry.py`; the analyzer consults the
one table, `SPECIAL_FORMS`, and imports neither module. `engine.lisp.interpreter` imports them
before it analyzes anything.
"""

from __future__ import annotations

import difflib
import re

from engine.lisp import forms as F
from engine.lisp import nodes as N
from engine.lisp.builtins.registry import BUILTINS
from engine.lisp.errors import Span, did_you_mean, plural
from engine.lisp.forms import is_sym, show
from engine.lisp.patterns import compile_regex
from engine.lisp.printer import pr_str
from engine.lisp.running import check_deadline
from engine.lisp.scope import PREVIOUS_RESULTS, Env, Scope, invalid
from engine.lisp.values import EMPTY_MAP, Keyword, Map, Var
from engine.lisp.keys import as_key

# Namespace aliases and their canonical names. `ns/name` resolves to the builtin registered
# as `canonical/name` (such as clojure.string/reverse) if any, else to the plain builtin `name`.
NAMESPACES = {
    "clojure.string": "clojure.string", "str": "clojure.string", "string": "clojure.string",
    "s": "clojure.string", "clojure.core": "clojure.core", "core": "clojure.core",
    "clojure.set": "clojure.set", "set": "clojure.set", "regex": "regex",
    "Math": "Math", "math": "Math", "clojure.math": "Math", "System": "System",
    "Double": "Double", "Long": "Long", "Integer": "Integer", "LocalDate": "LocalDate",
    "java.time.LocalDate": "LocalDate", "Interop": "Interop", "clojure.walk": "clojure.walk",
    "walk": "clojure.walk",
}
# the builtin categories a namespace's "is not available" message lists, named by the first
_CATEGORIES_OF_NAMESPACE = {
    "clojure.string": ("strings", "string-replace", "string-format", "conversion"),
    "clojure.set": ("sets",), "regex": ("regex",), "Math": ("math", "comparison")}
DATA_NAMESPACES = ("data", "ctx")
PLACEHOLDER = re.compile(r"%(\d*|&)")

# Special forms by name: `handler(analyzer, form, env, tail) -> node`, registered by
# special_forms.py and macros.py. Names starting with a space are the analyzer's own hooks,
# which no program can write: FN_LITERAL analyzes `#(...)`.
SPECIAL_FORMS: dict = {}
# Names that are not special forms but would be unbound: (reason, message, hint) to report.
UNSUPPORTED: dict[str, tuple[str, str, str]] = {}
FN_LITERAL = " fn-literal"


def special_form(*names: str):
    """Decorator: make a handler the special form of each of `names`."""
    def register(handler):
        for name in names:
            SPECIAL_FORMS[name] = handler
        return handler
    return register

class Analyzer:
    """Turns one top-level form at a time into nodes. One per run."""

    def __init__(self, unit: str = "u"):
        self.counter = 0
        self.steps = 0     # forms analyzed: the deadline is checked every 1024
        self.unit = unit   # makes generated names unique to this run (see interpreter.rebind)

    # --- names -------------------------------------------------------------------------
    def fresh(self, prefix: str) -> str:
        self.counter += 1
        clean = re.sub(r"[^a-zA-Z0-9]", "_", prefix)[:20]
        return f"{clean}_{self.counter}{self.unit}"

    def bind(self, env: Env, name: str) -> N.Binding:
        """A new binding for `name` in env's innermost scope."""
        b = N.Binding(name, self.fresh("l_" + name), env.frame)
        env.scope.names[name] = b
        return b

    def temp(self, env: Env, what: str = "t") -> N.Binding:
        return N.Binding(" " + what, self.fresh("t_" + what), env.frame)

    def new_frame(self, kind: str, env: Env) -> N.Frame:
        return N.Frame(kind, env.frame, self.fresh(kind))

    def ref(self, b: N.Binding, env: Env, span: Span) -> N.LocalRef:
        frame = env.frame
        while frame is not b.frame and frame is not None:
            frame.captures[b] = None
            frame = frame.parent
        return N.LocalRef(b, span)

    # --- entry -------------------------------------------------------------------------
    def analyze_top(self, form) -> tuple[N.Frame, object]:
        frame = N.Frame("main", None, self.fresh("main"))
        env = Env(Scope(), frame)
        return frame, self.analyze(form, env, tail=False)

    def analyze(self, form, env: Env, tail: bool = False):
        self.steps += 1
        if self.steps % 1024 == 0:
            check_deadline()
        t = type(form)
        if t is F.Const:
            return N.Const(form.value, form.span)
        if t is F.Sym:
            return self.symbol(form, env)
        if t is F.ListForm:
            return self.list_form(form, env, tail)
        if t is F.VectorForm:
            items = tuple(self.analyze(x, env) for x in form.items)
            if all(type(x) is N.Const for x in items):
                return N.Const(tuple(x.value for x in items), form.span)
            return N.VectorLit(items, form.span)
        if t is F.MapForm:
            return self.map_literal(form, env)
        if t is F.SetForm:
            items = tuple(self.analyze(x, env) for x in form.items)
            if all(type(x) is N.Const for x in items) and _hashable(x.value for x in items):
                return N.Const(frozenset(as_key(x.value) for x in items), form.span)
            return N.SetLit(items, form.span)
        if t is F.FnLiteral:
            return SPECIAL_FORMS[FN_LITERAL](self, form, env, False)
        if t is F.RegexForm:
            return N.Const(compile_regex(form.source, form.span), form.span)
        if t is F.VarQuote:
            if not is_sym(form.target):
                raise invalid("#' must be followed by a symbol", form.span)
            return N.Const(Var(form.target.name), form.span)
        raise invalid(f"cannot evaluate {show(form)}", getattr(form, "span", None))

    def body(self, forms, env: Env, tail: bool, span: Span):
        """An implicit do."""
        if not forms:
            return N.Const(None, span)
        nodes = [self.analyze(f, env, tail=False) for f in forms[:-1]]
        nodes.append(self.analyze(forms[-1], env, tail=tail))
        return nodes[0] if len(nodes) == 1 else N.Do(tuple(nodes), span)

    def map_literal(self, form: F.MapForm, env: Env):
        pairs = []
        for i in range(0, len(form.items), 2):
            pairs.append((self.analyze(form.items[i], env), self.analyze(form.items[i + 1], env)))
        if all(type(k) is N.Const and type(v) is N.Const for k, v in pairs) and \
                _hashable(k.value for k, _ in pairs):
            return N.Const(Map({as_key(k.value): v.value for k, v in pairs}) if pairs else EMPTY_MAP,
                           form.span)
        return N.MapLit(tuple(pairs), form.span)

    # --- symbols -----------------------------------------------------------------------
    def symbol(self, sym: F.Sym, env: Env):
        span = sym.span
        if sym.ns is None:
            name = sym.name
            b = env.scope.lookup(name)
            if b is not None:
                return self.ref(b, env, span)
            if PLACEHOLDER.fullmatch(name):
                if env.placeholders is None:
                    raise invalid(f"placeholder {name} can only be used inside #(...)", span,
                                  "write (fn [x] ...) or #(... % ...)", reason="invalid_placeholder")
                return self.ref(env.placeholders[name], env, span)
            if name in SPECIAL_FORMS:
                raise invalid(f"{name} is a special form and cannot be used as a value", span,
                              f"call it: ({name} ...)", reason="unbound_var")
            if name in BUILTINS:
                return N.BuiltinRef(name, span)
            if name in PREVIOUS_RESULTS:
                return N.Intrinsic("previous", (N.Const(PREVIOUS_RESULTS[name], span),), span)
            if name in UNSUPPORTED:
                reason, message, hint = UNSUPPORTED[name]
                raise invalid(message, span, hint, reason=reason)
            return N.GlobalRef(name, span)
        return self.qualified(sym, env)

    @staticmethod
    def namespaced_tool(sym: F.Sym) -> bool:
        """`ns/name` in a namespace of no builtins: a call of the host's tool `ns/name` (the
        reference implementation's preludes, e.g. `incident.evidence/search`)."""
        return sym.ns not in DATA_NAMESPACES and sym.ns not in NAMESPACES \
            and f"{sym.ns}/{sym.name}" not in BUILTINS

    def qualified(self, sym: F.Sym, env: Env):
        ns, name, span = sym.ns, sym.name, sym.span
        if ns in DATA_NAMESPACES:
            return N.DataRef(name, span)
        if ns == "tool":
            return N.ToolRef(name, span)
        canonical = NAMESPACES.get(ns)
        if canonical is None:
            if f"{ns}/{name}" in BUILTINS:    # java.util.Date. and friends
                return N.BuiltinRef(f"{ns}/{name}", span)
        else:
            full = f"{canonical}/{name}"
            if full in BUILTINS:
                return N.BuiltinRef(full, span)
            if name in BUILTINS:
                return N.BuiltinRef(name, span)
            categories = _CATEGORIES_OF_NAMESPACE.get(canonical, ("core",))
            category = categories[0]
            names = sorted({n.split("/")[-1] for n, b in BUILTINS.items()
                            if b.category in categories and ("/" not in n or n.startswith(canonical + "/"))})
            close = difflib.get_close_matches(name, names, n=1) or \
                difflib.get_close_matches(name, [n for n in BUILTINS if "/" not in n], n=1)
            hint = did_you_mean(f"{ns}/{close[0]}") if close else None
            raise invalid(f"{ns}/{name} is not available. {category.capitalize()} functions: "
                          f"{', '.join(names[:40])}", span, hint)
        return N.ToolRef(f"{ns}/{name}", span)   # a host's namespaced tool, or unknown_tool

    # --- calls -------------------------------------------------------------------------
    def list_form(self, form: F.ListForm, env: Env, tail: bool):
        items = form.items
        if not items:
            return N.Const((), form.span)
        head = items[0]
        if type(head) is F.Sym:
            if head.ns is None and env.scope.lookup(head.name) is None:
                handler = SPECIAL_FORMS.get(head.name)
                if handler is not None:
                    return handler(self, form, env, tail)
            if head.ns == "tool" or (head.ns is not None and self.namespaced_tool(head)):
                name = head.name if head.ns == "tool" else f"{head.ns}/{head.name}"
                args = tuple(self.analyze(a, env) for a in items[1:])
                return N.ToolCall(name, args, form.span if head.ns == "tool" else head.span)
            if head.ns is None and head.name.startswith(".") and len(head.name) > 1 \
                    and env.scope.lookup(head.name) is None:
                return self.method_call(form, env)
        if type(head) is F.Const:
            return self.const_call(form, env)
        fn = self.analyze(head, env)
        args = tuple(self.analyze(a, env) for a in items[1:])
        return self.call(fn, args, form.span, env)

    def call(self, fn, args: tuple, span: Span, env: Env):
        if type(fn) is N.BuiltinRef:
            b = BUILTINS[fn.name]
            if b.constant:
                raise invalid(f"{fn.name} is a constant, not a function", span,
                              f"use it as a value: {fn.name}", reason="not_callable")
            if not b.accepts(len(args)):
                raise invalid(f"{fn.name} expects {plural(b.arity_text(), 'argument')}, got "
                              f"{len(args)}",
                              span, _arity_hint(fn.name, len(args)), reason="arity_error")
            if b.calls_fns:
                env.frame.leaf = False
        else:
            env.frame.leaf = False
        return N.Call(fn, args, span)

    def const_call(self, form: F.ListForm, env: Env):
        head, span = form.items[0], form.span
        value = head.value
        args = tuple(self.analyze(a, env) for a in form.items[1:])
        if type(value) is Keyword:
            if not 1 <= len(args) <= 2:
                raise invalid(f"({value!r} ...) takes a map and an optional default, got "
                              f"{len(args)} arguments", span, reason="invalid_keyword_call")
            return N.Intrinsic("keyword_get", (N.Const(value, head.span), *args), span)
        raise invalid(f"not callable: {pr_str(value, limit=40)}", span,
                      "the first item of a list is the function to call; use a vector [..] for data",
                      reason="not_callable")

    def method_call(self, form: F.ListForm, env: Env):
        name = form.items[0].name
        if name in BUILTINS:
            args = tuple(self.analyze(a, env) for a in form.items[1:])
            return self.call(N.BuiltinRef(name, form.items[0].span), args, form.span, env)
        methods = sorted(n for n in BUILTINS if n.startswith("."))
        raise invalid(f"unknown method {name}", form.span,
                      f"supported interop methods: {', '.join(methods)}", reason="unbound_var")


def _arity_hint(name: str, n: int) -> str | None:
    if name in ("max", "min", "+", "*") and n == 1:
        return f"to use a collection write (apply {name} coll)"
    if name in ("reduce", "sort-by", "group-by") and n == 1:
        return f"({name} f coll): did you mean ->> instead of ->?"
    return None


def _hashable(values) -> bool:
    try:
        for v in values:
            hash(v)
        return True
    except TypeError:
        return False
