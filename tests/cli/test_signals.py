"""Interruptions of a headless run: Ctrl-C, SIGTERM (`kill`, `timeout`) and SIGHUP (a closed
terminal) save the turns so far, keep a reply whose program was cut short, and exit with 128 +
the signal's number; a second Ctrl-C while saving does not lose the save."""

import os
import signal
import subprocess
import sys
import time

import pytest

from engine.trace import load_trace
from ptc_tui.signals import Interrupted, deferred, interruptible

WAITING_AGENT = '''
import time
from engine.agent import SubAgent

def wait(marker):
    open(marker, "w").close()
    time.sleep(120)
    return "too late"

agent = SubAgent(mission="Wait.", tools={"wait": wait}, max_turns=3, name="waiting")
replies = ['```clojure\\n(def a 1)\\n```',
           '```clojure\\n(tool/wait "MARKER")\\n```',
           '```clojure\\n(return a)\\n```']
'''


@pytest.fixture
def waiting_run(tmp_path):
    """Start `ptc-tui run` on an agent whose second turn waits; return (process, trace path)
    once the second program is running."""
    marker, saved = tmp_path / "marker", tmp_path / "run.json"
    agent = tmp_path / "waiting.py"
    agent.write_text(WAITING_AGENT.replace("MARKER", str(marker)))
    proc = subprocess.Popen([sys.executable, "-m", "ptc_tui.cli", "run", str(agent), "--save",
                             str(saved), "--no-tui"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while not marker.exists():
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.05)
    yield proc, saved
    if proc.poll() is None:
        proc.kill()
        proc.communicate()


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP],
                         ids=["SIGINT", "SIGTERM", "SIGHUP"])
def test_a_signal_saves_the_turns_so_far_and_keeps_the_reply(waiting_run, signum):
    proc, saved = waiting_run
    proc.send_signal(signum)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 128 + signum, err
    name = signal.Signals(signum).name
    assert f"interrupted ({name}) after 2 turns" in out and f"saved {saved}" in out
    assert err == ""
    trace = load_trace(saved)
    assert trace.outcome.status == "running" and len(trace.turns) == 2
    kept = trace.turns[1]                                  # the reply that arrived is kept
    assert '(tool/wait "' in kept.raw_response and kept.error.reason == "interrupted"


def test_a_second_ctrl_c_does_not_lose_the_save(waiting_run):
    proc, saved = waiting_run
    proc.send_signal(signal.SIGINT)
    proc.send_signal(signal.SIGINT)
    proc.communicate(timeout=120)
    assert proc.returncode == 130
    assert len(load_trace(saved).turns) == 2


def test_timeout_saves_like_ctrl_c(tmp_path):
    """`timeout` ends its command with SIGTERM, when its time is up or when it is told to stop
    itself: the turns run by then are saved. The test tells it to stop once the second program
    runs, so a slow start on a busy machine cannot bring the signal before the run began."""
    if not os.path.exists("/usr/bin/timeout"):
        pytest.skip("no timeout command")
    marker, saved = tmp_path / "marker", tmp_path / "run.json"
    agent = tmp_path / "waiting.py"
    agent.write_text(WAITING_AGENT.replace("MARKER", str(marker)))
    proc = subprocess.Popen(["/usr/bin/timeout", "600", sys.executable, "-m", "ptc_tui.cli", "run",
                             str(agent), "--save", str(saved), "--no-tui"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while not marker.exists():
            assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
            time.sleep(0.05)
        proc.send_signal(signal.SIGTERM)                    # timeout passes it on
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 128 + signal.SIGTERM, err    # the run's own status, passed back
    assert "interrupted (SIGTERM) after 2 turns" in out and f"saved {saved}" in out
    assert len(load_trace(saved).turns) == 2


def test_signals_are_noted_not_acted_on_while_saving():
    with interruptible():
        with deferred() as caught:
            os.kill(os.getpid(), signal.SIGTERM)
            os.kill(os.getpid(), signal.SIGINT)
        assert caught == [signal.SIGTERM, signal.SIGINT]
        with pytest.raises(Interrupted) as stop:
            os.kill(os.getpid(), signal.SIGHUP)
    assert stop.value.exit_code == 129


SECOND_SIGNAL_SCRIPT = '''
import os, signal, sys, time
from engine.agent import SubAgent
from engine.llm import ScriptedLLM
from ptc_tui.subcommands.run import drive

def wait():
    os.kill(os.getpid(), signal.SIGTERM)         # the first signal, while the program runs
    time.sleep(60)

class Out:
    def line(self, text):
        print(text, flush=True)
        if text.startswith("interrupted"):       # the second, before the save has begun
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(0.5)

agent = SubAgent(mission="Wait.", tools={"wait": wait}, max_turns=3)
session = agent.start(ScriptedLLM(["```clojure\\n(def a 1)\\n```",
                                   "```clojure\\n(tool/wait)\\n```"]))
sys.exit(drive(session, sys.argv[1], Out()))
'''


def test_a_second_signal_before_the_save_is_noted_not_fatal(tmp_path):
    saved = tmp_path / "run.json"
    r = subprocess.run([sys.executable, "-c", SECOND_SIGNAL_SCRIPT, str(saved)],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 128 + signal.SIGTERM, r.stderr
    assert "interrupted (SIGTERM) after 2 turns" in r.stdout and f"saved {saved}" in r.stdout
    assert len(load_trace(saved).turns) == 2
