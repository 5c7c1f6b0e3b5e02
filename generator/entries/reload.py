"""Load, convert and check again only what changed since the last build in this process.

A long-running process (`python -m generator serve`) checks the whole catalog after every
save. `EntryCache` keeps what the previous build found and gives the same answer as a build
from scratch (tests compare them), doing only the work whose answer can differ:

- every file is read again, but parsed again only when its bytes differ from last time
  (comparing the bytes, not the modification time, so no save is ever missed);
- a document is converted to an entry and run through the per-entry checks once (again
  when the categories and components it is checked against change);
- the fingerprint check (is each fingerprint diagnosed as its own entry first?) runs for
  the entries that changed, and for the entries whose fingerprint a changed signature
  matches, before or after the change: no other verdict can differ;
- the cheap cross-entry checks (unique ids, related ids, benign templates, categories)
  run in full every time.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..matching.engine import Engine, diagnose_text
from ..project import Project
from . import checks, model
from .catalog import Catalog, catalog_from, load_sources
from .loader import MAX_BYTES, Document, load_file
from .model import Entry, ModelError
from .problems import Problem


@dataclass
class _Loaded:
    raw: bytes
    doc: Document
    problems: list[Problem]


@dataclass
class _Fingerprints:
    """The fingerprint check's answer for one catalog, and what it was computed from."""

    data: dict[str, Any]  # the matcher data
    shared: str  # everything in it that is not a signature or an entry's role, as JSON
    signatures: dict[str, str]  # entry id -> its signatures and role, as JSON
    entries: dict[str, Entry]  # file -> the entry that was checked (ids may be duplicates)
    problems: dict[str, list[Problem]]  # file -> its entry's fingerprint problems


class EntryCache:
    """What one process keeps between builds so that the next build re-does only the work
    that the changed files affect. Not thread-safe: one build at a time."""

    def __init__(self) -> None:
        self._files: dict[tuple[Path, str], _Loaded] = {}
        self._bytes: dict[Path, bytes] = {}  # what the last load of each file read
        self._entries: dict[int, tuple[Document, Entry | ModelError]] = {}
        self._checked: dict[int, tuple[Document, checks.Context, list[Problem]]] = {}
        self._fingerprints: _Fingerprints | None = None
        self.stats = {"parsed": 0, "converted": 0, "checked": 0, "fingerprints": 0}  # last build

    # -- loading -------------------------------------------------------------------------
    def catalog(self, project: Project) -> Catalog:
        """The catalog as `load_catalog` builds it, reusing unchanged files' documents and
        entries."""
        self.stats = dict.fromkeys(self.stats, 0)
        seen: set[tuple[Path, str]] = set()

        def load(path: Path, display: str) -> tuple[Document, list[Problem]]:
            seen.add((path, display))
            return self.load(path, display)

        catalog = catalog_from(load_sources(project, load), self.entry)
        self._files = {k: v for k, v in self._files.items() if k in seen}
        self._bytes = {path: v.raw for (path, _), v in self._files.items()}
        live = {id(doc) for doc in catalog.sources.docs}
        self._entries = {k: v for k, v in self._entries.items() if k in live}
        return catalog

    def load(self, path: Path, display: str) -> tuple[Document, list[Problem]]:
        """`load_file`, parsing the file again only when its bytes changed."""
        try:
            raw = path.read_bytes() if path.stat().st_size <= MAX_BYTES else None
        except OSError:
            raw = None
        if raw is None:  # unreadable or too big: load_file says so
            return load_file(path, display)
        self._bytes[path] = raw
        known = self._files.get((path, display))
        if known is not None and known.raw == raw:
            return known.doc, list(known.problems)
        doc, problems = load_file(path, display)
        self.stats["parsed"] += 1
        # `raw` was read before load_file read the file again: if a save came in between,
        # the next build sees bytes that differ from `raw` and parses the file again
        self._files[(path, display)] = _Loaded(raw, doc, list(problems))
        return doc, problems

    def unchanged(self, path: Path) -> bool:
        """Whether the file holds the bytes that the last load of it read: a change that a
        build has already seen (or a save that changed nothing). May be called from another
        thread while a build runs."""
        known = self._bytes.get(path)
        try:
            return known is not None and path.read_bytes() == known
        except OSError:
            return False

    def entry(self, doc: Document) -> Entry:
        """`model.entry_from`, once per document."""
        known = self._entries.get(id(doc))
        if known is None or known[0] is not doc:
            self.stats["converted"] += 1
            try:
                result: Entry | ModelError = model.entry_from(doc)
            except ModelError as exc:
                result = exc
            known = self._entries[id(doc)] = (doc, result)
        if isinstance(known[1], ModelError):
            raise known[1].with_traceback(None)  # no traceback piling up over builds
        return known[1]

    # -- checking ------------------------------------------------------------------------
    def check(self, catalog: Catalog) -> list[Problem]:
        """`checks.check_catalog(catalog)`, reusing what the last build found."""
        cross = [self.check_fingerprints if c is checks.check_fingerprints else c
                 for c in checks.CATALOG_CHECKS]
        problems = checks.check_catalog(catalog, self.check_entry, cross)
        live = {id(doc) for doc in catalog.sources.docs}
        self._checked = {k: v for k, v in self._checked.items() if k in live}
        return problems

    def check_entry(self, doc: Document, ctx: checks.Context) -> list[Problem]:
        known = self._checked.get(id(doc))
        if known is None or known[0] is not doc or known[1] != ctx:
            self.stats["checked"] += 1
            known = self._checked[id(doc)] = (doc, ctx, checks.check_entry(doc, ctx))
        return list(known[2])

    def check_fingerprints(self, catalog: Catalog) -> list[Problem]:
        data = catalog.matcher
        shared, signatures = _matching_parts(data)
        before = self._fingerprints
        if before is None or before.shared != shared:
            recheck = list(catalog.entries)
        else:
            changed = {i for i in signatures.keys() | before.signatures.keys()
                       if signatures.get(i) != before.signatures.get(i)}
            hit = _ids_matching(changed, before.data, data, catalog.entries)
            recheck = [e for e in catalog.entries
                       if before.entries.get(e.path) is not e or e.id in changed or e.id in hit]
        self.stats["fingerprints"] = len(recheck)
        found: dict[str, list[Problem]] = {e.path: [] for e in recheck}
        for p in checks.check_fingerprints(catalog, recheck):
            found[p.path].append(p)
        kept = before.problems if before is not None else {}
        problems = {e.path: found[e.path] if e.path in found else kept[e.path]
                    for e in catalog.entries}
        self._fingerprints = _Fingerprints(data, shared, signatures,
                                           {e.path: e for e in catalog.entries}, problems)
        return [p for e in catalog.entries for p in problems[e.path]]


def _matching_parts(data: dict[str, Any]) -> tuple[str, dict[str, str]]:
    """The matcher data split into what every verdict depends on and, per entry, its
    signatures and role. A pattern's key word is left out: any of its words selects exactly
    the lines it can match, so which one was chosen never changes a verdict."""
    def without_key(item: dict[str, Any]) -> dict[str, Any]:
        return {k: without_key_list(v) if k == "context" else v
                for k, v in item.items() if k != "key"}

    def without_key_list(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [without_key(i) for i in items]

    shared = json.dumps({k: without_key_list(v) if k == "benign" else v
                         for k, v in data.items() if k not in ("signatures", "entries")},
                        sort_keys=True)
    per_entry: dict[str, list[dict[str, Any]]] = {i: [] for i in data["entries"]}
    for s in data["signatures"]:
        per_entry.setdefault(s["entry"], []).append(without_key(s))
    roles = {i: m["role"] for i, m in data["entries"].items()}
    return shared, {i: json.dumps([roles.get(i), sigs], sort_keys=True)
                    for i, sigs in per_entry.items()}


def _ids_matching(changed: set[str], before: dict[str, Any], after: dict[str, Any],
                  entries: tuple[Entry, ...]) -> set[str]:
    """Ids of the entries whose fingerprint a signature of a changed entry matches, as it
    was before or as it is now."""
    if not changed:
        return set()
    sigs = [s for data in (before, after) for s in data["signatures"] if s["entry"] in changed]
    if not sigs:
        return set()
    meta = {**{i: m for i, m in before["entries"].items() if i in changed},
            **{i: m for i, m in after["entries"].items() if i in changed}}
    engine = Engine({**after, "signatures": sigs, "entries": meta})
    return {e.id for e in entries
            if e.fingerprint.strip() and diagnose_text(engine, e.fingerprint)["matches"]}
