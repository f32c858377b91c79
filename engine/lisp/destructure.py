"""Destructuring: a binding pattern becomes a flat list of (Binding, node) steps.

`[a [b c] & more :as all]`, `{:keys [a b] :strs [c] :or {a 1} :as m, x :x, {:keys [y]} :y}`.
Map lookups are flexible (`:a` finds "a"); `:or` applies only when the key is absent.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.lisp import forms as F
from engine.lisp import nodes as N
from engine.lisp.forms import is_sym, show
from engine.lisp.scope import invalid
from engine.lisp.values import Keyword, Symbol

if TYPE_CHECKING:
    from engine.lisp.analyzer import Analyzer
    from engine.lisp.scope import Env


def bind_pattern(an: Analyzer, pattern, value, env: Env, steps: list) -> None:
    """Append steps binding `pattern` to node `value`; the names go into env's scope."""
    t = type(pattern)
    if t is F.Sym:
        if pattern.ns is not None or pattern.name == "&":
            raise invalid(f"cannot bind {pattern.text}", pattern.span,
                          "binding names are plain symbols", reason="invalid_form")
        steps.append((an.bind(env, pattern.name), value))
    elif t is F.VectorForm:
        _vector_pattern(an, pattern, value, env, steps)
    elif t is F.MapForm:
        _map_pattern(an, pattern, value, env, steps)
    else:
        raise invalid(f"unsupported binding pattern {show(pattern)}", pattern.span,
                      "bind a symbol, a [vector] or a {map} pattern")


def _temp_for(an: Analyzer, env: Env, value, check: str, span, steps: list) -> N.LocalRef:
    temp = an.temp(env, "d")
    steps.append((temp, N.Intrinsic(check, (value,), span)))
    return N.LocalRef(temp, span)


def _vector_pattern(an, pattern: F.VectorForm, value, env, steps) -> None:
    span = pattern.span
    seq = _temp_for(an, env, value, "seq_pattern", span, steps)
    items = pattern.items
    i = index = 0
    while i < len(items):
        item = items[i]
        if is_sym(item, "&"):
            if i + 1 >= len(items):
                raise invalid("& must be followed by a binding", item.span)
            rest = N.Intrinsic("nthrest", (seq, N.Const(index, item.span)), item.span)
            bind_pattern(an, items[i + 1], rest, env, steps)
            i += 2
            if i < len(items) and not (type(items[i]) is F.Const and items[i].value == Keyword("as")):
                raise invalid("only :as may follow the & binding", items[i].span)
            continue
        if type(item) is F.Const and item.value == Keyword("as"):
            if i + 1 >= len(items) or not is_sym(items[i + 1]):
                raise invalid(":as must be followed by a symbol", item.span)
            steps.append((an.bind(env, items[i + 1].name), seq))
            i += 2
            continue
        element = N.Intrinsic("nth_or_nil", (seq, N.Const(index, item.span)), item.span)
        bind_pattern(an, item, element, env, steps)
        index += 1
        i += 1


def _map_pattern(an, pattern: F.MapForm, value, env, steps) -> None:
    span = pattern.span
    m = _temp_for(an, env, value, "map_pattern", span, steps)
    pairs = [(pattern.items[i], pattern.items[i + 1]) for i in range(0, len(pattern.items), 2)]
    defaults = _defaults(pairs)
    for key, val in pairs:
        if type(key) is F.Const and type(key.value) is Keyword:
            directive = key.value.name
            if directive in ("keys", "strs", "syms"):
                if type(val) is not F.VectorForm:
                    raise invalid(f":{directive} must be followed by a vector of names", val.span)
                for name_form in val.items:
                    name, lookup_key = _key_name(directive, name_form)
                    _bind_lookup(an, env, steps, name, lookup_key, m, defaults, name_form.span)
                continue
            if directive == "or":
                continue
            if directive == "as":
                if not is_sym(val):
                    raise invalid(":as must be followed by a symbol", val.span)
                steps.append((an.bind(env, val.name), m))
                continue
            raise invalid(f"unsupported map binding directive :{directive}", key.span,
                          "use :keys, :strs, :or, :as, or {name :key}")
        if type(val) is F.Const:
            lookup_key = val.value
        elif type(val) is F.Sym:
            lookup_key = Symbol(val.text)
        else:
            raise invalid(f"map binding key must be a literal, got {show(val)}", val.span)
        if is_sym(key):
            _bind_lookup(an, env, steps, key.name, lookup_key, m, defaults, key.span)
        else:
            got = N.Intrinsic("dget", (m, N.Const(lookup_key, val.span)), val.span)
            bind_pattern(an, key, got, env, steps)


def _defaults(pairs) -> dict:
    for key, val in pairs:
        if type(key) is F.Const and key.value == Keyword("or"):
            if type(val) is not F.MapForm:
                raise invalid(":or must be followed by a map of defaults", val.span)
            names = val.items[0::2]
            for n in names:
                if not is_sym(n):
                    raise invalid(f":or keys must be symbols, got {show(n)}", n.span)
            return {n.name: d for n, d in zip(names, val.items[1::2])}
    return {}


def _key_name(directive: str, form) -> tuple[str, object]:
    if directive == "keys":
        if type(form) is F.Sym:
            full = form.text
            return form.name, Keyword(full)
        if type(form) is F.Const and type(form.value) is Keyword:
            return form.value.name.split("/")[-1], form.value
    elif is_sym(form):
        return form.name, (form.name if directive == "strs" else Symbol(form.name))
    raise invalid(f"cannot bind {show(form)} in :{directive}", form.span)


def _bind_lookup(an, env, steps, name, key, m, defaults, span) -> None:
    key_node = N.Const(key, span)
    if name not in defaults:
        steps.append((an.bind(env, name), N.Intrinsic("dget", (m, key_node), span)))
        return
    default = an.analyze(defaults[name], env)
    b = an.bind(env, name)
    steps.append((b, N.Intrinsic("dget_or_missing", (m, key_node), span)))
    got = N.LocalRef(b, span)
    steps.append((b, N.If(N.Intrinsic("is_missing", (got,), span), default, got, span)))
