import time

import pytest
from textual.worker import WorkerCancelled

from engine.trace import load_trace
from ptc_tui.view import TraceView
from sample_traces import HERE

WIDE = (160, 50)


def sample(name: str):
    return HERE / f"{name}.json"


async def settle(app, pilot, timeout_s: float = 30.0):
    """Let the live run's thread and the workers finish (a finished turn starts the count of
    every turn) and the screen take in their messages."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if getattr(app.screen, "running", False):
            await pilot.pause(0.01)
            continue
        running = [w for w in app.workers if not w.is_finished]
        if not running:
            break
        for worker in running:
            try:
                await worker.wait()
            except WorkerCancelled:    # a closed dialog's (the open dialog's directory tree)
                pass
        await pilot.pause()
    await pilot.pause()
    await pilot.pause()


@pytest.fixture
def view_of():
    """A fresh TraceView of a sample trace, to compare the screen's numbers with."""
    return lambda name: TraceView.of(load_trace(sample(name)))


@pytest.fixture
def anyio_backend():
    """Pilot tests run on asyncio (anyio's pytest plugin, `pytestmark = pytest.mark.anyio`)."""
    return "asyncio"


@pytest.fixture
def notified(monkeypatch):
    """Every notification's message, in order (the app's own list drops expired ones, and a
    loaded machine can take longer than a notification lives)."""
    from ptc_tui.app import PtcApp
    messages: list[str] = []
    original = PtcApp.notify

    def notify(self, message, *args, **kwargs):
        messages.append(str(message))
        return original(self, message, *args, **kwargs)
    monkeypatch.setattr(PtcApp, "notify", notify)
    return messages
