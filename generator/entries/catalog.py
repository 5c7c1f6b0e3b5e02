"""Find and load the project's YAML: entries, categories and benign noise."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..project import Project
from .loader import Document, load_file
from .problems import Problem

CATEGORIES_FILE = "categories.yaml"
BENIGN_FILE = "benign.yaml"
TAXONOMY_FILE = "taxonomy.yaml"
SPECIAL_FILES = (CATEGORIES_FILE, BENIGN_FILE, TAXONOMY_FILE)
VERIFIED_FILE = "reproductions/verified.json"  # written by `python -m generator reproduce --record`


@dataclass
class Catalog:
    project: Project
    docs: list[Document] = field(default_factory=list)  # entry documents, sorted by path
    categories: Document | None = None
    benign: Document | None = None
    taxonomy: Document | None = None
    verified: dict[str, Any] = field(default_factory=dict)  # id -> reproduction record
    problems: list[Problem] = field(default_factory=list)  # load problems

    def entries(self) -> list[dict[str, Any]]:
        return [d.data for d in self.docs if isinstance(d.data, dict)]


def entry_files(project: Project) -> list[Path]:
    if not project.entries_dir.is_dir():
        return []
    return sorted(p for p in project.entries_dir.glob("*.yaml") if p.name not in SPECIAL_FILES)


def load_catalog(project: Project, only: list[Path] | None = None) -> Catalog:
    """Load every entry (or only the given files) plus the shared definition files.

    Cross-entry checks always need every entry, so `only` narrows which files' problems
    are reported, not which entries are loaded.
    """
    cat = Catalog(project)
    for path in entry_files(project):
        doc, problems = load_file(path, project.display(path))
        cat.docs.append(doc)
        cat.problems.extend(problems)
    for name in SPECIAL_FILES:
        path = project.entries_dir / name
        if name == TAXONOMY_FILE and not path.exists():
            continue  # optional: only the coverage page needs it
        doc, problems = load_file(path, project.display(path))
        cat.problems.extend(problems)
        if name == CATEGORIES_FILE:
            cat.categories = doc
        elif name == BENIGN_FILE:
            cat.benign = doc
        else:
            cat.taxonomy = doc
    verified = project.root / VERIFIED_FILE
    if verified.is_file():
        try:
            data = json.loads(verified.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            cat.problems.append(Problem(project.display(verified), 1, 1, "E002",
                                        f"cannot read reproduction records: {exc}"))
        else:
            if isinstance(data, dict):
                cat.verified = data
    return cat
