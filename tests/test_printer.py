"""The printers: format_value (the truncating formatter the history renderer uses for samples,
docs/ptc-lisp-rules.md, "Truncated printing") and pr_str."""

import pytest

from engine.lisp import Keyword, format_value, pr_str, run
from engine.lisp.values import Map, Var

K = Keyword


def value(source: str):
    result = run(source)
    assert result.error is None, result.error
    return result.value


@pytest.mark.parametrize("given, options, text, cut", [
    (42, {}, "42", False),
    ((1, 2, 3), {}, "[1 2 3]", False),
    (Map({K("id"): 101, K("count"): 45}), {}, "{:count 45 :id 101}", False),
    (Map({"name": "Alice", "age": 30}), {}, '{"age" 30 "name" "Alice"}', False),
    (Var("x"), {}, "#'x", False),
    (None, {}, "nil", False),
    (K("keyword"), {}, ":keyword", False),
    ((Map({K("a"): 1}), Map({K("b"): 2})), {}, "[{:a 1} {:b 2}]", False),
    ((1, 2, 3, 4, 5), {"limit": 2}, "[1 2 ...] (5 items, showing first 2)", True),
    ("very long string here", {"printable_limit": 10}, '"very long ..."', True),
    (Map({K("title"): "Hello", K("_body"): "secret"}), {}, '{:title "Hello"}', False),
    (Map({K("title"): "Hello", K("_body"): "secret"}), {"filter_hidden": False},
     '{:_body "secret" :title "Hello"}', False),
    (frozenset({"meals"}), {}, '#{"meals"}', False),
    (1.1 + 2.2, {}, "3.3", False),
    (3.14, {}, "3.14", False),
    (0.5, {}, "0.5", False),
    (1.0e20, {}, "100000000000000000000.0", False),
    (1.0e-10, {}, "0.0000000001", False),
    ((Var("x"), Var("y")), {}, "[#'x #'y]", False),
    (Map({K("result"): Var("foo")}), {}, "{:result #'foo}", False),
    (float("inf"), {}, "##Inf", False),
    (float("nan"), {}, "##NaN", False),
])
def test_format_value_examples_of_the_spec(given, options, text, cut):
    assert format_value(given, **options) == (text, cut)


def test_format_value_of_a_closure_shows_its_parameters():
    assert format_value(value("(fn [x] x)")) == ("#fn[x]", False)
    assert format_value(value("(fn [[a b] & more] a)"))[0] == "#fn[_ & more]"


def test_format_value_hides_underscore_string_keys():
    text, _ = format_value(Map({"id": 1, "_secret": "hidden"}))
    assert '"id" 1' in text and "_secret" not in text


def test_format_value_shares_the_printable_limit_among_map_entries():
    m = Map({K(f"key{i}"): c * 100 for i, c in zip(range(1, 6), "abcde")})
    text, cut = format_value(m, printable_limit=90)
    assert cut
    assert text == ('{:key1 "' + "a" * 20 + '..." :key2 "' + "b" * 20 + '..." :key3 "'
                    + "c" * 20 + '..." ...}')


def test_format_value_with_both_limits_and_nesting():
    sample = value('[{:name "Alice" :tags ["a" "b" "c" "d"]} {:name "Bob"} {:name "Cy"} {:name "Di"}]')
    text, cut = format_value(sample, limit=3, printable_limit=80)
    assert cut
    assert text.startswith('[{:name "Alice" :tags ["a" "b" "c" ...] (4 items, showing first 3)}')
    assert text.endswith("(4 items, showing first 3)")


def test_format_value_of_shared_structure_is_bounded():
    shared = value("(loop [v [1] i 0] (if (< i 60) (recur [v v] (inc i)) v))")
    text, cut = format_value(shared, limit=3)
    assert cut and len(text) < 2_000_000


@pytest.mark.parametrize("source, printed", [
    ('{:b 2 :a 1 "c" 3 1 0}', '{1 0 :a 1 :b 2 "c" 3}'),
    ("[1.5 0.1 1e7 1e-4 -0.0]", "[1.5 0.1 1.0E7 1.0E-4 -0.0]"),
    ('"tab\\there \\"q\\""', '"tab\\there \\"q\\""'),
    ("#{:b :a}", "#{:a :b}"),
    ("(symbol \"abc\")", "abc"),
    ('#"\\d+"', '#"\\d+"'),
    ("[nil true false]", "[nil true false]"),
])
def test_pr_str_prints_clojure_syntax_with_sorted_keys(source, printed):
    assert pr_str(value(source)) == printed


def test_pr_str_cuts_at_a_limit():
    assert pr_str(tuple(range(100)), limit=10) == "[0 1 2 3 4..."
