"""Time in tools: a tool call past `tool_timeout_ms`, or a run past `run_wall_ms` (tool time
included), ends the run with `timeout` naming the tool; a tool that never returns does not
hang the run. Limits are small here; the checks are on reasons and messages, not on times."""

from __future__ import annotations

import threading
import time

from engine.lisp import run

NEVER = threading.Event()      # never set: a tool waiting on it never returns


def stuck():
    NEVER.wait()


def test_a_tool_that_never_returns_ends_the_run_with_timeout_naming_it():
    r = run('(println "before") (tool/quick) (tool/stuck) (println "after")',
            tools={"quick": lambda: 1, "stuck": stuck}, limits={"tool_timeout_ms": 200})
    assert r.error is not None and r.error.reason == "timeout", r.error
    assert "tool/stuck" in r.error.message and "tool_timeout_ms" in r.error.message
    assert r.prints == ["before"]
    assert [c.name for c in r.tool_calls] == ["quick", "stuck"]
    assert r.tool_calls[0].result == 1
    assert r.tool_calls[1].error == "no answer in time: the call was abandoned"


def test_a_slow_tool_within_its_timeout_is_waited_for():
    r = run("(tool/slow)", tools={"slow": lambda: (time.sleep(0.2), "done")[1]},
            limits={"tool_timeout_ms": 5000})
    assert r.error is None and r.value == "done", r.error


def test_tool_time_adds_up_to_the_wall_clock_limit():
    """Each call is within its own timeout, but together they pass run_wall_ms: three short
    naps, then one that alone fits the budget but not after them, so the fourth call is the one
    past the limit whatever the machine's load."""
    naps = iter([0.1, 0.1, 0.1, 1.9])
    r = run("(dotimes [i 10] (tool/nap))", tools={"nap": lambda: time.sleep(next(naps, 0))},
            limits={"run_wall_ms": 2000, "tool_timeout_ms": 5000})
    assert r.error is not None and r.error.reason == "timeout", r.error
    assert "run_wall_ms" in r.error.message and "tool/nap" in r.error.message
    assert len(r.tool_calls) == 4


def test_program_time_after_tool_time_counts_against_the_wall_clock_limit():
    """time_ms does not count tool time; run_wall_ms counts both."""
    r = run("(tool/nap) (loop [] (recur))", tools={"nap": lambda: time.sleep(0.3)},
            limits={"run_wall_ms": 600, "time_ms": 60_000, "loop_iterations": 10 ** 9})
    assert r.error is not None and r.error.reason == "timeout", r.error
    assert "run_wall_ms" in r.error.message


def test_a_failing_tool_is_still_a_tool_error():
    def boom():
        raise RuntimeError("the service is down")
    r = run("(tool/boom)", tools={"boom": boom}, limits={"tool_timeout_ms": 5000})
    assert r.error.reason == "tool_error" and "the service is down" in r.error.message


def test_a_tool_that_exits_does_not_end_the_host():
    r = run("(tool/leave)", tools={"leave": lambda: exit(3)})
    assert r.error.reason == "tool_error", r.error


def test_the_abandoned_call_runs_on_and_its_result_is_dropped():
    finished = threading.Event()
    release = threading.Event()

    def late():
        release.wait(10)
        finished.set()
        return "too late"

    r = run("(tool/late)", tools={"late": late}, limits={"tool_timeout_ms": 100})
    assert r.error.reason == "timeout"
    release.set()
    assert finished.wait(10), "the abandoned call did not run on"
    assert r.value is None and r.tool_calls[0].result is None


def test_a_tool_running_a_program_inside_its_own_thread():
    def nested():
        inner = run("(+ 1 2)")
        return inner.value
    r = run("(+ 10 (tool/nested))", tools={"nested": nested})
    assert r.error is None and r.value == 13, r.error


def test_a_tool_used_as_a_value_has_the_same_timeout():
    """`(map tool/slow ...)` calls the tool through the same path as `(tool/slow ...)`."""
    r = run("(map tool/slow [1 2])", tools={"slow": lambda x: stuck()},
            limits={"tool_timeout_ms": 200})
    assert r.error is not None and r.error.reason == "timeout", r.error
    assert "tool/slow" in r.error.message and "tool_timeout_ms" in r.error.message
    assert [c.name for c in r.tool_calls] == ["slow"]
    assert r.tool_calls[0].error == "no answer in time: the call was abandoned"


def test_a_tool_value_kept_in_memory_has_the_wall_clock_limit_of_the_later_run():
    first = run("(def nap tool/nap)", tools={"nap": lambda: None})
    r = run("(dotimes [i 50] (nap))", tools={"nap": stuck},
            memory=first.memory, limits={"run_wall_ms": 1000, "tool_timeout_ms": 60_000})
    assert r.error is not None and r.error.reason == "timeout", r.error
    assert "run_wall_ms" in r.error.message and "tool/nap" in r.error.message
    assert len(r.tool_calls) == 1
