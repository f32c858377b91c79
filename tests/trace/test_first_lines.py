"""first_lines: a file's first lines without copying the rest (a long trace is tens of MB)."""

from hypothesis import given
from hypothesis import strategies as st

from engine.trace.upstream import first_lines


@given(st.text(alphabet="ab\n{}", max_size=12), st.integers(1, 3))
def test_first_lines_are_what_split_gives(text, count):
    assert first_lines(text, count) == text.split("\n", count)[:count]
