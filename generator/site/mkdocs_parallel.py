"""MkDocs hook part: build the site's pages on every core, behind one guarded door.

MkDocs 1.6 builds pages one after another on one core: it converts every page's Markdown,
then renders every page through the theme's templates, where Material's search plugin also
splits each page's HTML with a pure-Python parser. For this site that is nearly all of a
build. `generator.site.parallel` does that work in forked worker processes and takes a
worker's result only where it is provably the same work (see its `build` module); a test
builds the site both ways and compares every output file byte for byte.

This module is the only way in: the MkDocs events below. It runs the parallel build only
- for `mkdocs build` and `gh-deploy` (not `serve`, not `--dirty`), on Linux (it forks),
  when no other thread runs and there are two or more workers
  (FAILURE_ENCYCLOPEDIA_WORKERS=N sets the number; 1 gives MkDocs' own serial build);
- on the exact MkDocs and Material releases it is verified with (`parallel.versions`);
  it is the only code that imports the adapter (`parallel.adapter`, every MkDocs and
  Material internal it touches), and only after that check.
Any other release, and any exception at any point (the adapter's import, a hook event, a
stand-in called by MkDocs, a worker), leaves the build to MkDocs and Material, serially,
with one info line saying why:
`parallel build off: mkdocs-material 9.7.1 is not on the verified list; building serially`.
"""

from __future__ import annotations

import logging
import os
import sys
import threading
from typing import Any

from .parallel import versions
from .parallel.build import ParallelBuild

WORKERS_ENV = "FAILURE_ENCYCLOPEDIA_WORKERS"

log = logging.getLogger("mkdocs.hooks.generator.parallel")

_startup = {"command": "", "dirty": False}
_build = ParallelBuild()  # the build under way


def worker_count() -> int:
    """Workers to use: the environment's setting, else the CPUs this process may run on."""
    setting = os.environ.get(WORKERS_ENV, "").strip()
    if setting.isdigit() and int(setting) > 0:
        return int(setting)
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def why_serial(workers: int) -> str | None:
    """Why this build is serial by choice or by circumstance, or None."""
    if _startup["command"] not in ("build", "gh-deploy"):
        return f"command {_startup['command'] or 'unknown'!r}"
    if _startup["dirty"]:
        return "--dirty"
    if workers < 2:
        return "one worker"
    if not sys.platform.startswith("linux"):  # fork is missing (Windows) or unsafe (macOS)
        return f"platform {sys.platform}"
    if threading.active_count() > 1:
        return "other threads are running"
    return None


def on_startup(command: str, dirty: bool, **kwargs: Any) -> None:
    _startup.update(command=command, dirty=dirty)


def on_nav(nav: Any, config: Any, files: Any, **kwargs: Any) -> Any:
    global _build
    _build.close()
    _build = ParallelBuild()
    workers = worker_count()
    reason = why_serial(workers)
    if reason:
        log.debug("parallel build off: %s", reason)
        return nav
    try:
        unverified = versions.why_unverified()
    except Exception as exc:  # noqa: BLE001
        _build.fail("while reading the MkDocs and Material versions", exc)
        return nav
    if unverified:
        _build.off(unverified)
        return nav
    try:
        from .parallel import adapter
    except Exception as exc:  # noqa: BLE001 (a renamed or missing internal)
        _build.fail("while importing the MkDocs/Material adapter", exc)
        return nav
    try:
        _build.begin(adapter, config, files, workers)
    except Exception as exc:  # noqa: BLE001
        _build.fail("in on_nav", exc)
    return nav


def on_env(env: Any, config: Any, files: Any, **kwargs: Any) -> Any:
    try:
        _build.use_env(env)
    except Exception as exc:  # noqa: BLE001
        _build.fail("in on_env", exc)
    return env


def on_post_build(config: Any, **kwargs: Any) -> None:
    try:
        _build.finish()
    except Exception as exc:  # noqa: BLE001
        _build.fail("in on_post_build", exc)


def on_build_error(error: Exception, **kwargs: Any) -> None:
    try:
        _build.close()
    except Exception:  # the build already failed: its own error is the one to report
        log.debug("parallel build: could not clean up", exc_info=True)
