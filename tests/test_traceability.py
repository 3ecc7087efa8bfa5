"""The traceability docs point at code that exists: each name they cite in backticks is found in
the file they cite it with (an abbreviation such as ``Tc.verify_bet``, a ``(path)`` beside a
private name, a ``test_file.py::test``), and every other name somewhere in the sources. Renames
left ``_next_hand`` and ``_coup_announcements`` behind until this test read the docs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = sorted((ROOT / "docs").glob("traceability-*.md"))
SOURCES = "\n".join(path.read_text(encoding="utf-8") for package in ("shared", "tui_common", "madero_tui", "midi_tui")
                    for path in sorted((ROOT / package).rglob("*.py")))
TESTS = "\n".join(path.read_text(encoding="utf-8") for path in sorted((ROOT / "tests").glob("*.py")))
NAME = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*(?:\(\))?")
TEST_REF = re.compile(r"(test_\w+\.py)?::(\w+)")


def _has(text: str, name: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text) is not None


def _abbreviations(doc: str) -> dict[str, Path]:
    """``X`` = ``file``: a bare file is in the table package the doc names (or tests/)."""
    package = next(iter(re.findall(r"`((?:shared|tui_common)/[\w/]+/)`", doc)), "")
    return {key: ROOT / (path if "/" in path else ("tests/" if path.startswith("test_") else package) + path)
            for key, path in re.findall(r"`(\w+)` = `([\w/.]+\.py)`", doc)}


def _missing(doc_path: Path) -> list[str]:
    doc = doc_path.read_text(encoding="utf-8")
    abbreviations = _abbreviations(doc)
    missing = []
    for row in (line for line in doc.splitlines() if line.startswith("|") and not line.startswith("|--")):
        cells = row.strip("|").split("|")
        for column, cell in enumerate(cells[-2:]):  # "where" and "test", the last two columns
            searched = SOURCES if column == 0 else SOURCES + TESTS  # the test column names test helpers too
            quoted = re.findall(r"`([^`]+)`", cell)
            paths = [ROOT / q for q in quoted if q.endswith(".py") and "/" in q]
            missing += [f"{p.relative_to(ROOT)}: no such file" for p in paths if not p.exists()]
            test_file = None
            for ref in TEST_REF.finditer(cell):
                test_file = ref.group(1) or test_file
                if test_file and not _has((ROOT / "tests" / test_file).read_text(encoding="utf-8"), ref.group(2)):
                    missing.append(f"{test_file}::{ref.group(2)}")
            missing += _missing_tests(cell, abbreviations)
            for q in quoted:
                if not NAME.fullmatch(q) or q in abbreviations or q.startswith("test_"):
                    continue
                head, _, rest = q.removesuffix("()").partition(".")
                if head in abbreviations and rest:
                    if not _has(abbreviations[head].read_text(encoding="utf-8"), rest.split(".")[0]):
                        missing.append(f"{q}: not in {abbreviations[head].relative_to(ROOT)}")
                elif head.startswith("_") and paths:  # a private name lives only in its module
                    if not any(_has(p.read_text(encoding="utf-8"), head) for p in paths if p.exists()):
                        missing.append(f"{q}: not in {', '.join(str(p.relative_to(ROOT)) for p in paths)}")
                elif not _has(searched, q.removesuffix("()").split(".")[-1]):
                    missing.append(f"{q}: nowhere in the sources")
    return missing


def _missing_tests(cell: str, abbreviations: dict[str, Path]) -> list[str]:
    """``set `test_a`, `test_b``: a test named after a test file's abbreviation is in that file;
    one named alone, in some test file."""
    missing, current = [], None
    for word, quoted in re.findall(r"(?<![`\w])(\w+)(?![`\w])|`([^`]+)`", cell):
        if word:
            path = abbreviations.get(word)
            current = path if path is not None and path.name.startswith("test_") else current
        elif re.fullmatch(r"test_\w+", quoted.split("[")[0]):
            name = quoted.split("[")[0]
            if not _has(current.read_text(encoding="utf-8") if current else TESTS, name):
                missing.append(f"{name}: not in {current.name if current else 'tests/'}")
    return missing


@pytest.mark.parametrize("doc", DOCS, ids=lambda path: path.name)
def test_every_name_a_traceability_doc_cites_exists_where_it_says(doc):
    assert _missing(doc) == []


def test_the_check_reads_the_docs():
    assert len(DOCS) == 2
    madero = _abbreviations((ROOT / "docs/traceability-madero.md").read_text(encoding="utf-8"))
    assert madero["Tc"] == ROOT / "shared/madero/table/commands.py" and madero["set"].parent.name == "tests"
