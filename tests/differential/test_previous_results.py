"""`*1 *2 *3` against Clojure's own REPL: each turn is one form typed at a REPL, and every
turn's value must agree with ours, where each turn runs with previous_results of the turns
before it (as the agent loop runs them). One JVM runs every session, three `nil` forms apart
so that each session starts with *1 *2 *3 nil. Errors print ERROR and, as at the REPL, do
not shift the values."""

from __future__ import annotations

import subprocess

import pytest

from engine.agent import execute_turn, previous_results
from engine.lisp import pr_str
from tests.differential.harness import agree, clojure_command, read_value

SESSIONS = {
    "values-shift-latest-first": ["(+ 1 2)", "[:second *1]", "{:a *2 :b *1}", "[*1 *2 *3]"],
    "nil-before-enough-turns": ["[*1 *2 *3]", "(count *1)", "[*1 *2 *3]"],
    "an-error-does-not-shift": ["(* 6 7)", "(+ 1 \"a\")", "(inc *1)", "[*1 *2]"],
    "work-on-the-previous-value": ["(range 5)", "(map inc *1)", "(reduce + *1)",
                                   "(filter even? *2)"],
    "a-local-binding-wins": ["10", "(let [*1 5] (+ *1 *2))"],
    "maps-and-sets": ["{:n 1 :tags #{:a :b}}", "(:tags *1)", "(contains? *1 :a)",
                      "(update *3 :n inc)"],
}


def _clojure_turn_values(command: list[str], tmp_path) -> dict[str, list[str]]:
    script = tmp_path / "repl.clj"
    script.write_text('(clojure.main/repl :prompt (fn []) :print prn\n'
                      '  :caught (fn [e] (println "ERROR")))\n')
    forms = []
    for turns in SESSIONS.values():
        forms += ["nil", "nil", "nil", *turns]
    done = subprocess.run([*command, str(script)], input="\n".join(forms) + "\n",
                          capture_output=True, text=True, timeout=300)
    lines = done.stdout.splitlines()
    assert len(lines) == len(forms), done.stdout + done.stderr
    out, i = {}, 0
    for name, turns in SESSIONS.items():
        out[name] = lines[i + 3:i + 3 + len(turns)]
        i += 3 + len(turns)
    return out


@pytest.fixture(scope="module")
def clojure_values(tmp_path_factory):
    command = clojure_command()
    if command is None:
        pytest.skip("the `clojure` command is not installed")
    return _clojure_turn_values(command, tmp_path_factory.mktemp("repl"))


@pytest.mark.parametrize("name", SESSIONS)
def test_turn_values_agree_with_the_clojure_repl(name, clojure_values):
    turns = []
    for number, (form, theirs) in enumerate(zip(SESSIONS[name], clojure_values[name]), 1):
        turn = execute_turn(number, f"```clojure\n{form}\n```", {},
                            previous=previous_results(turns))
        turns.append(turn)
        if theirs == "ERROR":
            assert turn.error is not None, f"turn {number} {form}: Clojure fails, ours gives " \
                                           f"{pr_str(turn.result)}"
        else:
            assert turn.error is None, f"turn {number} {form}: {turn.error}"
            assert agree(turn.result, read_value(theirs)), \
                f"turn {number} {form}: clojure {theirs}, ours {pr_str(turn.result)}"
