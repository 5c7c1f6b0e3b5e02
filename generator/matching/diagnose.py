"""``python -m generator diagnose FILE... [--json]``: which failure a log shows.

The matcher data is built in-process from ``entries/`` (no rendered site needed), the logs
are streamed through ``logread`` into the engine, and the verdict is printed as a text
report or as the JSON object documented in ``docs/diagnose-json.md``.

Exit status: 0 a known failure was recognised, 1 nothing matched, 2 usage or read error
(one line on stderr, never a traceback).
"""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path
from typing import Any, TextIO

from ..entries.catalog import load_catalog
from ..project import Project
from . import engine as engine_mod
from . import logread

EVIDENCE_SHOWN = 3  # evidence lines per match in the text report (JSON has up to 5)
TEXT_WIDTH = 160  # characters of a log line shown in the text report

ROLE_WORDS = {
    "root": "root cause",
    "collateral": "collateral",
    "wrapper": "wrapper",
}
ROLE_EXPLAINED = {
    "collateral": "a consequence: other ranks fail while waiting for, or after losing, the "
                  "rank that failed first; it goes away when the root cause is fixed",
    "wrapper": "a consequence: the launcher or framework reporting that a worker exited; it "
               "wraps the root cause and has no cause of its own",
    "root": "another root-type failure, seen after the first one; check it once that is fixed",
}


def load_data(root: Path) -> tuple[dict[str, Any], int]:
    """(matcher data with absolute entry URLs, number of entry files with load problems)."""
    project = Project(root)
    catalog = load_catalog(project)
    base = project.site_url()
    data = catalog.matcher_with_urls(lambda entry_id: f"{base}failures/{entry_id}/")
    broken = len({p.path for p in catalog.problems if p.severity == "error"})
    return data, broken


def diagnose(data: dict[str, Any], paths: list[str],
             prefilter: logread.Prefilter | None = None) -> dict[str, Any]:
    """The verdict for these log files (raises logread.LogError)."""
    engine = engine_mod.Engine(data)
    results = logread.diagnose_files(paths, engine, prefilter)
    files = [{"name": r.name, "start": r.start, "lines": r.lines} for r in results]
    return engine_mod.attribute_files(engine.verdict(), files)


def run(root: Path, files: list[str], as_json: bool = False) -> int:
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.reconfigure(errors="replace")  # type: ignore[union-attr]
        except (AttributeError, ValueError):  # pragma: no cover - replaced streams
            pass
    if files.count("-") > 1:
        print("error: '-' (stdin) can be given only once", file=sys.stderr)
        return 2
    data, broken = load_data(root)
    if not data["signatures"]:
        print(f"error: no signatures found in {root / 'entries'}; run this inside the "
              "encyclopedia's repository", file=sys.stderr)
        return 2
    try:
        verdict = diagnose(data, files)
    except logread.LogError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if as_json:
        json.dump(verdict, sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
    else:
        if broken:
            print(f"note: {broken} entry file(s) have problems and may be missing from the "
                  "diagnosis; run `python -m generator check`", file=sys.stderr)
        report(verdict, sys.stdout)
    return 0 if verdict["matches"] else 1


# -- text report -------------------------------------------------------------------------------
def _where(item: dict[str, Any], several: bool, single_name: str) -> str:
    name = item.get("file", single_name) if several else single_name
    rank = f", rank {item['rank']}" if item["rank"] is not None else ""
    return f"{name}:{item['line']}{rank}"


def _short_where(item: dict[str, Any], several: bool) -> str:
    """For evidence lines: the file only when there are several."""
    place = f"{item['file']}:{item['line']}" if several and "file" in item else f"line {item['line']}"
    return place + (f", rank {item['rank']}" if item["rank"] is not None else "")


def _short(text: str, width: int = TEXT_WIDTH) -> str:
    text = "".join(ch if ch.isprintable() else " " for ch in text)
    return text if len(text) <= width else text[: width - 3] + "..."


def _wrap(text: str, indent: str) -> str:
    return textwrap.fill(" ".join(text.split()), width=96, initial_indent=indent,
                         subsequent_indent=indent)


def _block(out: TextIO, m: dict[str, Any], number: int, several: bool, single: str) -> None:
    times = "line" if m["count"] == 1 else "lines"
    print(f"{number}. {m['id']}: {m['title']}", file=out)
    print(f"   {ROLE_WORDS[m['role']]}, severity {m['severity'] or '?'}; first at "
          f"{_where(m, several, single)} ({m['count']} {times} matched"
          f"{', confirmed by its context' if m['specific'] else ''})", file=out)
    for e in m["evidence"][:EVIDENCE_SHOWN]:
        print(f"     {_short_where(e, several)}: {_short(e['text'])}", file=out)
    if m["fix"]:
        print(_wrap("Fix: " + m["fix"], "   "), file=out)
    print(f"   More: {m['url']}", file=out)


def report(verdict: dict[str, Any], out: TextIO) -> None:
    files = verdict["files"]
    several = len(files) > 1
    single = files[0]["name"] if files else ""
    names = ", ".join(f["name"] for f in files)
    print(f"Read {verdict['lines']} lines from {names}.", file=out)
    matches = verdict["matches"]
    if not matches:
        print("\nNo known failure recognised. Search the site with the first error line, "
              "or add an entry for it (see Contributing).", file=out)
        return
    first = matches[0]
    print(file=out)
    if verdict["status"] == "root-cause-found":
        print(f"ROOT CAUSE: {first['id']}, {_where(first, several, single)}", file=out)
    else:
        print("NO ROOT CAUSE in this log: only consequences were recognised. The rank that "
              "failed first printed its error elsewhere (another rank's or node's file, or "
              "before the log starts); diagnose all ranks' files together.", file=out)
    print(file=out)
    _block(out, first, 1, several, single)
    rest = matches[1:]
    if not rest:
        return
    if verdict["status"] == "root-cause-found":
        print("\nAlso recognised; explained by the root cause above:", file=out)
    else:
        print("\nAlso recognised:", file=out)
    for number, m in enumerate(rest, 2):
        print(file=out)
        _block(out, m, number, several, single)
        print(_wrap("Why listed: " + ROLE_EXPLAINED[m["role"]] + ".", "   "), file=out)
