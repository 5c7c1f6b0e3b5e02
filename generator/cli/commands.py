"""What each CLI command does. Each run_* takes the repository root and parsed arguments
and returns the exit code; printing happens here, never in the library modules."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

from .. import pipeline
from ..entries.codes import CODES
from ..entries.problems import format_problems, summary_line
from ..pipeline import PRERENDERED_ENV
from ..project import Project
from ..site.render import RenderError


def _err(message: str) -> None:
    print(message, file=sys.stderr)


def run_check(root: Path, args: argparse.Namespace) -> int:
    if args.list_codes:
        for c in CODES:
            print(f"{c.code}  {c.severity:<7}  {c.title}: {c.explanation}")
        return 0
    project = Project(root)
    for p in args.paths:
        if not p.is_file():
            _err(f"error: {p}: no such file")
            return 2
    result = pipeline.check(project, [Path(p) for p in args.paths] or None)
    text = format_problems(result.problems, args.format)
    if text:
        print(text)
    if args.format == "text":
        files = len(args.paths) or len(result.catalog.sources.docs)
        _err(summary_line(result.problems, files))
    return 1 if result.problems else 0


def _render(root: Path) -> int:
    project = Project(root)
    try:
        result = pipeline.check_and_render(project)
    except RenderError as exc:
        _err(f"error: {exc}")
        return 2
    if result.problems:
        print(format_problems(result.problems, "text"))
        _err(summary_line(result.problems, len(result.catalog.sources.docs)))
    if result.errors:
        _err("not rendered: fix the errors above first")
        return 1
    _err(f"rendered {len(result.catalog.sources.docs)} entries: {len(result.written)} file(s) written, "
         f"{len(result.removed)} removed")
    return 0


def run_render(root: Path, args: argparse.Namespace) -> int:
    return _render(root)


def _mkdocs(root: Path, *argv: str) -> int:
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    env[PRERENDERED_ENV] = "1"
    cmd = [sys.executable, "-m", "mkdocs", *argv]
    return subprocess.call(cmd, cwd=root, env=env)


def run_build(root: Path, args: argparse.Namespace) -> int:
    code = _render(root)
    if code:
        return code
    extra = ["--site-dir", str(args.site_dir.resolve())] if args.site_dir else []
    return 1 if _mkdocs(root, "build", "--strict", *extra) else 0


def run_serve(root: Path, args: argparse.Namespace) -> int:
    from ..site import serve

    return serve.run(root, args.dev_addr)


def run_diagnose(root: Path, args: argparse.Namespace) -> int:
    from ..matching import diagnose

    return diagnose.run(root, args.files, as_json=args.json)


def run_reproduce(root: Path, args: argparse.Namespace) -> int:
    from .. import reproduce

    return reproduce.run(root, args.ids, record_logs=args.record)


def run_explain(root: Path, args: argparse.Namespace) -> int:
    from . import explain

    return explain.run(root, args.id)


def run_schema(root: Path, args: argparse.Namespace) -> int:
    from ..entries.schema_export import SCHEMA_PATH, render_schema

    target = root / SCHEMA_PATH
    text = render_schema()
    current = target.read_text(encoding="utf-8") if target.exists() else None
    if args.check:
        if current != text:
            _err(f"{SCHEMA_PATH} is stale: run `python -m generator schema`")
            return 1
        return 0
    if current != text:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        _err(f"wrote {SCHEMA_PATH}")
    return 0


def run_new(root: Path, args: argparse.Namespace) -> int:
    from ..entries import scaffold

    return scaffold.run(root, args.id, args.from_id)


__all__ = ["run_check", "run_render", "run_build", "run_serve", "run_diagnose", "run_explain",
           "run_new", "run_schema", "run_reproduce"]
