"""Run an experiment's runs, at most `jobs` at once, in threads (the work is mostly waiting for
the LLM). Each finished run's trace is saved by its thread; its row goes to experiment.json at
once, in the calling thread. Anything that stops the experiment (Ctrl-C, a failed save) stops
the runs in progress between two turns, keeps every finished one, and writes experiment.json
before it propagates."""

from __future__ import annotations

import contextlib
import itertools
import threading
import time
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path

from engine.agent.files import AgentFile
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

    def line(self) -> str:
        """`12/40 runs · 3 not successful · 0:14 elapsed · ~0:33 left`"""
        left = "" if self.remaining is None else f" · ~{clock(self.remaining)} left"
        return (f"{self.done}/{self.total} runs · {self.failures} not successful · "
                f"{clock(self.elapsed)} elapsed{left}")


def clock(seconds: float) -> str:
    minutes, secs = divmod(int(seconds), 60)
    return f"{minutes}:{secs:02d}"


@dataclass
class Experiment:
    agent_file: AgentFile
    make_llm: object            # () -> a fresh LLM for one run
    out_dir: Path
    header: dict                # experiment.json's fields before the rows
    model: str | None = None    # tokens counted and priced for this model
    spans: object = None        # a SpanStream each run's spans go to (ptc_tui.otlp_stream)


def run_all(experiment: Experiment, runs: list[Run], kept: list[dict], jobs: int,
            on_progress=None, stop: threading.Event | None = None) -> list[dict]:
    """Make every run of `runs` not already in `kept` (rows of an earlier, resumed call);
    return all rows, in plan order. Setting `stop` (from another thread) stops the runs in
    progress and returns the finished ones, as Ctrl-C does."""
    done_keys = {(r["set"], r["repeat"]) for r in kept}
    todo = [r for r in runs if (r.index, r.repeat) not in done_keys]
    rows = list(kept)
    started, stop = time.perf_counter(), stop or threading.Event()

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
    waiting, going = iter(todo), set()      # submitted `jobs` at a time: a long plan costs
                                            # no memory and a Ctrl-C stops it at once

    def start_next() -> None:
        for run in itertools.islice(waiting, max(1, jobs) - len(going)):
            going.add(pool.submit(make_run, run, experiment.agent_file, experiment.make_llm,
                                  experiment.out_dir, experiment.model, stop, experiment.spans))

    def keep_the_finished() -> None:
        """Stop the runs in progress (between two turns); save the rows of the finished."""
        stop.set()
        with _signals_deferred():       # a second Ctrl-C does not cut the rows short
            pool.shutdown(wait=True, cancel_futures=True)
            rows.extend(f.result() for f in going if not f.cancelled() and f.exception() is None)
            save()

    try:
        start_next()
        while going:
            finished, _ = wait(going, timeout=0.5, return_when=FIRST_COMPLETED)
            if stop.is_set():               # a run may have ended Stopped: keep_the_finished
                break
            for future in finished:
                rows.append(future.result())
                going.discard(future)
                save()
            start_next()
            progress()                      # twice a second at least: the elapsed time moves on
    except BaseException:
        keep_the_finished()
        raise
    if stop.is_set():
        keep_the_finished()
        progress()
    pool.shutdown(wait=True)
    return sorted(rows, key=lambda r: (r["set"], r["repeat"]))



def _signals_deferred():
    """Signals noted, not acted on, while the finished rows are written (main thread only:
    elsewhere there are no signal handlers to set)."""
    if threading.current_thread() is threading.main_thread():
        return deferred()
    return contextlib.nullcontext()


class InBackground:
    """`run_all` in a thread, for the app's live experiment screen: `start` it with callbacks
    (called in that thread: `on_progress(Progress)` as runs finish, `on_end()` once it is
    over); `stop` stops the runs in progress between two turns and keeps the finished ones;
    `wait` waits for the end. `finished` says whether every planned run is in; `error` holds
    what stopped it otherwise (a trace or experiment.json that could not be written)."""

    def __init__(self, experiment: Experiment, runs: list[Run], kept: list[dict], jobs: int):
        self.experiment, self.runs, self.kept, self.jobs = experiment, runs, kept, jobs
        self.rows: list[dict] = list(kept)
        self.error: Exception | None = None
        self._stop = threading.Event()
        self._over = threading.Event()      # set before on_end: it is told the runs are over
        self._thread: threading.Thread | None = None

    @property
    def finished(self) -> bool:
        return len(self.rows) == len(self.runs)

    @property
    def running(self) -> bool:
        """Started and not over. Not "the thread is alive": on_end runs in the thread, and the
        screen it tells must already see the experiment over (else it says "running" for
        good)."""
        return self._thread is not None and not self._over.is_set()

    def start(self, on_progress, on_end) -> None:
        def work() -> None:
            try:
                self.rows = run_all(self.experiment, self.runs, self.kept, self.jobs,
                                    on_progress, self._stop)
            except Exception as e:          # reported by the screen and the command
                self.error = e
            finally:
                self._over.set()
                on_end()
        self._thread = threading.Thread(target=work, daemon=True, name="experiment")
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()

    def wait(self) -> None:
        if self._thread is not None:
            self._thread.join()
