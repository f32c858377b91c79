"""Errors the LLM sees: for each bad program, the reason, the exact position (line:column of
the error's span) and, where one helps, a hint.

The programs are the mistakes LLMs make when they write Clojure for PTC-Lisp: a collection
passed to max, ->> where -> is needed (and back), sort-by's comparator in the wrong place,
unbalanced parentheses, Python-style names, misspelled builtins, regexes used as functions,
calling a number, special forms used as values, and errors deep in multi-line programs.
"""

from __future__ import annotations

import re

import pytest

from engine.lisp import PtcError, run
from tests.test_sandbox import internals

TOOLS = {"search": lambda query, limit=5: [{"id": 1, "title": query}],
         "echo": lambda x: x,
         "boom": lambda: 1 / 0}
DATA = {"items": [{"name": "a", "price": 10}, {"name": "b", "price": 20}], "n": 5}


def E(source, reason, position, hint=None, *, message=None, limits=None):
    """One bad program: expected reason, (line, column), a substring of the hint and of the
    message (None: not checked). `limits` None is the tests' default (time limits out of
    reach, see conftest); {} would be the shipped limits, whose 1 s a busy machine can pass
    while reading 10,001 symbols."""
    return pytest.param(source, reason, position, hint, message, limits,
                        id=re.sub(r"\s+", " ", source)[:60])


ERRORS = [
    # --- typical LLM mistakes ---------------------------------------------------------------
    E("(max [1 2 3])", "type_error", (1, 1), "apply max"),
    E("(min (map :price data/items))", "type_error", (1, 1), "apply min"),
    E("(apply max)", "arity_error", (1, 1)),
    E("(+ [1 2 3])", "type_error", (1, 1), message="got vector [1 2 3]"),
    E("(-> data/items (map :price))", "type_error", (1, 16), "->>"),
    E("(-> data/items (filter #(> (:price %) 10)))", "type_error", (1, 16), "->>"),
    E("(->> {:a 1} (update-vals inc))", "type_error", (1, 13), "->"),
    E("(->> {:a 1} (update-keys name))", "type_error", (1, 13), "->"),
    E("(->> {:a [1 2]} (update :a count))", "type_error", (1, 17), "->"),
    E("(->> {:a 1} (assoc :b 2))", "type_error", (1, 13), "->"),
    E("(sort-by :price data/items >)", "type_error", (1, 1), "(sort-by :price > "),
    E("(sort-by :price [{:price 2} {:price 1}] >)", "type_error", (1, 1), "(sort-by :price >",
      message="comparator"),
    E("(reduce +)", "arity_error", (1, 1)),
    E("(sort-by :price)", "arity_error", (1, 1), "->>"),
    E("(group-by odd?)", "arity_error", (1, 1), "->>"),
    E("(:name data/items)", "invalid_keyword_call", (1, 1), "(map :name"),
    E("(includes? [1 2] 1)", "type_error", (1, 1), "contains?"),
    E("(count 5)", "type_error", (1, 1)),
    E("(nth [1] \"a\")", "type_error", (1, 1)),
    E("(get-in {:a 1} :a)", "type_error", (1, 1), "(get m :a)"),
    E("(select-keys {:a 1} :a)", "type_error", (1, 1), "[:a]"),
    # unbalanced parentheses: the count and where the outermost one opened
    E("(+ 1 2", "parse_error", (1, 1), "add )", message="1 unclosed '(' opened at 1:1"),
    E("(defn f [x]\n  (let [y (inc x)]\n    (* y 2))", "parse_error", (1, 1), "add )",
      message="1 unclosed '(' opened at 1:1"),
    E("(def a 1)\n(defn g [x]\n  (if (> x 1)\n    (g (dec x)\n    x)", "parse_error", (2, 1),
      "add ))", message="2 unclosed '(' opened at 2:1"),
    E("(def a 1)\n(defn g [x]\n  (if (> x 1)\n    (g (dec x)\n    x))", "parse_error", (2, 1),
      "add )", message="1 unclosed '(' opened at 2:1"),
    E("(let [x 1\n  (+ x 1))", "parse_error", (2, 10), "close '[' with ']'",
      message="')' at 2:10 cannot close '[' opened at 1:6"),
    E("(println \"a\"))) (+ 1 \"b\")", "type_error", (1, 17)),
    # Python-style names
    E("(group_by :a [])", "unbound_var", (1, 2), "group-by"),
    E("(sort_by :a [])", "unbound_var", (1, 2), "sort-by"),
    E("(def my-var 1)\n(+ my_var 1)", "unbound_var", (2, 4), "hyphen"),
    E("(str_join \",\" [1 2])", "unbound_var", (1, 2), "hyphen"),
    E("(def total_price 1) (inc total-price)", "unbound_var", (1, 26)),
    # misspelled builtins
    E("(fitler odd? [1 2 3])", "unbound_var", (1, 2), "did you mean filter?"),
    E("(reduse + [1 2])", "unbound_var", (1, 2), "did you mean reduce?"),
    E("(conut [1 2])", "unbound_var", (1, 2), "did you mean count?"),
    E("(str/joinn \",\" [1])", "invalid_form", (1, 2), "str/join"),
    E("(str/includes \"abc\" \"b\")", "invalid_form", (1, 2), "str/includes?"),
    E("(Math/sqr 4)", "invalid_form", (1, 2), "Math/sqrt"),
    # regexes: a regex is not a function; re-find is
    E("(#\"\\d+\" \"a1\")", "not_callable", (1, 1), "re-find"),
    E("(filter #\"a\" [\"a\" \"b\"])", "not_callable", (1, 1), "re-find"),
    E("(re-find #\"(\" \"a\")", "parse_error", (1, 10)),
    E("(re-pattern \"(\")", "parse_error", (1, 1)),
    E("(re-find 1 \"a\")", "type_error", (1, 1), message="#\"\\d+\""),
    # calling what is not a function
    E("(42 1 2)", "not_callable", (1, 1), "vector"),
    E("(\"abc\" 1)", "not_callable", (1, 1)),
    E("(nil 1)", "not_callable", (1, 1)),
    E("(let [n 5] (n 1))", "not_callable", (1, 12)),
    E("(def x 3)\n(x)", "not_callable", (2, 1)),
    E("(Math/PI)", "not_callable", (1, 1), "Math/PI"),
    E("((+ 1 2) 3)", "not_callable", (1, 1)),
    # special forms as values
    E("(map if [1 2])", "unbound_var", (1, 6), "(if ...)"),
    E("(def f let)", "unbound_var", (1, 8), "(let ...)"),
    E("(apply and [true false])", "unbound_var", (1, 8), "(and ...)"),
    E("(reduce or [nil 1])", "unbound_var", (1, 9), "(or ...)"),
    # errors on line 3 of multi-line programs
    E("(def xs [1 2 3])\n(def total (reduce + xs))\n(def avg (/ total (count xss)))",
      "unbound_var", (3, 26)),
    E("(let [a 1]\n  (println a)\n  (+ a \"b\"))", "type_error", (3, 3)),
    E("(defn price [item]\n  (:price item))\n(map price (price {:price 1}))", "type_error",
      (3, 1)),
    E("(defn f [x]\n  (let [y (* x 2)]\n    (nth y 0)))\n(f 3)", "type_error", (3, 5)),
    E("(def m {:a 1})\n;; comment line\n   (m :a :b :c)", "arity_error", (3, 4)),
    E("(do\n  (println 1)\n  (undefined-thing 2))", "unbound_var", (3, 4)),
    E("(->> data/items\n     (map :price)\n     (reduce + \"x\"))", "type_error", (3, 6)),
    E("(loop [i 0]\n  (when (< i 3)\n    (inc (recur (inc i)))))", "invalid_form", (3, 10),
      "last thing", message="tail position"),
    # --- every reason the engine gives -----------------------------------------------------
    E("(if)", "invalid_arity", (1, 1), message="(if test then else?)"),
    E("(if true)", "invalid_arity", (1, 1)),
    E("(let [x 1])", "invalid_arity", (1, 1)),
    E("(fn)", "invalid_arity", (1, 1)),
    E("(defn f)", "invalid_arity", (1, 1)),
    E("(def)", "invalid_arity", (1, 1)),
    E("(when true)", "invalid_arity", (1, 1)),
    E("(fail)", "invalid_arity", (1, 1), "exactly one value"),
    E("(return 1 2)", "invalid_arity", (1, 1), "exactly one value"),
    E("(let [x] x)", "invalid_form", (1, 6)),
    E("(let x 1)", "invalid_form", (1, 1), "(let [name value ...] body)"),
    E("(defn f x)", "invalid_form", (1, 1), "(fn [x y] body)"),
    E("(recur 1)", "invalid_form", (1, 1)),
    E("(#(+ % #(inc %)) 1)", "invalid_form", (1, 8), "(fn [x] ...)"),
    E("(try (/ 1 0) (catch Exception e 1))", "invalid_form", (1, 1), "fail"),
    E("(throw (ex-info \"x\" {}))", "invalid_form", (1, 1), "fail"),
    E("(while true 1)", "invalid_form", (1, 1), "loop/recur"),
    E("(foo/bar 1)", "invalid_form", (1, 2), "tool/"),
    E("(def data/x 1)", "invalid_form", (1, 1)),
    E("(fn [1] 1)", "invalid_form", (1, 6)),
    E("(defn f ([x] 1) ([y] 2))", "invalid_form", (1, 1)),
    E("(doseq [x [1 2] :foo 1] x)", "invalid_form", (1, 17), ":let, :when or :while"),
    E("undefined-symbol", "unbound_var", (1, 1)),
    E("(atom 0)", "unbound_var", (1, 2), "reduce"),
    E("(swap! counter inc)", "unbound_var", (1, 2)),
    E("(eval 1)", "unbound_var", (1, 2)),
    E("(iterate inc 1)", "unbound_var", (1, 2), "(range n)"),
    E("(rand-int 5)", "unbound_var", (1, 2)),
    E("(.foo \"x\")", "unbound_var", (1, 1)),
    E("(count [1] [2])", "arity_error", (1, 1), message="count expects 1 argument, got 2"),
    E("(get)", "arity_error", (1, 1), message="get expects 2 or 3 arguments, got 0"),
    E("(range)", "arity_error", (1, 1)),
    E("(assoc {:a 1} :b)", "arity_error", (1, 1)),
    E("(hash-map :a)", "arity_error", (1, 1), "(hash-map :a 1 :b 2)"),
    E("(inc \"a\")", "type_error", (1, 1), message='inc expects a number, got string "a"'),
    E("(* 2 \"ab\")", "type_error", (1, 1), message='* expects numbers, got string "ab"'),
    E("(+ 1 nil)", "type_error", (1, 1), message="got nil"),
    E("(< 1 \"a\")", "type_error", (1, 1), message="cannot compare integer with string"),
    E("(sort [1 \"a\" :k])", "type_error", (1, 1), message="cannot compare"),
    E("(keys [1 2])", "type_error", (1, 1)),
    E("(update-vals inc {:a 1})", "type_error", (1, 1), "(update-vals m f)"),
    E("(format \"%d\" \"x\")", "type_error", (1, 1)),
    E("(format \"%q\" 1)", "type_error", (1, 1), "%%"),
    E("(mod 5 0)", "arithmetic_error", (1, 1), message="division by zero"),
    E("(quot 1 0)", "arithmetic_error", (1, 1)),
    E("(int ##Inf)", "arithmetic_error", (1, 1)),
    E("(+ 9223372036854775807 1)", "arithmetic_error", (1, 1), message="integer overflow"),
    E("(* 4294967296 4294967296)", "arithmetic_error", (1, 1), message="integer overflow"),
    E("(let [[a b] 1] a)", "destructure_error", (1, 7)),
    E("(let [{:keys [a]} [1 2]] a)", "destructure_error", (1, 7), "[a b]"),
    E("(defn f [[a b]] a)\n(f 5)", "destructure_error", (1, 10)),
    E("(def map 1)", "cannot_shadow_builtin", (1, 6), "my-map"),
    E("(defn filter [x] x)", "cannot_shadow_builtin", (1, 7), "my-filter"),
    E("(def if 1)", "cannot_shadow_builtin", (1, 6)),
    E("(def let 1)", "cannot_shadow_builtin", (1, 6)),
    E("(defn fn [x] x)", "cannot_shadow_builtin", (1, 7)),
    E("(loop [i 0] (recur (inc i)))", "loop_limit_exceeded", (1, 13), "reduce"),
    E("(defn f [n] (f n))\n(f 1)", "recursion_limit_exceeded", (1, 1), "loop/recur"),
    E("(loop [i 0] (recur (inc i)))", "timeout", (1, 13),
      limits={"time_ms": 50, "loop_iterations": 10 ** 9}),
    E("(range 2000000)", "memory_exceeded", (1, 1)),
    E("(println \"0123456789\")\n(println \"0123456789\")", "output_limit_exceeded", (2, 1),
      "print less", limits={"print_total_chars": 15}),
    E("(tool/echo 1)\n(tool/echo 2)", "tool_limit_exceeded", (2, 1),
      limits={"tool_calls": 1}),
    E("(tool/boom)", "tool_error", (1, 1), message="tool/boom failed"),
    E("(tool/echo 1 2)", "tool_error", (1, 1)),
    E("(tool/nope 1)", "unknown_tool", (1, 1), message="Available tools: boom, echo, search"),
    E("(cond 1)", "invalid_cond_form", (1, 1), ":else"),
    E("(cond)", "invalid_cond_form", (1, 1)),
    E("(condp)", "invalid_cond_form", (1, 1)),
    E("(-> )", "invalid_thread_form", (1, 1)),
    E("(as-> 1)", "invalid_thread_form", (1, 1)),
    E("(cond-> 1 true)", "invalid_thread_form", (1, 1)),
    E("(%)", "invalid_placeholder", (1, 2), "#(... % ...)"),
    E("(map #(+ % %) [1]) (inc %1)", "invalid_placeholder", (1, 25)),
    E("(:a)", "invalid_keyword_call", (1, 1)),
    E("(:a {} 1 2)", "invalid_keyword_call", (1, 1)),
    E("((fn [a b] a) 1)", "arity_mismatch", (1, 1), message="expects 2 arguments, got 1"),
    E("(defn f [a b] a)\n(f 1)", "arity_mismatch", (2, 1), message="f expects 2 arguments"),
    E("(loop [i 0] (recur i 2))", "arity_mismatch", (1, 13)),
    E("(mapv #(+ %1 %2) [1 2])", "arity_mismatch", (1, 1)),
    E("(where :a :like \"x\")", "invalid_where_operator", (1, 11), "includes"),
    E("(where)", "invalid_where_form", (1, 1), "(where :status = \"active\")"),
    E("(case 3 1 :a 2 :b)", "no_matching_clause", (1, 1), "default"),
    E("(assoc [1 2] 5 1)", "index_out_of_bounds", (1, 1), "conj"),
    E("[" + " ".join(f"s{i}" for i in range(10_001)) + "]", "symbol_limit_exceeded", None),
]


@pytest.mark.parametrize("source,reason,position,hint,message,limits", ERRORS)
def test_error(source, reason, position, hint, message, limits):
    r = run(source, data=DATA, tools=TOOLS, limits=limits)
    err = r.error
    assert err is not None, f"expected {reason}, got the value {r.value!r}"
    assert isinstance(err, PtcError)
    got = f"{err.reason} at {err.span}: {err.message} (hint: {err.hint})"
    assert err.reason == reason, got
    if position is None:
        assert err.span is None or err.span.line >= 1, got
    else:
        assert err.span is not None and (err.span.line, err.span.col) == position, got
    if hint is not None:
        assert err.hint and hint in err.hint, got
    if message is not None:
        assert message in err.message, got
    assert err.message.strip() and "\n" not in err.message, got
    assert not internals(err.message, source) and not internals(err.hint or "", source), got
    assert r.value is None and r.signal is None


def test_at_least_sixty_bad_programs():
    assert len(ERRORS) >= 60
    reasons = {p.values[1] for p in ERRORS}
    assert reasons >= {"parse_error", "invalid_form", "invalid_arity", "unbound_var",
                       "not_callable", "arity_error", "type_error", "arithmetic_error",
                       "destructure_error", "cannot_shadow_builtin", "loop_limit_exceeded",
                       "recursion_limit_exceeded", "timeout", "memory_exceeded",
                       "output_limit_exceeded", "tool_limit_exceeded", "tool_error",
                       "unknown_tool", "symbol_limit_exceeded", "invalid_cond_form",
                       "invalid_thread_form", "invalid_placeholder", "invalid_keyword_call",
                       "arity_mismatch"}


def test_errors_point_into_the_source():
    """Every span of the table is inside the program: its line exists, its column is on it."""
    for param in ERRORS:
        source = param.values[0]
        r = run(source, data=DATA, tools=TOOLS, limits=param.values[5])
        if r.error is None or r.error.span is None:
            continue
        lines = source.split("\n")
        span = r.error.span
        assert 1 <= span.line <= len(lines), (source, span)
        assert 1 <= span.col <= len(lines[span.line - 1]) + 1, (source, span)
        assert (span.end_line, span.end_col) >= (span.line, span.col), (source, span)


def test_excerpt_shows_the_failing_line():
    source = "(def a 1)\n(def b 2)\n(+ a (nope b))"
    err = run(source).error
    assert err.excerpt(source) == "(+ a (nope b))\n      ^"


def test_prints_before_an_error_are_kept_and_the_error_is_located_after_them():
    r = run('(println "one")\n(println "two")\n(+ 1 nil)\n(println "never")')
    assert r.prints == ["one", "two"]
    assert r.error.reason == "type_error"
    assert (r.error.span.line, r.error.span.col) == (3, 1)


def test_error_in_a_function_points_at_the_failing_form_not_the_call():
    source = "(defn avg [xs]\n  (/ (reduce + xs) (count xs)))\n(avg [1 \"x\"])"
    err = run(source).error
    assert err.reason == "type_error"
    assert (err.span.line, err.span.col) == (2, 6)


def test_error_inside_a_closure_passed_to_a_builtin_points_into_the_closure():
    source = "(map (fn [x]\n       (inc x))\n     [1 \"b\"])"
    err = run(source).error
    assert err.reason == "type_error"
    assert (err.span.line, err.span.col) == (2, 8)


def test_timeout_error_is_located_and_names_its_limit():
    # The loop would end at loop_iterations long after 50 ms on any machine; the wall-clock
    # limit is out of reach, so the error can only come from time_ms.
    r = run("(def xs (range 10))\n(loop [i 0]\n  (recur (inc i)))",
            limits={"time_ms": 50, "run_wall_ms": 600_000, "loop_iterations": 10 ** 8})
    assert r.error.reason == "timeout"
    assert "time limit of 50 ms" in r.error.message
    assert r.error.span.line == 3


def test_messages_name_ptc_types_not_python_types():
    for source in ["(+ 1 [2])", "(+ 1 {:a 1})", "(+ 1 #{1})", "(+ 1 :k)", "(+ 1 inc)",
                   "(inc nil)", "(count 1.5)", "(first true)", "(keys \"s\")",
                   "(< [1] [2 3] {})", "(name [1])", "(subs 1 2)", "(nth {:a 1} 0)",
                   "(str/split 1 \",\")", "(reduce + {:a 1})", "(vals [1])"]:
        err = run(source).error
        if err is None:
            continue
        assert not internals(err.message, source), (source, err.message)
        assert not re.search(r"\b(tuple|frozenset|dict|NoneType|Map|Keyword|int|str|list)\b",
                             err.message), (source, err.message)


def test_hints_are_well_formed():
    """Hints end cleanly: no doubled punctuation ("did you mean str/includes??")."""
    for source in ["(str/includes \"abc\" \"b\")", "(fitler odd? [1])", "(str/blank \"\")",
                   "(emptyy? [])", "(nil?? 1)"]:
        err = run(source).error
        assert err is not None and err.hint, source
        assert "??" not in err.hint and "?." not in err.hint, (source, err.hint)
