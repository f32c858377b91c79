"""`export -o` and `import -o` never write over the file they read (by any path to it), and an
empty output name (there and for `run --save`) is a usage error; each is one line, exit 2, with
the input left as it was."""

import os
import shutil

import pytest

from tests.cli.conftest import PRODUCT_AGENT, PRODUCT_TRACE


@pytest.fixture
def trace(tmp_path):
    path = tmp_path / "t.json"
    shutil.copy(PRODUCT_TRACE, path)
    return path


@pytest.fixture
def export(tmp_path, trace, cli):
    path = tmp_path / "t.otlp.json"
    assert cli("export", trace, "-o", path).status == 0
    return path


def same_file_paths(path):
    """The path as given, another spelling of it, and a symbolic link to it."""
    link = path.with_name("link-" + path.name)
    link.symlink_to(path.name)
    return [str(path), os.path.join(str(path.parent), ".", path.name), str(link)]


@pytest.mark.parametrize("command, source, problem", [
    ("export", "trace", "is the trace being exported; write the export somewhere else"),
    ("import", "export", "is the file being imported; write the trace somewhere else"),
])
def test_neither_writes_over_the_file_it_reads(cli, request, monkeypatch, command, source,
                                               problem):
    path = request.getfixturevalue(source)
    before = path.read_bytes()
    for target in same_file_paths(path):
        result = cli(command, path, "-o", target)
        assert result.status == 2 and result.out == ""
        assert result.err == f"ptc-tui: {target}: {problem}\n"
    monkeypatch.chdir(path.parent)
    assert cli(command, path.name, "-o", "./" + path.name).status == 2
    assert path.read_bytes() == before


def test_another_file_is_still_written(cli, trace, export, tmp_path):
    assert cli("import", export, "-o", tmp_path / "back.json").status == 0
    assert cli("export", tmp_path / "back.json", "-o", export).status == 0


@pytest.mark.parametrize("command", ["export", "import"])
def test_an_empty_output_name_is_a_usage_error(cli, trace, export, command):
    source = trace if command == "export" else export
    result = cli(command, source, "-o", "")
    assert result.status == 2 and result.out == ""
    assert "argument -o/--output: expected a file name, got an empty one" in result.err
    assert result.err.count("\n") == 1


def test_run_refuses_an_empty_save_name_before_running(cli):
    result = cli("run", PRODUCT_AGENT, "--no-tui", "--save", "")
    assert result.status == 2 and result.out == ""
    assert "argument --save: expected a file name, got an empty one" in result.err
