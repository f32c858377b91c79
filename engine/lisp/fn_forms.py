"""The function forms: `(fn [x] ...)`, `(fn name ([x] ...) ([x y] ...))` and `#(... % %2)`,
analyzed into `nodes.Fn`; `defn` and `letfn` (in special_forms.py) build theirs here too."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.lisp import forms as F
from engine.lisp import nodes as N
from engine.lisp.analyzer import FN_LITERAL, SPECIAL_FORMS
from engine.lisp.destructure import bind_pattern
from engine.lisp.forms import is_sym, show
from engine.lisp.scope import Env, Scope, invalid

if TYPE_CHECKING:
    from engine.lisp.analyzer import Analyzer


def fn_form(an, form, env, tail):
    args = list(form.items[1:])
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


SPECIAL_FORMS.update({
    FN_LITERAL: lambda an, form, env, tail: fn_literal(an, form, env),
    "fn": fn_form, "fn*": fn_form,
})
