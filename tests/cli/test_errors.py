"""Usage and input errors: one line on stderr naming the file and the problem, exit 2."""

import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli.conftest import PRODUCT_AGENT, PRODUCT_TRACE


@pytest.fixture
def broken(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text('{"format": "ptc-trace", "version": 99}')
    return path


@pytest.fixture
def bad_agent(tmp_path):
    path = tmp_path / "bad_agent.py"
    path.write_text("raise RuntimeError('boom')\n")
    return path


CASES = {
    "stats missing file": (["stats", "missing.json"], "missing.json: cannot read the file"),
    "render missing file": (["render", "missing.json", "--turn", "1"], "missing.json"),
    "stats broken trace": (["stats", "{broken}"], "{broken}: trace format version 99"),
    "render broken trace": (["render", "{broken}", "--turn", "1"], "{broken}: trace format"),
    "export broken trace": (["export", "{broken}", "--format", "otel"], "{broken}: trace format"),
    "turn out of range": (["render", PRODUCT_TRACE, "--turn", "4"],
                          f"{PRODUCT_TRACE}: no turn 4 (turns: 1 to 3)"),
    "turn zero": (["render", PRODUCT_TRACE, "--turn", "0"], "no turn 0"),
    "negative limit": (["stats", PRODUCT_TRACE, "--println-limit", "-1"], "whole number ≥ 0"),
    "unknown strategy (stats)": (["stats", PRODUCT_TRACE, "--strategy", "bogus"],
                                 "unknown strategy 'bogus'"),
    "unknown strategy (render)": (["render", PRODUCT_TRACE, "--turn", "1", "--strategy", "x"],
                                  "unknown strategy 'x'"),
    "unknown compress": (["run", str(PRODUCT_AGENT), "--compress", "maybe"],
                         "expected true, false or a strategy"),
    "missing turn": (["render", PRODUCT_TRACE], "--turn"),
    "unknown command": (["frobnicate"], "frobnicate"),
    "missing agent file": (["run", "missing_agent.py"], "missing_agent.py: no such file"),
    "agent file raises": (["run", "{bad_agent}"], "{bad_agent}: RuntimeError: boom"),
    "unknown llm": (["run", str(PRODUCT_AGENT), "--llm", "bogus:model"], "unknown LLM spec"),
    "missing replay trace": (["run", str(PRODUCT_AGENT), "--llm", "replay:nope.json"],
                             "nope.json: cannot read the file"),
    "import missing file": (["import", "missing.otlp.json"],
                            "missing.otlp.json: cannot read the file: No such file"),
    "lisp missing file": (["lisp", "missing.clj"], "missing.clj: cannot read the file: No such file"),
}


@pytest.mark.parametrize("argv, problem", CASES.values(), ids=CASES.keys())
def test_one_line_on_stderr_and_status_2(cli, broken, bad_agent, argv, problem):
    fill = {"broken": str(broken), "bad_agent": str(bad_agent)}
    r = cli(*(a.format(**fill) if a.startswith("{") else a for a in argv))
    assert r.status == 2, r
    assert r.err.startswith("ptc-tui: ") and r.err.count("\n") == 1, r.err
    assert problem.format(**fill) in r.err
    assert "Traceback" not in r.err + r.out


def test_help_exits_0(cli):
    r = cli("stats", "--help")
    assert r.status == 0 and "--println-limit" in r.out


def test_installed_entry_point_runs_and_reports_errors():
    exe = Path(sys.executable).with_name("ptc-tui")
    ok = subprocess.run([exe, "stats", PRODUCT_TRACE, "--strategy", "coalesced"],
                        capture_output=True, text=True)
    assert ok.returncode == 0 and ok.stderr == ""
    assert ok.stdout.startswith(f"{PRODUCT_TRACE}: product-search, 3 turns, returned\n")
    assert "\x1b" not in ok.stdout                       # a pipe: plain text
    bad = subprocess.run([exe, "render", PRODUCT_TRACE, "--turn", "9"],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr == f"ptc-tui: {PRODUCT_TRACE}: no turn 9 (turns: 1 to 3)\n"
