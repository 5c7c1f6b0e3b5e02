"""`python -m generator diagnose`, kept apart from the other commands: it imports only the
matcher and the report templates, not the site renderer, the checker or the provenance
tools, because its start-up time is what a reader waits for on every log."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from . import reports


def _err(message: str) -> None:
    print(message, file=sys.stderr)


def replace_unencodable() -> None:
    """A log or entry text that the terminal's encoding cannot show is shown with '?', not
    a UnicodeEncodeError."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.reconfigure(errors="replace")  # type: ignore[union-attr]
        except (AttributeError, ValueError):  # pragma: no cover - replaced streams
            pass


def run_diagnose(root: Path, args: argparse.Namespace) -> int:
    """Exit 0 a known failure was recognised, 1 nothing matched, 2 usage or read error."""
    from ..matching import diagnose, logread

    replace_unencodable()
    try:
        result = diagnose.diagnose_logs(root, args.files)
    except (diagnose.DiagnoseError, logread.LogError) as exc:
        _err(f"error: {exc}")
        return 2
    if args.json:
        sys.stdout.write(reports.diagnose_json(result.verdict))
    else:
        if result.broken:
            _err(f"note: {result.broken} entry file(s) have problems and may be missing from the "
                 "diagnosis; run `python -m generator check`")
        sys.stdout.write(reports.diagnose_text(result.verdict, result.roles, result.actions))
    return 0 if result.verdict["matches"] else 1
