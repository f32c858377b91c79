"""Files that are not what they claim: a FIFO, a device, a symlink loop is one line and exit 2
from every command (never a hang, never reading /dev/zero until memory runs out); JSON that a
trace never holds (a key given twice, NaN, 1e308 times, 400-digit integers, lone surrogates)
is one line naming the file and the field."""

import json
import os
import subprocess
import sys

import pytest

from tests.cli.conftest import PRODUCT_AGENT, PRODUCT_TRACE

READERS = {
    "stats": ["stats", "{f}"],
    "render": ["render", "{f}", "--turn", "1"],
    "validate": ["validate", "{f}"],
    "export": ["export", "{f}", "--format", "otel"],
    "import": ["import", "{f}"],
    "lisp": ["lisp", "{f}"],
    "lisp --data": ["lisp", "{program}", "--data", "{f}"],
    "run": ["run", "{f}"],
    "run --llm scripted": ["run", str(PRODUCT_AGENT), "--llm", "scripted:{f}"],
    "run --llm replay": ["run", str(PRODUCT_AGENT), "--llm", "replay:{f}"],
}


@pytest.fixture(params=["fifo", "dev-zero", "symlink-loop"])
def hostile(request, tmp_path):
    path = tmp_path / "hostile.json"
    if request.param == "fifo":
        os.mkfifo(path)
    elif request.param == "dev-zero":
        path.symlink_to("/dev/zero")
    else:
        path.symlink_to(tmp_path / "other")
        (tmp_path / "other").symlink_to(path)
    return path


@pytest.mark.parametrize("argv", READERS.values(), ids=READERS.keys())
def test_a_file_that_is_not_a_regular_file_is_one_line_and_status_2(cli, tmp_path, hostile,
                                                                    argv):
    program = tmp_path / "p.clj"
    program.write_text("(+ 1 2)")
    r = cli(*(a.format(f=hostile, program=program) for a in argv))
    assert r.status == 2, r
    assert r.err.startswith("ptc-tui: ") and r.err.count("\n") == 1, r.err
    assert str(hostile) in r.err and ("regular file" in r.err or "symbolic links" in r.err), r.err


def test_the_app_on_a_fifo_says_so_and_exits_2(tmp_path):
    fifo = tmp_path / "run.json"
    os.mkfifo(fifo)
    r = subprocess.run([sys.executable, "-m", "ptc_tui.cli", str(fifo)], capture_output=True,
                       text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert r.returncode == 2
    assert r.stderr == (f"ptc-tui: {fifo}: cannot read the file: it is a FIFO (named pipe), "
                        "not a regular file\n")


def edited(tmp_path, edit):
    """The product-search trace as JSON text, edited by `edit(text) -> text`."""
    path = tmp_path / "edited.json"
    path.write_text(edit(open(PRODUCT_TRACE, encoding="utf-8").read()), encoding="utf-8")
    return path


def set_field(path_in_doc, raw):
    """An edit that puts `raw` JSON text at `path_in_doc` (keys and indexes)."""
    def edit(text):
        doc = json.loads(text)
        target = doc
        for key in path_in_doc[:-1]:
            target = target[key]
        target[path_in_doc[-1]] = "@@RAW@@"
        return json.dumps(doc).replace('"@@RAW@@"', raw)
    return edit


EDITS = {
    "second turns key": (lambda t: t.rstrip()[:-1] + ', "turns": []}',
                         "the key 'turns' appears twice in one object"),
    "huge time": (set_field(["turns", 0, "llm_ms"], "1e308"),
                  "turns[0].llm_ms: 1e+308 ms is out of range"),
    "overflowing time": (set_field(["turns", 1, "run_ms"], "1e400"),
                         "turns[1].run_ms: '1e400' is out of range for a trace"),
    "NaN": (set_field(["turns", 0, "run_ms"], "NaN"), "turns[0].run_ms: 'NaN' is out of range"),
    "400-digit integer": (set_field(["turns", 0, "usage", "input_tokens"], "9" * 400),
                          "turns[0].usage.input_tokens: a 400-digit integer is out of range"),
    "5000-digit integer": (set_field(["turns", 2, "result"], "1" * 5000),
                           "turns[2].result: a 5,000-digit integer is out of range"),
    "lone surrogate": (set_field(["turns", 0, "prints", 0], '"\\ud800 half"'),
                       "turns[0].prints[0]: holds a lone surrogate"),
}


@pytest.mark.parametrize("command", ["stats", "validate", "export"])
@pytest.mark.parametrize("edit, problem", EDITS.values(), ids=EDITS.keys())
def test_json_a_trace_never_holds_is_one_line_naming_the_field(cli, tmp_path, edit, problem,
                                                               command):
    path = edited(tmp_path, edit)
    argv = [command, path] + (["--format", "otel"] if command == "export" else [])
    r = cli(*argv)
    assert r.status == 2                     # validate too: 1 is for a trace that reads
    assert r.err.startswith(f"ptc-tui: {path}: ") and problem in r.err, r.err
    assert r.err.count("\n") == 1 and "999999999" not in r.err and len(r.err) < 300
