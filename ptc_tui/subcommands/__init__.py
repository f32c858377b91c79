"""The command line's subcommands, one module each: `add_parser(sub)` registers its commands,
each with `func(args, out) -> exit status`."""

from ptc_tui.subcommands import (compare, experiment, export, fork, render, run, show_config, stats,
                                 validate)

COMMANDS = (stats, render, run, fork, compare, experiment, validate, export, show_config)
