"""Mutation testing of one module with the tests that exercise it: how many small bugs planted
in the module the tests catch.

    python benchmarks/mutation.py engine/history/visibility.py tests/history [--jobs 2]

Each mutant changes one thing in the module (a comparison flipped or loosened, `+` for `-`,
`and` for `or`, an integer raised by one, `not` dropped, `True` for `False`, `break` for
`continue`, a returned value replaced by None) and the given tests run against it in a copy of
the repository; a mutant is killed when they fail (or run ten times longer than the clean
run). Prints the score and every mutant that survived, with its line, so each can be read and
either killed by a new test or judged harmless. The module's own tests must pass first.

Written here rather than taken from mutmut: mutmut 3 mutates only code inside functions, and
a module's defaults (class attributes such as the shipped limits) are what most needs it.
"""

from __future__ import annotations

import argparse
import ast
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SWAPS = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt,
         ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.Is: ast.IsNot, ast.IsNot: ast.Is,
         ast.In: ast.NotIn, ast.NotIn: ast.In, ast.Add: ast.Sub, ast.Sub: ast.Add,
         ast.Mult: ast.Div, ast.Div: ast.Mult, ast.FloorDiv: ast.Mult, ast.Mod: ast.FloorDiv,
         ast.And: ast.Or, ast.Or: ast.And, ast.Break: ast.Continue, ast.Continue: ast.Break}


@dataclass(frozen=True)
class Mutant:
    index: int          # which mutation point, in the order `points` finds them
    line: int
    what: str


def points(tree: ast.AST) -> list[tuple[ast.AST, int, str]]:
    """Every place one mutation can be made: (node, which operator of a comparison, what).
    Operators are shared objects in a parsed tree, so a point names the node holding one.
    Docstrings, strings and annotations are left alone: they change no behaviour a test
    could see."""
    skip = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.AnnAssign):
            skip.update(id(n) for n in ast.walk(node.annotation))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for part in (node.returns, *(a.annotation for a in ast.walk(node.args)
                                         if isinstance(a, ast.arg))):
                if part is not None:
                    skip.update(id(n) for n in ast.walk(part))
    found = []
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Compare):
            found += [(node, i, f"{_name(op)} -> {SWAPS[type(op)].__name__}")
                      for i, op in enumerate(node.ops)]
        elif isinstance(node, (ast.BinOp, ast.BoolOp)) and type(node.op) in SWAPS:
            found.append((node, 0, f"{_name(node.op)} -> {SWAPS[type(node.op)].__name__}"))
        elif isinstance(node, (ast.Break, ast.Continue)):
            found.append((node, 0, f"{_name(node)} -> {SWAPS[type(node)].__name__}"))
        elif isinstance(node, ast.Constant) and type(node.value) is int:
            found.append((node, 0, f"{node.value} -> {node.value + 1}"))
        elif isinstance(node, ast.Constant) and type(node.value) is bool:
            found.append((node, 0, f"{node.value} -> {not node.value}"))
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            found.append((node, 0, "not x -> x"))
        elif isinstance(node, ast.Return) and node.value is not None \
                and not (isinstance(node.value, ast.Constant) and node.value.value is None):
            found.append((node, 0, "return x -> return None"))
    return found


def _name(node: ast.AST) -> str:
    return type(node).__name__


def mutated_source(source: str, index: int) -> tuple[str, Mutant]:
    """The module's source with mutation point `index` applied (the tree is parsed anew, so
    changing it in place is safe)."""
    tree = ast.parse(source)
    node, slot, what = points(tree)[index]
    mutant = Mutant(index, getattr(node, "lineno", 0), what)
    if isinstance(node, ast.Compare):
        node.ops[slot] = SWAPS[type(node.ops[slot])]()
    elif isinstance(node, (ast.BinOp, ast.BoolOp)):
        node.op = SWAPS[type(node.op)]()
    else:
        tree = _replace(tree, node, _mutation_of(node))
    return ast.unparse(ast.fix_missing_locations(tree)), mutant


def _replace(tree: ast.AST, target: ast.AST, replacement: ast.AST) -> ast.AST:
    class Replace(ast.NodeTransformer):
        def visit(self, node):
            return replacement if node is target else self.generic_visit(node)
    return Replace().visit(tree)


def _mutation_of(node: ast.AST) -> ast.AST:
    if type(node) in SWAPS:
        return SWAPS[type(node)]()
    if isinstance(node, ast.Constant):
        return ast.Constant(not node.value if type(node.value) is bool else node.value + 1)
    if isinstance(node, ast.UnaryOp):
        return node.operand
    return ast.Return(ast.Constant(None))


def copy_of_repository(into: Path) -> Path:
    """The tracked files of the repository, copied: each job mutates its own copy."""
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                           check=True).stdout.decode().split("\0")
    for name in filter(None, files):
        target = into / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if (ROOT / name).is_file():
            shutil.copy2(ROOT / name, target)
    return into


def unneeded_plugins(tests: list[str]) -> list[str]:
    """pytest options that leave out plugins `tests` cannot need, which take most of a short
    run's start: Hypothesis's (its tests import Hypothesis themselves, and run without it)
    and, unless the app's tests are among them, the SVG snapshot ones."""
    skip = ["hypothesispytest"]
    if all(Path(t).parts[:2] not in (("tests",), ("tests", "app")) and Path(t).parts[:1]
           == ("tests",) for t in tests):
        skip += ["textual-snapshot", "syrupy"]
    return [option for name in skip for option in ("-p", f"no:{name}")]


def run_tests(copy: Path, tests: list[str], timeout: float | None) -> tuple[bool, float]:
    """(passed, seconds) of the tests in `copy`; a run past `timeout` counts as failed."""
    env = {**os.environ, "PYTHONPATH": str(copy), "PYTHONDONTWRITEBYTECODE": "1"}
    started = time.perf_counter()
    try:
        # its own temporary folder: pytest's shared one keeps the last three runs' and deletes
        # older ones, a test suite running beside this one among them
        done = subprocess.run([sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider",
                               "-p", "no:randomly", "--basetemp", str(copy / ".pytest-tmp"),
                               *unneeded_plugins(tests), *tests], cwd=copy,
                              env=env, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return False, time.perf_counter() - started
    return done.returncode == 0, time.perf_counter() - started


def chosen_mutants(total: int, sample: int | None) -> list[int]:
    """The mutation points to try: all of them, or `sample` of them picked at random with a
    fixed seed (so a score can be measured again on the same mutants)."""
    if sample is None or sample >= total:
        return list(range(total))
    return sorted(random.Random(23).sample(range(total), sample))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("module", help="the module to mutate, e.g. engine/lisp/limits.py")
    parser.add_argument("tests", nargs="+", help="the test files or folders that exercise it")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--sample", type=int, metavar="N",
                        help="try only N mutants, picked at random (seeded, so the same N "
                             "picks the same mutants); the score is then a sampled one")
    args = parser.parse_args(argv)
    source = (ROOT / args.module).read_text()
    total = len(points(ast.parse(source)))
    chosen = chosen_mutants(total, args.sample)
    count = len(chosen)
    with tempfile.TemporaryDirectory() as tmp:
        copies = [copy_of_repository(Path(tmp) / f"copy{j}") for j in range(args.jobs)]
        passed, clean_s = run_tests(copies[0], args.tests, None)
        if not passed:
            print(f"the tests fail without any mutation: {' '.join(args.tests)}")
            return 2
        free = list(copies)

        def try_mutant(index: int) -> tuple[Mutant, bool]:
            copy = free.pop()
            try:
                text, mutant = mutated_source(source, index)
                (copy / args.module).write_text(text)
                survived, _ = run_tests(copy, args.tests, timeout=10 * clean_s + 10)
                print(f"  line {mutant.line}: {mutant.what}: "
                      f"{'survived' if survived else 'killed'}", file=sys.stderr, flush=True)
                return mutant, survived
            finally:
                (copy / args.module).write_text(source)
                free.append(copy)

        with ThreadPoolExecutor(args.jobs) as pool:
            results = list(pool.map(try_mutant, chosen))
    survivors = [m for m, survived in results if survived]
    killed = count - len(survivors)
    sampled = f" (a sample of {count} of its {total} mutants)" if count < total else ""
    print(f"{args.module}: {killed} of {count} mutants killed{sampled} "
          f"({100 * killed / max(count, 1):.0f}%) by {' '.join(args.tests)}")
    for m in survivors:
        print(f"  survived: line {m.line}: {m.what}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
