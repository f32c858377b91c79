"""Opening things from the command line: `ptc-tui PATH` (a trace of any name, gzip or not, or a
folder), a missing path as one line and exit 2, `python -m ptc_tui`, --version, and traces
written gzip-compressed wherever a command saves one whose name ends in .gz."""

import gzip
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import ptc_tui.launch
from engine.agent.open_trace import open_trace
from engine.trace import dumps_trace, load_trace
from tests.cli.conftest import PRODUCT_AGENT, PRODUCT_TRACE


@pytest.fixture
def opened(monkeypatch):
    """What `ptc-tui PATH` would open in the app (positional and keyword arguments)."""
    calls = []
    monkeypatch.setattr(ptc_tui.launch, "run_app",
                        lambda *a, **kw: calls.append((a, kw)) or 0)
    return calls


@pytest.mark.parametrize("name", ["run.json", "run.trace", "run", "run.json.gz", "run.gz.bak"])
def test_a_trace_of_any_name_opens_in_the_app(tmp_path, cli, opened, name):
    path = tmp_path / name
    data = open(PRODUCT_TRACE, "rb").read()
    path.write_bytes(gzip.compress(data) if ".gz" in name else data)
    assert cli(path).status == 0
    [(args, kwargs)] = opened
    assert args == (str(path),) and "config" in kwargs
    assert dumps_trace(open_trace(path)) == dumps_trace(load_trace(PRODUCT_TRACE))  # the app's
                                                                                  # loader


def test_a_missing_path_is_one_line_and_exit_2(cli, opened):
    r = cli("nofile.json")
    assert (r.status, r.err, opened) == (2, "ptc-tui: nofile.json: no such file or directory\n",
                                         [])
    assert "invalid choice" not in r.err


def test_a_missing_path_that_looks_like_a_command_names_it(cli):
    r = cli("stast")
    assert (r.status, r.err) == (2, "ptc-tui: stast: no such file or directory (or did you "
                                    "mean the command stats?)\n")


def test_a_file_that_is_not_a_trace_is_one_line_and_exit_2(tmp_path, cli):
    path = tmp_path / "notes.txt"
    path.write_text("just notes")
    r = cli(path)
    assert r.status == 2 and r.err.startswith(f"ptc-tui: {path}: not valid JSON")


def test_an_experiment_folder_opens_the_experiment_screen(tmp_path, cli, opened):
    out = tmp_path / "runs"
    assert cli("experiment", str(PRODUCT_AGENT), "--repeat", "1", "--out", out).status == 0
    assert cli(out).status == 0
    [(args, kwargs)] = opened
    assert kwargs["experiment"].folder == out


def test_any_other_folder_is_the_one_call_site_of_the_runs_browser(tmp_path, cli, opened,
                                                                   monkeypatch):
    import ptc_tui.cli
    seen = []
    monkeypatch.setattr(ptc_tui.cli, "open_directory", lambda folder, config: seen.append(folder)
                        or 0)
    assert cli(tmp_path).status == 0 and seen == [tmp_path]


def test_python_dash_m_runs_the_command_line():
    r = subprocess.run([sys.executable, "-m", "ptc_tui", "--version"], capture_output=True,
                       text=True, timeout=120)
    assert (r.returncode, r.stdout, r.stderr) == (0, "ptc-tui 0.1.0\n", "")
    r = subprocess.run([sys.executable, "-m", "ptc_tui", "nofile.json"], capture_output=True,
                       text=True, timeout=120)
    assert (r.returncode, r.stderr) == (2, "ptc-tui: nofile.json: no such file or directory\n")


def test_export_defaults_to_otel(cli):
    plain = cli("export", PRODUCT_TRACE)
    assert plain.status == 0 and '"resourceSpans"' in plain.out
    assert cli("export", PRODUCT_TRACE, "--format", "otel").out == plain.out


def test_traces_round_trip_gzip_through_every_command(tmp_path, cli):
    run = tmp_path / "run.json.gz"
    assert cli("run", PRODUCT_AGENT, "--save", run).status == 0
    assert run.read_bytes()[:2] == b"\x1f\x8b"
    assert cli("validate", run).status == 0
    assert cli("stats", run).out == cli("stats", PRODUCT_TRACE).out.replace(PRODUCT_TRACE,
                                                                            str(run))
    otlp = tmp_path / "run.otlp.json.gz"
    assert cli("export", run, "-o", otlp).status == 0
    assert b'"resourceSpans"' in gzip.decompress(otlp.read_bytes())
    back = tmp_path / "back.json.gz"
    assert cli("import", otlp, "-o", back).status == 0
    assert dumps_trace(load_trace(back)) == cli("import", otlp).out.rstrip("\n")
    assert cli("export", run, "-o", otlp).status == 0            # ours: replaced without --force
    fork = tmp_path / "fork.json.gz"
    assert cli("fork", run, "--at", "2", "-o", fork).status == 0
    assert load_trace(fork).parent.file == "run.json.gz"
    assert cli("compare", run, fork, "--no-tui").status == 0


def test_a_gz_file_that_is_not_ours_is_not_replaced_without_force(tmp_path, cli):
    other = tmp_path / "notes.json.gz"
    other.write_bytes(gzip.compress(b"my notes"))
    r = cli("export", PRODUCT_TRACE, "-o", other)
    assert r.status == 2 and "is not a trace or export written by ptc-tui" in r.err
    assert gzip.decompress(other.read_bytes()) == b"my notes"


def test_an_inspection_artifact_is_recognised_when_gzip_compressed(tmp_path, cli):
    source = Path(__file__).parents[1] / "trace" / "upstream_runs" / "loop-cut" / \
        "run.inspection.jsonl"
    packed = tmp_path / "x.inspection.jsonl.gz"
    packed.write_bytes(gzip.compress(source.read_bytes()))
    plain = tmp_path / "x.inspection.jsonl"
    shutil.copy(source, plain)
    def imported(path):
        doc = json.loads(cli("import", path).out)
        return [t["program"] for t in doc["turns"]], doc["outcome"]
    assert imported(packed) == imported(plain) and imported(plain)[0]
