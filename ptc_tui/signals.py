"""The signals that end a run (SIGINT from Ctrl-C, SIGTERM from `kill` or `timeout`, SIGHUP from a
closed terminal): while a run goes on each one raises `Interrupted`, so the run stops where it is
and its turns are saved; while a save goes on they are only noted, so the save always finishes.
A process that ends on a signal exits with 128 + the signal's number, as shells report it
(130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP)."""

from __future__ import annotations

import signal
from contextlib import contextmanager

SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


class Interrupted(BaseException):
    """A signal asked the process to stop. BaseException, like KeyboardInterrupt, so that no
    `except Exception` on the way swallows it."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum

    @property
    def name(self) -> str:
        return signal.Signals(self.signum).name

    @property
    def exit_code(self) -> int:
        return 128 + self.signum


def _raise(signum, _frame):
    raise Interrupted(signum)


@contextmanager
def _handled_by(handler):
    old = {s: signal.signal(s, handler) for s in SIGNALS}
    try:
        yield
    finally:
        for s, h in old.items():
            signal.signal(s, h)


@contextmanager
def interruptible():
    """Inside: SIGINT, SIGTERM and SIGHUP raise Interrupted (main thread only)."""
    with _handled_by(_raise):
        yield


@contextmanager
def deferred():
    """Inside: SIGINT, SIGTERM and SIGHUP are noted, not acted on; yields the list of the
    signals that came, for the caller to act on once the work is done."""
    caught: list[int] = []
    with _handled_by(lambda signum, _frame: caught.append(signum)):
        yield caught
