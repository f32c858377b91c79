"""The conversion baseline of benchmarks/lisp_bench.py converts JSON-shaped data to the same
values as today's conversion, so the speed ratio it reports compares like with like."""

import pytest

from benchmarks.convert_baseline import BaselineError, baseline_from_python
from engine.lisp.convert import from_python

SHAPES = [
    [{"id": i, "name": f"item-{i}", "price": i * 1.5} for i in range(50)],
    {"orders": [{"id": 1, "tags": ["a", "b"], "total": None, "paid": True}], "count": 1},
    [[1, 2.5, "x"], [], {"nested": {"deep": [0]}}],
]


@pytest.mark.parametrize("data", SHAPES)
def test_the_baseline_gives_todays_values(data):
    assert baseline_from_python(data) == from_python(data)


def test_the_baseline_refuses_what_today_refuses():
    with pytest.raises(BaselineError):
        baseline_from_python([{"n": 2**70}])
