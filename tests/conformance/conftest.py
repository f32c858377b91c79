"""Collects every case of tests/conformance/*.ptc as one test (see cases.py for the format)."""

from __future__ import annotations

import pytest

from engine.lisp import Limits, pr_str, run
from tests.conformance.cases import Case, parse_cases
from tests.conformance.environment import DATA, TOOLS


def pytest_collect_file(parent, file_path):
    if file_path.suffix == ".ptc":
        return CaseFile.from_parent(parent, path=file_path)
    return None


class CaseFile(pytest.File):
    def collect(self):
        for case in parse_cases(self.path):
            yield CaseItem.from_parent(self, name=f"{case.file}:{case.line}", case=case)


class CaseItem(pytest.Item):
    def __init__(self, *, case: Case, **kwargs):
        super().__init__(**kwargs)
        self.case = case

    def runtest(self):
        check_case(self.case)

    def reportinfo(self):
        return self.path, self.case.line - 1, self.name

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, CaseFailure):
            return str(excinfo.value)
        return super().repr_failure(excinfo)


class CaseFailure(AssertionError):
    pass


# A case that does not test the time limit runs with it far out of reach, so a busy machine
# cannot turn its value or its other error (memory_exceeded, ...) into a timeout.
OUT_OF_REACH = Limits(time_ms=60_000, run_wall_ms=120_000)


def check_case(case: Case) -> None:
    limits = None if case.reason == "timeout" else OUT_OF_REACH
    result = run(case.source, data=DATA, tools=TOOLS, limits=limits)
    problems = []
    if case.reason is not None:
        if result.error is None:
            problems.append(f"expected error {case.reason}, got value {pr_str(result.value)}")
        elif result.error.reason != case.reason:
            problems.append(f"expected error {case.reason}, got {result.error}")
        elif case.message and case.message not in str(result.error):
            problems.append(f"expected message containing {case.message!r}, got {result.error}")
    elif result.error is not None:
        problems.append(f"unexpected error {result.error}")
    elif case.value is not None and pr_str(result.value) != case.value:
        problems.append(f"expected {case.value}\n     got {pr_str(result.value)}")
    if case.prints is not None and result.prints != case.prints:
        problems.append(f"expected prints {case.prints}\n     got prints {result.prints}")
    if problems:
        raise CaseFailure(f"{case.id}\n  {case.source}\n  " + "\n  ".join(problems))
