"""check -> render, the part of the pipeline shared by the CLI and the MkDocs hook."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .entries import checks
from .entries.catalog import Catalog, load_catalog
from .entries.problems import Problem
from .project import Project
from .site import render

# Set by `python -m generator build`, which has just checked and rendered, so that the
# MkDocs hook skips doing it again once.
PRERENDERED_ENV = "FAILURE_ENCYCLOPEDIA_PRERENDERED"


@dataclass
class Result:
    catalog: Catalog
    problems: list[Problem] = field(default_factory=list)
    written: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "error"]


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
    files = render.plan(result.catalog, project, project.edit_base())
    result.written, result.removed = render.write(project.docs_dir, files)
    return result
