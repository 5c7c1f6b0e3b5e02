"""MkDocs hook shim: makes the `generator` package importable from a checkout and hands
over to generator.site.mkdocs_hook (check + render before every build; quick rebuilds
under `serve`) and to generator.site.mkdocs_parallel (pages built on every core during
`mkdocs build`)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from generator.site import mkdocs_hook, mkdocs_parallel  # noqa: E402
from generator.site.mkdocs_hook import on_files, on_pre_build, on_serve  # noqa: E402
from generator.site.mkdocs_parallel import on_build_error, on_nav, on_post_build  # noqa: E402


def on_startup(command, dirty, **kwargs):
    mkdocs_hook.on_startup(command=command, dirty=dirty)
    mkdocs_parallel.on_startup(command=command, dirty=dirty)


def on_env(env, config, files, **kwargs):
    env = mkdocs_hook.on_env(env, config=config, files=files)
    return mkdocs_parallel.on_env(env, config=config, files=files)


__all__ = ["on_build_error", "on_env", "on_files", "on_nav", "on_post_build", "on_pre_build",
           "on_serve", "on_startup"]
