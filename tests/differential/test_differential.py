"""Each program of programs/*.clj runs through our engine and through real Clojure 1.11 (one
JVM for the whole batch, see harness.py); the two must agree on the value, on what was printed,
and on whether the program fails at all.

Without a `clojure` command the module is skipped, unless PTC_REQUIRE_CLOJURE=1 (CI), in which
case every test fails.
"""

from __future__ import annotations

import os

import pytest

from engine.lisp import pr_str, run
from tests.differential.harness import (ClojureResult, Program, Unreadable, agree, clojure_command,
                                        load_programs, normalize_output, our_output, read_value,
                                        run_clojure_batch)

PROGRAMS = load_programs()


@pytest.fixture(scope="session")
def clojure_results() -> dict[str, ClojureResult]:
    command = clojure_command()
    if command is None:
        reason = "the `clojure` command is not installed (apt-get install -y clojure)"
        if os.environ.get("PTC_REQUIRE_CLOJURE") == "1":
            pytest.fail(f"PTC_REQUIRE_CLOJURE=1 but {reason}", pytrace=False)
        pytest.skip(reason)
    results = run_clojure_batch(PROGRAMS, command)
    return {p.id: r for p, r in zip(PROGRAMS, results)}


def test_enough_programs():
    assert len(PROGRAMS) >= 320


@pytest.mark.parametrize("program", PROGRAMS, ids=[p.id for p in PROGRAMS])
def test_program(program: Program, clojure_results):
    check(program, clojure_results[program.id])


def check(program: Program, clj: ClojureResult) -> None:
    where = f"programs/{program.topic}.clj:{program.line}"
    source = program.source.rstrip()
    if clj.status == "timeout":
        pytest.fail(f"{where}: Clojure did not finish the program:\n{source}", pytrace=False)
    if program.expect_error and clj.status == "ok":
        pytest.fail(f"{where}: the program is marked !error but Clojure accepted it, giving "
                    f"{clj.text}\n{source}", pytrace=False)
    if not program.expect_error and clj.status == "error":
        pytest.fail(f"{where}: Clojure rejected the program (fix the program or mark it "
                    f"!error): {clj.text}\n{source}", pytrace=False)

    result = run(program.source)
    ours = pr_str(result.value, limit=2000) if result.ok else f"ERROR {result.error}"
    if clj.status == "error":
        if result.ok:
            pytest.fail(f"{where}: Clojure fails ({clj.text}) but our engine returns {ours}\n"
                        f"{source}", pytrace=False)
        return

    problems = []
    if not result.ok:
        problems.append(f"our engine fails: {result.error}")
    else:
        try:
            theirs = read_value(clj.text)
        except Unreadable as e:
            pytest.fail(f"{where}: {e}\n{source}", pytrace=False)
        if not agree(result.value, theirs):
            problems.append(f"values differ\n  clojure: {clj.text}\n  ours:    {ours}")
    mine = our_output(result.prints)
    if normalize_output(mine) != normalize_output(clj.out):
        problems.append(f"printed output differs\n  clojure: {clj.out!r}\n  ours:    {mine!r}")
    if problems:
        pytest.fail(f"{where}:\n{source}\n" + "\n".join(problems), pytrace=False)
