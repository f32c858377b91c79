"""Every test runs without the user's config file: $PTC_TUI_CONFIG names one that does not
exist (a missing file is no error), so only a test that writes its own config has one."""

import pytest


@pytest.fixture(autouse=True)
def no_user_config(monkeypatch, tmp_path_factory):
    monkeypatch.setenv("PTC_TUI_CONFIG", str(tmp_path_factory.getbasetemp() / "no-config.toml"))
