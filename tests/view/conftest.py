import pytest

from engine.trace import load_trace
from ptc_tui.view import TraceView
from sample_traces import HERE


@pytest.fixture(scope="session")
def traces():
    cache = {}

    def get(name):
        if name not in cache:
            cache[name] = load_trace(HERE / f"{name}.json")
        return cache[name]
    return get


@pytest.fixture
def view(traces):
    """A fresh view (own render cache) of a sample trace under its recorded options."""
    return lambda name: TraceView.of(traces(name))
