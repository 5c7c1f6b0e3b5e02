"""Finding the entry that ``python -m generator explain ID`` asks for: by its id, by a former
id (``former_ids``), else the closest ids for a did-you-mean. Nothing here prints; the report
is templates/terminal/explain.txt.j2.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence

from ..entries.model import Entry


class UnknownEntry(Exception):
    """No entry has this id or former id; ``suggestions`` are the closest ids (maybe none)."""

    def __init__(self, wanted: str, suggestions: list[str]) -> None:
        self.wanted = wanted
        self.suggestions = suggestions
        hint = (f" (did you mean {', '.join(repr(c) for c in suggestions)}?)"
                if suggestions else "")
        super().__init__(f"no entry '{wanted}'{hint}")


def find(entries: Sequence[Entry], wanted: str) -> tuple[Entry, str | None]:
    """(the entry, the former id it was found by, if any); raises UnknownEntry."""
    for e in entries:
        if e.id == wanted:
            return e, None
    for e in entries:
        if wanted in e.former_ids:
            return e, wanted
    raise UnknownEntry(wanted, suggestions(entries, wanted))


def suggestions(entries: Sequence[Entry], wanted: str) -> list[str]:
    """Up to three ids close to ``wanted``: by spelling, else containing all its words."""
    ids = sorted(e.id for e in entries)
    close = difflib.get_close_matches(wanted, ids, n=3, cutoff=0.6)
    if not close:  # words in another order, or a partial id: 'oom' -> cuda-oom, ...
        parts = [p for p in wanted.lower().replace("_", "-").split("-") if len(p) > 2]
        close = [i for i in ids if parts and all(p in i for p in parts)][:3]
    return close
