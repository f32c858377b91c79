"""The README's experiment command prints, byte for byte, the table the README shows."""

import shlex
from pathlib import Path

from tests.cli.conftest import cli  # noqa: F401  (the fixture)

ROOT = Path(__file__).parent.parent.parent


def readme_example() -> tuple[list[str], str]:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines)
                 if line.startswith("    ptc-tui experiment sample_traces/stock_survey.py"))
    command = lines[start].strip().rstrip("\\") + " " + lines[start + 1].strip()
    table = []
    for line in lines[start + 3:]:
        if not line.strip():
            break
        table.append(line[4:])
    return shlex.split(command)[1:], "\n".join(table) + "\n"


def test_the_readme_table_is_what_the_command_prints(cli, tmp_path, monkeypatch):
    argv, shown = readme_example()
    (tmp_path / "sample_traces").symlink_to(ROOT / "sample_traces")
    monkeypatch.chdir(tmp_path)
    result = cli(*argv)
    assert result.status == 0, result.err
    assert result.out == shown

