"""The two interop calls that read the clock give the current time in epoch milliseconds,
the value Java's System.currentTimeMillis gives (a program subtracts dates and compares
them with the time now, so an error of even a second would show)."""

import time

from engine.lisp import run


def test_now_is_the_current_time_in_epoch_milliseconds():
    before = time.time_ns() // 1_000_000
    r = run("[(java.util.Date.) (System/currentTimeMillis)]")
    after = time.time_ns() // 1_000_000
    assert r.error is None
    date_now, millis_now = r.value
    assert before <= date_now <= millis_now <= after
