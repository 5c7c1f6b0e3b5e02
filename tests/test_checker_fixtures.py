"""Every checker code has a failing fixture under tests/fixtures/bad/<CODE>/, and checking
that fixture (next to the good fixture project) reports the code where expect.txt says.
A `provenance/` folder in a fixture becomes the project's provenance/ folder."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from helpers import FIXTURES, compare_golden

from generator.entries import checks
from generator.entries.catalog import load_catalog
from generator.entries.codes import CODES
from generator.project import Project

BAD = FIXTURES / "bad"
CASES = sorted(p.name for p in BAD.iterdir() if p.is_dir())


def _check_fixture(tmp_path: Path, code: str) -> list:
    root = tmp_path / code
    shutil.copytree(FIXTURES / "project", root)
    for item in (BAD / code).iterdir():
        if item.name == "expect.txt":
            continue
        # a provenance/ folder is the project's measured matrix (codes E125-E128)
        target = root / item.name if item.name == "provenance" else root / "entries" / item.name
        if item.is_dir():
            shutil.copytree(item, target)
        else:
            shutil.copy(item, target)
    project = Project(root)
    problems = checks.check_catalog(load_catalog(project))
    entries_dir = project.display(project.entries_dir)
    return [p for p in problems], entries_dir


def test_every_code_has_a_fixture():
    missing = [c.code for c in CODES if c.code not in CASES]
    assert not missing, f"codes without a failing fixture in tests/fixtures/bad/: {missing}"
    unknown = [c for c in CASES if c not in {code.code for code in CODES}]
    assert not unknown, f"fixture folders for unknown codes: {unknown}"


def test_fixture_project_is_clean():
    problems = checks.check_catalog(load_catalog(Project(FIXTURES / "project")))
    assert problems == []


@pytest.mark.parametrize("code", CASES)
def test_fixture_reports_its_code(tmp_path, code, monkeypatch):
    monkeypatch.chdir(tmp_path)
    problems, entries_dir = _check_fixture(tmp_path, code)
    for line in (BAD / code / "expect.txt").read_text().split("\n"):
        if not line.strip():
            continue
        where, expected_code = line.rsplit(" ", 1)
        name, _, pos = where.partition(":")
        found = [p for p in problems if Path(p.path).name == name and p.code == expected_code]
        assert found, f"{code}: expected {line!r}; got:\n" + "\n".join(p.text() for p in problems)
        if pos:
            lc = tuple(int(x) for x in pos.split(":"))
            assert any((p.line, p.column) == lc for p in found), (
                f"{code}: expected at {pos}; got " + ", ".join(f"{p.line}:{p.column}" for p in found)
            )
    # the fixture introduces its own problem and nothing in the good project breaks
    assert all(Path(p.path).name != "ddp-fixture-unused.yaml" or code in ("E110", "E119")
               for p in problems)


def test_checker_output_golden(tmp_path, monkeypatch):
    """The exact messages, so wording changes are reviewed like code."""
    monkeypatch.chdir(tmp_path)
    lines = []
    for code in CASES:
        problems, _ = _check_fixture(tmp_path, code)
        lines.append(f"== {code}")
        lines.extend(p.text() for p in problems)
    compare_golden("checker-bad-fixtures.txt", "\n".join(lines) + "\n")
