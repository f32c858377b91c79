"""A summary of the differential suite, grouped by cause:

    .venv/bin/python -m tests.differential.report

Runs Clojure's batch (or reads its cache) and our engine on every program, then lists the
programs that disagree under: missing in our engine (unbound_var, or a form or builtin reported
as unsupported), our engine fails where Clojure succeeds, Clojure fails where we succeed,
different values, different printed output, and bad programs (Clojure's verdict contradicts the
!error mark).
"""

from __future__ import annotations

import sys
from collections import defaultdict

from engine.lisp import pr_str, run
from tests.differential.harness import (Unreadable, agree, clojure_command, load_programs,
                                        normalize_output, our_output, read_value,
                                        run_clojure_batch)

_MISSING_WORDS = ("not supported", "is not available", "undefined symbol")


def classify(program, clj) -> tuple[str, str] | None:
    """None when the engine agrees with Clojure, else (cause, details)."""
    if clj.status == "timeout" or program.expect_error != (clj.status == "error"):
        return "bad program", f"clojure: {clj.status} {clj.text}"
    result = run(program.source)
    if clj.status == "error":
        if result.ok:
            return "Clojure fails, ours succeeds", (f"clojure: {clj.text}\n    ours:    "
                                                     f"{pr_str(result.value, limit=300)}")
        return None
    if not result.ok:
        text = str(result.error)
        if result.error.reason == "unbound_var" or any(w in text for w in _MISSING_WORDS):
            return "missing in our engine", text
        return "ours fails, Clojure succeeds", f"clojure: {clj.text}\n    ours:    {text}"
    try:
        theirs = read_value(clj.text)
    except Unreadable as e:
        return "bad program", str(e)
    if not agree(result.value, theirs):
        return "different values", (f"clojure: {clj.text}\n    ours:    "
                                    f"{pr_str(result.value, limit=300)}")
    mine = our_output(result.prints)
    if normalize_output(mine) != normalize_output(clj.out):
        return "different output", f"clojure: {clj.out!r}\n    ours:    {mine!r}"
    return None


def main() -> int:
    command = clojure_command()
    if command is None:
        print("the `clojure` command is not installed", file=sys.stderr)
        return 2
    programs = load_programs()
    results = run_clojure_batch(programs, command)
    groups: dict[str, list] = defaultdict(list)
    for program, clj in zip(programs, results):
        verdict = classify(program, clj)
        if verdict:
            groups[verdict[0]].append((program, verdict[1]))
    failing = sum(len(v) for v in groups.values())
    print(f"{len(programs)} programs, {len(programs) - failing} agree, {failing} disagree")
    for cause, items in sorted(groups.items()):
        print(f"\n== {cause} ({len(items)})")
        for program, details in items:
            print(f"\n  {program.id}  (programs/{program.topic}.clj:{program.line})")
            print("    " + program.source.rstrip().replace("\n", "\n    "))
            print(f"    {details}")
    return 1 if failing else 0


if __name__ == "__main__":
    sys.exit(main())
