"""benchmarks/mutation.py, the mutation runner: where it mutates, and what --sample picks."""

import ast

from benchmarks.mutation import chosen_mutants, mutated_source, points, unneeded_plugins

SOURCE = '''
LIMIT = 3


def over(items, strict=True):
    """Docstrings are left alone."""
    if not strict:
        return len(items) >= LIMIT
    return len(items) > LIMIT
'''


def run(text: str):
    namespace = {}
    exec(compile(text, "<mutant>", "exec"), namespace)
    return namespace["over"]


def test_each_point_is_one_small_change_and_the_source_stays_valid():
    found = [what for _, _, what in points(ast.parse(SOURCE))]
    assert sorted(found) == sorted(["3 -> 4", "True -> False", "return x -> return None",
                                    "not x -> x", "return x -> return None", "GtE -> Gt",
                                    "Gt -> GtE"])
    mutants = {what: mutated_source(SOURCE, i)[0] for i, what in enumerate(found)}
    assert run(SOURCE)([1, 2, 3]) is False
    assert run(mutants["Gt -> GtE"])([1, 2, 3]) is True        # the planted bug shows
    assert run(mutants["3 -> 4"])([1, 2, 3, 4]) is False
    assert run(mutants["not x -> x"])([1, 2, 3]) is True
    assert all(callable(run(text)) for text in mutants.values())


def test_sample_picks_that_many_distinct_mutants_the_same_each_time():
    picked = chosen_mutants(300, 40)
    assert len(set(picked)) == 40 and all(0 <= i < 300 for i in picked)
    assert picked == sorted(picked) == chosen_mutants(300, 40)
    assert chosen_mutants(300, None) == list(range(300)) == chosen_mutants(300, 500)


def test_the_snapshot_plugins_are_left_out_only_when_no_app_test_runs():
    assert unneeded_plugins(["tests/history/test_full.py", "tests/tokens"]) == [
        "-p", "no:hypothesispytest", "-p", "no:textual-snapshot", "-p", "no:syrupy"]
    for tests in (["tests"], ["tests/app/test_app.py"], ["tests/tokens", "tests/app"],
                  ["other/test_x.py"]):
        assert unneeded_plugins(tests) == ["-p", "no:hypothesispytest"], tests
