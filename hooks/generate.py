"""MkDocs hook shim: makes the `generator` package importable from a checkout and hands
over to generator.mkdocs_hook (check + render before every build and on `serve`)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from generator.mkdocs_hook import on_pre_build, on_serve  # noqa: E402

__all__ = ["on_pre_build", "on_serve"]
