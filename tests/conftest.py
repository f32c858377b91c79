"""Every test runs without the user's config file: $PTC_TUI_CONFIG names one that does not
exist (a missing file is no error), so only a test that writes its own config has one."""

import pytest

from engine.lisp import limits as limits_module
from engine.lisp.limits import Limits


@pytest.fixture(autouse=True)
def no_user_config(monkeypatch, tmp_path_factory):
    monkeypatch.setenv("PTC_TUI_CONFIG", str(tmp_path_factory.getbasetemp() / "no-config.toml"))


# The time limit a run gets when none is given, in every test that is not about time: a
# program that stops in 5 ms alone may take a second on a machine whose cores are all busy,
# and a test of anything else must not fail then. Tests of the time limits themselves give
# their limits, or are marked `shipped_time_limits` to run under the shipped defaults.
OUT_OF_REACH = Limits(time_ms=60_000, run_wall_ms=120_000)


def pytest_configure(config):
    config.addinivalue_line("markers", "shipped_time_limits: runs with no limit given get the "
                                       "shipped time limits, not ones out of reach")


@pytest.fixture(autouse=True)
def time_limits_out_of_reach(request, monkeypatch):
    if request.node.get_closest_marker("shipped_time_limits") is None:
        monkeypatch.setattr(limits_module, "_DEFAULT", OUT_OF_REACH)
