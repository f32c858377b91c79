"""The config file (`~/.config/ptc-tui/config.toml`, `$XDG_CONFIG_HOME`, or `$PTC_TUI_CONFIG`):
what a user would otherwise type every time. Each setting is checked when the file is read; one
that is unknown or has a bad value is a ConfigError naming the file, the key and what is allowed.
A missing file is no error: every setting keeps its built-in default."""

from __future__ import annotations

import argparse
import difflib
import os
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from engine.agent import SPEC_FORMS
from engine.llm.transport import HttpLLM
from engine.trace.disk import read_text
from ptc_tui.view.options import FIELDS

ENV_VAR = "PTC_TUI_CONFIG"
MAX_CONFIG_BYTES = 1024 * 1024
SPEC_PREFIXES = {form.partition(":")[0] for form in SPEC_FORMS}
REASONING_EFFORTS = ("none", "minimal", "low", "medium", "high", "xhigh")


class ConfigError(Exception):
    """A config file that cannot be used: one line naming the file, the key and the problem."""


@dataclass(frozen=True)
class Setting:
    """One key of the file: `section.name`, what it allows, its check (the value as used, or
    ValueError), and the command-line option (argparse dest) it is the default of."""
    section: str
    name: str
    allowed: str
    check: Callable[[object], object]
    dest: str | None = None
    commands: tuple[str, ...] = ()      # only these commands take it (default: every one)
    default: str = "-"                  # the built-in default, as `ptc-tui config` shows it

    @property
    def key(self) -> str:
        return f"{self.section}.{self.name}"


def _text(value):
    if type(value) is not str or not value.strip():
        raise ValueError
    return value


def _url(value):
    if type(value) is not str or not value.startswith(("http://", "https://")):
        raise ValueError
    return value


def _spec(value):
    """A spec whose provider is known and that names its model or file; checked without
    building the client (which may want a key, a file or the network)."""
    prefix, _, rest = value.partition(":") if type(value) is str else ("", "", "")
    if prefix not in SPEC_PREFIXES or not rest.strip():
        raise ValueError
    return value


def _number(low: float, high: float | None = None, above: bool = False):
    def check(value):
        if type(value) not in (int, float) or value < low or (above and value == low) \
                or (high is not None and value > high):
            raise ValueError
        return value
    return check


def _count_from_1(value):
    if type(value) is not int or value < 1:
        raise ValueError
    return value


def _one_of(choices):
    def check(value):
        if value not in choices:
            raise ValueError
        return value
    return check


def _bool(value):
    if type(value) is not bool:
        raise ValueError
    return value


def _env_name(value):
    if type(value) is not str or not value.replace("_", "a").isalnum() or value[0].isdigit():
        raise ValueError
    return value


def _history(option):
    def check(value):
        if type(value) is bool or type(value) not in (int, str):
            raise ValueError
        text = "" if option.kind == "optional" and value == "off" else str(value)
        return option.parse(text)
    return check


def _allowed(option) -> str:
    if option.kind == "choice":
        return f"one of {', '.join(option.choices)}"
    return "a whole number ≥ 0" + (' or "off"' if option.kind == "optional" else "")


def _theme(value):
    from textual.theme import BUILTIN_THEMES          # Textual loads only when a theme is set
    if value not in BUILTIN_THEMES:
        raise ValueError
    return value


def _price_model(value):
    from engine.tokens import price_for
    if type(value) is not str or price_for(value) is None:
        raise ValueError
    return value


LLM = ("run", "fork", "experiment")
SETTINGS: tuple[Setting, ...] = (
    Setting("llm", "spec", f"an LLM spec, one of {', '.join(SPEC_FORMS)}", _spec,
            "llm", ("run", "experiment"), "the agent file's replies"),
    Setting("llm", "base_url", "an http:// or https:// URL", _url, "base_url", LLM,
            "the provider's"),
    Setting("llm", "temperature", "a number from 0 to 2", _number(0, 2), "temperature", LLM,
            "the provider's"),
    Setting("llm", "max_output_tokens", "a whole number ≥ 1", _count_from_1,
            "max_output_tokens", LLM, "the provider's"),
    Setting("llm", "reasoning_effort", f"one of {', '.join(REASONING_EFFORTS)}",
            _one_of(REASONING_EFFORTS), "reasoning_effort", LLM, "the model's"),
    Setting("llm", "timeout", "a number of seconds > 0", _number(0, above=True), "timeout", LLM,
            f"{HttpLLM.default_timeout_s:g}"),
    Setting("llm", "prompt_cache", "true or false", _bool, "no_prompt_cache", LLM, "true"),
    Setting("llm", "api_key_env", "an environment variable's name (e.g. MY_OPENAI_KEY)",
            _env_name, "api_key_env", LLM, "the provider's usual variable"),
    Setting("app", "theme", "a Textual theme (e.g. textual-dark, nord, gruvbox, dracula, "
            "solarized-light)", _theme, default="textual-dark"),
    *(Setting("app", f.name, _allowed(f), _history(f), default="the trace's") for f in FIELDS),
    Setting("prices", "model", "a model of the price table (e.g. gpt-4o-mini, claude-sonnet-4-5)",
            _price_model, "model", ("stats", "render", "experiment"), "the trace's LLM"),
    Setting("prices", "caching", "true or false", _bool, "no_cache", ("stats",), "true"),
)
BY_KEY = {s.key: s for s in SETTINGS}
SECTIONS = ("llm", "app", "prices", "keys")


def config_path() -> Path:
    """`$PTC_TUI_CONFIG`, else `$XDG_CONFIG_HOME/ptc-tui/config.toml` (~/.config by default)."""
    chosen = os.environ.get(ENV_VAR)
    if chosen:
        return Path(chosen).expanduser()
    base = os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config"
    return Path(base) / "ptc-tui" / "config.toml"


@dataclass(frozen=True)
class Config:
    """The settings the file gives (key -> value as used) and its `[keys]` table (binding id
    -> keys); every other setting keeps its default."""
    path: Path
    found: bool = False
    values: dict = field(default_factory=dict)
    keys: dict = field(default_factory=dict)

    @property
    def history(self) -> dict:
        """The history options the app opens a trace with (name -> value)."""
        return {s.name: self.values[s.key] for s in SETTINGS
                if s.section == "app" and s.key in self.values and s.name != "theme"}

    @property
    def theme(self) -> str | None:
        return self.values.get("app.theme")

    @property
    def price_model(self) -> str | None:
        return self.values.get("prices.model")

    @property
    def caching(self) -> bool:
        """Costs with the provider's prompt caching (the app's `c` starts so, and `stats`)."""
        return self.values.get("prices.caching", True)

    def defaults_for(self, command: str, dests: set[str]) -> dict:
        """The argparse defaults the file gives `command`, whose options are `dests`."""
        given = {}
        for s in SETTINGS:
            if s.key in self.values and s.dest in dests and (not s.commands
                                                             or command in s.commands):
                value = self.values[s.key]
                given[s.dest] = (not value) if s.dest in ("no_prompt_cache", "no_cache") \
                    else value
        return given

    def check_keys(self, binding_ids) -> None:
        """ConfigError when `[keys]` names a binding id that is not one of `binding_ids`."""
        known = set(binding_ids)
        for name in self.keys:
            if name not in known:
                near = difflib.get_close_matches(name, known, 1)
                hint = f"did you mean {near[0]}? " if near else ""
                raise ConfigError(f"{self.path}: keys.{name}: no binding has this id "
                                  f"({hint}`ptc-tui config` lists them)")


def load_config(path: Path | None = None) -> Config:
    """The config file at `path` (default: config_path()), checked; a missing file, or
    /dev/null, gives the defaults. Any other FIFO or device is a ConfigError (it is never
    read: /dev/zero would never end)."""
    path = path if path is not None else config_path()
    if os.path.realpath(path) == os.devnull:     # the one device read: the usual "no file"
        return Config(path, True)
    try:
        os.stat(path)
    except FileNotFoundError:
        return Config(path)
    except OSError:
        pass                                 # read_text says why
    try:                                     # a FIFO or a device is refused, never read
        doc = tomllib.loads(read_text(path, MAX_CONFIG_BYTES))
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{path}: not valid TOML: {e}") from None
    except (OSError, ValueError) as e:       # the message names the file
        raise ConfigError(str(e)) from None
    values, keys = {}, {}
    for section, table in doc.items():
        if section not in SECTIONS or type(table) is not dict:
            raise ConfigError(f"{path}: {section}: unknown setting ({_where(section)})")
        if section == "keys":
            keys.update((name, _keys(path, name, value)) for name, value in _flat(table))
            continue
        for name, value in table.items():
            values[f"{section}.{name}"] = _checked(path, section, name, value)
    return Config(path, True, values, keys)


def _checked(path: Path, section: str, name: str, value):
    setting = BY_KEY.get(f"{section}.{name}")
    if setting is None:
        names = ", ".join(s.name for s in SETTINGS if s.section == section)
        raise ConfigError(f"{path}: {section}.{name}: unknown setting ([{section}] takes "
                          f"{names})")
    try:
        return setting.check(value)
    except ValueError:
        raise ConfigError(f"{path}: {setting.key}: {_shown(value)} is not allowed: "
                          f"{setting.allowed}") from None


def _where(name: str) -> str:
    """Where a setting given outside its table goes, or which tables there are."""
    home = [s.key for s in SETTINGS if s.name == name]
    if home:
        return f"it goes in a table: {home[0]}"
    return f"the file has the tables {', '.join(f'[{s}]' for s in SECTIONS)}"


def _flat(table: dict, prefix: str = ""):
    """(binding id, value) of `[keys]`, whose unquoted dotted ids (turns.next = "n") TOML reads
    as nested tables."""
    for name, value in table.items():
        if type(value) is dict:
            yield from _flat(value, f"{prefix}{name}.")
        else:
            yield f"{prefix}{name}", value


def _keys(path: Path, name: str, value) -> str:
    keys = [k.strip() for k in value.split(",")] if type(value) is str else []
    if not keys or not all(keys):
        raise ConfigError(f"{path}: keys.{name}: {_shown(value)} is not allowed: keys "
                          f"as Textual names them, comma-separated (e.g. \"n,ctrl+n\")")
    return ",".join(keys)


def _shown(value) -> str:
    if type(value) is bool:
        return str(value).lower()
    if type(value) is str:
        return '"' + value.replace('"', '\\"') + '"'
    return str(value) if type(value) in (int, float) else f"a {type(value).__name__}"


def apply_defaults(commands: dict[str, argparse.ArgumentParser], config: Config) -> None:
    """Every command's options (`commands`: name -> its parser) take their defaults from the
    file, so a flag given still wins: the one place the file meets the command line."""
    for command, parser in commands.items():
        given = config.defaults_for(command, {a.dest for a in parser._actions})
        if given:
            parser.set_defaults(**given)
