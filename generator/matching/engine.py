"""The diagnose engine: compiled signatures + log lines -> ranked matches and a verdict.

No I/O here. The engine consumes the same compiled data (``matcher.json``) that the
browser's JavaScript engine (``docs/assets/diagnose-engine.js``) consumes, and follows the
same steps, so both give identical verdicts:

1. clean each line: drop ANSI colour codes and a trailing CR, then peel launcher prefixes
   (``[rank3]:``, ``[default3]:``, ``[1,3]<stdout>:``, ``worker0:``, Slurm ``15:``,
   timestamps); the rank comes from the first prefix that names one, else from a
   ``[Rank N]`` / ``Rank N]`` mention inside the message;
2. a line matching a benign template is skipped;
3. every signature whose anchor occurs in the line is tried; signatures with context are
   kept pending until the end, then accepted when a context template matched within
   ``window`` lines on the same rank (or a line without a rank);
4. ranking: roots, then collateral, then wrappers; roots with satisfied context first, then
   by earliest line; then by id.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

MAX_EVIDENCE = 5  # evidence lines kept per entry
MAX_PENDING = 200  # context-needing hits kept per signature
MAX_CONTEXT_HITS = 2000  # context hits kept per context template
MAX_TEXT = 400  # characters of a line kept as evidence
MAX_LINE = 1 << 20  # characters of a line looked at; the rest of a longer line is ignored
MAX_RANK_DIGITS = 15  # a longer "rank" is noise (and not exact in JavaScript numbers)
# what the JavaScript engine reads from matcher.json instead of keeping copies
LIMITS = {"max_evidence": MAX_EVIDENCE, "max_pending": MAX_PENDING,
          "max_context_hits": MAX_CONTEXT_HITS, "max_text": MAX_TEXT, "max_line": MAX_LINE,
          "max_rank_digits": MAX_RANK_DIGITS}
BENIGN, CONTEXT, SIGNATURE = 0, 1, 2  # kinds of pattern, in the order a line is tried
WEAK, PLAIN, SPECIFIC = 0, 1, 2  # strength of a hit: weak signature, plain, context confirmed

ANSI = r"\x1b\[[0-9;?]*[ -/]*[@-~]"
# Launcher prefixes, tried in order at the start of the line, repeatedly. The group named
# in "rank" (1-based group number, 0 = none) carries the rank. JavaScript uses the same list.
PREFIXES: list[tuple[str, int]] = [
    (r"\[rank([0-9]+)\]: ?", 1),
    (r"\[[0-9]+,([0-9]+)\]<(?:stdout|stderr)>: ?", 1),
    (r"\[[A-Za-z_][A-Za-z_-]*?([0-9]+)\]: ?", 1),
    (r"worker-?[0-9]+: ", 0),
    (r"[ ]*([0-9]{1,5}): ", 1),
    (r"\[?[0-9]{4}-[0-9]{2}-[0-9]{2}[T ][0-9]{2}:[0-9]{2}:[0-9]{2}(?:[.,][0-9]+)?"
     r"(?:Z|[+-][0-9]{2}:?[0-9]{2})?\]?[ ]+", 0),
]
RANK_IN_MESSAGE = r"\[(?:PG [^\]]*)?Rank ([0-9]+)\]"


def _rank(digits: str) -> int | None:
    return int(digits) if len(digits) <= MAX_RANK_DIGITS else None


def clean(raw: str, prefixes: list[tuple[re.Pattern[str], int]], ansi: re.Pattern[str],
          rank_in_message: re.Pattern[str]) -> tuple[int | None, str]:
    text = ansi.sub("", raw) if "\x1b" in raw else raw
    if text.endswith("\r"):
        text = text[:-1]
    rank: int | None = None
    changed = True
    while changed and text:
        changed = False
        for pattern, group in prefixes:
            m = pattern.match(text)
            if m and m.end() > 0:
                if group and rank is None:
                    rank = _rank(m.group(group))
                text = text[m.end():]
                changed = True
                break
    if rank is None:
        m = rank_in_message.search(text)
        if m:
            rank = _rank(m.group(1))
    return rank, text


class _Lazy:
    """A pattern compiled on first use: most signatures never meet a candidate line."""

    __slots__ = ("source", "_regex")

    def __init__(self, source: str) -> None:
        self.source = source
        self._regex: re.Pattern[str] | None = None

    def search(self, text: str) -> bool:
        if self._regex is None:
            self._regex = re.compile(self.source)
        return self._regex.search(text) is not None


@dataclass
class _Sig:
    entry: str
    index: int
    regex: _Lazy
    context: list[int]  # indexes into Engine.contexts
    window: int
    weak: bool = False  # a hint rather than a cause: ranks after every other root hit


@dataclass
class _EntryHits:
    first_line: int = 0
    rank: int | None = None
    level: int = PLAIN  # WEAK, PLAIN or SPECIFIC: the strongest kind of hit seen
    count: int = 0
    signature: int = 0
    evidence: list[dict[str, Any]] = field(default_factory=list)


class Engine:
    """Feed lines with ``feed``; read the result with ``verdict``."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data
        # roles in ranking order (entries/vocabulary.yaml); the first is the cause
        self.role_order = {role: i for i, role in enumerate(data["roles"])}
        self.cause_role = data["roles"][0] if data["roles"] else None
        self.prefixes = [(re.compile(p), g) for p, g in data["prefixes"]]
        self.ansi = re.compile(data["ansi"])
        self.rank_in_message = re.compile(data["rank_in_message"])
        self.word = re.compile(data["word"])
        self.benign = [_Lazy(b["pattern"]) for b in data["benign"]]
        self.contexts: list[_Lazy] = []
        self.sigs: list[_Sig] = []
        context_index: dict[str, int] = {}
        # Candidate lookup: a line is tried only against the patterns whose key word it
        # holds; patterns without a key are tried when their anchor substring is present.
        self.by_key: dict[str, list[tuple[int, int]]] = {}
        self.unkeyed: list[tuple[str, int, int]] = []  # (anchor, kind, index)

        def index(kind: int, i: int, item: dict[str, Any]) -> None:
            if item["key"]:
                self.by_key.setdefault(item["key"], []).append((kind, i))
            else:
                self.unkeyed.append((item["anchor"], kind, i))

        for i, b in enumerate(data["benign"]):
            index(BENIGN, i, b)
        for s in data["signatures"]:
            ctx = []
            for c in s["context"]:
                if c["pattern"] not in context_index:
                    context_index[c["pattern"]] = len(self.contexts)
                    self.contexts.append(_Lazy(c["pattern"]))
                    index(CONTEXT, len(self.contexts) - 1, c)
                ctx.append(context_index[c["pattern"]])
            index(SIGNATURE, len(self.sigs), s)
            self.sigs.append(_Sig(s["entry"], s["index"], _Lazy(s["pattern"]), ctx, s["window"],
                                  bool(s.get("weak"))))
        self.reset()

    def reset(self) -> None:
        """Forget every line fed so far; the compiled patterns are kept for the next log."""
        self.hits: dict[str, _EntryHits] = {}
        # sparse: only signatures and contexts that matched somewhere have a list
        self.pending: dict[int, list[tuple[int, int | None, str]]] = {}
        self.context_hits: dict[int, list[tuple[int, int | None]]] = {}
        self.lines = 0

    # -- feeding ---------------------------------------------------------------------
    def candidates(self, text: str) -> list[tuple[int, int]]:
        """(kind, index) of every pattern worth trying on this cleaned line, sorted."""
        found: set[tuple[int, int]] = set()
        by_key = self.by_key
        for w in set(self.word.findall(text)):
            hit = by_key.get(w)
            if hit:
                found.update(hit)
        for anchor, kind, i in self.unkeyed:
            if anchor in text:
                found.add((kind, i))
        return sorted(found)

    def feed(self, lineno: int, raw: str) -> None:
        """One log line (without its newline); lineno is 1-based and increasing.

        Lines that contain no anchor of any signature or context template and no ESC
        character cannot change the result; a caller may skip them (see ``needles``) and
        report the line count with ``skip_to``.
        """
        self.lines = max(self.lines, lineno)
        if len(raw) > MAX_LINE:
            raw = raw[:MAX_LINE]
        rank, text = clean(raw, self.prefixes, self.ansi, self.rank_in_message)
        tried = self.candidates(text)
        if not tried:
            return
        for kind, i in tried:
            if kind == BENIGN and self.benign[i].search(text):
                return
        for kind, i in tried:
            if kind == CONTEXT:
                hits = self.context_hits.setdefault(i, [])
                if len(hits) < MAX_CONTEXT_HITS and self.contexts[i].search(text):
                    hits.append((lineno, rank))
            elif kind == SIGNATURE:
                sig = self.sigs[i]
                if sig.regex.search(text):
                    if sig.context:
                        pending = self.pending.setdefault(i, [])
                        if len(pending) < MAX_PENDING:
                            pending.append((lineno, rank, text))
                    else:
                        self._record(sig, lineno, rank, text, WEAK if sig.weak else PLAIN)

    def feed_lines(self, lines: Iterable[str], start: int = 1) -> None:
        for n, line in enumerate(lines, start):
            self.feed(n, line)

    def skip_to(self, lineno: int) -> None:
        """Lines up to ``lineno`` were read but skipped by a prefilter (see ``needles``)."""
        self.lines = max(self.lines, lineno)

    def needles(self) -> list[str]:
        """Substrings at least one of which every line that can change the result holds.

        A signature or context pattern matches only lines that hold its anchor; cleaning
        only removes characters from the start and the end of a line, except ANSI codes,
        which can join two halves of an anchor, so ESC is a needle too. Benign patterns
        only ever skip lines, so they need no needle. Sorted, without duplicates.
        """
        found = {"\x1b"}
        found.update(s["anchor"] for s in self.data["signatures"])
        found.update(c["anchor"] for s in self.data["signatures"] for c in s["context"])
        return sorted(found)

    def _record(self, sig: _Sig, lineno: int, rank: int | None, text: str, level: int) -> None:
        h = self.hits.get(sig.entry)
        if h is None:
            h = self.hits[sig.entry] = _EntryHits(first_line=lineno, rank=rank, level=level,
                                                   signature=sig.index)
        elif level > h.level:
            # a stronger hit (context-confirmed, or not weak) outranks earlier weaker ones
            h.first_line, h.rank, h.level, h.signature = lineno, rank, level, sig.index
        elif level == h.level and lineno < h.first_line:
            h.first_line, h.rank, h.signature = lineno, rank, sig.index
        h.count += 1
        if len(h.evidence) < MAX_EVIDENCE:
            h.evidence.append({"line": lineno, "rank": rank, "text": text[:MAX_TEXT]})

    def _resolve_pending(self) -> None:
        for i in sorted(self.pending):
            sig = self.sigs[i]
            for lineno, rank, text in self.pending[i]:
                for c in sig.context:
                    if any(abs(cl - lineno) <= sig.window
                           and (rank is None or cr is None or cr == rank)
                           for cl, cr in self.context_hits.get(c, ())):
                        self._record(sig, lineno, rank, text, SPECIFIC)
                        break
        self.pending = {}

    # -- result ----------------------------------------------------------------------
    def verdict(self) -> dict[str, Any]:
        self._resolve_pending()
        meta = self.data["entries"]
        ranked = sorted(
            self.hits.items(),
            key=lambda kv: (self.role_order[meta[kv[0]]["role"]],
                            -kv[1].level, kv[1].first_line, kv[0]),
        )
        matches = []
        for entry_id, h in ranked:
            m = meta[entry_id]
            h.evidence.sort(key=lambda e: e["line"])
            matches.append({
                "id": entry_id,
                "title": m["title"],
                "role": m["role"],
                "severity": m["severity"],
                "line": h.first_line,
                "rank": h.rank,
                "specific": h.level == SPECIFIC,
                "weak": h.level == WEAK,
                "count": h.count,
                "signature": h.signature,
                "evidence": h.evidence,
                "url": m["url"],
                "fix": m["fix"],
                "action": m["action"],
                "action_why": m["action_why"],
            })
        root = next((m for m in matches if m["role"] == self.cause_role), None)
        if root is not None:
            status = "root-cause-found"
        elif matches:
            status = "only-consequences-found"
        else:
            status = "no-known-failure"
        return {
            "status": status,
            "root_cause": root["id"] if root else None,
            "lines": self.lines,
            "matches": matches,
        }


def diagnose_text(data: dict[str, Any] | Engine, text: str) -> dict[str, Any]:
    """Convenience for tests and the checker: a whole log held in memory. Pass an Engine
    to reuse its compiled patterns across many small logs."""
    engine = data if isinstance(data, Engine) else Engine(data)
    engine.reset()
    engine.feed_lines(text.split("\n"))
    return engine.verdict()


# -- several files -----------------------------------------------------------------------------
# Several logs (one per rank or node) go through one engine, one after the other, with their
# line numbers shifted so that file k's line n is ``start_k + n``, and ``file_gap`` lines
# between two files: no context window reaches from one file into the next, and "earliest"
# means earliest in the order the files were given, then by line.
def file_gap(data: dict[str, Any]) -> int:
    return max([s["window"] for s in data["signatures"]] + [0]) + 1


def attribute_files(verdict: dict[str, Any], files: list[dict[str, Any]]) -> dict[str, Any]:
    """A verdict fed with shifted line numbers, told per file.

    ``files``: ``[{"name": str, "start": int, "lines": int}]`` in feeding order. Every
    ``line`` becomes the line in its own file; with more than one file, each match and each
    evidence line gets ``file`` (the name). ``lines`` becomes the total number of lines
    read and ``files`` lists ``{"name", "lines"}``. Key order is fixed (JSON is compared
    byte for byte with the JavaScript engine's).
    """
    several = len(files) > 1

    def locate(line: int) -> tuple[str, int]:
        name, start = (str(files[0]["name"]), int(files[0]["start"])) if files else ("", 0)
        for f in files:
            if f["start"] < line:
                name, start = str(f["name"]), int(f["start"])
            else:
                break
        return name, line - start

    def place(item: dict[str, Any]) -> dict[str, Any]:
        name, line = locate(item["line"])
        out = dict(item)
        out["line"] = line
        if several:
            out["file"] = name
        return out

    matches = []
    for m in verdict["matches"]:
        placed = place(m)
        placed["evidence"] = [place(e) for e in m["evidence"]]
        matches.append(placed)
    return {
        "status": verdict["status"],
        "root_cause": verdict["root_cause"],
        "lines": sum(f["lines"] for f in files),
        "files": [{"name": f["name"], "lines": f["lines"]} for f in files],
        "matches": matches,
    }
