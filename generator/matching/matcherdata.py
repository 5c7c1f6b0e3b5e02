"""Build the compiled matcher data that both diagnose engines (Python and JavaScript) use.

The data is plain JSON: the line-cleaning patterns, entry metadata, each signature's
pattern, anchor and context, and the benign-noise patterns. Signatures whose templates do
not compile are left out (the checker reports them).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from ..entries.model import DEFAULT_WINDOW, BenignTemplate, Entry
from . import engine
from .templates import HOLES, WORD, TemplateError, compile_template
from .templates import _tokenize as tokenize

FORMAT_VERSION = 4
# Suggestions when nothing matches: words of at least three characters, compared lowercased;
# words in more than a quarter of the entries and common English words carry no signal.
TOKEN = r"[A-Za-z][A-Za-z0-9_]{2,}"
STOP_SHARE = 4  # a word in more than 1/STOP_SHARE of the entries is a stop word
ENGLISH = ("the", "and", "for", "with", "not", "was", "are", "but", "this", "that", "from",
           "you", "your", "has", "have", "can", "will", "its", "all", "any", "one", "when",
           "while", "which", "there", "been", "use", "than", "into", "got", "see", "may")
MIN_SCORE = 30  # Dice coefficient in percent, below which an entry is not suggested
MIN_COMMON = 2  # words an error line and a signature or title must share
MAX_SUGGESTIONS = 3


def _compiled(template: str) -> dict[str, Any] | None:
    try:
        c = compile_template(template)
    except TemplateError:
        return None
    return {"pattern": c.pattern, "anchor": c.anchor, "needle": c.phrase, "key": c.key,
            "keys": list(c.keys)}


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
    entries_seen: list[Entry] = []
    for e in sorted(entries, key=lambda e: e.id):
        if e.role not in roles:
            continue  # the checker reports the unknown role
        entries_seen.append(e)
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
                "generic": sig.generic,
                "repeated": sig.repeated,
            })
    benign = list(benign)
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
        "embedded": engine.EMBEDDED,
        "embedded_max": engine.EMBEDDED_MAX,
        "wrap": engine.WRAP,
        "blank": engine.BLANK,
        "event_mark": engine.EVENT_MARK,
        "error_line": engine.ERROR_LINE,
        "time": engine.TIME,
        "time_max": engine.TIME_MAX,
        "time_lookback": engine.TIME_LOOKBACK,
        "error_needles": list(engine.ERROR_NEEDLES),
        "word": WORD.pattern,
        # the hole patterns, so the header search can cut a signature's pattern back into
        # literal text and holes (a pasted line may stop anywhere inside a signature)
        "holes": sorted((p for p, _ in HOLES.values()), key=lambda p: (-len(p), p)),
        "entries": meta,
        "signatures": signatures,
        "benign": benign_patterns,
        "suggest": _suggest_data(entries_seen),
        "cut": _cut_data(entries_seen, benign),
    }


def _lead(template: str) -> str | None:
    """The literal text a template starts with, blank runs as one space; None if it starts
    with a hole or does not compile."""
    try:
        pieces = tokenize(template)
    except TemplateError:
        return None
    if not pieces or pieces[0][0] != "lit":
        return None
    return re.sub(r"[ \t]+", " ", pieces[0][1]).strip(" ")


def _cut_data(entries: list[Entry], benign: list[BenignTemplate]) -> dict[str, Any]:
    """What the engines need to name a message a log ends inside (engine.CUT_MIN): the
    leading text of every signature that is not weak, and of every benign template (entry
    "", so a cut benign line names nothing)."""
    texts: list[list[Any]] = []
    for e in entries:
        for index, sig in enumerate(e.signatures):
            lead = _lead(sig.template)
            if lead is not None and not sig.weak and len(lead) >= engine.CUT_MIN:
                texts.append([e.id, index, lead])
    for b in benign:
        lead = _lead(b.template)
        if lead is not None and len(lead) >= engine.CUT_MIN:
            texts.append(["", -1, lead])
    return {"min": engine.CUT_MIN, "slack": engine.CUT_SLACK, "boundary": engine.CUT_BOUNDARY,
            "texts": texts}


def _words(text: str) -> set[str]:
    return {w.lower() for w in re.findall(TOKEN, text)}


def _suggest_data(entries: list[Entry]) -> dict[str, Any]:
    """Each entry's word lists (its title, and the literal text of each signature), without
    stop words, for the engines' suggestions."""
    docs: list[tuple[str, list[set[str]]]] = []
    for e in entries:
        texts = [e.title]
        for sig in e.signatures:
            try:
                texts.append(" ".join(compile_template(sig.template).literals))
            except TemplateError:
                continue
        docs.append((e.id, [_words(t) for t in texts]))
    share: dict[str, int] = {}
    for _, sets in docs:
        for w in set().union(*sets):
            share[w] = share.get(w, 0) + 1
    stop = {w for w, n in share.items() if n * STOP_SHARE > len(docs)} | set(ENGLISH)
    out = []
    for entry_id, sets in docs:
        lists = [sorted(s - stop) for s in sets]
        out.append([entry_id, [words for words in lists if words]])
    return {"token": TOKEN, "path": engine.PATH, "stop": sorted(stop), "min_score": MIN_SCORE,
            "min_common": MIN_COMMON, "max": MAX_SUGGESTIONS, "docs": out}
