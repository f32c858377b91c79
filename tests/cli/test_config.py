"""The config file: where it is looked for, what it sets (command-line flags still win), and
one line naming the file, the key and what is allowed for anything it cannot hold."""

import argparse
import os
import subprocess
import sys

import pytest

from ptc_tui.config import Config, apply_defaults, config_path, load_config
from tests.cli.conftest import PRODUCT_AGENT, PRODUCT_TRACE


@pytest.fixture
def config_file(tmp_path, monkeypatch):
    """Write `text` as the config file $PTC_TUI_CONFIG names; its path."""
    path = tmp_path / "config.toml"
    monkeypatch.setenv("PTC_TUI_CONFIG", str(path))

    def write(text: str):
        path.write_text(text)
        return path
    return write


def test_the_file_is_looked_for_in_xdg_config_home_then_home(tmp_path, monkeypatch):
    monkeypatch.delenv("PTC_TUI_CONFIG")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    assert config_path() == tmp_path / "home" / ".config" / "ptc-tui" / "config.toml"
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    assert config_path() == tmp_path / "xdg" / "ptc-tui" / "config.toml"
    monkeypatch.setenv("PTC_TUI_CONFIG", str(tmp_path / "mine.toml"))
    assert config_path() == tmp_path / "mine.toml"


def test_a_file_in_xdg_config_home_is_read(tmp_path, monkeypatch, cli):
    monkeypatch.delenv("PTC_TUI_CONFIG")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    (tmp_path / "ptc-tui").mkdir()
    (tmp_path / "ptc-tui" / "config.toml").write_text('[prices]\nmodel = "gpt-4o-mini"\n')
    assert "model: gpt-4o-mini;" in cli("stats", PRODUCT_TRACE).out


def test_a_missing_file_is_no_error(cli, tmp_path):
    r = cli("config")
    assert r.status == 0 and r.err == ""
    assert "(not found: every setting is its default)" in r.out.splitlines()[0]
    assert " file\n" not in r.out


def test_the_llm_spec_is_run_s_default_and_the_flag_wins(config_file, cli):
    config_file(f'[llm]\nspec = "replay:{PRODUCT_TRACE}"\n')
    assert f"LLM replay:{PRODUCT_TRACE}\n" in cli("run", PRODUCT_AGENT).out
    r = cli("run", PRODUCT_AGENT, "--llm", "scripted:none.json")
    assert r.status == 2 and "none.json" in r.err          # the flag's LLM, not the file's


def test_a_fork_keeps_its_parent_s_llm_whatever_the_file_says(config_file, cli, tmp_path):
    config_file('[llm]\nspec = "openai:gpt-4o-mini"\n')
    r = cli("fork", PRODUCT_TRACE, "--at", "2", "--no-tui")
    assert r.status == 0 and "LLM replay:product_search.json" in r.out


def test_the_pricing_model_is_the_default_of_model_and_the_flag_wins(config_file, cli):
    config_file('[prices]\nmodel = "gpt-4o-mini"\n')
    assert "model: gpt-4o-mini;" in cli("stats", PRODUCT_TRACE).out
    assert "model: claude-haiku-4-5;" in cli("stats", PRODUCT_TRACE, "--model",
                                            "claude-haiku-4-5").out


def test_caching_off_in_the_file_is_the_default_of_stats(config_file, cli):
    assert "costs without prompt caching" not in cli("stats", PRODUCT_TRACE).out
    config_file('[prices]\ncaching = false\n')
    assert "costs without prompt caching (--no-cache)" in cli("stats", PRODUCT_TRACE).out


def test_llm_options_default_every_llm_command_s_flags_and_flags_win(tmp_path):
    """The file meets the command line in one place: the LLM options' flags (as `run`, `fork`
    and `experiment` take them) get the file's values as defaults."""
    path = tmp_path / "c.toml"
    path.write_text('[llm]\ntemperature = 0.5\nprompt_cache = false\ntimeout = 30\n')
    config = load_config(path)
    commands = {}
    for name in ("run", "stats"):
        p = commands[name] = argparse.ArgumentParser()
        p.add_argument("--temperature", type=float)
        p.add_argument("--no-prompt-cache", action="store_true")
    apply_defaults(commands, config)
    args = commands["run"].parse_args([])
    assert (args.temperature, args.no_prompt_cache) == (0.5, True)
    assert commands["run"].parse_args(["--temperature", "0"]).temperature == 0
    assert commands["stats"].parse_args([]).temperature is None     # not an LLM command


def test_config_prints_the_path_and_marks_what_comes_from_the_file(config_file, cli):
    path = config_file('[app]\nstrategy = "namespaced"\ncompaction_tokens = "off"\n'
                       '[keys]\nturns.next = "n"\n')
    r = cli("config")
    assert r.status == 0
    lines = [line.split() for line in r.out.splitlines()]
    assert r.out.splitlines()[0] == f"config file: {path} (read)"
    assert ["app.strategy", "namespaced", "file"] in lines
    assert ["app.compaction_tokens", "off", "file"] in lines
    assert ["app.println_limit", "the", "trace's", "default"] in lines
    assert ["keys.turns.next", "n", "file"] in lines
    assert ["keys.view.options", "o", "default"] in lines


BAD = {
    "unknown key": ('[llm]\nmodle = "x"\n', "llm.modle: unknown setting ([llm] takes spec, "
                    "base_url, temperature, max_output_tokens, reasoning_effort, timeout, "
                    "prompt_cache, api_key_env)"),
    "unknown table": ('[colours]\nx = 1\n', "colours: unknown setting (the file has the tables "
                      "[llm], [app], [prices], [keys])"),
    "a setting outside its table": ('theme = "nord"\n', "theme: unknown setting (it goes in a "
                                    "table: app.theme)"),
    "bad strategy": ('[app]\nstrategy = "smart"\n', 'app.strategy: "smart" is not allowed: one '
                     'of coalesced, full, compaction, namespaced'),
    "negative limit": ("[app]\nprintln_limit = -1\n", "app.println_limit: -1 is not allowed: "
                       "a whole number ≥ 0"),
    "limit as a bool": ("[app]\nprintln_limit = true\n", "app.println_limit: true is not "
                        "allowed: a whole number ≥ 0"),
    "bad theme": ('[app]\ntheme = "neon"\n', 'app.theme: "neon" is not allowed: a Textual theme'),
    "temperature too high": ("[llm]\ntemperature = 3\n", "llm.temperature: 3 is not allowed: "
                             "a number from 0 to 2"),
    "zero timeout": ("[llm]\ntimeout = 0\n", "llm.timeout: 0 is not allowed: a number of "
                     "seconds > 0"),
    "spec without a model": ('[llm]\nspec = "openai"\n', 'llm.spec: "openai" is not allowed: '
                             'an LLM spec, one of openai:MODEL, anthropic:MODEL'),
    "unknown provider": ('[llm]\nspec = "foo:bar"\n', 'llm.spec: "foo:bar" is not allowed: '
                         'an LLM spec, one of openai:MODEL, '),
    "bad reasoning effort": ('[llm]\nreasoning_effort = "max"\n', 'llm.reasoning_effort: "max" '
                             'is not allowed: one of none, minimal, low, medium, high, xhigh'),
    "unpriced model": ('[prices]\nmodel = "my-model"\n', 'prices.model: "my-model" is not '
                       'allowed: a model of the price table'),
    "prompt_cache as text": ('[llm]\nprompt_cache = "no"\n', 'llm.prompt_cache: "no" is not '
                             'allowed: true or false'),
    "keys not text": ("[keys]\nturns.next = 3\n", "keys.turns.next: 3 is not allowed: keys as "
                      "Textual names them, comma-separated"),
    "not TOML": ("[app\n", "not valid TOML"),
}


@pytest.mark.parametrize("text, problem", BAD.values(), ids=BAD.keys())
@pytest.mark.parametrize("command", [["config"], ["stats", PRODUCT_TRACE], ["--help"],
                                     ["run", PRODUCT_AGENT]])
def test_a_bad_file_is_one_line_naming_the_file_and_the_key_exit_2(config_file, cli, text,
                                                                   problem, command):
    path = config_file(text)
    r = cli(*command)
    assert r.status == 2 and r.out == ""
    assert r.err.startswith(f"ptc-tui: {path}: {problem}") and r.err.count("\n") == 1


def test_an_unknown_binding_id_is_one_line_when_the_app_starts(config_file, cli, monkeypatch):
    path = config_file('[keys]\n"turns.nxt" = "n"\n')
    line = (f"ptc-tui: {path}: keys.turns.nxt: no binding has this id (did you mean turns.next? "
            "`ptc-tui config` lists them)\n")
    assert (cli("config").status, cli("config").err) == (2, line)
    import ptc_tui.app
    monkeypatch.setattr(ptc_tui.app.PtcApp, "run", lambda self: pytest.fail("the app started"))
    r = cli(PRODUCT_TRACE)
    assert (r.status, r.err) == (2, line)


def test_a_folder_as_the_config_file_is_one_line(tmp_path, monkeypatch, cli):
    monkeypatch.setenv("PTC_TUI_CONFIG", str(tmp_path))
    r = cli("config")
    assert (r.status, r.err) == (2, f"ptc-tui: {tmp_path}: cannot read the file: it is a "
                                    "folder, not a regular file\n")


@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_a_fifo_or_a_device_as_the_config_file_is_one_line_never_a_hang(tmp_path, kind):
    path = tmp_path / "config.toml"
    if kind == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to("/dev/zero")
    r = subprocess.run([sys.executable, "-m", "ptc_tui.cli", "config"], capture_output=True,
                       text=True, timeout=120, stdin=subprocess.DEVNULL,
                       env={**os.environ, "PTC_TUI_CONFIG": str(path)})
    assert (r.returncode, r.stdout) == (2, "")
    what = "a FIFO (named pipe)" if kind == "fifo" else "a device"
    assert r.stderr == f"ptc-tui: {path}: cannot read the file: it is {what}, not a regular file\n"


def test_dev_null_as_the_config_file_gives_the_defaults(monkeypatch, cli):
    monkeypatch.setenv("PTC_TUI_CONFIG", os.devnull)
    r = cli("config")
    assert (r.status, r.err) == (0, "")
    assert " file\n" not in r.out


def test_the_timeout_shown_is_the_one_run_help_gives(cli):
    lines = [line.split() for line in cli("config").out.splitlines()]
    assert ["llm.timeout", "60", "default"] in lines
    assert "(default 60)" in " ".join(cli("run", "--help").out.split())


def test_the_apps_settings_are_read_as_the_app_uses_them(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text('[app]\ntheme = "nord"\nstrategy = "compaction"\nkeep_recent_turns = 1\n'
                    'compaction_tokens = 4000\n[prices]\nmodel = "gpt-4o-mini"\n'
                    '[keys]\n"view.options" = "O, ctrl+p"\n')
    config = load_config(path)
    assert config == Config(path, True, {
        "app.theme": "nord", "app.strategy": "compaction", "app.keep_recent_turns": 1,
        "app.compaction_tokens": 4000, "prices.model": "gpt-4o-mini"},
        {"view.options": "O,ctrl+p"})
    assert config.history == {"strategy": "compaction", "keep_recent_turns": 1,
                              "compaction_tokens": 4000}
    assert (config.theme, config.price_model) == ("nord", "gpt-4o-mini")
