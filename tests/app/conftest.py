import time
from contextlib import asynccontextmanager

import pytest
from textual.worker import WorkerCancelled

from engine.trace import load_trace
from ptc_tui.view import TraceView
from sample_traces import HERE

WIDE = (160, 50)


def sample(name: str):
    return HERE / f"{name}.json"


async def until_loaded(app, pilot, timeout_s: float = 60.0):
    """Let the app's loader thread finish loading a trace and the app show it."""
    deadline = time.monotonic() + timeout_s
    while getattr(app, "loading", False) and time.monotonic() < deadline:
        await pilot.pause(0.01)
    await pilot.pause()


async def settle(app, pilot, timeout_s: float = 30.0):
    """Let the loader and live run's threads and the workers finish (a finished turn starts the
    count of every turn) and the screen take in their messages."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if getattr(app.screen, "running", False) or getattr(app, "loading", False):
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


@pytest.fixture(autouse=True)
def loaded_before_the_first_key(request, monkeypatch):
    """A pilot test of a trace starts once the app shows it (it is loaded in a thread behind a
    "loading" screen), unless it is marked `while_loading`."""
    if request.node.get_closest_marker("while_loading"):
        return
    from ptc_tui.app import PtcApp
    run_test = PtcApp.run_test

    @asynccontextmanager
    async def run_test_once_loaded(app, *args, **kwargs):
        async with run_test(app, *args, **kwargs) as pilot:
            await until_loaded(app, pilot)
            yield pilot
    monkeypatch.setattr(PtcApp, "run_test", run_test_once_loaded)


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
