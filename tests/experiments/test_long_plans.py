"""--repeat is at most MAX_REPEAT, and a long plan is handed to the runs `--jobs` at a time:
nothing waits queued (memory, and a Ctrl-C that would leave the queue to run on), and every
row is still made, in plan order."""

import json
import threading
from concurrent.futures import ThreadPoolExecutor

from engine.history import HistoryOpts
from ptc_tui.experiments import runner
from ptc_tui.experiments.plan import MAX_JOBS, MAX_REPEAT, MAX_RUNS, OptionSet, plan_runs
from ptc_tui.subcommands.experiment import jobs_count, repeat_count


def test_the_largest_jobs_is_accepted():
    assert jobs_count(str(MAX_JOBS)) == MAX_JOBS


def test_the_largest_plan_is_accepted():
    sets = [OptionSet(f"coalesced println_limit={i}", HistoryOpts(strategy="coalesced"), ())
            for i in range(MAX_RUNS // MAX_REPEAT)]
    assert len(plan_runs(sets, MAX_REPEAT, 0)) == MAX_RUNS == 100_000


def test_the_largest_repeat_is_accepted_and_planned():
    assert repeat_count(str(MAX_REPEAT)) == MAX_REPEAT == 10_000
    sets = [OptionSet("full", HistoryOpts(), ()), OptionSet("coalesced",
                                                            HistoryOpts(strategy="coalesced"), ())]
    assert len(plan_runs(sets, MAX_REPEAT, 0)) == 2 * MAX_REPEAT


def test_a_long_plan_is_submitted_jobs_at_a_time(tmp_path, monkeypatch):
    live, most, go, calls = set(), [0], threading.Event(), [0]

    class Spy(ThreadPoolExecutor):
        def submit(self, *args, **kwargs):
            future = super().submit(*args, **kwargs)
            live.add(future)
            future.add_done_callback(live.discard)
            most[0] = max(most[0], len(live))
            return future

    def make_run(run, *_):
        go.wait(60)                     # none ends before the runner has waited once
        return {"set": run.index, "option_set": "full", "repeat": run.repeat, "success": True}

    def on_progress(_):
        calls[0] += 1
        if calls[0] == 2:               # the first comes before anything is submitted
            go.set()

    monkeypatch.setattr(runner, "ThreadPoolExecutor", Spy)
    monkeypatch.setattr(runner, "make_run", make_run)
    runs = plan_runs([OptionSet("full", HistoryOpts(), ())], 300, 0)
    experiment = runner.Experiment(None, None, tmp_path, {"format": "x"})
    rows = runner.run_all(experiment, runs, [], 3, on_progress)
    assert most[0] == 3
    assert [r["repeat"] for r in rows] == list(range(300))
    saved = json.loads((tmp_path / "experiment.json").read_text())
    assert saved["finished"] and len(saved["runs"]) == 300
