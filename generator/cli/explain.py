"""``python -m generator explain ID``: an entry in the terminal.

Prints the parts a reader needs at the console: title, severity, role, category, the
signatures (what to grep for), the summary, the fix with its steps, how to verify, and the
page on the site. An unknown id exits 2 with the closest ids; a former id (``former_ids``)
shows the entry it became.
"""

from __future__ import annotations

import difflib
import sys
import textwrap
from pathlib import Path
from typing import Any, TextIO

from ..entries.catalog import load_catalog
from ..project import Project

WIDTH = 96
ROLE_WORDS = {
    "root": "root cause",
    "collateral": "collateral (a consequence of another failure)",
    "wrapper": "wrapper (a launcher summary that hides the real error)",
}


def _paragraphs(text: Any, indent: str, out: TextIO) -> None:
    """Text as the YAML wrote it: paragraphs re-wrapped, code-like lines kept as they are."""
    if not isinstance(text, str) or not text.strip():
        return
    for para in text.strip().split("\n\n"):
        lines = para.split("\n")
        if any(line.startswith(("  ", "\t", "```", "- ", "* ", "|")) for line in lines):
            for line in lines:
                print(indent + line, file=out)
        else:
            print(textwrap.fill(" ".join(para.split()), width=WIDTH, initial_indent=indent,
                                subsequent_indent=indent), file=out)
        print(file=out)


def _find(entries: list[dict[str, Any]], wanted: str) -> tuple[dict[str, Any] | None, str | None]:
    """(entry, the former id it was found by, if any)."""
    for e in entries:
        if e.get("id") == wanted:
            return e, None
    for e in entries:
        if wanted in (e.get("former_ids") or []):
            return e, wanted
    return None, None


def render(e: dict[str, Any], url: str, out: TextIO, former: str | None = None) -> None:
    title = str(e.get("title", e.get("id")))
    print(f"{e.get('id')}: {title}", file=out)
    print("=" * min(WIDTH, len(str(e.get("id"))) + 2 + len(title)), file=out)
    if former:
        print(f"(formerly '{former}')", file=out)
    facts = [f"severity {e.get('severity', '?')}",
             ROLE_WORDS.get(str(e.get("role")), str(e.get("role"))),
             f"category {e.get('category', '?')}",
             f"component {e.get('component', '?')}"]
    print(" · ".join(facts), file=out)
    print(url, file=out)
    print(file=out)
    sigs = [s for s in e.get("signatures") or [] if isinstance(s, dict)]
    if sigs:
        print("Signatures (text the failing software prints; {holes} vary):", file=out)
        for s in sigs:
            print(f"  {s.get('template', '')}", file=out)
            if s.get("versions"):
                print(f"      {s['versions']}", file=out)
        print(file=out)
    print("Summary", file=out)
    _paragraphs(e.get("summary"), "  ", out)
    fix = e.get("fix") if isinstance(e.get("fix"), dict) else {}
    if fix:
        print("Fix", file=out)
        _paragraphs(fix.get("summary"), "  ", out)
        for n, step in enumerate(fix.get("steps") or [], 1):
            if not isinstance(step, str):
                continue
            first, *rest = textwrap.dedent(step).strip().split("\n", 1)
            print(textwrap.fill(" ".join(first.split()) if not rest else first, width=WIDTH,
                                initial_indent=f"  {n}. ", subsequent_indent="     "), file=out)
            if rest:
                _paragraphs(rest[0], "     ", out)
            else:
                print(file=out)
        if fix.get("verify"):
            print("Verify", file=out)
            _paragraphs(fix.get("verify"), "  ", out)
    related = [r for r in e.get("related") or [] if isinstance(r, str)]
    if related:
        print("Related: " + ", ".join(related), file=out)
        print(file=out)
    print(f"Full entry: {url}", file=out)


def run(root: Path, entry_id: str) -> int:
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.reconfigure(errors="replace")  # type: ignore[union-attr]
        except (AttributeError, ValueError):  # pragma: no cover - replaced streams
            pass
    # the report below reads each entry's mapping as written
    entries = [e.as_written() for e in load_catalog(Project(root)).entries]
    entry, former = _find(entries, entry_id)
    if entry is None:
        ids = sorted(str(e["id"]) for e in entries if isinstance(e.get("id"), str))
        close = difflib.get_close_matches(entry_id, ids, n=3, cutoff=0.6)
        if not close:  # words in another order, or a partial id: 'oom' -> cuda-oom, ...
            parts = [p for p in entry_id.lower().replace("_", "-").split("-") if len(p) > 2]
            close = [i for i in ids if parts and all(p in i for p in parts)][:3]
        hint = f" (did you mean {', '.join(repr(c) for c in close)}?)" if close else ""
        print(f"error: no entry '{entry_id}'{hint}", file=sys.stderr)
        if not close:
            print("  list them with: ls entries/, or browse the site's 'All failures' page",
                  file=sys.stderr)
        return 2
    render(entry, f"{Project(root).site_url()}failures/{entry['id']}/", sys.stdout, former)
    return 0
