"""MkDocs hook: `mkdocs build` and `mkdocs serve` check and render the entries first, so an
unchecked entry can never reach the site, and editing an entry under `serve` re-renders it.

Registered in mkdocs.yml under `hooks:`. Builders that skip MkDocs hooks (e.g. Zensical)
must run `python -m generator render` first; the generated pages are real files.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any

from mkdocs.exceptions import PluginError

from .. import pipeline
from ..entries.problems import format_problems
from ..pipeline import PRERENDERED_ENV
from ..project import Project
from .render import RenderError

log = logging.getLogger("mkdocs.hooks.generator")
_first_build = True


def _project(config: Any) -> Project:
    return Project(Path(config["config_file_path"]).resolve().parent)


def on_pre_build(config: Any, **kwargs: Any) -> None:
    global _first_build
    skip = _first_build and os.environ.get(PRERENDERED_ENV) == "1"
    _first_build = False
    if skip:
        return  # `python -m generator build` has just checked and rendered
    project = _project(config)
    try:
        result = pipeline.check_and_render(project)
    except RenderError as exc:
        raise PluginError(str(exc)) from None
    if result.errors:
        raise PluginError("entries have problems:\n" + format_problems(result.problems, "text"))
    for p in result.problems:
        log.warning(p.text())
    if result.written or result.removed:
        log.info("generator: %d file(s) written, %d removed", len(result.written), len(result.removed))


def on_serve(server: Any, config: Any, builder: Any, **kwargs: Any) -> Any:
    project = _project(config)
    for folder in (project.entries_dir, project.templates_dir):
        server.watch(str(folder))
    return server
