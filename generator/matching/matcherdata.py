"""Build the compiled matcher data that both diagnose engines (Python and JavaScript) use.

The data is plain JSON: the line-cleaning patterns, entry metadata, each signature's
pattern, anchor and context, and the benign-noise patterns. Signatures whose templates do
not compile are left out (the checker reports them).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from ..entries.model import DEFAULT_WINDOW, BenignTemplate, Entry
from . import engine
from .templates import WORD, TemplateError, compile_template

FORMAT_VERSION = 1


def _compiled(template: str) -> dict[str, Any] | None:
    try:
        c = compile_template(template)
    except TemplateError:
        return None
    return {"pattern": c.pattern, "anchor": c.anchor, "key": c.key, "keys": list(c.keys)}


def _choose_keys(items: list[dict[str, Any]]) -> None:
    """Give each pattern its rarest key word, so a log line is tried against few patterns.

    Any of a pattern's words would be exact (every matching line holds all of them); the
    rarest keeps candidate lists short when many signatures share words like 'memory'.
    """
    counts: dict[str, int] = {}
    for item in items:
        for word in item["keys"]:
            counts[word] = counts.get(word, 0) + 1
    for item in items:
        words = item.pop("keys")
        item["key"] = min(words, key=lambda w: (counts[w], -len(w), w)) if words else ""


def build(entries: Iterable[Entry], benign: Iterable[BenignTemplate], roles: Sequence[str],
          url_for: Callable[[str], str] = lambda entry_id: f"failures/{entry_id}/",
          words: Mapping[str, Mapping[str, str]] | None = None,
          action_titles: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The matcher data; `roles` in ranking order, `words` each role's report name and
    explanation, `action_titles` the name of each next-step kind (both shown by the
    browser's Diagnose page)."""
    words = words or {}
    meta: dict[str, Any] = {}
    signatures: list[dict[str, Any]] = []
    for e in sorted(entries, key=lambda e: e.id):
        if e.role not in roles:
            continue  # the checker reports the unknown role
        meta[e.id] = {
            "title": e.title,
            "role": e.role,
            "severity": e.severity,
            "url": url_for(e.id),
            "fix": e.fix.summary.strip(),
            "action": e.action.kind,
            "action_why": e.action.why,
        }
        for index, sig in enumerate(e.signatures):
            main = _compiled(sig.template)
            if main is None:
                continue
            context = [c for c in (_compiled(t) for t in sig.context) if c is not None]
            signatures.append({
                "entry": e.id,
                "index": index,
                **main,
                "context": context,
                "window": sig.window if sig.window > 0 else DEFAULT_WINDOW,
                "weak": sig.weak,
            })
    benign_patterns = [c for c in (_compiled(b.template) for b in benign) if c is not None]
    _choose_keys(benign_patterns + signatures + [c for s in signatures for c in s["context"]])
    return {
        "format": FORMAT_VERSION,
        "roles": list(roles),
        "role_words": {r: dict(words[r]) for r in roles if r in words},
        "action_titles": dict(action_titles or {}),
        "limits": engine.LIMITS,
        "ansi": engine.ANSI,
        "prefixes": [[p, g] for p, g in engine.PREFIXES],
        "rank_in_message": engine.RANK_IN_MESSAGE,
        "word": WORD.pattern,
        "entries": meta,
        "signatures": signatures,
        "benign": benign_patterns,
    }
