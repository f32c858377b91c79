"""Forms that are rewrites of other forms: threading, cond/condp/case, when, if-let...

Each rewrite takes the ListForm and returns a new form with the same span; the analyzer
then analyzes the result. Temporary names start with a space, so no program can name them.
They register, as special forms, into the analyzer's table at the bottom.
"""

from __future__ import annotations

from engine.lisp import forms as F
from engine.lisp.analyzer import SPECIAL_FORMS
from engine.lisp.forms import is_sym, show
from engine.lisp.scope import invalid
from engine.lisp.values import Keyword


def handler(rewrite):
    def analyze_rewritten(an, form, env, tail):
        return an.analyze(rewrite(form), env, tail)
    return analyze_rewritten


def _sym(name: str, span) -> F.Sym:
    return F.Sym(None, name, span)


def _list(span, *items) -> F.ListForm:
    return F.ListForm(tuple(items), span)


def _gensym(form, what: str) -> F.Sym:
    s = form.span
    return _sym(f" {what}@{s.line}:{s.col}", s)


def _let(span, pairs, *body) -> F.ListForm:
    flat = tuple(x for pair in pairs for x in pair)
    return _list(span, _sym("let", span), F.VectorForm(flat, span), *body)


def _if(span, test, then, else_=None) -> F.ListForm:
    items = [_sym("if", span), test, then]
    if else_ is not None:
        items.append(else_)
    return F.ListForm(tuple(items), span)


def _args(form) -> tuple:
    return form.items[1:]


# --- threading ------------------------------------------------------------------------

def thread_step(value, step, last: bool):
    """One step of -> (last=False) or ->> (last=True)."""
    if type(step) is F.ListForm and step.items:
        head, *rest = step.items
        items = (head, *rest, value) if last else (head, value, *rest)
        return F.ListForm(tuple(items), step.span)
    return F.ListForm((step, value), step.span)


def _threading(last: bool):
    def rewrite(form):
        args = _args(form)
        if not args:
            raise invalid(f"expected ({form.items[0].name} x steps...)", form.span,
                          reason="invalid_thread_form")
        value = args[0]
        for step in args[1:]:
            value = thread_step(value, step, last)
        return value
    return rewrite


def as_thread(form):
    args = _args(form)
    if len(args) < 2 or not is_sym(args[1]):
        raise invalid("expected (as-> x name steps...)", form.span, reason="invalid_thread_form")
    name = args[1]
    pairs = [(name, args[0])] + [(name, step) for step in args[2:]]
    return _let(form.span, pairs, name)


def _cond_thread(last: bool):
    def rewrite(form):
        args = _args(form)
        if not args or len(args) % 2 == 0:
            raise invalid(f"expected ({form.items[0].name} x test step ...)", form.span,
                          reason="invalid_thread_form")
        g = _gensym(form, "cond")
        pairs = [(g, args[0])]
        for i in range(1, len(args), 2):
            test, step = args[i], args[i + 1]
            pairs.append((g, _if(form.span, test, thread_step(g, step, last), g)))
        return _let(form.span, pairs, g)
    return rewrite


def _some_thread(last: bool):
    def rewrite(form):
        args = _args(form)
        if not args:
            raise invalid(f"expected ({form.items[0].name} x steps...)", form.span,
                          reason="invalid_thread_form")
        g = _gensym(form, "some")
        pairs = [(g, args[0])]
        for step in args[1:]:
            nil_test = _list(form.span, _sym("nil?", form.span), g)
            pairs.append((g, _if(form.span, nil_test, F.Const(None, form.span),
                                 thread_step(g, step, last))))
        return _let(form.span, pairs, g)
    return rewrite


# --- conditionals ----------------------------------------------------------------------

def when(form):
    args = _args(form)
    if len(args) < 2:
        raise invalid(f"expected ({form.items[0].name} test body ...)", form.span,
                      reason="invalid_arity")
    body = _list(form.span, _sym("do", form.span), *args[1:])
    if form.items[0].name == "when":
        return _if(form.span, args[0], body)
    return _if(form.span, args[0], F.Const(None, form.span), body)


def if_not(form):
    args = _args(form)
    if len(args) not in (2, 3):
        raise invalid("expected (if-not test then else?)", form.span, reason="invalid_arity")
    else_ = args[2] if len(args) == 3 else F.Const(None, form.span)
    return _if(form.span, args[0], else_, args[1])


def cond(form):
    args = _args(form)
    if not args:
        raise invalid("cond needs at least one test/expression pair", form.span,
                      reason="invalid_cond_form")
    if len(args) % 2:
        raise invalid("cond needs an even number of forms (test expression pairs)", form.span,
                      "end with :else default", reason="invalid_cond_form")
    result = None
    for i in range(len(args) - 2, -1, -2):
        result = _if(form.span, args[i], args[i + 1], result)
    return result


def condp(form):
    args = _args(form)
    if len(args) < 2:
        raise invalid("expected (condp pred expr test result ... default?)", form.span,
                      reason="invalid_cond_form")
    pred, g_pred, g_expr = args[0], _gensym(form, "pred"), _gensym(form, "expr")
    clauses = list(args[2:])
    groups = []   # (test, result) or (test, :>>, fn): the fn gets the predicate's result
    i = 0
    while i < len(clauses):
        if i + 2 < len(clauses) and _is_arrow(clauses[i + 1]):
            groups.append((clauses[i], clauses[i + 2]))
            i += 3
        else:
            groups.append((clauses[i], None, clauses[i + 1]) if i + 1 < len(clauses) else
                          (clauses[i],))
            i += 2
    default = _no_match(form, g_expr)
    if groups and len(groups[-1]) == 1:
        default = groups.pop()[0]
    result = default
    for group in reversed(groups):
        test = _list(form.span, g_pred, group[0], g_expr)
        if len(group) == 2:   # test :>> f
            g_hit = _gensym(group[1], "hit")
            then = _list(form.span, group[1], g_hit)
            result = _let(form.span, [(g_hit, test)], _if(form.span, g_hit, then, result))
        else:
            result = _if(form.span, test, group[2], result)
    return _let(form.span, [(g_pred, pred), (g_expr, args[1])], result)


def _is_arrow(form) -> bool:
    return type(form) is F.Const and form.value == Keyword(">>")


def _no_match(form, value):
    return _list(form.span, _sym(" no-match", form.span), value)


def case(form):
    args = _args(form)
    if not args:
        raise invalid("expected (case expr value result ... default?)", form.span,
                      reason="invalid_arity")
    g = _gensym(form, "case")
    clauses = list(args[1:])
    default = clauses.pop() if len(clauses) % 2 else _no_match(form, g)
    result = default
    for i in range(len(clauses) - 2, -1, -2):
        test = _case_test(g, clauses[i], form.span)
        result = _if(form.span, test, clauses[i + 1], result)
    return _let(form.span, [(g, args[0])], result)


def _case_test(g, constant, span):
    """Case constants are not evaluated; a list groups alternatives."""
    if type(constant) is F.ListForm:
        alternatives = constant.items
    else:
        alternatives = (constant,)
    tests = [_list(span, _sym("=", span), g, _case_constant(c)) for c in alternatives]
    return tests[0] if len(tests) == 1 else _list(span, _sym("or", span), *tests)


def _case_constant(form):
    if type(form) is F.Sym:
        return _list(form.span, _sym("symbol", form.span), F.Const(form.text, form.span))
    if type(form) in (F.Const, F.VectorForm, F.MapForm, F.SetForm):
        return form
    raise invalid(f"case constant must be a literal, got {show(form)}", form.span)


def _binding_form(form, name: str):
    args = _args(form)
    vector = args[0] if args else None
    if type(vector) is not F.VectorForm or len(vector.items) != 2:
        raise invalid(f"expected ({name} [name value] ...)", form.span, reason="invalid_arity")
    return vector.items[0], vector.items[1], args[1:]


def if_let(form):
    name = form.items[0].name
    pattern, value, branches = _binding_form(form, name)
    if len(branches) not in (1, 2):
        raise invalid(f"expected ({name} [name value] then else?)", form.span,
                      reason="invalid_arity")
    g = _gensym(form, "if")
    then = _let(form.span, [(pattern, g)], branches[0])
    else_ = branches[1] if len(branches) == 2 else F.Const(None, form.span)
    test = g if name == "if-let" else _list(form.span, _sym("some?", form.span), g)
    return _let(form.span, [(g, value)], _if(form.span, test, then, else_))


def when_let(form):
    name = form.items[0].name
    pattern, value, body = _binding_form(form, name)
    if not body:
        raise invalid(f"expected ({name} [name value] body ...)", form.span,
                      reason="invalid_arity")
    g = _gensym(form, "when")
    then = _let(form.span, [(pattern, g)], *body)
    test = g if name == "when-let" else _list(form.span, _sym("some?", form.span), g)
    return _let(form.span, [(g, value)], _if(form.span, test, then))


def when_first(form):
    pattern, value, body = _binding_form(form, "when-first")
    g = _gensym(form, "first")
    first = _list(form.span, _sym("first", form.span), g)
    then = _let(form.span, [(pattern, first)], *body)
    return _let(form.span, [(g, _list(form.span, _sym("seq", form.span), value))],
                _if(form.span, g, then))


MACROS = {
    "->": _threading(False), "->>": _threading(True), "as->": as_thread,
    "cond->": _cond_thread(False), "cond->>": _cond_thread(True),
    "some->": _some_thread(False), "some->>": _some_thread(True),
    "when": when, "when-not": when, "if-not": if_not, "cond": cond, "condp": condp,
    "case": case, "if-let": if_let, "if-some": if_let, "when-let": when_let,
    "when-some": when_let, "when-first": when_first,
}

SPECIAL_FORMS.update({name: handler(rewrite) for name, rewrite in MACROS.items()})
