"""The command line says what it is: `ptc-tui --help` lists how to open a trace or a folder and
the common invocations, `--version` works, and every command's --help ends with examples that
really run (each one here, offline, in a copy of the project's folder)."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ptc_tui.cli import build_parser
from ptc_tui.subcommands.examples import EXAMPLES

ROOT = Path(__file__).parents[2]


def test_the_main_help_is_current(cli):
    r = cli("--help")
    assert r.status == 0
    assert "Until the Textual app lands" not in r.out
    for line in ("ptc-tui TRACE", "ptc-tui DIR", "ptc-tui COMMAND", "--version",
                 "common invocations:", "ptc-tui compare run.json fork.json"):
        assert line in r.out
    assert "headless" not in r.out.split("run ", 1)[1].split("\n")[0]


def test_version(cli):
    r = cli("--version")
    assert (r.status, r.out) == (0, "ptc-tui 0.1.0\n")


def test_every_command_has_examples_at_the_end_of_its_help(cli):
    commands = build_parser()._subparsers._group_actions[0].choices
    assert set(commands) == set(EXAMPLES)
    for name, examples in EXAMPLES.items():
        assert 2 <= len(examples) <= 3
        out = cli(name, "--help").out
        tail = out[out.index("examples:"):]
        assert [line.strip() for line in tail.splitlines()[1::2]] == [c for c, _ in examples]


def test_every_example_runs(tmp_path):
    """In order, as a user would type them, from a copy of the project's sample folder."""
    shutil.copytree(ROOT / "sample_traces", tmp_path / "sample_traces",
                    ignore=shutil.ignore_patterns("__pycache__"))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    shell = f'ptc-tui() {{ "{sys.executable}" -m ptc_tui "$@"; }}\n'
    for name, examples in EXAMPLES.items():
        for command, _ in examples:
            r = subprocess.run(["bash", "-c", shell + command], cwd=tmp_path, env=env,
                               capture_output=True, text=True, timeout=600)
            assert (r.returncode, r.stderr) == (0, ""), command
    written = {"run.json", "run.json.gz", "fork.json", "runs", "runs2", "product.otlp.json",
               "product.json", "product.json.gz"}
    assert written <= {p.name for p in tmp_path.iterdir()}
