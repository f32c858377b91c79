"""`ptc-tui config`: where the config file is, and every setting in force: the file's (marked
`file`) and the built-in defaults, then every key binding by id (rebind one in `[keys]`)."""

from __future__ import annotations

import argparse

from ptc_tui.subcommands.output import Column, Output
from ptc_tui.config import SETTINGS, load_config


def add_parser(sub) -> None:
    p = sub.add_parser("config", help="where the config file is and the settings in force",
                       description=__doc__)
    p.set_defaults(func=show)


def show(args: argparse.Namespace, out: Output) -> int:
    from ptc_tui.keymap import app_bindings          # Textual loads only here
    config = load_config()
    bindings = app_bindings()
    config.check_keys(bindings)
    found = "read" if config.found else "not found: every setting is its default"
    out.line(f"config file: {config.path} ({found})")
    rows = [[s.key, _shown(config.values[s.key]) if s.key in config.values else s.default,
             "file" if s.key in config.values else "default"] for s in SETTINGS]
    for name, binding in bindings.items():
        given = config.keys.get(name)
        rows.append([f"keys.{name}", given or binding.key, "file" if given else "default"])
    out.table([Column("setting"), Column("value"), Column("from")], rows)
    return 0


def _shown(value) -> str:
    if value is None:
        return "off"
    return str(value).lower() if type(value) is bool else str(value)
