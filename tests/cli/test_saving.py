"""Saving as a user relies on it: `run --save` writes the run after every turn; every writer is
atomic; a target that cannot be written is one line and exit 2 before any work; a file that is
not ours is only replaced with --force."""

import json
import os
import shutil
import subprocess
import sys

import pytest

from engine.trace import load_trace
from tests.cli.conftest import PRODUCT_AGENT, PRODUCT_TRACE

PEEKING_AGENT = '''
from engine.agent import SubAgent
from engine.trace import load_trace

def saved_turns(path):
    return len(load_trace(path).turns)

agent = SubAgent(mission="Peek.", tools={"saved-turns": saved_turns}, max_turns=3, name="peek")
replies = ['```clojure\\n(def a 1)\\n```',
           '```clojure\\n(def seen (tool/saved-turns "SAVE"))\\n```',
           '```clojure\\n(return seen)\\n```']
'''


def test_run_save_writes_the_run_after_every_turn(cli, tmp_path):
    saved = tmp_path / "run.json"
    agent = tmp_path / "peek.py"
    agent.write_text(PEEKING_AGENT.replace("SAVE", str(saved)))
    r = cli("run", agent, "--save", saved)
    assert r.status == 0 and r.out.splitlines()[-2:] == ["returned: 1", f"saved {saved}"]
    # during turn 2 the file already held turn 1; at the end it holds all three
    assert len(load_trace(saved).turns) == 3


@pytest.mark.parametrize("target, problem", [
    ("{tmp}/nope/run.json", "{tmp}/nope/run.json: no such folder: {tmp}/nope"),
    ("{tmp}", "{tmp}: is a folder, not a file"),
    ("{agent}", "{agent}: is the agent file itself; save the trace somewhere else"),
    ("{notes}", "{notes}: exists and is not a trace or export written by ptc-tui; "
                "--force overwrites it"),
], ids=["missing folder", "a folder", "the agent file", "not a trace"])
def test_run_checks_its_target_before_the_first_turn(cli, tmp_path, target, problem):
    agent = tmp_path / "agent.py"
    agent.write_text(PRODUCT_AGENT.read_text())
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes")
    fill = {"tmp": tmp_path, "agent": agent, "notes": notes}
    r = cli("run", agent, "--save", target.format(**fill), "--no-tui")
    assert (r.status, r.out) == (2, "")                 # nothing ran: no turn, no LLM call
    assert r.err == f"ptc-tui: {problem.format(**fill)}\n"
    assert agent.read_text() == PRODUCT_AGENT.read_text() and notes.read_text() == "my notes"


def test_force_overwrites_a_file_that_is_not_a_trace(cli, tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes")
    assert cli("run", PRODUCT_AGENT, "--save", notes, "--force").status == 0
    assert len(load_trace(notes).turns) == 3
    assert cli("run", PRODUCT_AGENT, "--save", notes).status == 0   # now a trace of ours


@pytest.mark.parametrize("argv", [
    ["export", PRODUCT_TRACE, "--format", "otel", "-o"],
    ["import", "{otlp}", "-o"],
], ids=["export", "import"])
def test_export_and_import_refuse_a_file_that_is_not_ours(cli, tmp_path, argv):
    otlp = tmp_path / "run.otlp.json"
    assert cli("export", PRODUCT_TRACE, "--format", "otel", "-o", otlp).status == 0
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes")
    argv = [str(a).format(otlp=otlp) for a in argv]
    r = cli(*argv, notes)
    assert r.status == 2 and "exists and is not a trace or export written by ptc-tui" in r.err
    assert notes.read_text() == "my notes"
    assert cli(*argv, notes, "--force").status == 0 and notes.read_text() != "my notes"
    assert cli(*argv, notes).status == 0                  # ours now: replaced without --force


FULL_DISK = """
import resource, signal, sys
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
resource.setrlimit(resource.RLIMIT_FSIZE, (2000, 2000))
from ptc_tui.cli import main
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.parametrize("argv", [
    ["export", PRODUCT_TRACE, "--format", "otel", "-o"],
    ["run", str(PRODUCT_AGENT), "--save"],
    ["import", "{otlp}", "-o"],
], ids=["export", "run", "import"])
def test_a_full_disk_keeps_the_previous_file(cli, tmp_path, argv):
    otlp = tmp_path / "run.otlp.json"
    cli("export", PRODUCT_TRACE, "--format", "otel", "-o", otlp)
    target = tmp_path / "previous.json"
    target.write_text('{"format": "ptc-trace", "previous": true}')
    argv = [str(a).format(otlp=otlp) for a in argv] + [str(target)]
    r = subprocess.run([sys.executable, "-c", FULL_DISK, *argv], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 2 and r.stderr == f"ptc-tui: {target}: File too large\n"
    assert r.stderr.count("\n") == 1, r.stderr
    assert target.read_text() == '{"format": "ptc-trace", "previous": true}'
    assert sorted(p.name for p in tmp_path.iterdir()) == ["previous.json", "run.otlp.json"]


@pytest.fixture
def read_only_folder(tmp_path):
    """A folder nobody may write in: immutable (chattr +i, which binds root too) when that is
    available, else without write permission."""
    folder = tmp_path / "ro"
    folder.mkdir()
    immutable = shutil.which("chattr") is not None and subprocess.run(
        ["chattr", "+i", str(folder)], capture_output=True).returncode == 0
    if not immutable:
        os.chmod(folder, 0o555)
    yield folder
    if immutable:
        subprocess.run(["chattr", "-i", str(folder)], check=True)
    os.chmod(folder, 0o755)


def test_a_read_only_folder_is_refused_before_the_run(cli, read_only_folder):
    if os.access(read_only_folder, os.W_OK) and not shutil.which("chattr"):
        pytest.skip("root without chattr: every folder is writable")
    target = read_only_folder / "run.json"
    r = cli("run", PRODUCT_AGENT, "--save", target)
    assert (r.status, r.out) == (2, "")
    assert r.err.startswith(f"ptc-tui: {target}: cannot write in the folder {read_only_folder} (")
