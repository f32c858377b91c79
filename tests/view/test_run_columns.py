"""The runs table's column widths: every column seen on 160 columns, the file's path and the
mission sharing what is left, and a path cut in its middle keeping its file name."""

from hypothesis import given, strategies as st

from ptc_tui.view.runs import (COLUMNS, MAX_FILE, MIN_FILE, MIN_MISSION, WIDTHS, column_widths,
                               cut_middle)

MARK = 3          # the mark column and its gap


def test_on_160_columns_every_column_fits_and_the_file_gives_way_to_the_mission():
    room = 158                                   # 160 less the scrollbar
    short = column_widths(COLUMNS, room, file_chars=20, other=MARK)
    assert set(short) == set(COLUMNS)
    assert sum(short.values()) + 2 * len(COLUMNS) + MARK == room      # all of it, no more
    assert short["file"] == 20 and short["mission"] > MIN_MISSION
    long = column_widths(COLUMNS, room, file_chars=60, other=MARK)
    assert long["mission"] == MIN_MISSION and MIN_FILE <= long["file"] < 60
    assert sum(long.values()) + 2 * len(COLUMNS) + MARK == room


def test_a_wide_screen_shows_the_file_whole_and_gives_the_rest_to_the_mission():
    widths = column_widths(COLUMNS, 238, file_chars=29, other=MARK)
    assert widths["file"] == 29
    assert widths["mission"] == 238 - MARK - 2 * len(COLUMNS) - 29 - sum(WIDTHS.values())
    assert column_widths(COLUMNS, 400, file_chars=90, other=MARK)["file"] == MAX_FILE


def test_without_a_mission_column_the_file_takes_what_it_needs():
    columns = ("outcome", "turns", "file")
    assert column_widths(columns, 60, file_chars=30)["file"] == 30
    assert column_widths(columns, 40, file_chars=30)["file"] == MIN_FILE   # a narrow screen


@given(st.text(min_size=1, max_size=80), st.integers(2, 60))
def test_a_path_cut_in_its_middle_fits_and_keeps_both_ends(path, width):
    shown = cut_middle(path, width)
    if len(path) <= width:
        assert shown == path
    else:
        cut = (width - 1) // 3
        head, mark, tail = shown[:cut], shown[cut], shown[cut + 1:]
        assert len(shown) == width and mark == "…"
        assert path.startswith(head) and path.endswith(tail) and len(tail) >= len(head)
