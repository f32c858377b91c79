"""Special forms: one handler per form, `handler(analyzer, form, env, tail) -> node`,
registered at the bottom into the analyzer's table (`analyzer.SPECIAL_FORMS`).

Forms that are only rewrites of other forms (threading, cond, case, if-let...) live in
`macros.py` and register into the same table, so the analyzer has one table to consult.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.lisp import forms as F
from engine.lisp import nodes as N
from engine.lisp.analyzer import FN_LITERAL, SPECIAL_FORMS, UNSUPPORTED
from engine.lisp.builtins.registry import BUILTINS
from engine.lisp.destructure import bind_pattern
from engine.lisp.forms import is_sym, show
from engine.lisp.scope import PREVIOUS_RESULTS, Env, Scope, invalid
from engine.lisp.values import Keyword, Var

if TYPE_CHECKING:
    from engine.lisp.analyzer import Analyzer


def _args(form: F.ListForm) -> tuple:
    return form.items[1:]


def expect(form: F.ListForm, ok: bool, shape: str, reason: str = "invalid_arity") -> None:
    if not ok:
        raise invalid(f"expected {shape}, got {show(form)}", form.span, reason=reason)


# --- values and sequencing ---------------------------------------------------------------

def do_form(an: Analyzer, form, env: Env, tail: bool):
    return an.body(_args(form), env, tail, form.span)


def if_form(an, form, env, tail):
    args = _args(form)
    expect(form, len(args) in (2, 3), "(if test then else?)")
    test = an.analyze(args[0], env)
    then = an.analyze(args[1], env, tail)
    else_ = an.analyze(args[2], env, tail) if len(args) == 3 else N.Const(None, form.span)
    return N.If(test, then, else_, form.span)


def and_or(an, form, env, tail):
    args = tuple(an.analyze(a, env) for a in _args(form))
    is_and = form.items[0].name == "and"
    if not args:
        return N.Const(True if is_and else None, form.span)
    if len(args) == 1:
        return args[0]
    return (N.And if is_and else N.Or)(args, form.span)


def quote_form(an, form, env, tail):
    raise invalid("quote is not supported", form.span,
                  "use a vector [1 2 3] for data, a keyword or string for a name")


def var_form(an, form, env, tail):
    args = _args(form)
    expect(form, len(args) == 1 and is_sym(args[0]), "(var name)")
    return N.Const(Var(args[0].name), form.span)


def nil_form(an, form, env, tail):
    return N.Const(None, form.span)


# --- definitions -------------------------------------------------------------------------

def check_def_name(name_form, form) -> str:
    if not is_sym(name_form):
        raise invalid(f"def name must be a plain symbol, got {show(name_form)}", form.span)
    name = name_form.name
    if name in BUILTINS or name in SPECIAL_FORMS or name in PREVIOUS_RESULTS:
        raise invalid(f"cannot redefine builtin {name}", name_form.span,
                      f"choose another name, such as my-{name}", reason="cannot_shadow_builtin")
    return name


def def_form(an, form, env, tail):
    args = _args(form)
    if len(args) < 2:
        raise invalid("def needs a name and a value: (def name value)", form.span,
                      reason="invalid_arity")
    name = check_def_name(args[0], form)
    if len(args) == 3 and type(args[1]) is F.Const and type(args[1].value) is str:
        doc, value_form = args[1].value, args[2]
    elif len(args) == 2:
        doc, value_form = None, args[1]
    else:
        raise invalid("expected (def name \"doc\"? value)", form.span, reason="invalid_arity")
    value = an.analyze(value_form, env)
    if type(value) is N.Fn and value.label is None:
        value = N.Fn(value.name, value.arities, value.frame, name, value.span)
    return _define(name, value, doc, form.span)


def _define(name: str, value, doc, span):
    return N.Intrinsic("define", (N.Const(name, span), value, N.Const(doc, span)), span)


def defn_form(an, form, env, tail):
    args = list(_args(form))
    if not args:
        raise invalid("expected (defn name [params] body)", form.span, reason="invalid_arity")
    name = check_def_name(args.pop(0), form)
    doc = None
    if args and type(args[0]) is F.Const and type(args[0].value) is str:
        doc = args.pop(0).value
    if args and type(args[0]) is F.MapForm:
        args.pop(0)  # attribute map: ignored
    if not args:
        raise invalid(f"defn {name} needs a parameter vector", form.span, reason="invalid_arity")
    fn = analyze_fn(an, None, args, env, form.span, label=name)
    return _define(name, fn, doc, form.span)


# --- functions ---------------------------------------------------------------------------

def fn_form(an, form, env, tail):
    args = list(_args(form))
    name = None
    if args and is_sym(args[0]):
        name = args.pop(0).name
    if not args:
        raise invalid("expected (fn [params] body)", form.span, reason="invalid_arity")
    return analyze_fn(an, name, args, env, form.span, label=name)


def analyze_fn(an: Analyzer, name, items: list, env: Env, span, label):
    frame = an.new_frame("fn", env)
    fenv = Env(Scope(env.scope), frame, None, env.placeholders)
    self_binding = an.bind(fenv, name) if name else None
    if type(items[0]) is F.VectorForm:
        shapes = [(items[0], items[1:])]
    elif all(type(x) is F.ListForm and x.items and type(x.items[0]) is F.VectorForm for x in items):
        shapes = [(x.items[0], x.items[1:]) for x in items]
    else:
        raise invalid(f"fn needs a parameter vector, got {show(items[0])}", span,
                      "write (fn [x y] body) or (fn ([x] ...) ([x y] ...))")
    arities = tuple(_arity(an, params, body, fenv, frame, span) for params, body in shapes)
    _check_arities(arities, span)
    return N.Fn(self_binding, arities, frame, label, span)


def _arity(an, params: F.VectorForm, body, fenv: Env, frame: N.Frame, span) -> N.Arity:
    aenv = fenv.child()
    positional, rest, prologue = [], None, []
    items = params.items
    i = 0
    while i < len(items):
        p = items[i]
        if is_sym(p, "&"):
            if i + 2 != len(items):
                raise invalid("& must be followed by exactly one parameter", params.span)
            rest = _param(an, items[i + 1], aenv, prologue, rest=True)
            break
        positional.append(_param(an, p, aenv, prologue))
        i += 1
    count = len(positional) + (1 if rest else 0)
    before = frame.has_recur
    frame.has_recur = False
    benv = Env(aenv.scope, frame, (frame, count), aenv.placeholders)
    body_node = an.body(tuple(body), benv, True, span)
    arity = N.Arity(tuple(positional), rest, tuple(prologue), body_node, frame.has_recur)
    frame.has_recur = before or frame.has_recur
    return arity


def _param(an, pattern, env: Env, prologue: list, rest: bool = False) -> N.Binding:
    if is_sym(pattern) and pattern.name != "&":
        return an.bind(env, pattern.name)
    temp = an.temp(env, "p")
    value = N.LocalRef(temp, pattern.span)
    if rest and type(pattern) is F.MapForm:   # [& {:keys [a]}]: keyword arguments
        value = N.Intrinsic("keyword_arguments", (value,), pattern.span)
    bind_pattern(an, pattern, value, env, prologue)
    return temp


def _check_arities(arities, span) -> None:
    fixed = [len(a.params) for a in arities if a.rest is None]
    variadic = [a for a in arities if a.rest is not None]
    if len(set(fixed)) != len(fixed):
        raise invalid("two arities of this fn take the same number of arguments", span)
    if len(variadic) > 1:
        raise invalid("a fn can have only one variadic arity", span)
    if variadic and fixed and max(fixed) > len(variadic[0].params):
        raise invalid("a fixed arity cannot take more arguments than the variadic one", span)


def fn_literal(an: Analyzer, form: F.FnLiteral, env: Env):
    if env.placeholders is not None and env.placeholders.get(" literal"):
        raise invalid("nested #() are not allowed", form.span, "use (fn [x] ...) inside #()")
    highest, variadic = _placeholders(form.items)
    frame = an.new_frame("fn", env)
    fenv = Env(Scope(env.scope), frame)
    params = tuple(an.bind(fenv, f"%{i}") for i in range(1, highest + 1))
    rest = an.bind(fenv, "%&") if variadic else None
    placeholders = {f"%{i}": b for i, b in enumerate(params, 1)}
    if params:
        placeholders["%"] = params[0]
    if rest:
        placeholders["%&"] = rest
    placeholders[" literal"] = True
    benv = Env(fenv.scope, frame, (frame, len(params) + bool(rest)), placeholders)
    call = F.ListForm(form.items, form.span)
    body = an.analyze(call, benv, tail=True)
    arity = N.Arity(params, rest, (), body, frame.has_recur)
    return N.Fn(None, (arity,), frame, None, form.span)


def _placeholders(forms) -> tuple[int, bool]:
    highest, variadic = 0, False
    stack = list(forms)
    while stack:
        f = stack.pop()
        t = type(f)
        if t is F.Sym and f.ns is None and f.name.startswith("%"):
            rest = f.name[1:]
            if rest == "":
                highest = max(highest, 1)
            elif rest == "&":
                variadic = True
            elif rest.isdigit():
                if int(rest) > 20:
                    raise invalid(f"placeholder {f.name} is too high (at most %20)", f.span)
                highest = max(highest, int(rest))
        elif t in (F.ListForm, F.VectorForm, F.MapForm, F.SetForm):
            stack.extend(f.items)
        elif t is F.FnLiteral:
            raise invalid("nested #() are not allowed", f.span, "use (fn [x] ...) inside #()")
    return highest, variadic


# --- let, loop, recur --------------------------------------------------------------------

def binding_pairs(form, vector, what: str) -> list:
    if type(vector) is not F.VectorForm:
        raise invalid(f"{what} bindings must be a vector, got {show(vector)}", form.span,
                      f"write ({what} [name value ...] body)")
    if len(vector.items) % 2:
        raise invalid(f"{what} bindings need an even number of forms (name value pairs)",
                      vector.span)
    items = vector.items
    return [(items[i], items[i + 1]) for i in range(0, len(items), 2)]


def let_form(an, form, env, tail):
    args = _args(form)
    if len(args) < 2:
        raise invalid("expected (let [bindings] body ...)", form.span, reason="invalid_arity")
    pairs = binding_pairs(form, args[0], "let")
    lenv = env.child()
    steps: list = []
    for pattern, value_form in pairs:
        value = an.analyze(value_form, lenv)
        lenv = lenv.child()
        bind_pattern(an, pattern, value, lenv, steps)
    body = an.body(args[1:], lenv, tail, form.span)
    return N.Let(tuple(steps), body, form.span)


def loop_form(an, form, env, tail):
    args = _args(form)
    if len(args) < 2:
        raise invalid("expected (loop [bindings] body ...)", form.span, reason="invalid_arity")
    pairs = binding_pairs(form, args[0], "loop")
    frame = an.new_frame("loop", env)
    lenv = Env(Scope(env.scope), frame, None, env.placeholders)
    steps, params, prologue = [], [], []
    for pattern, value_form in pairs:
        value = an.analyze(value_form, lenv)
        lenv = lenv.child()
        if is_sym(pattern) and pattern.name != "&":
            b = an.bind(lenv, pattern.name)
            steps.append((b, value))
        else:
            b = an.temp(lenv, "loop")
            steps.append((b, value))
            own: list = []
            bind_pattern(an, pattern, N.LocalRef(b, pattern.span), lenv, own)
            steps.extend(own)
            prologue.extend(own)
        params.append(b)
    benv = Env(lenv.scope, frame, (frame, len(params)), env.placeholders)
    body = an.body(args[1:], benv, True, form.span)
    env.frame.leaf = env.frame.leaf and frame.leaf
    return N.Loop(tuple(steps), tuple(params), tuple(prologue), body, frame, form.span)


def recur_form(an, form, env, tail):
    if env.recur is None:
        raise invalid("recur must be inside loop or fn", form.span)
    if not tail:
        raise invalid("recur must be in tail position", form.span,
                      "recur has to be the last thing the loop or fn does")
    frame, count = env.recur
    args = tuple(an.analyze(a, env) for a in _args(form))
    if len(args) != count:
        raise invalid(f"recur expects {count} argument{'s' if count != 1 else ''}, got "
                      f"{len(args)}", form.span, reason="arity_mismatch")
    frame.has_recur = True
    return N.Recur(args, frame, form.span)


def letfn_form(an, form, env, tail):
    args = _args(form)
    if len(args) < 2 or type(args[0]) is not F.VectorForm:
        raise invalid("expected (letfn [(name [params] body) ...] body)", form.span,
                      reason="invalid_arity")
    frame = an.new_frame("letfn", env)
    lenv = Env(Scope(env.scope), frame, None, env.placeholders)
    specs = []
    for spec in args[0].items:
        if type(spec) is not F.ListForm or len(spec.items) < 2 or not is_sym(spec.items[0]):
            raise invalid(f"letfn binding must be (name [params] body), got {show(spec)}",
                          spec.span)
        specs.append((an.bind(lenv, spec.items[0].name), spec))
    fns = tuple((b, analyze_fn(an, None, list(spec.items[1:]), lenv, spec.span, b.name))
                for b, spec in specs)
    env.frame.leaf = False
    body = an.body(args[1:], Env(lenv.scope, env.frame, env.recur, env.placeholders), tail,
                   form.span)
    return N.Letfn(fns, frame, body, form.span)


# --- for, doseq, dotimes -------------------------------------------------------------------

def for_form(an, form, env, tail, collect: bool | None = None):
    name = form.items[0].name
    collect = name == "for" if collect is None else collect
    args = _args(form)
    if len(args) < 2 or type(args[0]) is not F.VectorForm:
        raise invalid(f"expected ({name} [x coll ...] body)", form.span, reason="invalid_arity")
    items = args[0].items
    if len(items) % 2 or not items:
        raise invalid(f"{name} bindings need pairs: [x coll ...]", args[0].span)
    frame = an.new_frame("for", env)
    fenv = Env(Scope(env.scope), frame, None, env.placeholders)
    clauses = []
    for i in range(0, len(items), 2):
        key, value = items[i], items[i + 1]
        if type(key) is F.Const and type(key.value) is Keyword:
            modifier = key.value.name
            if modifier == "let":
                steps: list = []
                for pattern, vform in binding_pairs(form, value, ":let"):
                    v = an.analyze(vform, fenv)
                    fenv = fenv.child()
                    bind_pattern(an, pattern, v, fenv, steps)
                clauses.append(N.ForClause("let", tuple(steps)))
            elif modifier in ("when", "while"):
                clauses.append(N.ForClause(modifier, test=an.analyze(value, fenv)))
            else:
                raise invalid(f"unknown {name} modifier :{modifier}", key.span,
                              "use :let, :when or :while")
            continue
        coll = an.analyze(value, fenv)
        fenv = fenv.child()
        item = an.temp(fenv, "item") if not (is_sym(key) and key.name != "&") else \
            an.bind(fenv, key.name)
        steps = []
        if not (is_sym(key) and key.name != "&"):
            bind_pattern(an, key, N.LocalRef(item, key.span), fenv, steps)
        clauses.append(N.ForClause("bind", tuple(steps), coll, item))
    body = an.body(args[1:], Env(fenv.scope, frame, None, env.placeholders), False, form.span)
    env.frame.leaf = env.frame.leaf and frame.leaf
    return N.For(tuple(clauses), body, collect, frame, form.span)


def dotimes_form(an, form, env, tail):
    args = _args(form)
    if len(args) < 2 or type(args[0]) is not F.VectorForm or len(args[0].items) != 2:
        raise invalid("expected (dotimes [i n] body)", form.span, reason="invalid_arity")
    name, count = args[0].items
    span = form.span
    coll = F.ListForm((F.Sym(None, "range", span), count), span)
    rewritten = F.ListForm((F.Sym(None, "doseq", span), F.VectorForm((name, coll), span),
                            *args[1:]), span)
    return for_form(an, rewritten, env, tail, collect=False)


# --- signals, where, tools ----------------------------------------------------------------

def signal_form(an, form, env, tail):
    name = form.items[0].name
    args = _args(form)
    if len(args) != 1:
        raise invalid(f"expected ({name} value), got {len(args)} arguments", form.span,
                      f"({name} {{:answer ...}}) with exactly one value", reason="invalid_arity")
    return N.Intrinsic(name, (an.analyze(args[0], env),), form.span)


WHERE_OPS = ("=", "not=", ">", "<", ">=", "<=", "includes", "in")


def where_form(an, form, env, tail):
    args = _args(form)
    if len(args) not in (1, 3):
        raise invalid("expected (where field) or (where field op value)", form.span,
                      "for equality write (where :status = \"active\")",
                      reason="invalid_where_form")
    field = args[0]
    if type(field) is F.Const and type(field.value) in (Keyword, str):
        path = (field.value,)
    elif type(field) is F.VectorForm and all(type(x) is F.Const for x in field.items):
        path = tuple(x.value for x in field.items)
    else:
        raise invalid(f"where field must be a keyword or a vector path, got {show(field)}",
                      field.span, reason="invalid_where_form")
    if len(args) == 1:
        return N.Intrinsic("where", (N.Const(path, form.span), N.Const("truthy", form.span),
                                     N.Const(None, form.span)), form.span)
    op = args[1]
    if not is_sym(op) or op.name not in WHERE_OPS:
        raise invalid(f"unknown where operator {show(op)}", op.span,
                      f"use one of: {' '.join(WHERE_OPS)}", reason="invalid_where_operator")
    value = an.analyze(args[2], env)
    return N.Intrinsic("where", (N.Const(path, form.span), N.Const(op.name, op.span), value),
                       form.span)


def unsupported(message: str, hint: str, reason: str = "invalid_form"):
    def handler(an, form, env, tail):
        raise invalid(message, form.span, hint, reason=reason)
    return handler


# Names that are not special forms but would be unbound: say what to use instead.
UNSUPPORTED.update({
    name: ("unbound_var", f"{name} is not supported: there is no mutable state",
           "use let for local values, def to keep a value, reduce or loop to accumulate")
    for name in ("atom", "swap!", "reset!", "deref", "volatile!", "vswap!", "vreset!", "ref",
                 "alter", "agent", "send", "compare-and-set!")
})
UNSUPPORTED.update({
    name: ("unbound_var", f"{name} is not supported: programs are deterministic",
           "pass the values you need as data or get them from a tool")
    for name in ("rand", "rand-int", "rand-nth", "shuffle", "random-uuid", "random-sample")
})
UNSUPPORTED.update({
    name: ("unbound_var", f"{name} is not supported: sequences are finite",
           "use (range n), (repeat n x), or loop/recur")
    for name in ("iterate", "cycle")
})
UNSUPPORTED.update({
    name: ("unbound_var", f"{name} is not supported in the sandbox", "use tools for I/O")
    for name in ("eval", "read-string", "slurp", "spit", "load-file", "load-string", "future",
                 "promise", "deliver", "pmap-async", "System/exit", "resolve", "intern")
})


SPECIAL_FORMS.update({
    FN_LITERAL: lambda an, form, env, tail: fn_literal(an, form, env),
    "do": do_form, "if": if_form, "and": and_or, "or": and_or, "quote": quote_form,
    "var": var_form, "comment": nil_form, "declare": nil_form,
    "def": def_form, "defn": defn_form, "defn-": defn_form, "fn": fn_form, "fn*": fn_form,
    "let": let_form, "let*": let_form, "loop": loop_form, "recur": recur_form,
    "letfn": letfn_form, "for": for_form, "doseq": for_form, "dotimes": dotimes_form,
    "return": signal_form, "fail": signal_form, "where": where_form,
    "try": unsupported("try/catch is not supported", "check values with if, stop with (fail ...)"),
    "catch": unsupported("catch is not supported", "check values with if, stop with (fail ...)"),
    "finally": unsupported("finally is not supported", "check values with if"),
    "throw": unsupported("throw is not supported", "stop with (fail {:reason ...})"),
    "while": unsupported("while is not supported: there is no mutable state",
                         "use loop/recur, doseq, or reduce"),
    "lazy-seq": unsupported("lazy-seq is not supported: sequences are finite",
                            "build the vector with range, map, or loop/recur",
                            reason="unbound_var"),
    "delay": unsupported("delay is not supported", "compute the value directly"),
    "binding": unsupported("binding is not supported", "pass values as arguments or use let"),
    "set!": unsupported("set! is not supported: there is no mutable state", "use let or def"),
    "new": unsupported("Java interop is not supported", "use the builtin functions"),
    ".": unsupported("(. obj method) is not supported", "use the builtin functions"),
    "defmacro": unsupported("defmacro is not supported", "write a function with defn"),
    "ns": unsupported("ns is not needed", "builtins such as str/join are always available"),
    "require": unsupported("require is not needed",
                           "builtins such as str/join and set/union are always available"),
    "import": unsupported("import is not supported", "use the builtin functions"),
    "defrecord": unsupported("defrecord is not supported", "use a map"),
    "deftype": unsupported("deftype is not supported", "use a map"),
    "defprotocol": unsupported("defprotocol is not supported", "use functions and maps"),
    "reify": unsupported("reify is not supported", "use functions and maps"),
    "locking": unsupported("locking is not supported", "programs run alone"),
    "dosync": unsupported("dosync is not supported", "there is no mutable state"),
    " no-match": lambda an, form, env, tail: N.Intrinsic(
        "no_match", (an.analyze(form.items[1], env),), form.span),
    "call": unsupported("(call \"tool\" args) is not supported", "call tools as (tool/name args)"),
})
