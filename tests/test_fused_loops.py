"""map, filter, remove and reduce over a fn written in place run the fn's body in a loop in
place (engine/lisp/fused.py). The sandbox holds as it does for a called fn: the deadline is
checked before each item, errors are the builtin's own and point into the fn's body.
(Results against real Clojure: tests/differential/programs/fused.clj.)"""

import pytest

from engine.lisp import pr_str, run

# Each item prints 8,000 numbers out of order into a string (`v`, bound around the loop, as the
# fn would inline no other fn): 3,000 items take tens of seconds on any machine. The first
# version sorted 3,000 numbers in order, in one pass, and a fast machine did all 3,000 items
# within the 500 ms. A deadline checked only when the loop starts (as a builtin does for a
# collection under 8,192 items) would let them all run.
NUMBERS = "(mapv #(mod (* % 7919) 8009) (range 8000))"
SLOW_ITEM = "(count (str v))"


@pytest.mark.parametrize("loop", [
    f"(count (map (fn [x] {SLOW_ITEM}) (range 3000)))",
    f"(count (filter (fn [x] (pos? {SLOW_ITEM})) (range 3000)))",
    f"(count (remove (fn [x] (pos? {SLOW_ITEM})) (range 3000)))",
    f"(reduce (fn [acc x] (+ acc {SLOW_ITEM})) 0 (range 3000))",
    f"(count (reduce (fn [m x] (assoc m x {SLOW_ITEM})) {{}} (range 3000)))",
])
def test_the_deadline_is_checked_before_each_item(loop):
    r = run(f"(let [v {NUMBERS}] {loop})", limits={"time_ms": 500})
    assert r.error is not None and r.error.reason == "timeout", r.error


def test_the_deadline_is_checked_before_each_item_of_a_cheap_looking_body():
    """`contains?` looks at every item of a vector: a body using it is not constant time."""
    r = run("(let [v (vec (range 1000000))] (count (filter (fn [x] (contains? v -1)) "
            "(range 3000))))", limits={"time_ms": 500})
    assert r.error is not None and r.error.reason == "timeout", r.error


def test_a_fused_reduce_in_memory_reads_the_next_runs_deadline():
    first = run(f"(def v {NUMBERS}) (defn slow [n] (reduce (fn [acc x] (+ acc {SLOW_ITEM})) 0 (range n)))")
    assert first.error is None, first.error
    r = run("(slow 3000)", memory=first.memory, limits={"time_ms": 100})
    assert r.error is not None and r.error.reason == "timeout", r.error
    one_item = len(pr_str(first.memory["v"]))
    assert run("(slow 2)", memory=first.memory).value == 2 * one_item


@pytest.mark.parametrize("source, reason, words, column", [
    ("(map #(+ % 1) 5)", "type_error", "map expects a collection, got integer 5", 1),
    ("(filterv #(pos? %) :k)", "type_error", "filter expects a collection", 1),
    ("(reduce (fn [a x] (+ a x)) 0 7)", "type_error", "reduce expects a collection", 1),
    ("(mapv #(+ % 1) [1 nil])", "type_error", "+ expects numbers, got nil", 7),
    ("(filter #(> (:p %) 1) [{:p \"a\"}])", "type_error", "> cannot compare string", 9),
    ("(mapv #(:a %) [1])", "invalid_keyword_call", "(:a x) needs a map, got integer", 7),
    ("(reduce (fn [a x] (+ a x)) 0 [1 \"2\"])", "type_error", "+ expects numbers", 19),
])
def test_errors_are_the_builtins_own_and_point_into_the_body(source, reason, words, column):
    r = run(source)
    assert r.error is not None and r.error.reason == reason, r.error
    assert words in r.error.message, r.error.message
    assert (r.error.span.line, r.error.span.col) == (1, column)


@pytest.mark.parametrize("source, expected", [
    ("(let [n 3] (mapv #(* n %) [1 2 3]))", "[3 6 9]"),
    ("(let [x 10] [(mapv (fn [x] (inc x)) [1 2]) x])", "[[2 3] 10]"),
    ("(let [fs (mapv (fn [x] (fn [] x)) [1 2 3])] (mapv #(%) fs))", "[1 2 3]"),
    ("(filterv #(:ok %) [{:ok 1} {\"ok\" false} {\"ok\" 2} {:ok nil \"ok\" 3}])",
     '[{:ok 1} {"ok" 2}]'),
    ("(reduce (fn [acc x] (if (> acc 10) (reduced acc) (+ acc x))) 0 (range 100))", "15"),
    ("(reduce (fn [m i] (assoc m (str \"k\" i) i)) {} (range 3))", '{"k0" 0 "k1" 1 "k2" 2}'),
    ("(mapv (fn [x] (loop [i x acc 1] (if (pos? i) (recur (dec i) (* acc i)) acc))) [3 4])",
     "[6 24]"),
    # assoc into the accumulator: one mutation of the map, or the builtin for other keys
    ("(reduce (fn [m i] (assoc m (even? i) i)) {} (range 5))", "{false 3 true 4}"),
    ("(reduce (fn [m i] (assoc m [i true] i)) {[1 true] :x} (range 2))", "{[0 true] 0 [1 true] 1}"),
    ("(reduce (fn [m i] (assoc m (mod i 3) i)) {} (range 100))", "{0 99 1 97 2 98}"),
    ("(reduce (fn [m i] (assoc m 1.0 i)) {1 :a} (range 2))", "{1 1}"),
    ("(reduce (fn [m i] (assoc m i :x)) nil (range 2))", "{0 :x 1 :x}"),
    ("(reduce (fn [m i] (assoc m i :x)) [:a] (range 3))", "[:x :x :x]"),
    ("(reduce (fn [m i] (assoc m (count m) i)) {} (range 3))", "{0 0 1 1 2 2}"),
    ("(reduce (fn [m i] (assoc m i i)) {:z 0} [])", "{:z 0}"),
])
def test_results_are_those_of_the_fn_called_per_item(source, expected):
    r = run(source)
    assert r.error is None, r.error
    assert pr_str(r.value) == expected


def test_a_fn_that_calls_user_code_is_still_called_and_counts_its_depth():
    """A fn calling another (a recursion through map) keeps counting nested calls."""
    source = "(defn walk [n] (if (pos? n) (first (map (fn [x] (walk x)) [(dec n)])) 0)) (walk 500)"
    r = run(source)
    assert r.error is not None and r.error.reason == "recursion_limit_exceeded", r.error


@pytest.mark.parametrize("source", [
    "(count (map #(* % %) (range 1000000)))",
    "(count (filter even? (range 1000000)))",
    "(count (filter #(and (pos? %) (< % 10)) (range 1000000)))",
    "(reduce (fn [a x] (+ a x)) 0 (range 1000000))",
])
def test_a_body_of_constant_time_checks_the_deadline_between_chunks(source):
    """A million items take far more than 20 ms however fast the machine: the run must end
    in a timeout, not finish late."""
    r = run(source, limits={"time_ms": 20})
    assert r.error is not None and r.error.reason == "timeout", r.error


@pytest.mark.parametrize("source", [
    "(loop [i 0] (if (< i 100000000) (recur (inc i)) i))",
    "((fn [i acc] (if (pos? i) (recur (dec i) (+ acc i)) acc)) 100000000 0)",
])
def test_a_loop_of_constant_time_checks_the_deadline_every_1024_jumps(source):
    r = run(source, limits={"time_ms": 20, "loop_iterations": 10**9})
    assert r.error is not None and r.error.reason == "timeout", r.error


def test_a_loop_of_constant_time_still_counts_every_jump():
    r = run("(loop [i 0] (if (< i 5000) (recur (inc i)) i))", limits={"loop_iterations": 1500})
    assert r.error is not None and r.error.reason == "loop_limit_exceeded", r.error
    assert "1500" in r.error.message


def test_assoc_into_the_accumulator_keeps_order_and_errors():
    r = run("(reduce (fn [m i] (assoc m (do (println i) :k) (/ 6 (- 2 i)))) {} (range 4))")
    assert r.prints == ["0", "1", "2", "3"] and pr_str(r.value) == "{:k -6.0}"
    r = run("(reduce (fn [m i] (assoc m :k i)) 5 [1 2])")
    assert r.error.reason == "type_error" and r.error.message.startswith("assoc expects a map")


@pytest.mark.parametrize("items, limit, built", [(70, 70, None), (70, 69, 70), (66, 64, 65)])
def test_assoc_into_the_accumulator_holds_the_collection_limit(items, limit, built):
    r = run("(count (reduce (fn [m i] (assoc m i i)) {} data/xs))", data={"xs": list(range(items))},
            limits={"collection_size": limit})
    if built is None:
        assert r.error is None and r.value == items, r.error
    else:
        assert r.error is not None and r.error.reason == "memory_exceeded", r.error
        assert r.error.message == f"assoc would build {built} items, more than the limit of {limit}"


def test_assoc_into_a_map_already_at_the_limit_may_still_replace_entries():
    big = {str(i): i for i in range(80)}
    source = "(count (reduce (fn [m k] (assoc m k 1)) (into {} data/m) data/ks))"
    ok = run(source, data={"m": big, "ks": ["0", "79"]}, limits={"collection_size": 80})
    assert ok.error is None and ok.value == 80, ok.error
    over = run(source, data={"m": big, "ks": ["0", "new"]}, limits={"collection_size": 80})
    assert over.error is not None and over.error.reason == "memory_exceeded", over.error
