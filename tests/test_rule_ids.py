"""Every rule id the code or the tests cite (`TC-007`, `API-001..006`) is defined in
docs/history-rules.md, and every file that cites one says where the rules are."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "history-rules.md"
PREFIXES = "API|ARC|CMP|DBG|DEF|ERR|FMT|MSG|SAM|SS|TC|TRN|TYP"
CITED = re.compile(rf"\b({PREFIXES})-(\d{{3}})(?:\.\.(\d{{3}}))?\b")
DEFINED = re.compile(rf"^\| ({PREFIXES})-(\d{{3}}) \|", re.MULTILINE)


def cited_ids(text: str) -> set[str]:
    """The ids in `text`, a range `TC-002..008` counting as each id in it."""
    ids = set()
    for prefix, first, last in CITED.findall(text):
        for n in range(int(first), int(last or first) + 1):
            ids.add(f"{prefix}-{n:03d}")
    return ids


def citing_files() -> dict[Path, set[str]]:
    files = {}
    for folder in ("engine", "ptc_tui", "tests"):
        for path in (ROOT / folder).rglob("*.py"):
            ids = cited_ids(path.read_text(encoding="utf-8"))
            if ids:
                files[path] = ids
    return files


def test_ranges_count_as_each_id_in_them():
    assert cited_ids("(API-001..003, TC-007; SHA-256)") == {"API-001", "API-002", "API-003",
                                                            "TC-007"}


def test_every_cited_id_is_defined_in_the_docs():
    defined = {f"{p}-{n}" for p, n in DEFINED.findall(RULES.read_text(encoding="utf-8"))}
    files = citing_files()
    assert files                                        # the code does cite rules
    undefined = {f"{path.relative_to(ROOT)}: {i}" for path, ids in files.items()
                 for i in ids - defined}
    assert not undefined


def test_each_id_is_defined_once():
    defined = [f"{p}-{n}" for p, n in DEFINED.findall(RULES.read_text(encoding="utf-8"))]
    assert len(defined) == len(set(defined))


def test_every_file_citing_ids_names_the_rules_page():
    files = citing_files()
    assert [str(p.relative_to(ROOT)) for p in files
            if "docs/history-rules.md" not in p.read_text(encoding="utf-8")] == []
