"""`<`, `+`, `inc` and friends on integers, comparisons and `pos?` on numbers, `even?` on
integers, `(:k m)` on maps and `str` on strings and integers are compiled inline; everything
else goes to the builtin, with its result or its error unchanged."""

import pytest

from engine.lisp import pr_str, run


@pytest.mark.parametrize("source, expected", [
    ("[(< 1 2) (< 2 1) (< 1.5 2) (> 3 2) (<= 2 2) (>= 1 2) (< \"a\" \"b\")]",
     "[true false true true true false true]"),
    ("[(+ 1 2) (- 5 7) (* 3 4) (+ 1.5 2) (inc 1) (dec 0) (inc 1.5) (* 2 (+ 1 2))]",
     "[3 -2 12 3.5 2 -1 2.5 6]"),
    ("(loop [i 0 acc 0] (if (< i 1000) (recur (inc i) (+ acc (* i i))) acc))", "332833500"),
    ("(let [f (fn [] 3)] [(< (f) 4) (+ 1 (f)) (- (f) 1) (inc (f))])", "[true 4 2 4]"),
    ("(+ (count [1]) (count [1 2]))", "3"),
    ("[(mod 7 3) (mod -7 3) (mod 7 -3) (mod 7.5 2) (let [x -7] (mod x 13))]", "[1 2 -2 1.5 6]"),
    ("[(pos? 1.5) (pos? -1) (zero? 0.0) (neg? -0.5) (even? 4) (odd? -3) (> 2.5 2) (< 1 1.5)"
     " (pos? ##NaN) (zero? (- 2 2))]", "[true false true true true true true true false true]"),
    ("(let [m {:a 1 \"a\" 2 \"b\" 3} s #{:a}] [(:a m) (:b m) (:c m) (:a nil) (:a s) (:b s)"
     " (:b (first [{\"b\" 4}]))])", "[1 3 nil nil :a nil 4]"),
])
def test_results(source, expected):
    r = run(source)
    assert r.error is None, r.error
    assert pr_str(r.value) == expected


@pytest.mark.parametrize("source, reason, words", [
    ("(+ 9223372036854775807 1)", "arithmetic_error", "overflow"),
    ("(let [x 9223372036854775807] (inc x))", "arithmetic_error", "overflow"),
    ("(let [x -9223372036854775808] (dec x))", "arithmetic_error", "overflow"),
    ("(let [x 4611686018427387904] (* x 2))", "arithmetic_error", "overflow"),
    ("(let [x nil] (< 1 x))", "type_error", "< cannot compare integer with nil"),
    ("(+ 1 nil)", "type_error", "+ expects numbers, got nil"),
    ("(inc nil)", "type_error", "inc expects a number"),
    ("(< true 1)", "type_error", "cannot compare boolean"),
    ("(let [x nil] (mod x 3))", "type_error", "mod expects a number, got nil"),
    ("(let [x nil] (pos? x))", "type_error", "pos? expects a number, got nil"),
    ("(even? 1.5)", "arithmetic_error", "even? expects an integer, got float"),
    ("(let [m [1]] (:a m))", "invalid_keyword_call", "(:a x) needs a map, got vector"),
    ("(:a (first [[1]]))", "invalid_keyword_call", "(:a x) needs a map, got vector"),
])
def test_errors_are_the_builtins_own(source, reason, words):
    r = run(source)
    assert r.error is not None and r.error.reason == reason, r.error
    assert words in r.error.message, r.error.message
    assert r.error.span is not None and r.error.span.line == 1


def test_arguments_are_evaluated_once_and_in_order():
    r = run('(let [x 1] (+ x (do (println "once") 2)))')
    assert r.prints == ["once"] and r.value == 3
    r = run('(< (do (println "a") 1) (do (println "b") 2))')
    assert r.prints == ["a", "b"] and r.value is True


def test_str_gives_the_builtins_text_for_every_kind_of_value():
    r = run('(let [i 7 s "ab" n nil k :kw f 1.5 b true v [1 "a"] m {:a nil}] '
            '[(str "k" i) (str s i s) (str "x" n) (str k) (str f) (str b "-" v) (str i)'
            ' (str "-" (- i 10) m) (str s) (str "a" 1 "b" 2 "c" 3 "d" i) (str 1 2 3 4 5 6 7 8 i)])')
    assert r.error is None, r.error
    assert r.value == ("k7", "ab7ab", "x", ":kw", "1.5", 'true-[1 "a"]', "7", "--3{:a nil}",
                       "ab", "a1b2c3d7", "123456787")


@pytest.mark.parametrize("source", ['(let [s "abcd"] (str s "x"))', "(let [i 12345] (str i))",
                                    '(let [i 1 s "ab"] (str s "-" i "-"))'])
def test_str_holds_the_string_limit_exactly(source):
    assert run(source, limits={"string_length": 5}).value is not None
    r = run(source, limits={"string_length": 4})
    assert r.error is not None and r.error.reason == "memory_exceeded", r.error
    assert r.error.message == "str would build a string of 5 characters, more than the limit of 4"
    assert r.error.span is not None and r.error.span.line == 1


def test_str_arguments_are_evaluated_once_and_in_order():
    r = run('(str (do (println "a") 1) (do (println "b") "x") nil)')
    assert r.prints == ["a", "b"] and r.value == "1x"
    r = run('(str (do (println "a") nil) (do (println "b") 2))')     # not inlined: the builtin
    assert r.prints == ["a", "b"] and r.value == "2"


@pytest.mark.parametrize("source, expected", [
    ("(loop [i 0 acc 0] (if (< i 10) (recur (inc i) (+ acc 0.5)) acc))", "5.0"),
    ("(loop [i 0] (if (< i 3) (recur (+ i 0.5)) i))", "3.0"),
    ("(loop [i 0 j i] (if (< i 3) (recur (+ i 1.5) j) [i j]))", "[3.0 0]"),
    ("(loop [i 0] (if (< i 3) (recur (if (< i 1) (inc i) (+ i 1.0))) i))", "3.0"),
    ("(loop [i 0 s nil] (if (< i 3) (recur (inc i) (str s i)) s))", '"012"'),
    ("(loop [x 1] (if (< x 100) (recur (* x (count [1 2 3]))) x))", "243"),
    ("(loop [i 10 n 0] (if (zero? i) n (recur (dec i) (+ n (mod i 3)))))", "10"),
])
def test_loop_counters_known_to_be_integers_give_the_same_results(source, expected):
    """A loop parameter that starts as an integer and is given one by every recur is not
    type-tested; one that may become a float is."""
    r = run(source)
    assert r.error is None, r.error
    assert pr_str(r.value) == expected


@pytest.mark.parametrize("source, column", [
    ("(loop [i 0 x 1] (if (< i 70) (recur (inc i) (* x 2)) x))", 45),
    ("(loop [i 9223372036854775800] (if (pos? i) (recur (inc i)) i))", 51),
    ("(loop [i -9223372036854775807] (if (neg? i) (recur (dec i)) i))", 52),
    ("(loop [i 0 a 4611686018427387904] (if (< i 3) (recur (inc i) (+ a a)) a))", 62),
])
def test_loop_counters_known_to_be_integers_still_overflow(source, column):
    r = run(source)
    assert r.error is not None and r.error.reason == "arithmetic_error", r.error
    assert "overflow" in r.error.message and (r.error.span.line, r.error.span.col) == (1, column)


@pytest.mark.parametrize("source", [
    "(loop [i 0 x 0] (if (< i 2) (recur (inc i) (+ x 1.5)) (even? x)))",
    "(loop [i 0 y 0 x 0] (if (< i 2) (recur (inc i) x (+ x 0.5)) (even? y)))",
])
def test_a_counter_a_recur_may_give_a_float_is_still_tested(source):
    r = run(source)
    assert r.error is not None and r.error.message == "even? expects an integer, got float", r.error
