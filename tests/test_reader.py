"""The reader: lark's lexer plus our delimiter stack.

1. lark's own LALR parser, built from the same grammar (reader.PARSER), and our reader agree
   on kinds, nesting and spans for every input both accept;
2. every literal kind reads to its exact value and span;
3. every parse error has its message, position and hint.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lark import Token, Tree
from lark.exceptions import LarkError

from engine.lisp import PtcError, run
from engine.lisp.errors import Span
from engine.lisp.forms import (Const, FnLiteral, ListForm, MapForm, RegexForm, SetForm, Sym,
                               VarQuote, VectorForm)
from engine.lisp.reader import PARSER, _atom, read
from engine.lisp.values import Keyword
from tests.conformance.cases import parse_cases

CONFORMANCE = sorted((Path(__file__).parent / "conformance").glob("*.ptc"))


# --- one shape for both parsers ------------------------------------------------------------

_KINDS = {ListForm: "list", VectorForm: "vector", MapForm: "map", SetForm: "set",
          FnLiteral: "fn_literal"}


def _span(span: Span) -> tuple:
    return (span.line, span.col, span.end_line, span.end_col)


def _value(v):
    """Literal values in a comparable form: NaN equals NaN, keywords by name, types kept."""
    if type(v) is float and math.isnan(v):
        return ("float", "NaN")
    if type(v) is Keyword:
        return ("keyword", v.name)
    return (type(v).__name__, v)


def shape(form):
    """Our form as nested tuples: kind, span, and children or value."""
    t = type(form)
    if t in _KINDS:
        return (_KINDS[t], _span(form.span), tuple(shape(x) for x in form.items))
    if t is Const:
        return ("const", _span(form.span), _value(form.value))
    if t is Sym:
        return ("sym", _span(form.span), form.ns, form.name)
    if t is RegexForm:
        return ("regex", _span(form.span), form.source)
    if t is VarQuote:
        return ("var_quote", _span(form.span), shape(form.target))
    raise AssertionError(f"unknown form {form!r}")


def lark_shape(node):
    """lark's parse tree in the same shape. Atoms are converted by the reader's own atom
    function, so what is compared is structure: kinds, nesting and spans."""
    if isinstance(node, Token):
        return shape(_atom(node, set()))
    assert isinstance(node, Tree), node
    meta = node.meta
    span = (meta.line, meta.column, meta.end_line, meta.end_column)
    return (node.data, span, lark_children(node.children))


def lark_children(children) -> tuple:
    """The forms of a sequence of lark nodes, with Clojure's meaning of prefixes: `#_` drops
    the next form *read*, so in `#_#_ 1 2 3` (lark: discard(discard(1)) 2 3) the outer one
    drops 2; `#'` applies to the next form read (`#'#_x y` is `#'y`)."""
    stream: list = []
    for child in children:
        _flatten(child, stream)
    forms, prefixes = [], []
    for kind, item in stream:
        if kind != "form":
            prefixes.append((kind, item))
            continue
        form = lark_shape(item)
        while prefixes and form is not None:
            prefix, start = prefixes.pop()
            if prefix == "#_":
                form = None
            else:
                form = ("var_quote", (*start, form[1][2], form[1][3]), form)
        if form is not None:
            forms.append(form)
    assert not prefixes, "lark accepted a dangling prefix"
    return tuple(forms)


def _flatten(node, stream: list) -> None:
    if isinstance(node, Tree) and node.data in ("discard", "var_quote"):
        (target,) = node.children
        stream.append(("#_" if node.data == "discard" else "#'",
                       (node.meta.line, node.meta.column)))
        _flatten(target, stream)
    else:
        stream.append(("form", node))


def lark_forms(source: str) -> tuple:
    tree = PARSER.parse(source)
    assert tree.data == "start"
    return lark_children(tree.children)


def our_forms(source: str) -> tuple:
    return tuple(shape(f) for f in read(source))


def assert_agree(source: str, strict: bool = False) -> None:
    """Where lark's parser accepts `source`, ours gives the same forms; where lark rejects
    it, ours rejects it too. Ours may also reject what the grammar lets through, but only
    for what is inside a token (a bad number, an unsupported reader macro, an odd map,
    #' before a non-symbol), never for the structure; with `strict`, not at all."""
    try:
        theirs = lark_forms(source)
    except LarkError:
        with pytest.raises(PtcError):
            read(source)
        return
    except PtcError as e:       # lark's tree is fine, but a token in it is not
        assert not strict, f"{source!r}: {e}"
        with pytest.raises(PtcError):
            read(source)
        return
    try:
        ours = our_forms(source)
    except PtcError as e:
        assert not strict, f"{source!r}: lark accepts it, we raise {e}"
        assert e.reason in ("parse_error", "symbol_limit_exceeded")
        assert not e.message.startswith(("unbalanced", "mismatched")), (source, e)
        return
    assert ours == theirs, f"{source!r}\n ours:   {ours}\n theirs: {theirs}"


AGREEMENT = [
    "", "   ", ";; only a comment", "1", "-1", "+1", "1.5", "1e3", "1/2", "0x1F", "017", "2r101",
    "36rZZ", "42N", "1.5M", "##Inf", "##-Inf", "##NaN", '"s"', '""', '"a\\nb"', '"\\u0041"',
    '"\\101"', '"line1\nline2"', "\\a", "\\newline", "\\u0041", "\\o101", "\\λ", "\\(", "\\)",
    ":k", ":ns/k", ":a.b/c-d", ":1", "sym", "a/b", "/", "clojure.string/join", "x'", "a#b",
    "%", "%1", "%&", "&", "->>", "<=", "nil", "true", "false", "nil?", "truthy", "falsey",
    '#"\\d+"', '#"a\\"b"', '#"multi\nline"', "(+ 1 2)", "[1 [2 [3]]]", "{:a 1 :b [2 3]}",
    "#{1 2 #{3}}", "#(+ % 1)", "#(apply + %&)", "#'x", "#'a/b", "#_1 2", "#_#_1 2 3",
    "[1 #_[2 3] 4]", "#_ (a (b)) c", "(#_a)", "{:a #_:b 1}", "(a #_ #_ b c d)",
    "(defn f [x]\n  ;; doc\n  (+ x 1))\n(f 2)",
    "(let [{:keys [a b]} m\n      [x & more] v]\n  [a b x more])",
    "(->> data/items\n     (filter #(> (:price %) 10))\n     (map :name))",
    "(fn [a, b,] [a, b])", "(str \"a\" \\b \"c\")", "(re-find #\"(\\w+)@(\\w+)\" s)",
    "\t(+\t1\r\n 2)\r\n", "(a)(b)[c]{d e}", "#{}", "{}", "[]", "()", "#()",
    "(a ; comment ) inside\n b)", "#!/usr/bin/env ptc\n(+ 1 2)", "(tool/search {:q \"x\"})",
    "data/products", "ctx/x", "(. a b)", "(.toUpperCase s)", "(Math/abs -1)",
    "(case x (1 2) :a :b)", "(cond-> x true inc)", "'x", "(quote x)", "@a", "#inst \"x\"",
    "{:a}", "(]", "(", "#'1", "#_", "[#_]", "\"open", "[)", "(()", "#{)", "#(]",
]


@pytest.mark.parametrize("source", AGREEMENT)
def test_lark_and_reader_agree(source):
    assert_agree(source)


@pytest.mark.parametrize("source", ["(a))", "1)]} 2", ")", "(+ 1 2)\n)\n(+ 3 4)"])
def test_stray_closers_lark_rejects_we_ignore(source):
    with pytest.raises(LarkError):
        lark_forms(source)
    assert our_forms(source) == lark_forms(_without_stray_closers(source))


def _without_stray_closers(source: str) -> str:
    out, depth = [], 0
    for ch in source:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            if depth == 0:
                ch = " "
            else:
                depth -= 1
        out.append(ch)
    return "".join(out)


def _conformance_sources() -> list[str]:
    sources = []
    for path in CONFORMANCE:
        sources.extend(case.source for case in parse_cases(path))
    return sources


def test_lark_and_reader_agree_on_conformance_programs():
    checked = 0
    for source in _conformance_sources():
        if _has_stray_closer(source):
            continue
        assert_agree(source)
        checked += 1
    assert checked >= 100


def _has_stray_closer(source: str) -> bool:
    try:
        lark_forms(source)
        return False
    except PtcError:
        return False
    except LarkError:
        pass
    try:
        read(source)
    except PtcError:
        return False
    return True          # we accept what lark rejects: only stray closers may do that


# --- generated well-formed forms ------------------------------------------------------------

# (text, value) of atoms; value None means a symbol (checked by structure only)
ATOMS = [
    ("0", 0), ("7", 7), ("-12", -12), ("+3", 3), ("0x1f", 31), ("0XFF", 255), ("-0x10", -16),
    ("017", 15), ("2r1011", 11), ("8R17", 15), ("36rzz", 1295), ("42N", 42),
    ("9223372036854775807", 2 ** 63 - 1), ("-9223372036854775808", -2 ** 63),
    ("1.5", 1.5), ("-0.25", -0.25), ("1e3", 1000.0), ("2.5E-2", 0.025), ("3.", 3.0),
    ("1.5M", 1.5), ("1/4", 0.25), ("-3/4", -0.75), ("##Inf", math.inf), ("##-Inf", -math.inf),
    ('"plain"', "plain"), ('""', ""), ('"tab\\there"', "tab\there"), ('"q\\"q"', 'q"q'),
    ('"back\\\\slash"', "back\\slash"), ('"\\u00e9t\\u00E9"', "été"), ('"\\101\\12"', "A\n"),
    ('"two\nlines"', "two\nlines"), ('"\\b\\f\\r\\\'"', "\b\f\r'"), ('"#\\"x"', '#"x'),
    ("\\a", "a"), ("\\Z", "Z"), ("\\newline", "\n"), ("\\space", " "), ("\\tab", "\t"),
    ("\\u03bb", "λ"), ("\\o101", "A"), ("\\λ", "λ"), ("\\(", "("), ("\\\\", "\\"),
    (":k", Keyword("k")), (":ns/k", Keyword("ns/k")), (":a-b?", Keyword("a-b?")),
    (":1", Keyword("1")), ("nil", None), ("true", True), ("false", False),
    ("x", "sym"), ("my-var", "sym"), ("*x*", "sym"), ("a.b/c", "sym"), ("+", "sym"),
    ("->", "sym"), ("<=", "sym"), ("x'", "sym"), ("%", "sym"), ("%2", "sym"), ("é", "sym"),
    ("str/join", "sym"), ("nil?", "sym"), ("a#b", "sym"), ("..", "sym"),
    ('#"\\d+"', "regex"), ('#"[a-z]{2,}"', "regex"),
]
SEPARATORS = [" ", "  ", "\n", ", ", "\t", " ; note\n", ",", "\r\n", " #_ skipped ",
              " #_[1 2] ", " #_ #_ a b "]


def _atom_text(pair) -> str:
    return pair[0]


atoms = st.sampled_from(ATOMS).map(_atom_text)
separators = st.sampled_from(SEPARATORS)


def _join(items, seps) -> str:
    out = []
    for i, item in enumerate(items):
        out.append(item)
        if i < len(items) - 1:
            out.append(seps[i % len(seps)] if seps else " ")
    return "".join(out)


def _container(children):
    return st.tuples(st.sampled_from(["()", "[]", "{}", "#{}", "#()"]),
                     st.lists(children, max_size=6), st.lists(separators, min_size=1,
                                                              max_size=3),
                     st.sampled_from(["", " ", "\n", ", "])).map(_build_container)


def _build_container(args) -> str:
    delims, items, seps, pad = args
    if delims == "{}" and len(items) % 2:
        items = items[:-1]
    open_, close = delims[:-1], delims[-1]
    return open_ + pad + _join(items, seps) + pad + close


SYMBOL_TEXTS = [t for t, v in ATOMS if v == "sym"]
forms = st.recursive(
    st.one_of(atoms, st.sampled_from(SYMBOL_TEXTS).map(lambda s: "#'" + s)),
    _container, max_leaves=40)
programs = st.lists(forms, min_size=1, max_size=4).map(lambda fs: "\n".join(fs))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(programs)
def test_lark_and_reader_agree_on_generated_forms(source):
    assert_agree(source, strict=True)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(ATOMS), min_size=1, max_size=8), st.lists(separators,
                                                                          min_size=1))
def test_generated_atoms_read_to_their_values(pairs, seps):
    source = "[" + _join([t for t, _ in pairs], seps) + "]"
    (vector,) = read(source)
    assert type(vector) is VectorForm and len(vector.items) == len(pairs)
    for (text, expected), form in zip(pairs, vector.items):
        if expected == "sym":
            assert type(form) is Sym and form.text == text
        elif expected == "regex":
            assert type(form) is RegexForm and form.source == text[2:-1]
        else:
            assert type(form) is Const, (text, form)
            assert _value(form.value) == _value(expected), (text, form.value)


# --- literals: exact values and spans --------------------------------------------------------

def one(source: str):
    forms = read(source)
    assert len(forms) == 1, forms
    return forms[0]


LITERALS = [
    # integers in every radix
    ("42", 42, (1, 1, 1, 3)), ("-7", -7, (1, 1, 1, 3)), ("+5", 5, (1, 1, 1, 3)),
    ("0", 0, (1, 1, 1, 2)), ("-0", 0, (1, 1, 1, 3)), ("0x1F", 31, (1, 1, 1, 5)),
    ("0XfF", 255, (1, 1, 1, 5)), ("-0x10", -16, (1, 1, 1, 6)), ("017", 15, (1, 1, 1, 4)),
    ("-017", -15, (1, 1, 1, 5)), ("2r1010", 10, (1, 1, 1, 7)), ("36rZZ", 1295, (1, 1, 1, 6)),
    ("16rff", 255, (1, 1, 1, 6)), ("-8r17", -15, (1, 1, 1, 6)), ("42N", 42, (1, 1, 1, 4)),
    ("0x10N", 16, (1, 1, 1, 6)),
    ("9223372036854775807", 2 ** 63 - 1, (1, 1, 1, 20)),
    ("-9223372036854775808", -2 ** 63, (1, 1, 1, 21)),
    ("0x7FFFFFFFFFFFFFFF", 2 ** 63 - 1, (1, 1, 1, 19)),
    # floats and ratios
    ("1.5", 1.5, (1, 1, 1, 4)), ("-2.5", -2.5, (1, 1, 1, 5)), ("1e3", 1000.0, (1, 1, 1, 4)),
    ("1E-3", 0.001, (1, 1, 1, 5)), ("1.5e+2", 150.0, (1, 1, 1, 7)), ("2.", 2.0, (1, 1, 1, 3)),
    ("1.5M", 1.5, (1, 1, 1, 5)), ("09.5", 9.5, (1, 1, 1, 5)), ("1e400", math.inf, (1, 1, 1, 6)),
    ("1/2", 0.5, (1, 1, 1, 4)), ("-3/4", -0.75, (1, 1, 1, 5)), ("4/2", 2.0, (1, 1, 1, 4)),
    ("##Inf", math.inf, (1, 1, 1, 6)), ("##-Inf", -math.inf, (1, 1, 1, 7)),
    ("##NaN", math.nan, (1, 1, 1, 6)),
    # strings with every escape
    ('"abc"', "abc", (1, 1, 1, 6)), ('""', "", (1, 1, 1, 3)),
    ('"a\\tb"', "a\tb", (1, 1, 1, 7)), ('"\\b\\f\\n\\r"', "\b\f\n\r", (1, 1, 1, 11)),
    ('"\\"q\\""', '"q"', (1, 1, 1, 8)), ('"\\\'"', "'", (1, 1, 1, 5)),
    ('"\\\\"', "\\", (1, 1, 1, 5)), ('"\\u0041"', "A", (1, 1, 1, 9)),
    ('"\\u00e9\\u00E9"', "éé", (1, 1, 1, 15)), ('"\\uD83D\\uDE00"', "😀", (1, 1, 1, 15)),
    ('"\\0"', "\x00", (1, 1, 1, 5)), ('"\\7"', "\x07", (1, 1, 1, 5)),
    ('"\\12"', "\n", (1, 1, 1, 6)), ('"\\101"', "A", (1, 1, 1, 7)),
    ('"\\377"', "\xff", (1, 1, 1, 7)), ('"\\1010"', "A0", (1, 1, 1, 8)),
    ('"one\ntwo"', "one\ntwo", (1, 1, 2, 5)), ('"a\n\nb\nc"', "a\n\nb\nc", (1, 1, 4, 3)),
    ('"#\\"not a regex\\""', '#"not a regex"', (1, 1, 1, 19)),
    ('"é😀\u200b"', "é😀\u200b", (1, 1, 1, 6)),
    # characters, named and \uXXXX
    ("\\a", "a", (1, 1, 1, 3)), ("\\A", "A", (1, 1, 1, 3)), ("\\newline", "\n", (1, 1, 1, 9)),
    ("\\space", " ", (1, 1, 1, 7)), ("\\tab", "\t", (1, 1, 1, 5)),
    ("\\return", "\r", (1, 1, 1, 8)), ("\\backspace", "\b", (1, 1, 1, 11)),
    ("\\formfeed", "\f", (1, 1, 1, 10)), ("\\u0041", "A", (1, 1, 1, 7)),
    ("\\u00e9", "é", (1, 1, 1, 7)), ("\\o101", "A", (1, 1, 1, 6)), ("\\o7", "\x07", (1, 1, 1, 4)),
    ("\\λ", "λ", (1, 1, 1, 3)), ("\\😀", "😀", (1, 1, 1, 3)), ("\\(", "(", (1, 1, 1, 3)),
    ("\\)", ")", (1, 1, 1, 3)), ('\\"', '"', (1, 1, 1, 3)), ("\\\\", "\\", (1, 1, 1, 3)),
    ("\\;", ";", (1, 1, 1, 3)), ("\\,", ",", (1, 1, 1, 3)), ("\\n", "n", (1, 1, 1, 3)),
    ("\\u", "u", (1, 1, 1, 3)), ("\\1", "1", (1, 1, 1, 3)),
    # keywords, plain and namespaced
    (":a", Keyword("a"), (1, 1, 1, 3)), (":ns/name", Keyword("ns/name"), (1, 1, 1, 9)),
    (":a.b/c-d", Keyword("a.b/c-d"), (1, 1, 1, 9)), (":1", Keyword("1"), (1, 1, 1, 3)),
    (":a?", Keyword("a?"), (1, 1, 1, 4)), (":*x*", Keyword("*x*"), (1, 1, 1, 5)),
    (":a'", Keyword("a'"), (1, 1, 1, 4)), (":é", Keyword("é"), (1, 1, 1, 3)),
    (":a#b", Keyword("a#b"), (1, 1, 1, 5)),
    # reserved words
    ("nil", None, (1, 1, 1, 4)), ("true", True, (1, 1, 1, 5)), ("false", False, (1, 1, 1, 6)),
]


@pytest.mark.parametrize("source,value,span", LITERALS, ids=[s for s, _, _ in LITERALS])
def test_literal(source, value, span):
    form = one(source)
    assert type(form) is Const, form
    assert _value(form.value) == _value(value), (form.value, value)
    assert _span(form.span) == span


SYMBOLS = [
    ("x", None, "x"), ("my-var", None, "my-var"), ("a?", None, "a?"), ("a!", None, "a!"),
    ("*x*", None, "*x*"), ("+", None, "+"), ("-", None, "-"), ("->", None, "->"),
    ("->>", None, "->>"), ("<=", None, "<="), ("=", None, "="), ("not=", None, "not="),
    ("a.b", None, "a.b"), ("a/b", "a", "b"), ("/", None, "/"), ("clojure.core//", "clojure.core", "/"),
    ("clojure.string/join", "clojure.string", "join"), ("x'", None, "x'"),
    ("x''", None, "x''"), ("a#b", None, "a#b"), ("%", None, "%"), ("%1", None, "%1"),
    ("%&", None, "%&"), ("&", None, "&"), ("_", None, "_"), ("é", None, "é"),
    ("λx", None, "λx"), ("😀", None, "😀"), ("a:b", None, "a:b"), (".method", None, ".method"),
    ("Class.", None, "Class."), ("..", None, ".."), (".5", None, ".5"), ("a$b|c", None, "a$b|c"),
    ("nil?", None, "nil?"), ("truthy", None, "truthy"), ("falsey", None, "falsey"),
    ("nil-or", None, "nil-or"), ("a1", None, "a1"), ("<>", None, "<>"), ("+a", None, "+a"),
    ("-a", None, "-a"), ("+-1", None, "+-1"), ("data/x", "data", "x"), ("tool/f", "tool", "f"),
    ("java.util.Date.", None, "java.util.Date."), ("Math/PI", "Math", "PI"),
]


@pytest.mark.parametrize("source,ns,name", SYMBOLS, ids=[s for s, _, _ in SYMBOLS])
def test_symbol(source, ns, name):
    form = one(source)
    assert type(form) is Sym, form
    assert (form.ns, form.name) == (ns, name)
    assert _span(form.span) == (1, 1, 1, 1 + len(source))


def test_regex_literals_keep_their_source():
    form = one('#"\\d+\\.\\s"')
    assert form == RegexForm("\\d+\\.\\s", Span(1, 1, 1, 11))
    form = one('#"a\\"b"')
    assert form.source == 'a\\"b'
    form = one('#"multi\nline"')
    assert form.source == "multi\nline" and _span(form.span) == (1, 1, 2, 6)
    form = one('#"\u202e"')          # anything goes inside a literal
    assert form.source == "\u202e"


def test_containers_and_spans():
    form = one("(f [1 2]\n   {:a #{x}})")
    assert shape(form) == (
        "list", (1, 1, 2, 14), (
            ("sym", (1, 2, 1, 3), None, "f"),
            ("vector", (1, 4, 1, 9), (("const", (1, 5, 1, 6), ("int", 1)),
                                      ("const", (1, 7, 1, 8), ("int", 2)))),
            ("map", (2, 4, 2, 13), (
                ("const", (2, 5, 2, 7), ("keyword", "a")),
                ("set", (2, 8, 2, 12), (("sym", (2, 10, 2, 11), None, "x"),)))),
        ))
    form = one("#(+ % 1)")
    assert type(form) is FnLiteral and _span(form.span) == (1, 1, 1, 9)
    assert [shape(x)[0] for x in form.items] == ["sym", "sym", "const"]


def test_var_quote():
    form = one("#'foo")
    assert form == VarQuote(Sym(None, "foo", Span(1, 3, 1, 6)), Span(1, 1, 1, 6))
    form = one("#'str/join")
    assert form.target == Sym("str", "join", Span(1, 3, 1, 11))
    form = one("#' x")
    assert form.span == Span(1, 1, 1, 5)


@pytest.mark.parametrize("source,expected", [
    ("#_1 2", [2]),
    ("#_#_1 2 3", [3]),
    ("#_ #_ 1 2 3", [3]),
    ("1 #_2", [1]),
    ("#_(a (b c)) 4", [4]),
    ("#_[1 #_2 3] 5", [5]),
    ("#_#_#_1 2 3 4", [4]),
    ("[1 #_[2 3] 4]", [(1, 4)]),
    ("(#_a)", [()]),
    ("{:a #_:b 1}", [{"a": 1}]),
    ("#_#'x 9", [9]),
    ("#'#_x y", ["#'y"]),
    ("#_\"str\" #_\\c #_:k #_##Inf 1", [1]),
    ("#_{:a} 1", "parse_error"),
])
def test_discard(source, expected):
    if expected == "parse_error":
        with pytest.raises(PtcError):
            read(source)
        return
    got = [_plain_form(f) for f in read(source)]
    assert got == expected


def _plain_form(form):
    t = type(form)
    if t is Const:
        v = form.value
        return v.name if type(v) is Keyword else v
    if t is VectorForm or t is ListForm:
        return tuple(_plain_form(x) for x in form.items)
    if t is MapForm:
        items = [_plain_form(x) for x in form.items]
        return dict(zip(items[0::2], items[1::2]))
    if t is VarQuote:
        return "#'" + form.target.name
    if t is Sym:
        return form.text
    raise AssertionError(form)


@pytest.mark.parametrize("source,count", [
    ("; only a comment", 0), ("", 0), ("   \n\t,,, ", 0), ("1 ; trailing", 1),
    ("; a\n1 ; b\n; c\n2", 2), ("#!/bin/ptc\n(+ 1 2)", 1), ("1,2,3", 3), (",1,", 1),
    ("(a ; ) not closing\n)", 1), ('"; not a comment"', 1), ("\\;", 1),
    ("(+ 1 2)))", 1), ("1)]} 2", 2), (")))", 0), ("] 1 }", 1), ("(a)) (b)", 2),
    ("\ufeff(+ 1 2)", 1),
])
def test_comments_commas_stray_closers_and_bom(source, count):
    assert len(read(source)) == count


def test_stray_closers_do_not_shift_positions():
    forms = read("(a)))\n  (b)")
    assert [_span(f.span) for f in forms] == [(1, 1, 1, 4), (2, 3, 2, 6)]


def test_bom_is_dropped_and_positions_start_after_it():
    (form,) = read("\ufeff(+ 1 2)")
    assert _span(form.span) == (1, 1, 1, 8)


def test_positions_count_code_points_and_tabs_as_one():
    forms = read('"é😀" x\n\t\ty')
    assert [_span(f.span) for f in forms] == [(1, 1, 1, 5), (1, 6, 1, 7), (2, 3, 2, 4)]


def test_crlf_line_endings():
    forms = read("(a)\r\n(b)\r\n  c")
    assert [_span(f.span)[:2] for f in forms] == [(1, 1), (2, 1), (3, 3)]


def test_forbidden_characters_only_inside_literals():
    assert one('"\x00\u202e\u200b\ufeff\ud800"').value == "\x00\u202e\u200b\ufeff\ud800"
    assert one("\\\u202e").value == "\u202e"
    assert one('#"\u200b"').source == "\u200b"


def test_nesting_limit_is_exact():
    assert len(read("[" * 100 + "]" * 100)) == 1
    with pytest.raises(PtcError) as e:
        read("[" * 101 + "]" * 101)
    assert e.value.message == "forms nested deeper than 100 levels"
    assert e.value.span == Span(1, 101, 1, 102)
    assert len(read("(" * 10 + ")" * 10, max_depth=10)) == 1
    with pytest.raises(PtcError):
        read("(" * 11 + ")" * 11, max_depth=10)


def test_symbol_limit_counts_unique_symbols_and_keywords():
    source = "[" + " ".join(["a", "b", ":c", "a", ":c", "nil", "true"]) + "]"
    assert len(read(source, max_symbols=3)) == 1
    with pytest.raises(PtcError) as e:
        read(source, max_symbols=2)
    assert e.value.reason == "symbol_limit_exceeded"
    assert "3 unique symbols" in e.value.message


def test_reader_deadline():
    import time
    with pytest.raises(PtcError) as e:
        read("1 " * 200_000, deadline=time.perf_counter())
    assert e.value.reason == "timeout"


# --- parse errors: message, position, hint --------------------------------------------------

E = "parse_error"
PARSE_ERRORS = [
    # (source, message (exact, or a substring when it starts with '~'), (line, col), hint part)
    ("(+ 1 2", "unbalanced parentheses: 1 unclosed '(' opened at 1:1", (1, 1), "add ) "),
    ("((", "unbalanced parentheses: 2 unclosed '(' opened at 1:1", (1, 1), "add ))"),
    ("(defn f [x]\n  (let [y 1]\n    (+ x y)", "unbalanced parentheses: 2 unclosed '(' opened "
     "at 1:1", (1, 1), "add ))"),
    ("(let [x 1\n  (+ x", "unbalanced delimiters: 3 unclosed: '(' at 1:1, '[' at 1:6, '(' at "
     "2:3", (1, 1), "add )])"),
    ("(a)\n(b\n  (c", "unbalanced parentheses: 2 unclosed '(' opened at 2:1", (2, 1), "add ))"),
    ("[1 2", "unbalanced brackets: 1 unclosed '[' opened at 1:1", (1, 1), "add ]"),
    ("  {:a 1", "unbalanced braces: 1 unclosed '{' opened at 1:3", (1, 3), "add }"),
    ("#{1 2", "unbalanced braces: 1 unclosed '#{' opened at 1:1", (1, 1), "add }"),
    ("#(inc %", "unbalanced parentheses: 1 unclosed '#(' opened at 1:1", (1, 1), "add )"),
    ("([{", "unbalanced delimiters: 3 unclosed: '(' at 1:1, '[' at 1:2, '{' at 1:3", (1, 1),
     "add }])"),
    ("(]", "mismatched delimiter: ']' at 1:2 cannot close '(' opened at 1:1", (1, 2),
     "close '(' with ')'"),
    ("[1 2)", "mismatched delimiter: ')' at 1:5 cannot close '[' opened at 1:1", (1, 5),
     "close '[' with ']'"),
    ("(let [x {:a 1]\n  x)", "mismatched delimiter: ']' at 1:14 cannot close '{' opened at 1:9",
     (1, 14), "close '{' with '}'"),
    ("#{1 2)", "mismatched delimiter: ')' at 1:6 cannot close '#{' opened at 1:1", (1, 6),
     "close '#{' with '}'"),
    ("{:a}", "map literal at 1:1 has 1 forms; it needs key/value pairs", (1, 1),
     "every key needs a value"),
    ("(f\n  {:a 1 :b})", "map literal at 2:3 has 3 forms; it needs key/value pairs", (2, 3),
     "every key needs a value"),
    ('"\\d"', "unsupported escape \\d in string", (1, 1), "#\"...\""),
    ('(str "a\\sb")', "unsupported escape \\s in string", (1, 6), "\\\\s"),
    ('"\\x41"', "unsupported escape \\x in string", (1, 1), "backslash"),
    ('"\\u12"', "invalid unicode escape in string: \\u needs 4 hex digits", (1, 1), "4 hex"),
    ('"\\uZZZZ"', "invalid unicode escape in string: \\u needs 4 hex digits", (1, 1), "4 hex"),
    ('"\\8"', "unsupported escape \\8 in string", (1, 1), None),
    ('"abc', "unterminated string starting at 1:1", (1, 1), 'close the string with "'),
    ('(str "a" "b)', "unterminated string starting at 1:10", (1, 10), "close the string"),
    ('#"abc', "unterminated regex literal starting at 1:1", (1, 1), "close the regex"),
    ("1.2.3", "invalid number 1.2.3", (1, 1), None),
    ("(+ 1 08)", "invalid number 08", (1, 6), "leading 0"),
    ("0778", "invalid number 0778", (1, 1), "octal"),
    ("1_000", "invalid number 1_000", (1, 1), None),
    ("0x", "invalid number 0x", (1, 1), None),
    ("0xG1", "invalid number 0xG1", (1, 1), None),
    ("37r1", "invalid number 37r1", (1, 1), "radix"),
    ("1r1", "invalid number 1r1", (1, 1), "radix"),
    ("2r102", "invalid number 2r102", (1, 1), "radix"),
    ("16r0x10", "invalid number 16r0x10", (1, 1), "radix"),
    ("0r10", "invalid number 0r10", (1, 1), None),
    ("1e", "invalid number 1e", (1, 1), None),
    ("12abc", "invalid number 12abc", (1, 1), None),
    ("1.5N", "invalid number 1.5N", (1, 1), None),
    ("1/2/3", "invalid number 1/2/3", (1, 1), None),
    ("1/-2", "invalid number 1/-2", (1, 1), None),
    ("1/0", "invalid ratio 1/0: division by zero", (1, 1), None),
    ("1'", "invalid number 1'", (1, 1), None),
    ("9223372036854775808", "integer 9223372036854775808 does not fit in 64 bits", (1, 1),
     "integers are 64-bit"),
    ("-9223372036854775809", "integer -9223372036854775809 does not fit in 64 bits", (1, 1),
     "1.0e20"),
    ("0x8000000000000000", "integer 0x8000000000000000 does not fit in 64 bits", (1, 1),
     "64-bit"),
    ("99999999999999999999999999999999999999999999", "~does not fit in 64 bits", (1, 1),
     "64-bit"),
    ("1" * 5000, "~does not fit in 64 bits", (1, 1), "64-bit"),
    ("1/" + "9" * 5000, "~does not fit in 64 bits", (1, 1), "64-bit"),
    ("'x", "quote ('x) is not supported (at 1:1)", (1, 1), "use a vector"),
    ("(map inc '(1 2))", "quote ('x) is not supported (at 1:10)", (1, 10), "vector [1 2 3]"),
    ("`x", "syntax-quote (`) is not supported (at 1:1)", (1, 1), "no macros"),
    ("~x", "unquote (~) is not supported (at 1:1)", (1, 1), "no macros"),
    ("~@x", "unquote-splicing (~@) is not supported (at 1:1)", (1, 1), "no macros"),
    ("@a", "deref (@x) is not supported (at 1:1)", (1, 1), "no atoms"),
    ("(+ 1 @a)", "deref (@x) is not supported (at 1:6)", (1, 6), "no atoms"),
    ("^:private x", "metadata (^) is not supported (at 1:1)", (1, 1), "remove the type hint"),
    ("(defn ^String f [] 1)", "metadata (^) is not supported (at 1:7)", (1, 7), "metadata"),
    ("#?(:clj 1)", "reader conditionals (#?) are not supported (at 1:1)", (1, 1),
     "one platform"),
    ("#?@(:clj [1])", "reader conditionals (#?@) are not supported (at 1:1)", (1, 1),
     "one platform"),
    ("#=(+ 1 2)", "read-eval (#=) is not supported (at 1:1)", (1, 1), "directly"),
    ("#:a{:b 1}", "namespaced maps (#:ns{...}) are not supported (at 1:1)", (1, 1),
     "{:ns/k v}"),
    ('#inst "2020-01-01"', "tagged literals (#inst...) are not supported (at 1:1)", (1, 1),
     "as a string"),
    ('#uuid "x"', "tagged literals (#uuid...) are not supported (at 1:1)", (1, 1), "string"),
    ("# 1", "unexpected '#' (at 1:1)", (1, 1), "#{set}"),
    ("#<x>", "unsupported reader macro #< at 1:1", (1, 1), "#{set}"),
    ("#^x", "unsupported reader macro #^ at 1:1", (1, 1), "#(fn)"),
    ("::a", "auto-resolved keywords (::a) are not supported", (1, 1), "write :a"),
    (":", "invalid keyword :", (1, 1), None),
    (":a/", "invalid keyword :a/", (1, 1), None),
    (":/a", "invalid keyword :/a", (1, 1), None),
    ("a/", "invalid symbol a/", (1, 1), None),
    ("a/b/c", "invalid symbol a/b/c", (1, 1), None),
    ("/a", "invalid symbol /a", (1, 1), None),
    ("##Foo", "unknown symbolic value ##Foo", (1, 1), "##Inf, ##-Inf or ##NaN"),
    ("##inf", "unknown symbolic value ##inf", (1, 1), "##Inf"),
    ("\\abc", "unsupported character literal \\abc", (1, 1), "\\newline"),
    ("\\o400", "unsupported character literal \\o400", (1, 1), "\\uXXXX"),
    ("\\u12", "unsupported character literal \\u12", (1, 1), "\\uXXXX"),
    ("\\ ", "invalid character literal at 1:1", (1, 1), "\\newline"),
    ("#'1", "#' at 1:1 must be followed by a symbol", (1, 1), "(var name)"),
    ("#'(f)", "#' at 1:1 must be followed by a symbol", (1, 1), "#'name"),
    ("#'#'x", "#' at 1:1 must be followed by a symbol", (1, 1), None),
    ("#_", "'#_' at 1:1 must be followed by a form", (1, 1), None),
    ("[1 #_]", "'#_' at 1:4 must be followed by a form", (1, 4), None),
    ("(f #')", "'#'' at 1:4 must be followed by a form", (1, 4), None),
    ("(+ 1 \x00)", "invisible or control character U+0000 at 1:6", (1, 6), "inside strings"),
    ("(def a\u200bb 1)", "invisible or control character U+200B at 1:7", (1, 7),
     "inside strings"),
    ("; \u202e comment\n1", "invisible or control character U+202E at 1:3", (1, 3),
     "inside strings"),
    ("(+ 1\n  \u2066 2)", "invisible or control character U+2066 at 2:3", (2, 3), None),
    ("1\n\n   \ufeff", "invisible or control character U+FEFF at 3:4", (3, 4), None),
    ("(+ 1 \ud800)", "invisible or control character U+D800 at 1:6", (1, 6), None),
    ("(+ 1\x1f2)", "invisible or control character U+001F at 1:5", (1, 5), None),
    ("[" * 101, "forms nested deeper than 100 levels", (1, 101), None),
    ("(a\n  (b\n    (c ]", "mismatched delimiter: ']' at 3:8 cannot close '(' opened at 3:5",
     (3, 8), "close '(' with ')'"),
]


@pytest.mark.parametrize("source,message,position,hint", PARSE_ERRORS,
                         ids=[repr(s[:30]) for s, *_ in PARSE_ERRORS])
def test_parse_error(source, message, position, hint):
    with pytest.raises(PtcError) as info:
        read(source)
    err = info.value
    assert err.reason == "parse_error"
    if message.startswith("~"):
        assert message[1:] in err.message, err.message
    else:
        assert err.message == message
    assert len(err.message) < 200 and "\n" not in err.message
    assert err.span is not None and (err.span.line, err.span.col) == position, err.span
    if hint is not None:
        assert err.hint and hint in err.hint, err.hint
    # the same error reaches the program's author through run, with nothing run before it
    r = run(source)
    assert r.error == err
    assert r.prints == [] and r.value is None


def test_unclosed_error_reports_the_outermost_opener_and_count():
    source = "(defn f [x]\n  (if (> x 1)\n    (f (dec x))\n    x)"
    with pytest.raises(PtcError) as e:
        read(source)
    assert e.value.message == "unbalanced parentheses: 1 unclosed '(' opened at 1:1"
    assert e.value.hint == "add ) at the end of the form"


def test_parse_error_excerpt_points_at_the_column():
    with pytest.raises(PtcError) as e:
        read("(let [x 1]\n  (+ x ]))")
    assert e.value.excerpt("(let [x 1]\n  (+ x ]))") == "  (+ x ]))\n       ^"


def test_reader_never_raises_anything_but_ptc_error():
    nasty = ['"\\u', '"\\', "\\", "#", "##", "#_#_", ":", "::", "/", "a//b", "1/", "/1",
             "0x-1", "-", "+", "1e+", "1e99999999", "36r" + "z" * 50, "\\o", "\\o9",
             '"\\uD800"', '"\\uDC00\\uD800"', "#'", "#(", "#{", "#\"", "~", "^", "@", "`",
             "#?", "#:", "#=", "#!", "#_)", "(#_)", "\u2028", "\x85", "\x0c", "\x0b", "\r",
             "a" * 100_000, '"' + "\\\\" * 50_000 + '"', "\\" + "x" * 1000]
    for source in nasty:
        try:
            read(source)
        except PtcError as e:
            assert e.reason in ("parse_error", "symbol_limit_exceeded"), (source, e)
