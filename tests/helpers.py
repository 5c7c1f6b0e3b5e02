"""Shared test helpers: a throw-away copy of a project, and golden-file comparison."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "tests" / "fixtures"
GOLDEN = REPO / "tests" / "golden"
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"  # regenerate golden files, then review the diff


def make_project(tmp: Path, entries_from: Path | None = None, with_docs: bool = True) -> Path:
    """A project in tmp: the repository's mkdocs.yml, templates, hooks, overrides, research
    data (the failure sample that entries/taxonomy.yaml cites) and hand-written docs, with
    entries copied from `entries_from` (default: the fixture project)."""
    root = tmp / "project"
    root.mkdir()
    for name in ("mkdocs.yml", "CONTRIBUTING.md"):
        shutil.copy(REPO / name, root / name)
    for name in ("templates", "hooks", "overrides", "research"):
        shutil.copytree(REPO / name, root / name)
    shutil.copytree(entries_from or FIXTURES / "project" / "entries", root / "entries")
    if with_docs:
        docs = root / "docs"
        docs.mkdir()
        for path in sorted((REPO / "docs").rglob("*")):
            rel = path.relative_to(REPO / "docs")
            if path.is_dir() or rel.parts[0] in ("failures", "browse") or rel.as_posix().startswith(
                "assets/generated"
            ) or rel.as_posix() in ("index.md", "contributing.md"):
                continue
            (docs / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(path, docs / rel)
    return root


def compare_golden(name: str, actual: str) -> None:
    path = GOLDEN / name
    if UPDATE or not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(actual, encoding="utf-8")
        if not UPDATE:
            raise AssertionError(f"golden file {path} was missing and has been written; review it")
        return
    expected = path.read_text(encoding="utf-8")
    assert actual == expected, f"{name} differs from its golden file (UPDATE_GOLDEN=1 to regenerate)"
