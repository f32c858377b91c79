"""Gzip-compressed traces: written so when the file's name ends in .gz, read by content
whatever the name, with the decompressed size capped and a broken file one clear error."""

import gzip

import pytest

from engine.agent.open_trace import open_trace
from engine.trace import TraceError, dumps_trace, load_trace, save_trace
from engine.trace.disk import read_text, starts_with, write_atomically
from sample_traces import HERE

SAMPLE = HERE / "error_recovery.json"


def test_a_trace_saved_as_json_gz_is_gzip_and_loads_back_equal(tmp_path):
    trace = load_trace(SAMPLE)
    path = tmp_path / "run.json.gz"
    save_trace(trace, path)
    raw = path.read_bytes()
    assert raw[:2] == b"\x1f\x8b"
    assert gzip.decompress(raw).decode() == dumps_trace(trace)
    assert len(raw) < len(dumps_trace(trace).encode()) / 3
    assert load_trace(path) == trace
    assert open_trace(path) == trace


def test_the_same_trace_gives_the_same_bytes(tmp_path):
    trace = load_trace(SAMPLE)
    save_trace(trace, tmp_path / "a.json.gz")
    save_trace(trace, tmp_path / "b.json.gz")
    assert (tmp_path / "a.json.gz").read_bytes() == (tmp_path / "b.json.gz").read_bytes()


def test_a_gzip_trace_is_recognised_by_content_whatever_its_name(tmp_path):
    path = tmp_path / "trace.backup"
    path.write_bytes(gzip.compress(SAMPLE.read_bytes()))
    assert open_trace(path) == load_trace(SAMPLE)


def test_a_name_without_gz_is_written_plain(tmp_path):
    write_atomically(tmp_path / "t.json", "{}")
    assert (tmp_path / "t.json").read_bytes() == b"{}"


def test_the_decompressed_size_is_capped(tmp_path):
    path = tmp_path / "bomb.json.gz"
    path.write_bytes(gzip.compress(b" " * 100_000))
    with pytest.raises(ValueError, match="bomb.json.gz: larger than the 1,000-byte limit "
                                         "once decompressed"):
        read_text(path, 1000)
    path.write_bytes(gzip.compress(b" " * 1000))           # exactly at the limit: read whole
    assert read_text(path, 1000) == " " * 1000


@pytest.mark.parametrize("cut, problem", [(30, "ends early"), (None, "not valid gzip")])
def test_a_broken_gzip_trace_is_one_line_naming_the_file(tmp_path, cut, problem):
    data = gzip.compress(SAMPLE.read_bytes())
    path = tmp_path / "broken.json.gz"
    path.write_bytes(data[:cut] if cut else data[:10] + b"garbage" * 10)
    with pytest.raises(TraceError, match=f"broken.json.gz: .*{problem}"):
        open_trace(path)


def test_a_gzip_trace_is_recognised_as_ours_before_it_is_replaced(tmp_path):
    ours = tmp_path / "run.json.gz"
    save_trace(load_trace(SAMPLE), ours)
    other = tmp_path / "notes.gz"
    other.write_bytes(gzip.compress(b"my notes, not a trace"))
    assert starts_with(ours, (b'"ptc-trace"',))
    assert not starts_with(other, (b'"ptc-trace"',))


def test_a_file_is_ours_by_a_marker_in_its_first_4096_bytes(tmp_path):
    path = tmp_path / "notes.txt"
    marker = b'"ptc-trace"'
    path.write_bytes(b" " * (4096 - len(marker)) + marker + b"...")   # ends at byte 4096
    assert starts_with(path, (marker,))
    path.write_bytes(b" " * (4097 - len(marker)) + marker + b"...")   # one byte further
    assert not starts_with(path, (marker,))
