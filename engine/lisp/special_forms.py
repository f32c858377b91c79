"""Special forms: one handler per form, `handler(analyzer, form, env, tail) -> node`,
registered at the bottom into the analyzer's table (`analyzer.SPECIAL_FORMS`).

`fn` and `#(...)` are in `fn_forms.py`, the forms and names refused with a hint (`try`, `atom`,
...) in `refused.py`. Forms that are only rewrites of other forms (threading, cond, case,
if-let...) live in `macros.py`. All register into the same table, so the analyzer has one
table to consult.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.lisp import forms as F
from engine.lisp import nodes as N
from engine.lisp.analyzer import SPECIAL_FORMS
from engine.lisp.builtins.registry import BUILTINS
from engine.lisp.destructure import bind_pattern
from engine.lisp.fn_forms import analyze_fn
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


# --- signals, where ------------------------------------------------------------------------

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


SPECIAL_FORMS.update({
    "do": do_form, "if": if_form, "and": and_or, "or": and_or, "quote": quote_form,
    "var": var_form, "comment": nil_form, "declare": nil_form,
    "def": def_form, "defn": defn_form, "defn-": defn_form,
    "let": let_form, "let*": let_form, "loop": loop_form, "recur": recur_form,
    "letfn": letfn_form, "for": for_form, "doseq": for_form, "dotimes": dotimes_form,
    "return": signal_form, "fail": signal_form, "where": where_form,
    " no-match": lambda an, form, env, tail: N.Intrinsic(
        "no_match", (an.analyze(form.items[1], env),), form.span),
})
