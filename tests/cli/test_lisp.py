"""`ptc-tui lisp FILE [--data JSON]`: a program's prints, value and definitions, shown with
control characters escaped; a --data file that cannot be the program's data is one line naming
it, exit 2."""

import pytest


@pytest.fixture
def program(tmp_path):
    path = tmp_path / "p.clj"
    path.write_text("(count data/xs)")
    return path


def test_data_is_read_as_data(cli, program, tmp_path):
    data = tmp_path / "data.json"
    data.write_text('{"xs": [1, 2, 3]}')
    r = cli("lisp", program, "--data", data)
    assert (r.status, r.out, r.err) == (0, "value: 3\n", "")


DATA = {
    "nested too deeply": ('{"xs": ' + "[" * 5000 + "]" * 5000 + "}",
                          "JSON nested too deeply to be the program's data"),
    "not JSON": ("nope", "not valid JSON data"),
    "empty": ("", "the file is empty"),
    "a list": ("[1, 2, 3]", "the data must be a JSON object (names to values), not a list"),
}


@pytest.mark.parametrize("text, problem", DATA.values(), ids=DATA.keys())
def test_data_that_cannot_be_data_is_one_line_naming_the_file(cli, program, tmp_path, text,
                                                              problem):
    data = tmp_path / "data.json"
    data.write_text(text)
    r = cli("lisp", program, "--data", data)
    assert r.status == 2 and r.out == ""
    assert r.err.startswith(f"ptc-tui: {data}: {problem}") and r.err.count("\n") == 1, r.err


@pytest.mark.parametrize("folder", [False, True])
def test_missing_data_or_a_folder_is_one_line(cli, program, tmp_path, folder):
    data = tmp_path if folder else tmp_path / "missing.json"
    r = cli("lisp", program, "--data", data)
    assert r.status == 2 and r.err.startswith(f"ptc-tui: {data}: cannot read the file: ")


HOSTILE = "\x1b[31mred\x07\u202e"
SHOWN = "\\x1b[31mred\\x07\\u202e"


def lisp(cli, tmp_path, source):
    path = tmp_path / "p.clj"
    path.write_text(source, encoding="utf-8")
    return cli("lisp", path)


def test_prints_values_and_definitions_show_control_characters_escaped(cli, tmp_path):
    r = lisp(cli, tmp_path, f'(println "{HOSTILE}") (def x "{HOSTILE}") x')
    assert r.status == 0
    assert r.out == f"  | {SHOWN}\nvalue: \"{SHOWN}\"\n  def x = \"{SHOWN}\"\n"


def test_an_error_shows_control_characters_escaped_with_its_caret_under_the_form(cli, tmp_path):
    r = lisp(cli, tmp_path, f'(str "\x1b") (fail-here "{HOSTILE}")')
    assert r.status == 1
    assert "\x1b" not in r.out and "\u202e" not in r.out
    source, caret = r.out.splitlines()[1:3]
    assert source == '    (str "\\x1b") (fail-here "\\x1b[31mred\\x07\\u202e")'
    assert caret.index("^") == source.index("fail-here")
