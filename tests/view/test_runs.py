"""Finding the runs under a folder (`ptc-tui DIR`, `ptc-tui stats DIR`): every trace file the
other commands read (gzip-compressed whatever its name, compact JSON, keys sorted), and no other
JSON; a trace of an unsupported version listed, and read as unreadable saying why; the text
filter matching what the columns show."""

import gzip
import json

import pytest

from ptc_tui.view.runs import RunRow, find_runs, listed, matches, read_run
from sample_traces import HERE


@pytest.fixture
def doc():
    return json.loads((HERE / "single_shot.json").read_text())


def found(folder) -> list[str]:
    return [str(p.relative_to(folder)) for p in find_runs(folder)]


def test_every_trace_is_found_however_it_was_written(tmp_path, doc):
    text = json.dumps(doc, indent=2)
    (tmp_path / "plain.json").write_text(text)
    (tmp_path / "compact.json").write_text(json.dumps(doc, separators=(",", ":")))
    (tmp_path / "sorted.json").write_text(json.dumps(doc, indent=2, sort_keys=True))
    (tmp_path / "tabs.json").write_text(text.replace('"format": ', '"format"\t:\n\t'))
    (tmp_path / "run.json.gz").write_bytes(gzip.compress(text.encode()))
    (tmp_path / "gzip_named.json").write_bytes(gzip.compress(text.encode()))
    assert found(tmp_path) == ["compact.json", "gzip_named.json", "plain.json", "run.json.gz",
                               "sorted.json", "tabs.json"]
    sorted_text = (tmp_path / "sorted.json").read_text()
    assert sorted_text.index('"format"') > 256          # after the agent: a deeper look
    for path in find_runs(tmp_path):
        row = read_run(listed(tmp_path, [path])[0])
        assert row.error is None and row.turns == len(doc["turns"]), path.name


def test_other_json_is_not_a_run(tmp_path):
    (tmp_path / "experiment.json").write_text('{"format": "ptc-experiment", "runs": []}')
    (tmp_path / "report.json").write_text('{"status": "ok"}')
    (tmp_path / "package.json").write_text('{"name": "ptc-trace"}')
    (tmp_path / "notes.json.gz").write_bytes(gzip.compress(b'{"format": "other"}'))
    (tmp_path / "trace.txt").write_text('{"format": "ptc-trace"}')
    (tmp_path / "broken.json.gz").write_bytes(b"\x1f\x8b not gzip")
    assert found(tmp_path) == []


def test_a_trace_of_another_version_is_listed_and_says_why_it_cannot_be_read(tmp_path, doc):
    doc["version"] = 99
    (tmp_path / "newer.json").write_text(json.dumps(doc, separators=(",", ":")))
    assert found(tmp_path) == ["newer.json"]
    row = read_run(listed(tmp_path, find_runs(tmp_path))[0])
    assert row.outcome_kind == "unreadable" and "version 99 is newer" in row.error


def test_a_runs_cost_is_the_one_stats_and_the_header_give(tmp_path):
    """Priced one way everywhere: the recorded calls with the provider's prompt caching
    modelled where it reported none (the browser priced them without it)."""
    from dataclasses import replace

    from engine.trace import load_trace, save_trace
    from ptc_tui.subcommands.stats import recorded_calls
    from ptc_tui.view.token_stats import token_stats
    trace = load_trace(HERE / "product_search.json")
    trace = replace(trace, agent=replace(trace.agent, llm="openai:gpt-4o"))   # a priced LLM
    save_trace(trace, tmp_path / "priced.json")
    row = read_run(listed(tmp_path, find_runs(tmp_path))[0])
    stats_cost = recorded_calls(trace, token_stats(trace)).usd
    uncached = recorded_calls(trace, token_stats(trace, caching=False), caching=False).usd
    assert row.cost == pytest.approx(stats_cost) and stats_cost != pytest.approx(uncached)


def test_the_filter_matches_the_columns_as_shown(tmp_path):
    """A control character is shown escaped (`\\x1b`): that is what the filter finds, in any
    case; an unreadable file by its outcome and its reason, not by the path its error holds."""
    esc = RunRow(tmp_path / "run\x1bname.json", "run\x1bname.json")
    assert all(matches(esc, typed) for typed in ("x1b", "\\x1b", "\\X1B", "run\\x1bname"))
    assert not matches(esc, "\x1b")                      # the raw character is not shown
    (tmp_path / "broken.json").write_text('{"format": "ptc-trace", "version": 1')
    broken = read_run(listed(tmp_path, [tmp_path / "broken.json"])[0])
    assert matches(broken, "Unreadable") and matches(broken, "truncated")
    assert str(tmp_path) in broken.error and not matches(broken, tmp_path.name)
