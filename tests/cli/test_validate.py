"""`ptc-tui validate`: a trace loads and its recorded messages are what its strategy renders."""

import gzip
import json

import pytest

from engine.trace import load_trace
from sample_traces import trace_path
from tests.cli.conftest import PRODUCT_TRACE, SAMPLE_IDS, SAMPLES


@pytest.mark.parametrize("agent", SAMPLES, ids=SAMPLE_IDS)
def test_every_sample_is_valid(cli, agent):
    trace = load_trace(trace_path(agent))
    r = cli("validate", trace_path(agent))
    assert (r.status, r.err) == (0, "")
    turns = f"{len(trace.turns)} turn" + "s" * (len(trace.turns) != 1)
    assert r.out == f"ok: {turns}, {trace.outcome.status}\n"


def test_a_tampered_message_is_reported(cli, tmp_path):
    doc = json.loads(open(PRODUCT_TRACE, encoding="utf-8").read())
    last = doc["turns"][-1]["sent"][-1]
    doc["messages"][last]["content"] = doc["messages"][last]["content"].replace(
        "Turns left", "Turns remaining")
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(doc))
    r = cli("validate", path)
    assert r.status == 1 and r.out == ""
    assert r.err.count("\n") == 1
    assert r.err.startswith(f"ptc-tui: {path}: turn 3 (coalesced): message 2 (user) differs "
                            "from the re-render at line ")
    assert r.err.endswith(": recorded 'remaining: 3', re-rendered 'left: 3'\n")


def test_a_changed_option_is_reported(cli, tmp_path):
    doc = json.loads(open(PRODUCT_TRACE, encoding="utf-8").read())
    doc["agent"]["history"]["strategy"] = "full"
    path = tmp_path / "other.json"
    path.write_text(json.dumps(doc))
    r = cli("validate", path)
    assert r.status == 1
    assert r.err.endswith("turn 1 (full): message 2 (user) differs from the re-render at line 1: "
                          "recorded '\\n\\nTurns left: 5', re-rendered (end)\n")


def test_a_missing_file_is_a_usage_error(cli, tmp_path):
    r = cli("validate", tmp_path / "missing.json")
    assert r.status == 2
    assert r.err == (f"ptc-tui: {tmp_path / 'missing.json'}: cannot read the file: "
                     "No such file or directory\n")


def gzip_cut(path):
    path.write_bytes(gzip.compress(open(PRODUCT_TRACE, "rb").read())[:200])


def version_99(path):
    doc = product_doc()
    doc["version"] = 99
    path.write_text(json.dumps(doc))


def otlp_export(path):
    from engine.trace.otel import dumps_otlp
    path.write_text(dumps_otlp(load_trace(PRODUCT_TRACE)))


NOT_TRACES = {
    "empty": (lambda p: p.write_text(""), "the file is empty"),
    "truncated JSON": (lambda p: p.write_text('{"format": "ptc-trace", "version": 1, "agent": {'),
                       "the file ends in the middle of the JSON (truncated?)"),
    "an object": (lambda p: p.write_text('{"a": 1}'), "not a ptc-tui trace"),
    "a list": (lambda p: p.write_text("[1, 2, 3]"), "not a ptc-tui trace"),
    "null": (lambda p: p.write_text("null"), "not a ptc-tui trace"),
    "truncated gzip": (gzip_cut, "the gzip data ends early"),
    "garbage gzip": (lambda p: p.write_bytes(b"\x1f\x8bgarbage"), "the gzip data"),
    "binary": (lambda p: p.write_bytes(b"\xff\xfe\x00\x01"), "not UTF-8 text"),
    "version 99": (version_99, "trace format version 99"),
    "an OTLP export": (otlp_export, "an OpenTelemetry OTLP/JSON export, not a ptc-tui trace: "
                       "`ptc-tui import FILE -o trace.json` makes it one"),
}


@pytest.mark.parametrize("write, problem", NOT_TRACES.values(), ids=NOT_TRACES.keys())
def test_a_file_that_is_not_a_trace_is_a_usage_error(cli, tmp_path, write, problem):
    """Exit 2, as stats and render give it: 1 is kept for a trace that reads but is
    inconsistent."""
    path = tmp_path / "not_a_trace.json"
    write(path)
    r = cli("validate", path)
    assert (r.status, r.out) == (2, "")
    assert r.err.startswith(f"ptc-tui: {path}: {problem}") and r.err.count("\n") == 1, r.err


def test_stats_and_compare_point_an_otlp_export_at_import(cli, tmp_path):
    path = tmp_path / "spans.json"
    otlp_export(path)
    for args in (("stats", path), ("compare", PRODUCT_TRACE, path), ("render", path, "--turn", 1)):
        r = cli(*args)
        assert r.status == 2 and "`ptc-tui import FILE -o trace.json`" in r.err, (args, r.err)
    trace = tmp_path / "trace.json"
    assert cli("import", path, "-o", trace).status == 0        # as the message says
    assert cli("stats", trace).status == 0


# --- hand edits ----------------------------------------------------------------------------

def product_doc():
    return json.loads(open(PRODUCT_TRACE, encoding="utf-8").read())


def validate_doc(cli, tmp_path, doc):
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(doc, ensure_ascii=False, indent=1))
    r = cli("validate", path)
    assert r.err.count("\n") <= 1 and r.out == ("" if r.status else r.out)
    return r.status, r.err.removeprefix(f"ptc-tui: {path}: ").rstrip("\n")


def deleted_program(doc):
    doc["turns"][1]["program"] = None


def edited_program(doc):
    doc["turns"][0]["program"] = doc["turns"][0]["program"].replace("Electronics", "Books")


def dropped_last_turn(doc):
    doc["turns"].pop()


def dropped_all_turns(doc):
    doc["turns"] = []


def edited_outcome(doc):
    doc["outcome"]["return_value"] = ["Laptop"]


def removed_return(doc):
    doc["turns"][-1]["signal"] = None


def edited_print(doc):
    doc["turns"][-1]["prints"] = ["a print the run never made"]   # no later turn shows it


def edited_count(doc):
    doc["turns"][0]["usage"] = {"input_tokens": 1, "output_tokens": 1, "cached_tokens": None}


def return_in_the_middle(doc):
    doc["turns"][0]["signal"] = "return"


EDITS = {
    "deleted program": (deleted_program, "turn 2 has no program (edited after the run?)"),
    "edited program": (edited_program,
                       "turn 1 has a program that differs from the code in its reply"),
    "dropped last turn": (dropped_last_turn,
                          "the outcome says returned, but the last turn (2) has no (return ...)"),
    "dropped all turns": (dropped_all_turns,
                          "the outcome says returned, but the trace has no turns"),
    "edited outcome": (edited_outcome, "the outcome's return value is not what turn 3 returned"),
    "removed return": (removed_return,
                       "the outcome says returned, but the last turn (3) has no (return ...)"),
    "a return mid-run": (return_in_the_middle,
                         "turn 1 ended the run with (return ...), yet 2 turns follow it"),
    "edited print": (edited_print, "changed after it was saved: its content digest does not match"),
    "edited token count": (edited_count, "changed after it was saved"),
}


@pytest.mark.parametrize("edit, problem", EDITS.values(), ids=EDITS.keys())
def test_a_hand_edit_is_caught(cli, tmp_path, edit, problem):
    doc = product_doc()
    edit(doc)
    status, err = validate_doc(cli, tmp_path, doc)
    assert status == 1 and err.startswith(problem), err


def test_a_trace_saved_before_digests_still_validates(cli, tmp_path):
    doc = product_doc()
    del doc["digest"]
    path = tmp_path / "old.json"
    path.write_text(json.dumps(doc, indent=1))
    r = cli("validate", path)
    assert (r.status, r.out) == (0, "ok: 3 turns, returned (no content digest: saved by an "
                                    "older ptc-tui)\n")
    edited_count(doc)                         # without a digest, such an edit goes unseen
    path.write_text(json.dumps(doc, indent=1))
    assert cli("validate", path).status == 0


def test_an_interrupted_run_validates(cli, tmp_path):
    from engine.agent import SubAgent
    from engine.llm import ScriptedLLM
    from engine.trace import save_trace
    session = SubAgent(mission="m", max_turns=2).start(ScriptedLLM(["(def a 1)", "(def b 2)"]))
    session.step()
    save_trace(session.trace(), tmp_path / "running.json")
    assert cli("validate", tmp_path / "running.json").out == "ok: 1 turn, running\n"
