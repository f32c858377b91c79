"""The differential harness: run a batch of programs through real Clojure once, and compare.

Programs live in `programs/*.clj`, one block per program:

    ;; == short-name
    (the program, any number of lines and forms)

    ;; == other-name !error
    (+ 1 "a")

A block runs until the next `;; ==` header. `!error` marks a program that Clojure rejects with
an exception (our engine must fail it too, with any error reason); a program without the mark
must succeed in Clojure, so a typo in a program is reported as such rather than as a match.

Every program runs in Clojure inside one JVM, each in a fresh namespace with `str` aliased to
clojure.string and `set` to clojure.set, with its output captured. The batch script writes one
record per program to a file: the index, the status (ok / error / timeout), then the captured
output and the `pr-str` of the value (or the exception) as Clojure string literals on their own
lines. The result is cached in the temp directory under a hash of the script, so pytest-xdist
workers (and later sessions) share one JVM run.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import math
import os
import re
import shlex
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from engine.lisp import forms as F
from engine.lisp.compare import equals
from engine.lisp.reader import read
from engine.lisp.values import MAPS, Map, Symbol
from engine.lisp.keys import as_key

PROGRAMS_DIR = Path(__file__).parent / "programs"
HEADER = re.compile(r"^;;\s*==\s*(\S+)((?:\s+!\S+)*)\s*$")
FLAGS = {"!error"}
MARKER = "@@PTC-RESULT@@"
CLOJURE_TIMEOUT_MS = 10_000          # per program, inside the JVM
BATCH_TIMEOUT_S = 300                # the whole JVM run


@dataclass(frozen=True)
class Program:
    topic: str        # the file stem
    name: str
    source: str
    line: int         # line of the header in the file
    expect_error: bool

    @property
    def id(self) -> str:
        return f"{self.topic}/{self.name}"


@dataclass(frozen=True)
class ClojureResult:
    status: str       # "ok", "error" or "timeout"
    out: str          # everything the program printed
    text: str         # pr-str of the value, or the exception's class and message


# --- Loading programs -------------------------------------------------------------------------

def load_programs(directory: Path = PROGRAMS_DIR) -> list[Program]:
    programs: list[Program] = []
    seen: set[str] = set()
    for path in sorted(directory.glob("*.clj")):
        programs.extend(parse_file(path, seen))
    return programs


def parse_file(path: Path, seen: set[str] | None = None) -> list[Program]:
    seen = set() if seen is None else seen
    topic = path.stem
    programs: list[Program] = []
    current: tuple[str, int, bool] | None = None
    body: list[str] = []

    def flush():
        if current is None:
            return
        name, line, expect_error = current
        source = "\n".join(body).strip()
        if not source:
            raise ValueError(f"{path}:{line}: program {name} is empty")
        programs.append(Program(topic, name, source + "\n", line, expect_error))

    for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        m = HEADER.match(text)
        if m:
            flush()
            name, flags = m.group(1), set(m.group(2).split())
            if flags - FLAGS:
                raise ValueError(f"{path}:{number}: unknown flags {sorted(flags - FLAGS)}")
            if f"{topic}/{name}" in seen:
                raise ValueError(f"{path}:{number}: duplicate program name {name}")
            seen.add(f"{topic}/{name}")
            current, body = (name, number, "!error" in flags), []
        elif current is not None:
            body.append(text)
        elif text.strip() and not text.lstrip().startswith(";"):
            raise ValueError(f"{path}:{number}: code before the first ';; ==' header")
    flush()
    return programs


# --- The Clojure batch ------------------------------------------------------------------------

def clojure_string(s: str) -> str:
    """`s` as a Clojure string literal (newlines may stay literal inside one)."""
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


_RUNNER = r"""
(ns ptc-differential.runner
  (:require [clojure.string] [clojure.set] [clojure.java.io :as io]))

(defn- eval-program [src]
  (let [ns-name (gensym "ptc-differential-program-")
        the-ns (create-ns ns-name)
        out (java.io.StringWriter.)]
    (try
      (let [text (binding [*ns* the-ns *out* out *print-namespace-maps* false
                           *print-length* nil *print-level* nil]
                   (refer 'clojure.core)
                   (alias 'str 'clojure.string)
                   (alias 'set 'clojure.set)
                   (pr-str (load-string src)))]
        ["ok" (str out) text])
      (catch Throwable e
        ["error" (str out) (str (.getName (class e)) ": " (.getMessage e)
                                (when-let [c (.getCause e)]
                                  (str " / " (.getName (class c)) ": " (.getMessage c))))])
      (finally (remove-ns ns-name)))))

(defn- run-program [src]
  (let [f (future (eval-program src))
        r (deref f %(timeout)d ::timeout)]
    (if (= r ::timeout)
      (do (future-cancel f) ["timeout" "" "no result within %(timeout)d ms"])
      r)))

(let [out-path (first *command-line-args*)]
  (with-open [w (io/writer out-path :encoding "UTF-8")]
    (doseq [[i src] (map-indexed vector programs)]
      (let [[status out text] (run-program src)]
        (.write w (str "%(marker)s " i " " status "\n" (pr-str out) "\n" (pr-str text) "\n"))))))
(shutdown-agents)
(System/exit 0)
"""


def build_script(programs: list[Program]) -> str:
    listing = "\n".join("   " + clojure_string(p.source) for p in programs)
    runner = _RUNNER % {"timeout": CLOJURE_TIMEOUT_MS, "marker": MARKER}
    head, _, tail = runner.partition("(defn- eval-program")
    return head + f"(def programs\n  [\n{listing}\n  ])\n\n(defn- eval-program" + tail


def clojure_command() -> list[str] | None:
    """The command that runs a Clojure script file, or None when Clojure is not installed.
    `PTC_CLOJURE_CMD` overrides it (e.g. "clojure -M" for the official CLI tools)."""
    override = os.environ.get("PTC_CLOJURE_CMD")
    if override:
        cmd = shlex.split(override)
        return cmd if cmd and shutil.which(cmd[0]) else None
    return ["clojure"] if shutil.which("clojure") else None


def run_clojure_batch(programs: list[Program], command: list[str]) -> list[ClojureResult]:
    """Clojure's results for `programs`, from the cache or from one JVM run."""
    script = build_script(programs)
    key = hashlib.sha256((" ".join(command) + "\0" + script).encode()).hexdigest()[:24]
    cache_dir = Path(tempfile.gettempdir()) / "ptc-differential"
    cache_dir.mkdir(exist_ok=True)
    cached = cache_dir / f"{key}.out"
    with open(cache_dir / f"{key}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)      # one worker runs the JVM, the others wait
        try:
            if not cached.exists():
                _run_jvm(script, command, cached, cache_dir)
            return parse_output(cached.read_text(encoding="utf-8"), len(programs))
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _run_jvm(script: str, command: list[str], cached: Path, cache_dir: Path) -> None:
    with tempfile.TemporaryDirectory(dir=cache_dir) as work:
        script_path = Path(work) / "batch.clj"
        script_path.write_text(script, encoding="utf-8")
        out_path = Path(work) / "results.out"
        proc = subprocess.run([*command, str(script_path), str(out_path)], capture_output=True,
                              text=True, timeout=BATCH_TIMEOUT_S, stdin=subprocess.DEVNULL)
        if proc.returncode != 0 or not out_path.exists():
            raise RuntimeError(f"the Clojure batch failed (exit {proc.returncode}):\n"
                               f"{proc.stdout[-2000:]}\n{proc.stderr[-4000:]}")
        os.replace(out_path, cached)


def parse_output(text: str, count: int) -> list[ClojureResult]:
    lines = text.split("\n")       # not splitlines: strings may hold U+2028 and the like
    results: dict[int, ClojureResult] = {}
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line:
            i += 1
            continue
        parts = line.split(" ")
        if len(parts) != 3 or parts[0] != MARKER or i + 2 >= len(lines):
            raise RuntimeError(f"unexpected line {i + 1} in Clojure's output: {line[:200]!r}")
        out = json.loads(lines[i + 1], strict=False)
        value = json.loads(lines[i + 2], strict=False)
        results[int(parts[1])] = ClojureResult(parts[2], out, value)
        i += 3
    if sorted(results) != list(range(count)):
        raise RuntimeError(f"Clojure returned {len(results)} results for {count} programs")
    return [results[k] for k in range(count)]


# --- Reading Clojure's printed values ---------------------------------------------------------

class Unreadable(Exception):
    pass


def read_value(text: str):
    """Clojure's `pr-str` output as a PTC-Lisp value; lists and seqs become vectors."""
    try:
        forms = read(text)
    except Exception as e:
        raise Unreadable(f"our reader rejects Clojure's output {text[:200]!r}: {e}") from None
    if len(forms) != 1:
        raise Unreadable(f"Clojure's output {text[:200]!r} is {len(forms)} forms")
    return form_value(forms[0])


def form_value(form):
    t = type(form)
    if t is F.Const:
        return form.value
    if t is F.Sym:
        return Symbol(form.text)
    if t is F.VectorForm or t is F.ListForm:
        return tuple(form_value(x) for x in form.items)
    if t is F.MapForm:
        items = [form_value(x) for x in form.items]
        return Map(zip(map(as_key, items[0::2]), items[1::2]))
    if t is F.SetForm:
        return frozenset(as_key(form_value(x)) for x in form.items)
    raise Unreadable(f"cannot turn {F.show(form)} into a value")


# --- Comparing --------------------------------------------------------------------------------

def close_floats(a: float, b: float) -> bool:
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if math.isinf(a) or math.isinf(b):
        return a == b
    return abs(a - b) <= 1e-9 * max(abs(a), abs(b), 1e-300) or a == b


def agree(ours, theirs) -> bool:
    """Structural equality, stricter than `=` about number kinds (an int is not a float) and
    looser about float rounding (1e-9 relative). Map order never matters; a Clojure list or
    seq has already been read as a vector."""
    ta, tb = type(ours), type(theirs)
    if ta is float and tb is float:
        return close_floats(ours, theirs)
    if ta in (int, float) and tb in (int, float):
        return ta is tb and ours == theirs
    if ta is tuple and tb is tuple:
        return len(ours) == len(theirs) and all(agree(x, y) for x, y in zip(ours, theirs))
    if ta in MAPS and tb in MAPS:
        if len(ours) != len(theirs):
            return False
        missing = object()
        for k, v in theirs.items():
            mine = ours.get(k, missing)
            if mine is missing or not agree(mine, v):
                return False
        return True
    return equals(ours, theirs)


_FLOAT_TEXT = re.compile(r"-?\d+\.\d+(?:[eE][-+]?\d+)?|-?\d+[eE][-+]?\d+")


def normalize_output(text: str) -> str:
    """Printed text with every float rounded to 9 significant digits."""
    return _FLOAT_TEXT.sub(lambda m: format(float(m.group()), ".9g"), text)


def our_output(prints: list[str]) -> str:
    """Our prints as the text Clojure's *out* would hold (each println/prn ends a line)."""
    return "".join(p + "\n" for p in prints)
