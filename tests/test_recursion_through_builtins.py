"""A function that recurses through a builtin calling it back (map, reduce, sort, update...)
is stopped by the recursion depth limit, as direct recursion is: each builtin that calls
functions is marked so (`calls_fns`), and a function calling one counts its depth."""

import pytest

from engine.lisp import run

LIMITS = {"recursion_depth": 30, "time_ms": 600_000, "run_wall_ms": 600_000}

# One program per builtin that calls a function of the program before it returns.
PROGRAMS = {
    "apply": "(defn f [x] (apply f [x])) (f 1)",
    "avg-by": "(defn f [x] (avg-by f [x])) (f 1)",
    "distinct-by": "(defn f [x] (distinct-by f [x])) (f 1)",
    "drop-while": "(defn f [x] (drop-while f [x])) (f 1)",
    "every?": "(defn f [x] (every? f [x])) (f 1)",
    "escape": '(defn f [c] (escape "a" f)) (f "a")',
    "filter": "(defn f [x] (filter f [x])) (f 1)",
    "filterv": "(defn f [x] (filterv f [x])) (f 1)",
    "group-by": "(defn f [x] (group-by f [x])) (f 1)",
    "keep": "(defn f [x] (keep f [x])) (f 1)",
    "keep-indexed": "(defn f [i x] (keep-indexed f [x])) (f 0 1)",
    "map": "(defn f [x] (map f [x])) (f 1)",
    "map-indexed": "(defn f [i x] (map-indexed f [x])) (f 0 1)",
    "mapcat": "(defn f [x] (mapcat f [x])) (f 1)",
    "mapv": "(defn f [x] (mapv f [x])) (f 1)",
    "max-by": "(defn f [x] (max-by f [x])) (f 1)",
    "max-key": "(defn f [x] (max-key f x x)) (f 1)",
    "merge-with": "(defn f [a b] (merge-with f {:a a} {:a b})) (f 1 2)",
    "min-by": "(defn f [x] (min-by f [x])) (f 1)",
    "min-key": "(defn f [x] (min-key f x x)) (f 1)",
    "not-any?": "(defn f [x] (not-any? f [x])) (f 1)",
    "not-every?": "(defn f [x] (not-every? f [x])) (f 1)",
    "partition-by": "(defn f [x] (partition-by f [x])) (f 1)",
    "pcalls": "(defn f [] (pcalls f)) (f)",
    "pluck": "(defn f [x] (pluck f [x])) (f 1)",
    "pmap": "(defn f [x] (pmap f [x])) (f 1)",
    "reduce": "(defn f [a b] (reduce f [a b])) (f 1 2)",
    "reduce-kv": "(defn f [a k v] (reduce-kv f a {k v})) (f 0 :a 1)",
    "reductions": "(defn f [a b] (reductions f [a b])) (f 1 2)",
    "remove": "(defn f [x] (remove f [x])) (f 1)",
    "repeatedly": "(defn f [] (repeatedly 1 f)) (f)",
    "replace": '(defn f [m] (replace "ab" #"a" f)) (f "a")',
    "replace-first": '(defn f [m] (replace-first "ab" #"a" f)) (f "a")',
    "run!": "(defn f [x] (run! f [x])) (f 1)",
    "clojure.set/select": "(defn f [x] (set/select f #{x})) (f 1)",
    "sequence": "(defn f [x] (sequence f [x])) (f 1)",
    "some": "(defn f [x] (some f [x])) (f 1)",
    "sort": "(defn f [a b] (sort f [a b])) (f 1 2)",
    "sort-by": "(defn f [x] (sort-by f [x x])) (f 1)",
    "split-with": "(defn f [x] (split-with f [x])) (f 1)",
    "sum-by": "(defn f [x] (sum-by f [x])) (f 1)",
    "take-while": "(defn f [x] (take-while f [x])) (f 1)",
    "transduce": "(defn f ([acc] acc) ([acc x] (transduce cat f acc [[x]]))) (f 0 1)",
    "trampoline": "(defn f [x] (trampoline f x)) (f 1)",
    "update": "(defn f [x] (update {:a x} :a f)) (f 1)",
    "update-in": "(defn f [x] (update-in {:a x} [:a] f)) (f 1)",
    "update-keys": "(defn f [x] (update-keys {x 1} f)) (f 1)",
    "update-vals": "(defn f [x] (update-vals {:a x} f)) (f 1)",
}


@pytest.mark.parametrize("builtin", sorted(PROGRAMS))
def test_recursion_through_a_builtin_meets_the_depth_limit(builtin):
    r = run(PROGRAMS[builtin], limits=LIMITS)
    assert r.error is not None and r.error.reason == "recursion_limit_exceeded", r.error
    assert r.error.message == "more than 30 nested function calls"


# Builtins that return a function and call nothing themselves (not `calls_fns`): the
# recursion goes through the call of the function they return, which counts the depth.
RETURNED = {
    "all-of": "(all-of f)", "any-of": "(any-of f)", "comp": "(comp f inc)",
    "complement": "(complement f)", "every-pred": "(every-pred f)", "fnil": "(fnil f 0)",
    "juxt": "(juxt f)", "memoize": "(memoize f)", "none-of": "(none-of f)",
    "partial": "(partial f)", "some-fn": "(some-fn f)",
}


@pytest.mark.parametrize("builtin", sorted(RETURNED))
def test_recursion_through_a_function_a_builtin_returned_meets_the_depth_limit(builtin):
    made = RETURNED[builtin]
    for program in (f"(defn f [x] ({made} (inc x))) (f 1)",
                    f"(defn f [x] (let [g {made}] (g (inc x)))) (f 1)"):
        r = run(program, limits=LIMITS)
        assert r.error is not None and r.error.reason == "recursion_limit_exceeded", program
        assert r.error.message == "more than 30 nested function calls"
