"""What each CLI command does. Each run_* takes the repository root and parsed arguments
and returns the exit code; printing happens here, never in the library modules."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

from .. import pipeline
from ..entries.codes import CODES
from ..entries.problems import format_problems, summary_line
from ..pipeline import PRERENDERED_ENV
from ..project import Project
from ..site.render import RenderError
from . import reports
from .diagnose_command import replace_unencodable as _replace_unencodable


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


def run_reproduce(root: Path, args: argparse.Namespace) -> int:
    """Exit 0 every selected reproduction passed or was skipped, 1 one failed, 2 usage error
    (unknown id, no or bad reproduce: block, torch not installed)."""
    from .. import reproduce

    try:
        session = reproduce.prepare(root, args.ids)
    except reproduce.ReproduceError as exc:
        _err(f"error: {exc}")
        return 2
    report = reports.ReproduceReport()
    out = sys.stdout
    out.write(report.header(session.torch, len(session.selected)))
    counts = {"pass": 0, "fail": 0, "skip": 0}
    start = time.monotonic()
    for outcome in session.run(record_logs=args.record):
        counts[outcome.status] += 1
        out.write(report.outcome(outcome, [p.relative_to(root) for p in outcome.written]))
        out.flush()
    out.write(report.summary(counts, time.monotonic() - start))
    return 1 if counts["fail"] else 0


def run_explain(root: Path, args: argparse.Namespace) -> int:
    """Exit 0 shown, 2 no such entry (with the closest ids)."""
    from ..entries.catalog import load_catalog
    from ..provenance.matrix import printed_by as printed_by_of
    from . import explain

    _replace_unencodable()
    project = Project(root)
    catalog = load_catalog(project)
    try:
        entry, former = explain.find(catalog.entries, args.id)
    except explain.UnknownEntry as exc:
        _err(f"error: {exc}")
        if not exc.suggestions:
            _err("  list them with: ls entries/, or browse the site's 'All failures' page")
        return 2
    url = f"{project.site_url()}failures/{entry.id}/"
    role = next(r for r in catalog.vocabulary.roles if r.id == entry.role)
    action = next(a for a in catalog.vocabulary.actions if a.id == entry.action.kind)
    printed_by = printed_by_of(root, [entry]).get(entry.id, ())
    sys.stdout.write(reports.explain_text(entry, role, action, url, former, printed_by))
    return 0


def run_schema(root: Path, args: argparse.Namespace) -> int:
    """Write (or, with --check, verify) what is generated from the code's definitions: the
    entry schema, the verdict schema and the verdict's reference page. Exit 0 current (or
    written), 1 stale (--check), 2 the page exists and was not generated (never overwritten)."""
    from ..entries.schema_export import SCHEMA_PATH, project_words, render_schema
    from ..matching import verdict_schema

    words = project_words(Project(root))
    outputs = [(SCHEMA_PATH, render_schema(words)),
               (verdict_schema.SCHEMA_PATH, verdict_schema.render_schema(words)),
               (verdict_schema.PAGE_PATH, verdict_schema.render_page())]
    stale = []
    for rel, text in outputs:
        target = root / rel
        current = target.read_text(encoding="utf-8") if target.exists() else None
        if current != text:
            stale.append((rel, target, current, text))
    if args.check:
        for rel, *_ in stale:
            _err(f"{rel} is stale: run `python -m generator schema`")
        return 1 if stale else 0
    for rel, _, current, _ in stale:
        if rel == verdict_schema.PAGE_PATH and current is not None \
                and not verdict_schema.page_is_generated(current):
            _err(f"error: {rel} exists and was not written by the generator; move it away "
                 "(the generator never overwrites hand-written files)")
            return 2
    for rel, target, _, text in stale:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        _err(f"wrote {rel}")
    return 0


def run_provenance(root: Path, args: argparse.Namespace) -> int:
    """Exit 0 matrix written (or current, or holes listed), 1 an artifact could not be
    fetched or is missing from the cache, 2 usage error (bad artifact list, no matrix)."""
    from . import provenance

    return provenance.run(root, args)


def run_new(root: Path, args: argparse.Namespace) -> int:
    """Exit 0 written, 2 not written (bad or used id, the file exists, unknown --from)."""
    from ..entries import scaffold
    from ..entries.checks import SCAFFOLD_MARKER

    project = Project(root)
    try:
        made = scaffold.create(project, args.id, args.from_id)
    except scaffold.ScaffoldError as exc:
        _err(f"error: {exc}")
        return 2
    sys.stdout.write(reports.new_text(project.display(made.entry), project.display(made.logs),
                                      SCAFFOLD_MARKER))
    return 0


__all__ = [
    "run_build",
    "run_check",
    "run_explain",
    "run_new",
    "run_provenance",
    "run_render",
    "run_reproduce",
    "run_schema",
    "run_serve",
]
