"""check -> render, the part of the pipeline shared by the CLI and the MkDocs hook."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .entries import checks
from .entries.catalog import Catalog, load_catalog
from .entries.problems import Problem
from .entries.reload import EntryCache
from .project import Project
from .site import render
from .site.pagecache import PageCache

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


class BuildCache:
    """What a long-running process (`serve`) keeps between builds of one project, so that
    each check and render after the first does only the work that the changed files
    affect, with the same result as a build from scratch."""

    def __init__(self, project: Project) -> None:
        self.project = project
        self.entries = EntryCache()
        self.pages = PageCache(project.templates_dir)


def check(project: Project, only: list[Path] | None = None, cache: BuildCache | None = None) -> Result:
    if cache is None:
        catalog = load_catalog(project)
        problems = checks.check_catalog(catalog)
    else:
        catalog = cache.entries.catalog(project)
        problems = cache.entries.check(catalog)
    if only:
        wanted = {project.display(p) for p in only}
        problems = [p for p in problems if p.path in wanted]
    return Result(catalog, problems)


def check_and_render(project: Project, cache: BuildCache | None = None) -> Result:
    """Check everything; render only when there is no error."""
    result = check(project, cache=cache)
    if result.errors:
        return result
    files = render.plan(result.catalog, project, project.edit_base(),
                        cache.pages if cache is not None else None)
    result.written, result.removed = render.write(project.docs_dir, files)
    return result
