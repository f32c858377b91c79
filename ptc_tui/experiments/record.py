"""`experiment.json`: what an experiment ran and one row per finished run (docs/experiment-format.md).
It is rewritten atomically after every finished run, so a stopped or killed experiment keeps
every run it finished."""

from __future__ import annotations

import json
from pathlib import Path

from engine.trace.disk import UnreadableFile, read_text, write_atomically

FILE_NAME = "experiment.json"
FORMAT = "ptc-experiment"
VERSION = 1
MAX_BYTES = 64 * 1024 * 1024
ROW_FIELDS = {"set": int, "option_set": str, "repeat": int, "seed": int, "outcome": str,
              "answer": str, "success": bool, "turns": int, "input_tokens": int,
              "output_tokens": int, "trace": str}


class ExperimentError(ValueError):
    """An experiment.json that cannot be used; the message names the file and the problem."""


def experiment_doc(header: dict, runs: list[dict], finished: bool) -> dict:
    """The document: the header (agent, llm, seed, repeat, success_rule, model, option_sets),
    the rows in plan order (option set, then repeat), and whether every planned run is in."""
    rows = sorted(runs, key=lambda r: (r["set"], r["repeat"]))
    return {"format": FORMAT, "version": VERSION, **header, "finished": finished, "runs": rows}


def save_experiment(folder: Path, doc: dict) -> None:
    write_atomically(folder / FILE_NAME, json.dumps(doc, ensure_ascii=False, indent=1) + "\n")


def load_experiment(folder: Path) -> dict:
    """The experiment.json in `folder`, checked; ExperimentError (one line) when it is not one."""
    path = folder / FILE_NAME
    try:
        text = read_text(path, MAX_BYTES)
    except UnreadableFile as e:
        raise ExperimentError(str(e)) from None
    except OSError as e:
        raise ExperimentError(f"{path}: {e.strerror or e}") from None
    except ValueError as e:                  # not UTF-8; the message names the file
        raise ExperimentError(str(e)) from None
    try:
        doc = json.loads(text)
    except ValueError as e:
        raise ExperimentError(f"{path}: not valid JSON: {e}") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ExperimentError(f"{path}: not an experiment written by ptc-tui")
    if doc.get("version") != VERSION:
        raise ExperimentError(f"{path}: version {doc.get('version')!r}, this ptc-tui reads {VERSION}")
    for key, kind in (("llm", str), ("seed", int), ("option_sets", list), ("runs", list)):
        if not isinstance(doc.get(key), kind):
            raise ExperimentError(f"{path}: `{key}` is missing or not a {kind.__name__}")
    for i, row in enumerate(doc["runs"]):
        if not isinstance(row, dict):
            raise ExperimentError(f"{path}: runs[{i}] is not an object")
        for key, kind in ROW_FIELDS.items():
            value = row.get(key)
            if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
                raise ExperimentError(f"{path}: runs[{i}].{key} is missing or not a "
                                      f"{kind.__name__}")
        if Path(row["trace"]).name != row["trace"]:
            raise ExperimentError(f"{path}: runs[{i}].trace must be a file name in the folder")
    return doc
