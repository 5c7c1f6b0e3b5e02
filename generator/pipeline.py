"""check -> render, the part of the pipeline shared by the CLI and the MkDocs hook."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import yaml

from . import checks, render
from .catalog import Catalog, Project, load_catalog
from .problems import Problem

DEFAULT_EDIT_BASE = "https://github.com/ml-failure-encyclopedia/encyclopedia/edit/main/"


@dataclass
class Result:
    catalog: Catalog
    problems: list[Problem] = field(default_factory=list)
    written: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "error"]


def edit_base(project: Project) -> str:
    """`extra.edit_entry_base` from mkdocs.yml: where 'Edit this entry' links point."""
    try:
        text = (project.root / "mkdocs.yml").read_text(encoding="utf-8")
        # mkdocs.yml uses !!python/name tags for pymdownx; read only the key we need
        for line in text.splitlines():
            if line.strip().startswith("edit_entry_base:"):
                value = yaml.safe_load(line.strip().split(":", 1)[1])
                if isinstance(value, str):
                    return value if value.endswith("/") else value + "/"
    except OSError:
        pass
    return DEFAULT_EDIT_BASE


def check(project: Project, only: list[Path] | None = None) -> Result:
    catalog = load_catalog(project)
    problems = checks.check_catalog(catalog)
    if only:
        wanted = {project.display(p) for p in only}
        problems = [p for p in problems if p.path in wanted]
    return Result(catalog, problems)


def check_and_render(project: Project) -> Result:
    """Check everything; render only when there is no error."""
    result = check(project)
    if result.errors:
        return result
    files = render.plan(result.catalog, project, edit_base(project))
    result.written, result.removed = render.write(project.docs_dir, files)
    return result
