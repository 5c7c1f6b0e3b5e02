"""MkDocs hook: `mkdocs build` and `mkdocs serve` check and render the entries first, so an
unchecked entry can never reach the site, and editing an entry under `serve` re-renders it.

Registered in mkdocs.yml under `hooks:`. Builders that skip MkDocs hooks (e.g. Zensical)
must run `python -m generator render` first; the generated pages are real files.

Under `serve` the hook keeps a `pipeline.BuildCache` between builds, so a save re-checks
and re-renders only what it affects, and the parts of `serve` that make a rebuild cost
what the edit changed live in `serve`.
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
from . import serve
from .render import RenderError

log = logging.getLogger("mkdocs.hooks.generator")
_first_build = True
_startup = {"command": "", "dirty": False}
_caches: dict[Path, pipeline.BuildCache] = {}  # under `serve`: one per project root


def _project(config: Any) -> Project:
    return Project(Path(config["config_file_path"]).resolve().parent)


def _serving() -> bool:
    return _startup["command"] == "serve"


def on_startup(command: str, dirty: bool, **kwargs: Any) -> None:
    _startup.update(command=command, dirty=dirty)


def on_pre_build(config: Any, **kwargs: Any) -> None:
    global _first_build
    skip = _first_build and os.environ.get(PRERENDERED_ENV) == "1"
    _first_build = False
    if skip:
        return  # `python -m generator build` has just checked and rendered
    project = _project(config)
    cache = None
    if _serving():
        cache = _caches.get(project.root)
        if cache is None:
            cache = _caches[project.root] = pipeline.BuildCache(project)
    try:
        result = pipeline.check_and_render(project, cache)
    except RenderError as exc:
        raise PluginError(str(exc)) from None
    if result.errors:
        raise PluginError("entries have problems:\n" + format_problems(result.problems, "text"))
    for p in result.problems:
        log.warning(p.text())
    if result.written or result.removed:
        log.info("generator: %d file(s) written, %d removed", len(result.written), len(result.removed))
    if _serving() and _startup["dirty"] and result.removed:
        serve.forget_pages(config, result.removed)


def on_files(files: Any, config: Any, **kwargs: Any) -> Any:
    if _serving() and _startup["dirty"]:
        serve.keep_search_entries(config, files)
    return files


def on_env(env: Any, config: Any, files: Any, **kwargs: Any) -> Any:
    if _serving():
        env.bytecode_cache = serve.TEMPLATE_BYTECODE
        if _startup["dirty"]:
            serve.title_unbuilt_pages(config, files)
    return env


def on_serve(server: Any, config: Any, builder: Any, **kwargs: Any) -> Any:
    project = _project(config)
    cache = _caches.get(project.root)
    serve.watch_sources(server, Path(config["docs_dir"]), project.entries_dir, project.templates_dir,
                        cache.entries.unchanged if cache is not None else lambda path: False)
    return server
