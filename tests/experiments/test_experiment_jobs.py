"""`--jobs`: runs overlap up to J at once and never more; Ctrl-C keeps every finished run."""

import signal
import subprocess
import sys
import time

from ptc_tui.experiments.record import load_experiment
from tests.cli.conftest import cli  # noqa: F401  (the fixture)

OVERLAP_AGENT = '''
import threading, time
from engine.agent import SubAgent

agent = SubAgent(mission="Wait for the others.", max_turns=2, name="overlap")
together = threading.Barrier(PARTIES, timeout=60)
lock, busy, most = threading.Lock(), [0], [0]

def policy(request, rng):
    with lock:
        busy[0] += 1
        most[0] = max(most[0], busy[0])
    try:
        together.wait()               # passes only when PARTIES runs call at once
    except threading.BrokenBarrierError:
        pass                          # the last runs of the experiment have no partners
    time.sleep(0.01)
    with lock:
        busy[0] -= 1
    return f"```clojure\\n(return {most[0]})\\n```"
'''


def test_jobs_runs_that_many_at_once_and_no_more(cli, tmp_path):
    path = tmp_path / "overlap.py"
    path.write_text(OVERLAP_AGENT.replace("PARTIES", "3"))
    result = cli("experiment", path, "--jobs", 3, "--repeat", 6, "--out", tmp_path / "runs")
    assert result.status == 0, result.err
    answers = {int(r["answer"]) for r in load_experiment(tmp_path / "runs")["runs"]}
    assert max(answers) == 3                             # three were waiting together


SLOW_AGENT = '''
import time
from engine.agent import SubAgent

agent = SubAgent(mission="Take your time.", max_turns=2, name="slow")
expected = 1

def policy(request, rng):
    time.sleep(0.2)
    return "```clojure\\n(return 1)\\n```"
'''


def test_ctrl_c_keeps_the_finished_runs_and_resume_finishes(cli, tmp_path):
    path, out = tmp_path / "slow.py", tmp_path / "runs"
    path.write_text(SLOW_AGENT)
    proc = subprocess.Popen([sys.executable, "-m", "ptc_tui.cli", "experiment", str(path),
                             "--repeat", "60", "--jobs", "2", "--out", str(out)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while not (out / "experiment.json").exists() or len(load_experiment(out)["runs"]) < 2:
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 130, stderr
    doc = load_experiment(out)
    done = len(doc["runs"])
    assert 2 <= done < 60 and doc["finished"] is False
    assert f"interrupted (SIGINT) after {done} of 60 runs" in stdout and stderr == ""
    assert all((out / r["trace"]).is_file() for r in doc["runs"])
    assert not [p for p in out.iterdir() if p.suffix == ".tmp"]
    assert cli("experiment", path, "--repeat", 60, "--out", out, "--resume").status == 0
    after = load_experiment(out)
    assert after["finished"] and len(after["runs"]) == 60
    assert [r for r in after["runs"] if (r["set"], r["repeat"]) in
            {(d["set"], d["repeat"]) for d in doc["runs"]}] == doc["runs"]


def test_the_progress_line_counts_and_estimates(capsys):
    from ptc_tui.subcommands.experiment import ProgressLine
    from ptc_tui.experiments.runner import Progress
    line = ProgressLine()
    line(Progress(done=0, total=10, failures=0, elapsed=0.4, made=0))
    line(Progress(done=5, total=10, failures=2, elapsed=30, made=3))   # 2 kept from before
    line.clear()
    assert capsys.readouterr().err == (
        "\r\x1b[K0/10 runs · 0 not successful · 0:00 elapsed"
        "\r\x1b[K5/10 runs · 2 not successful · 0:30 elapsed · ~0:50 left\r\x1b[K")
