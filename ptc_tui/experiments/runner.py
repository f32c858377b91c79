"""Run an experiment's runs, at most `jobs` at once, in threads (the work is mostly waiting for
the LLM). Each finished run's trace is saved by its thread; its row goes to experiment.json at
once, in the calling thread. Anything that stops the experiment (Ctrl-C, a failed save) stops
the runs in progress between two turns, keeps every finished one, and writes experiment.json
before it propagates."""

from __future__ import annotations

import contextlib
import threading
import time
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path

from ptc_tui.agent_files import AgentFile
from ptc_tui.experiments.plan import Run
from ptc_tui.experiments.record import experiment_doc, save_experiment
from ptc_tui.experiments.runs import make_run
from ptc_tui.signals import deferred


@dataclass(frozen=True)
class Progress:
    done: int                  # runs finished, kept ones included
    total: int
    failures: int              # runs that did not succeed
    elapsed: float             # seconds since this call started
    made: int                  # runs finished by this call (the ones timed by `elapsed`)

    @property
    def remaining(self) -> float | None:
        """Estimated seconds left, None until a run has finished."""
        if not self.made:
            return None
        return self.elapsed / self.made * (self.total - self.done)


@dataclass
class Experiment:
    agent_file: AgentFile
    make_llm: object            # () -> a fresh LLM for one run
    out_dir: Path
    header: dict                # experiment.json's fields before the rows
    model: str | None = None    # tokens counted and priced for this model


def run_all(experiment: Experiment, runs: list[Run], kept: list[dict], jobs: int,
            on_progress=None) -> list[dict]:
    """Make every run of `runs` not already in `kept` (rows of an earlier, resumed call);
    return all rows, in plan order."""
    done_keys = {(r["set"], r["repeat"]) for r in kept}
    todo = [r for r in runs if (r.index, r.repeat) not in done_keys]
    rows = list(kept)
    started, stop = time.perf_counter(), threading.Event()

    def save() -> None:
        save_experiment(experiment.out_dir, experiment_doc(
            experiment.header, rows, finished=len(rows) == len(runs)))

    def progress() -> None:
        if on_progress is not None:
            on_progress(Progress(len(rows), len(runs), sum(not r["success"] for r in rows),
                                 time.perf_counter() - started, len(rows) - len(kept)))

    save()
    progress()
    pool = ThreadPoolExecutor(max_workers=max(1, jobs), thread_name_prefix="experiment")
    futures = [pool.submit(make_run, run, experiment.agent_file, experiment.make_llm,
                           experiment.out_dir, experiment.model, stop) for run in todo]
    pending, taken = set(futures), set()
    try:
        while pending:
            finished, pending = wait(pending, timeout=0.5, return_when=FIRST_COMPLETED)
            for future in finished:
                rows.append(future.result())
                taken.add(future)
                save()
            progress()                      # twice a second at least: the elapsed time moves on
    except BaseException:
        stop.set()
        with _signals_deferred():       # a second Ctrl-C does not cut the rows short
            for future in futures:
                future.cancel()
            pool.shutdown(wait=True)
            rows.extend(f.result() for f in futures if f not in taken and not f.cancelled()
                        and f.exception() is None)
            save()
        raise
    pool.shutdown(wait=True)
    return sorted(rows, key=lambda r: (r["set"], r["repeat"]))



def _signals_deferred():
    """Signals noted, not acted on, while the finished rows are written (main thread only:
    elsewhere there are no signal handlers to set)."""
    if threading.current_thread() is threading.main_thread():
        return deferred()
    return contextlib.nullcontext()
