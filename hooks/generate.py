"""MkDocs hook shim: makes the `generator` package importable from a checkout and hands
over to generator.site.mkdocs_hook (check + render before every build and on `serve`) and to
generator.site.mkdocs_parallel (pages built on every core during `mkdocs build`)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from generator.site.mkdocs_hook import on_pre_build, on_serve  # noqa: E402
from generator.site.mkdocs_parallel import on_build_error, on_env, on_nav, on_post_build, on_startup  # noqa: E402

__all__ = ["on_build_error", "on_env", "on_nav", "on_post_build", "on_pre_build", "on_serve",
           "on_startup"]
