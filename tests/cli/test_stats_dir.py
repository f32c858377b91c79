"""`ptc-tui stats DIR`: every trace under a folder aggregated; the numbers are the single-trace
command's, summed; a broken file is one line and skipped; --jobs reads in processes and gives
the same report; the progress bar is drawn only on a terminal."""

import io
import json
import shutil
import statistics

import pytest

from engine.history import render_turns
from engine.trace import load_trace
from ptc_tui.subcommands import stats_dir
from sample_traces import HERE
from tests.trace.upstream_fixture import loop_run

SAMPLES = ("product_search", "fail_not_found", "out_of_turns", "error_recovery", "tool_heavy")
STRATEGIES = ("full", "coalesced", "compaction", "namespaced")


@pytest.fixture
def folder(tmp_path):
    runs = tmp_path / "runs"
    (runs / "deeper").mkdir(parents=True)
    for i, name in enumerate(SAMPLES):
        shutil.copy(HERE / f"{name}.json", (runs / "deeper" if i % 2 else runs) / f"{name}.json")
    (runs / "broken.json").write_text('{"format": "ptc-trace", "version": 1, "agent": ')
    (runs / "notes.json").write_text('{"not": "a trace"}')
    artifact, canonical = loop_run()
    (runs / "deeper" / "run.inspection.jsonl").write_text(artifact)
    (runs / "deeper" / "run.jsonl").write_text(canonical)
    return runs


def report(cli, *argv) -> dict:
    result = cli("stats", *argv, "--json")
    assert result.status == 0 and result.err == ""
    return json.loads(result.out)


def single(cli, path) -> dict:
    result = cli("stats", path, "--json")
    assert result.status == 0
    return json.loads(result.out)


def test_totals_are_the_single_trace_numbers_summed(cli, folder):
    doc = report(cli, folder, "--jobs", "1")
    traces = sorted(folder.rglob("*.json")) + [folder / "deeper" / "run.inspection.jsonl"]
    singles = [single(cli, p) for p in traces if p.name not in ("broken.json", "notes.json")]
    assert doc["runs"] == 6 == len(singles)
    assert doc["turns"] == sum(s["turns_count"] for s in singles)
    for s in STRATEGIES:
        per_run = [one["totals"][s]["input_tokens"] for one in singles]
        got = doc["strategies"][s]
        assert got["input_tokens"] == sum(per_run)
        assert got["median"] == statistics.median(per_run)
        assert min(per_run) <= got["p90"] <= max(per_run)
        full = sum(one["full_input_tokens"] for one in singles)
        assert got["saved_tokens"] == full - sum(per_run)
        assert got["saved_percent"] == round(100 * (full - sum(per_run)) / full, 2)
    assert doc["outcomes"] == {"failed": 1, "out of turns": 1, "returned": 4}
    assert doc["llms"]["openrouter:test/model"] == 1 and sum(doc["llms"].values()) == 6


def test_runs_hiding_something_are_counted_from_the_engine_renders(cli, tmp_path):
    """One run, so each count is 0 or 1: whether any request under the strategy left that out."""
    shutil.copy(HERE / "error_recovery.json", tmp_path / "one.json")
    trace = load_trace(tmp_path / "one.json")
    doc = report(cli, tmp_path)
    for s in STRATEGIES:
        stats = [st for _, st in render_turns(s, trace.turns, trace.context(),
                                              trace.agent.history.with_changes(strategy=s))]
        hiding = doc["strategies"][s]["runs_hiding"]
        for kind in stats_dir.HIDDEN:
            assert hiding[kind] == int(any(getattr(st, kind) for st in stats)), (s, kind)
    assert doc["strategies"]["namespaced"]["runs_hiding"]["failed_turns_collapsed"] == 1


def test_a_broken_file_is_one_line_and_skipped(cli, folder):
    result = cli("stats", folder, "--jobs", "1")
    assert result.status == 0 and result.err == ""
    lines = result.out.splitlines()
    assert lines[0] == f"{folder}: 6 runs, {report(cli, folder)['turns']:,} turns, 1 unreadable"
    [broken] = [line for line in lines if line.startswith("unreadable:")]
    assert broken == "unreadable: broken.json: the file ends in the middle of the JSON (truncated?)"
    assert "notes.json" not in result.out                 # not a trace: not a run at all
    doc = report(cli, folder)
    assert [u["file"] for u in doc["unreadable"]] == ["broken.json"]


def test_plain_report_has_every_strategy_outcome_and_llm(cli, folder):
    out = cli("stats", folder, "--strategy", "coalesced", "--jobs", "1").out
    table = out.split("\n\n")[1].splitlines()
    assert table[0].split()[:4] == ["strategy", "input", "tokens", "median"]
    assert [row.split()[0] for row in table[1:3]] == ["coalesced", "median"]
    assert "out of turns" in out and "openrouter:test/model" in out


@pytest.fixture
def pools(monkeypatch):
    """The size of each process pool `stats DIR` starts (none: read in this process)."""
    sizes, real = [], stats_dir.ProcessPoolExecutor

    def spy(max_workers):
        sizes.append(max_workers)
        return real(max_workers=max_workers)
    monkeypatch.setattr(stats_dir, "ProcessPoolExecutor", spy)
    return sizes


def test_jobs_reads_in_processes_and_gives_the_same_report(cli, folder, pools, monkeypatch):
    monkeypatch.setattr(stats_dir.os, "cpu_count", lambda: 8)
    one = report(cli, folder, "--jobs", "1")
    assert pools == []
    three = report(cli, folder, "--jobs", "3")
    assert pools == [3]
    assert three == one


def test_jobs_is_lowered_to_the_cpus(cli, folder, pools, monkeypatch):
    monkeypatch.setattr(stats_dir.os, "cpu_count", lambda: 2)
    assert report(cli, folder, "--jobs", "100000") == report(cli, folder, "--jobs", "1")
    assert pools == [2]


@pytest.mark.parametrize("cpus, jobs, files, size", [
    (2, 100000, 50, 2), (8, 3, 50, 3), (8, 8, 5, 5), (None, 4, 50, 1), (4, 1, 50, 1)])
def test_the_pool_is_never_larger_than_the_cpus_or_the_files(monkeypatch, cpus, jobs, files,
                                                              size):
    monkeypatch.setattr(stats_dir.os, "cpu_count", lambda: cpus)
    assert stats_dir.pool_size(jobs, files) == size


@pytest.mark.parametrize("jobs", ["0", "-1"])
def test_jobs_below_one_is_a_usage_error(cli, folder, jobs):
    result = cli("stats", folder, "--jobs", jobs)
    assert result.status == 2 and result.out == ""
    assert f"argument --jobs: expected a whole number ≥ 1, got {jobs}" in result.err


def test_history_options_apply_to_every_run(cli, folder):
    recorded = report(cli, folder, "--jobs", "1")
    fewer = report(cli, folder, "--jobs", "1", "--println-limit", "0")
    assert fewer["strategies"]["coalesced"]["input_tokens"] < \
        recorded["strategies"]["coalesced"]["input_tokens"]
    assert fewer["strategies"]["coalesced"]["runs_hiding"]["prints_dropped"] > \
        recorded["strategies"]["coalesced"]["runs_hiding"]["prints_dropped"]


def test_progress_bar_only_on_a_terminal(cli, folder, monkeypatch):
    assert cli("stats", folder, "--jobs", "1").err == ""     # stderr is not a terminal here
    stream = io.StringIO()
    monkeypatch.setattr("sys.stderr", stream)
    draw = stats_dir.progress_bar(width=10)
    draw(1, 4)
    draw(4, 4)
    # erased once done: the report starts under the command line
    assert stream.getvalue() == "\r[##        ] 1/4 files\r\x1b[K"


def test_a_folder_of_one_run_says_run(cli, tmp_path):
    shutil.copy(HERE / "single_shot.json", tmp_path)
    assert cli("stats", tmp_path).out.startswith(f"{tmp_path}: 1 run, 1 turn\n")


def test_a_folder_without_traces_is_one_line(cli, tmp_path):
    (tmp_path / "notes.json").write_text("{}")
    result = cli("stats", tmp_path)
    assert result.status == 2 and result.out == ""
    assert result.err == f"ptc-tui: {tmp_path}: no trace files under this folder\n"
