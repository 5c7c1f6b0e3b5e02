"""The diagnose engine: compiled signatures + log lines -> ranked matches and a verdict.

No I/O here. The engine consumes the same compiled data (``matcher.json``) that the
browser's JavaScript engine (``docs/assets/diagnose-engine.js``) consumes, and follows the
same steps, so both give identical verdicts:

0. shapes of pasted logs: when the start of a log is hard-wrapped at a fixed width
   (``wrap_width``), a line of that width and the lines that continue it (up to WRAP["join"]) are joined
   into one before matching; a line that starts like a new line (a launcher prefix, a
   timestamp, a traceback header or frame) or is blank is never glued on;
1. clean each line: drop ANSI colour codes and a trailing CR, then peel launcher prefixes
   (``[rank3]:``, ``[default3]:``, ``[1,3]<stdout>:``, ``worker0:``, ``host-12:``, Slurm
   ``15:``, timestamps, Markdown quote markers ``>`` and backticks); the rank comes from the
   first prefix that names one, else from a rank prefix after other text near the start
   (``node-3 [stderr] [rank7]:``), else from a ``[Rank N]`` mention inside the message;
   a torchelastic event line (``{"name": "torchelastic.worker.status.FAILED", ...}``) is
   replaced by the lines of its decoded ``raw_error``, with the event's ``global_rank``;
   a line soft-wrapped at a blank (no fixed width) is matched together with the next one
   when a signature fits neither alone (``_soft_join``);
2. a line matching a benign template is skipped;
3. every signature whose anchor occurs in the line is tried; signatures with context are
   kept pending until the end, then accepted when a context template matched within
   ``window`` lines on the same rank (or a line without a rank); a generic signature
   (its text is printed outside its entry's failure too) without its context, or generic
   and weak, is kept as a ``generic`` match: listed, never the root cause;
4. ranking: roots, then collateral, then wrappers; roots with satisfied context first, then
   by earliest line; then by id. With several files, matches of the same role and strength
   that all carry a timestamp (their own line's, else the last one seen on their rank in
   their file, within TIME_LOOKBACK lines) are ordered by time instead, and a match is placed at its earliest hit in
   time: the rank that failed first across the files is named. Identical evidence lines of
   several ranks are kept once, with their ranks;
5. a log that ends inside a message (``CUT_MIN``): the one entry whose signature starts
   with the cut text is listed as a lead (``generic``), never as the cause;
6. when nothing matched, ``suggestions``: the entries whose signatures or title share the
   most words with the last unmatched error lines (unconfirmed, never in ``matches``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

MAX_EVIDENCE = 5  # evidence lines (distinct texts) kept per entry
MAX_PENDING = 200  # context-needing hits kept per signature
MAX_SEEN_ONCE = 4096  # lines of `repeated` signatures remembered per file
MAX_CONTEXT_HITS = 2000  # context hits kept per context template
MAX_TEXT = 400  # characters of a line kept as evidence
MAX_LINE = 1 << 20  # characters of a line looked at; the rest of a longer line is ignored
MAX_RANK_DIGITS = 15  # a longer "rank" is noise (and not exact in JavaScript numbers)
MAX_RANKS = 1024  # distinct ranks listed per match and per evidence line
MAX_EVENT_LINES = 400  # lines of a torchelastic event's raw_error looked at
MAX_ERROR_LINES = 20  # unmatched error lines kept (the last ones) for suggestions
# what the JavaScript engine reads from matcher.json instead of keeping copies
LIMITS = {"max_evidence": MAX_EVIDENCE, "max_pending": MAX_PENDING,
          "max_context_hits": MAX_CONTEXT_HITS, "max_text": MAX_TEXT, "max_line": MAX_LINE,
          "max_rank_digits": MAX_RANK_DIGITS, "max_ranks": MAX_RANKS,
          "max_event_lines": MAX_EVENT_LINES, "max_error_lines": MAX_ERROR_LINES,
          "max_seen_once": MAX_SEEN_ONCE}
BENIGN, CONTEXT, SIGNATURE = 0, 1, 2  # kinds of pattern, in the order a line is tried
# strength of a hit: generic text without its context, weak signature, plain, context confirmed
GENERIC, WEAK, PLAIN, SPECIFIC = -1, 0, 1, 2

ANSI = r"\x1b\[[0-9;?]*[ -/]*[@-~]"
# Launcher prefixes, tried in order at the start of the line, repeatedly. The group named
# in "rank" (1-based group number, 0 = none) carries the rank. JavaScript uses the same list.
PREFIXES: list[tuple[str, int]] = [
    (r"[ \t]*(?:>[ \t]?)+", 0),  # Markdown quote markers of a pasted log
    (r"`+[ \t]*", 0),  # backticks of a code span or fence around a pasted line
    (r"\[rank([0-9]+)\]: ?", 1),
    (r"\[[0-9]+,([0-9]+)\]<(?:stdout|stderr)>: ?", 1),
    (r"\[[A-Za-z_][A-Za-z_-]*?([0-9]+)\]: ?", 1),
    (r"worker-?[0-9]+: ", 0),
    (r"[ ]*([0-9]{1,5}): ", 1),
    (r"[A-Za-z][A-Za-z0-9_.-]*[0-9]: ", 0),  # a host name (pdsh, clush): node-3:, host12:
    (r"\[?[0-9]{4}-[0-9]{2}-[0-9]{2}[T ][0-9]{2}:[0-9]{2}:[0-9]{2}(?:[.,][0-9]+)?"
     r"(?:Z|[+-][0-9]{2}:?[0-9]{2})?\]?[ ]+", 0),
]
# A rank prefix after other text (``node-3 [stderr] [rank7]:``): searched when no prefix at
# the start named a rank, accepted within EMBEDDED_MAX characters and with no ": " before it
# (so a message that quotes a prefix keeps its text).
EMBEDDED = r"\[(?:rank|default)([0-9]+)\]: ?|\[[0-9]+,([0-9]+)\]<(?:stdout|stderr)>: ?"
EMBEDDED_MAX = 80
RANK_IN_MESSAGE = r"\[(?:PG [^\]]*)?Rank ([0-9]+)\]"
# A timestamp near the start of a line (within TIME_MAX characters): ISO / Python logging
# (2026-06-30T12:00:30.229Z, [2026-06-30 12:00:30,229]) or a glog header (E1206 18:44:12.7152).
# Groups: month, day (ISO) or month, day (glog), hour, minute, second, fraction. Compared as
# "MMDDhhmmssffffff" (no year: glog prints none); used to name the earliest failing rank when
# several files are given.
TIME = (r"(?:^|[^0-9])(?:[0-9]{4}-([0-9]{2})-([0-9]{2})[T ]|[IWEF]([0-9]{2})([0-9]{2}) )"
        r"([0-9]{2}):([0-9]{2}):([0-9]{2})(?:[.,]([0-9]+))?")
TIME_MAX = 160
TIME_LOOKBACK = 20  # a line without a time takes one seen at most this many lines before it

# Hard-wrapped logs (pasted from a terminal or an issue): the first WRAP_SAMPLE lines decide.
# The log is wrapped at width W when W (between WRAP_MIN and WRAP_MAX characters) is the
# longest line, and at least two different lines of exactly W characters, and at least half
# of the lines of W characters, are followed by a line that continues them: not blank and not
# starting like a line of its own (WRAP_STOP: a launcher prefix, a timestamp, a log level, a
# traceback header or frame).
WRAP = {"sample": 2000, "min": 40, "max": 1000, "join": 8,
        "stop": (r"\[rank[0-9]+\]:|\[[A-Za-z_][A-Za-z_-]*?[0-9]+\]:|\[[0-9]+,[0-9]+\]<"
                 r"|\[?[0-9]{4}-[0-9]{2}-[0-9]{2}[T ]|\[?[IWEF][0-9]{4} "
                 r"|[A-Za-z0-9_.-]+:[0-9]+:[0-9]+ \[|(?:INFO|WARNING|ERROR|DEBUG|CRITICAL)[: ]"
                 r"|Traceback \(most recent call last\)|[ \t]+File \"")}
BLANK = r"[ \t]*"

# torchelastic's agent logs one JSON event per worker (torch/distributed/elastic/agent/server/
# api.py, _construct_event; events/api.py, Event.serialize): its metadata holds global_rank and
# raw_error, the worker's error file as JSON ({"message": {"message", "extraInfo":
# {"py_callstack"}}}) or a traceback.
EVENT_MARK = '{"name": "torchelastic.worker.status.'

# Lines kept for suggestions when nothing matches: those holding one of these words (the
# prefilter looks for them too, so the fast path keeps the same lines).
ERROR_NEEDLES = ("Error", "Exception", "ERROR:", "ERROR ", "FAIL", "Fatal", "fatal", "Killed",
                 "error:", "error ", "failed")
ERROR_LINE = "|".join(re.escape(w) for w in ERROR_NEEDLES)
# A log that ends inside a message (a paste cut mid-line: `RuntimeError: ProcessGroupNCCL is
# only supp`): when its last unmatched error line, at most CUT_SLACK lines before the end of
# the log (a closing code fence, a blank line), ends with the first CUT_MIN or more
# characters of the text a signature starts with, cut short, and no other entry's (or
# benign) signature starts that way, that entry is listed as a lead, never as the cause.
CUT_MIN = 20
CUT_SLACK = 3
CUT_BOUNDARY = " :'\"(`["
# Words of a path (anything with a slash) say where, not what: left out of suggestions.
PATH = r"[^ \t]*/[^ \t]*"


def _rank(digits: str) -> int | None:
    return int(digits) if len(digits) <= MAX_RANK_DIGITS else None


def _json_rank(value: Any) -> int | None:
    """A rank from JSON: a whole number >= 0 with at most MAX_RANK_DIGITS digits (3.0 is 3,
    as JavaScript's JSON.parse cannot tell them apart)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if value != value or value < 0 or value >= 10 ** MAX_RANK_DIGITS or value != int(value):
        return None
    return int(value)


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")  # JavaScript's JSON.parse refuses NaN and Infinity


def _error_text(raw: str) -> str:
    """The text of a worker's error: the traceback of its error file when raw_error is one."""
    try:
        data = json.loads(raw, parse_constant=_reject_constant)
    except (ValueError, RecursionError):
        return raw
    if not isinstance(data, dict):
        return raw
    message = data.get("message")
    if isinstance(message, dict):
        extra = message.get("extraInfo")
        if isinstance(extra, dict) and isinstance(extra.get("py_callstack"), str) \
                and extra["py_callstack"]:
            return str(extra["py_callstack"])
        if isinstance(message.get("message"), str):
            return str(message["message"])
        return raw
    if isinstance(message, str):
        return message
    return raw


def event_of(text: str, mark: str) -> tuple[int | None, list[str]] | None:
    """(global rank, the lines of raw_error) of a torchelastic event line, None if it is not one."""
    at = text.find(mark)
    if at < 0:
        return None
    try:
        event = json.loads(text[at:], parse_constant=_reject_constant)
    except (ValueError, RecursionError):
        return None
    if not isinstance(event, dict) or not isinstance(event.get("metadata"), dict):
        return None
    meta = event["metadata"]
    raw = meta.get("raw_error")
    lines = _error_text(raw).split("\n")[:MAX_EVENT_LINES] if isinstance(raw, str) else []
    return _json_rank(meta.get("global_rank")), lines


def time_of(text: str, time: re.Pattern[str]) -> str | None:
    """The timestamp key ("MMDDhhmmssffffff") of a line, or None."""
    m = time.search(text[:TIME_MAX])
    if not m:
        return None
    month, day = (m.group(1), m.group(2)) if m.group(1) is not None else (m.group(3), m.group(4))
    return month + day + m.group(5) + m.group(6) + m.group(7) + ((m.group(8) or "") + "000000")[:6]


def clean(raw: str, prefixes: list[tuple[re.Pattern[str], int]], ansi: re.Pattern[str],
          rank_in_message: re.Pattern[str],
          embedded: re.Pattern[str] | None = None) -> tuple[int | None, str]:
    text = ansi.sub("", raw) if "\x1b" in raw else raw
    if text.endswith("\r"):
        text = text[:-1]
    rank: int | None = None
    looked_inside = embedded is None
    while True:
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
        if rank is not None or looked_inside or embedded is None:
            break
        looked_inside = True
        e = embedded.search(text)
        if not e or e.start() > EMBEDDED_MAX or ": " in text[:e.start()]:
            break
        rank = _rank(e.group(1) if e.group(1) is not None else e.group(2))
        text = text[e.end():]
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

    def span(self, text: str) -> tuple[int, int] | None:
        """(start, end) of the leftmost match, None if there is none."""
        if self._regex is None:
            self._regex = re.compile(self.source)
        m = self._regex.search(text)
        return m.span() if m else None

    def texts(self, text: str) -> list[str]:
        """The text of every non-overlapping match, left to right."""
        if self._regex is None:
            self._regex = re.compile(self.source)
        return [m.group(0) for m in self._regex.finditer(text)]


@dataclass
class _Sig:
    entry: str
    index: int
    regex: _Lazy
    context: list[int]  # indexes into Engine.contexts
    window: int
    weak: bool = False  # a hint rather than a cause: ranks after every other root hit
    generic: bool = False  # printed outside this failure too: a cause only with its context
    repeated: bool = False  # printed once per process: evidence when a file holds it twice


@dataclass
class _EntryHits:
    first_line: int = 0
    rank: int | None = None
    level: int = PLAIN  # GENERIC, WEAK, PLAIN or SPECIFIC: the strongest kind of hit seen
    count: int = 0
    signature: int = 0
    time: str | None = None  # the time of the hit at first_line
    # the earliest hit in time at this level: (time, line, rank, signature); untimed: a hit
    # at this level had no time
    timed: tuple[str, int, int | None, int] | None = None
    untimed: bool = False
    ranks: set[int] = field(default_factory=set)
    evidence: list[dict[str, Any]] = field(default_factory=list)
    cut: bool = False  # named only from a message the log ends inside (_cut_lead)


class Engine:
    """Feed lines with ``feed``; read the result with ``verdict``."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data
        self.limits = data["limits"]
        # roles in ranking order (entries/vocabulary.yaml); the first is the cause
        self.role_order = {role: i for i, role in enumerate(data["roles"])}
        self.cause_role = data["roles"][0] if data["roles"] else None
        self.prefixes = [(re.compile(p), g) for p, g in data["prefixes"]]
        self.ansi = re.compile(data["ansi"])
        self.rank_in_message = re.compile(data["rank_in_message"])
        self.embedded = re.compile(data["embedded"])
        self.wrap_data = data["wrap"]
        self.wrap_stop = re.compile(data["wrap"]["stop"])
        self.blank = re.compile(data["blank"])
        self.event_mark = data["event_mark"]
        self.error_line = re.compile(data["error_line"])
        self.time = re.compile(data["time"])
        self.token = re.compile(data["suggest"]["token"])
        self.path = re.compile(data["suggest"]["path"])
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
                                  bool(s.get("weak")), bool(s.get("generic")),
                                  bool(s.get("repeated"))))
        # a line that holds a needle (blank runs as any blanks) is fed with its neighbours by
        # every reader, so a message soft-wrapped over it and the next line can be joined
        # compiled on first use (a soft-wrapped match): it is one alternation of every needle
        self.needle_gate = _Lazy("|".join(
            "[ \t]+".join(re.escape(part) for part in n.split(" ")) for n in self.needles() if n))
        self.wrap = 0
        self.reset()

    def reset(self) -> None:
        """Forget every line fed so far; the compiled patterns are kept for the next log."""
        self.hits: dict[str, _EntryHits] = {}
        # sparse: only signatures and contexts that matched somewhere have a list
        self.pending: dict[int, list[tuple[int, int | None, str, str | None]]] = {}
        self.context_hits: dict[int, list[tuple[int, int | None]]] = {}
        self.error_lines: list[tuple[int, str]] = []  # the last unmatched error lines
        self.last_error: tuple[int, int | None, str] | None = None  # line, rank, text
        # lines of `repeated` signatures seen once in this file: (signature, text)
        self.seen_once: set[tuple[int, str]] = set()
        self.lines = 0
        self.wrap = 0
        self.files = 0
        # the last timestamp seen per rank in this file, with its line
        self.last_time: dict[int | None, tuple[str, int]] = {}
        self._time: str | None = None  # the time of the line being matched
        self._joined: tuple[int, int, int, int, str] | None = None
        # the last line fed: (line, rank, raw, text, time, signatures tried, signatures
        # matched); see _soft_join
        self._soft: tuple[int, int | None, str, str, str | None, list[int], list[int]] | None = None

    # -- wrapped logs ----------------------------------------------------------------
    def _continues(self, line: str) -> bool:
        """Whether a line can be the continuation of a wrapped one (CR already removed)."""
        return self.blank.fullmatch(line) is None and self.wrap_stop.match(line) is None

    def wrap_width(self, lines: list[str]) -> int:
        """The width at which the log starting with these lines is hard-wrapped, 0 if it is
        not (see WRAP). Lengths count code points, without a trailing CR."""
        w = self.wrap_data
        sample = [line[:-1] if line.endswith("\r") else line for line in lines[:w["sample"]]]
        if not sample:
            return 0
        width = max(len(line) for line in sample)
        if width < w["min"] or width > w["max"]:
            return 0
        at = follow = 0
        different: set[str] = set()  # a repeated line (a progress bar) is no wrap
        for i, line in enumerate(sample):
            if len(line) == width:
                at += 1
                if i + 1 < len(sample) and self._continues(sample[i + 1]):
                    follow += 1
                    different.add(line)
        return width if len(different) >= 2 and 2 * follow >= at else 0

    def set_wrap(self, width: int) -> None:
        """A new file starts: its lines are hard-wrapped at ``width`` characters (0: not
        wrapped). Timestamps seen so far belong to the previous file."""
        self._flush()
        self.wrap = width
        self.files += 1
        self.last_time = {}
        self.seen_once = set()

    def _flush(self) -> None:
        if self._joined is not None:
            first, _, _, _, text = self._joined
            self._joined = None
            self._line(first, text[:MAX_LINE])

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

        Lines that hold neither a needle nor a line needle, and are not within
        ``context_window`` lines of a line holding a needle, cannot change the result, unless
        the log is wrapped (``set_wrap``); a caller may skip them and report the line count
        with ``skip_to``.
        """
        self.lines = max(self.lines, lineno)
        if len(raw) > MAX_LINE:
            raw = raw[:MAX_LINE]
        if not self.wrap:
            self._line(lineno, raw)
            return
        if raw.endswith("\r"):
            raw = raw[:-1]
        j = self._joined
        if (j is not None and lineno == j[1] + 1 and j[2] < self.wrap_data["join"]
                and j[3] == self.wrap and self._continues(raw)):
            self._joined = (j[0], lineno, j[2] + 1, len(raw), j[4] + raw)
            return
        self._flush()
        self._joined = (lineno, lineno, 1, len(raw), raw)

    def _line(self, lineno: int, raw: str) -> None:
        rank, text = clean(raw, self.prefixes, self.ansi, self.rank_in_message, self.embedded)
        stamp = time_of(self.ansi.sub("", raw) if "\x1b" in raw else raw, self.time)
        if stamp is not None:
            self.last_time[rank] = (stamp, lineno)
            self._time = stamp
        else:
            # the last time of its rank, else of a line without rank, within TIME_LOOKBACK
            # lines (a reader feeds those lines before a needle's line: same in every path)
            self._time = None
            for key in (rank, None):
                seen = self.last_time.get(key)
                if seen is not None and lineno - seen[1] <= TIME_LOOKBACK:
                    self._time = seen[0]
                    break
        if self.event_mark in text:
            event = event_of(text, self.event_mark)
            if event is not None:
                self._soft = None
                event_rank, lines = event
                for sub in lines:
                    sub_rank, sub_text = clean(sub[:MAX_LINE], self.prefixes, self.ansi,
                                               self.rank_in_message, self.embedded)
                    if event_rank is not None:
                        sub_rank = event_rank
                    elif sub_rank is None:
                        sub_rank = rank
                    self._match(lineno, sub_rank, sub_text)
                return
        found = self._match(lineno, rank, text)
        soft, self._soft = self._soft, None
        if found is None or self.wrap:
            return
        if (soft is not None and (soft[5] or found[0]) and lineno == soft[0] + 1
                and rank == soft[1] and stamp is None and self._continues(text)):
            self._soft_join(soft, raw, text, found[0])
        self._soft = (lineno, rank, raw, text, self._time, found[0], found[1])

    def _soft_join(self, soft: tuple[int, int | None, str, str, str | None, list[int], list[int]],
                   raw: str, text: str, tried: list[int]) -> None:
        """A message soft-wrapped at a blank (prose, a quoted error, an editor's wrap): the
        signatures tried on either line (a key word or anchor is never cut by the join), except
        those that matched the first line alone, are tried on the two lines joined by a space.
        A match must start in the first line and end in the second (what fits one line was
        matched there), and one of the two raw lines must hold a needle: every reader then feeds
        both (logread's window), so the fast path and the plain path join the same pairs."""
        lineno, rank, first_raw, first, time, first_tried, first_matched = soft
        pool = sorted((set(first_tried) | set(tried)) - set(first_matched))
        if not pool:
            return
        joined = first + " " + text
        gate: bool | None = None
        for i in pool:
            sig = self.sigs[i]
            if sig.repeated:  # a start-up line is short: it is compared whole, never joined
                continue
            span = sig.regex.span(joined)
            if span is None or span[0] >= len(first) or span[1] <= len(first) + 1:
                continue
            if gate is None:
                gate = self.needle_gate.search(first_raw) or self.needle_gate.search(raw)
            if not gate:
                return
            if sig.context:
                pending = self.pending.setdefault(i, [])
                if len(pending) < MAX_PENDING:
                    pending.append((lineno, rank, joined, time))
            else:
                level = GENERIC if sig.generic else WEAK if sig.weak else PLAIN
                self._record(sig, lineno, rank, joined, level, time)

    def _match(self, lineno: int, rank: int | None,
               text: str) -> tuple[list[int], list[int]] | None:
        """Match one cleaned line; return the signatures tried on it and those that matched
        (None for a benign line)."""
        tried = self.candidates(text)
        matched = False
        sigs_tried: list[int] = []
        sigs_matched: list[int] = []
        if tried:
            for kind, i in tried:
                if kind == BENIGN and self.benign[i].search(text):
                    return None
            for kind, i in tried:
                if kind == CONTEXT:
                    hits = self.context_hits.setdefault(i, [])
                    if len(hits) < MAX_CONTEXT_HITS and self.contexts[i].search(text):
                        hits.append((lineno, rank))
                elif kind == SIGNATURE:
                    sig = self.sigs[i]
                    sigs_tried.append(i)
                    if sig.regex.search(text):
                        matched = True
                        sigs_matched.append(i)
                        if sig.repeated and not self._seen_twice(i, sig, text):
                            continue
                        if sig.context:
                            pending = self.pending.setdefault(i, [])
                            if len(pending) < MAX_PENDING:
                                pending.append((lineno, rank, text, self._time))
                        else:
                            level = GENERIC if sig.generic else WEAK if sig.weak else PLAIN
                            self._record(sig, lineno, rank, text, level, self._time)
        if not matched and self.error_line.search(text):
            self.last_error = (lineno, rank, text)
            self._note_error(lineno, text)
        return sigs_tried, sigs_matched

    def _seen_twice(self, i: int, sig: _Sig, text: str) -> bool:
        """A `repeated` signature: True when one of its matches in the line was seen before
        in this file, this line included (two processes that print the same rank's start-up
        line took the same rank). Every match counts: a file read as hard-wrapped joins
        lines of equal width, such as the start-up lines of ranks 0 and 1."""
        twice = False
        for found in sig.regex.texts(text):
            key = (i, found[:MAX_TEXT])
            if key in self.seen_once:
                twice = True
            elif len(self.seen_once) < MAX_SEEN_ONCE:
                self.seen_once.add(key)
        return twice

    def _note_error(self, lineno: int, text: str) -> None:
        text = text[:MAX_TEXT]
        if any(t == text for _, t in self.error_lines):
            return
        if len(self.error_lines) >= MAX_ERROR_LINES:
            self.error_lines.pop(0)
        self.error_lines.append((lineno, text))

    def feed_lines(self, lines: Iterable[str], start: int = 1) -> None:
        for n, line in enumerate(lines, start):
            self.feed(n, line)

    def skip_to(self, lineno: int) -> None:
        """Lines up to ``lineno`` were read but skipped by a prefilter (see ``needles``)."""
        self.lines = max(self.lines, lineno)

    def needles(self) -> list[str]:
        """The prefilter's signature needles: a line that holds none of them (blank runs
        may be wider in the log than the needle's single spaces) matches no signature.

        Each signature's needle is its most distinctive run of literal words (``phrase``).
        Cleaning only removes characters from the start and the end of a line, except ANSI
        codes, which can join two halves of a needle, so ESC is one too. A reader feeds the
        lines holding one, and every line within ``context_window`` lines before and after them (where the
        signature's context can be). Sorted, without duplicates.
        """
        found = {"\x1b", self.event_mark}  # an event's raw_error holds signatures too
        found.update(s["needle"] for s in self.data["signatures"])
        return sorted(found)

    def line_needles(self) -> list[str]:
        """Needles of lines that matter by themselves, without a window: the error lines kept
        for suggestions. Benign patterns only ever skip lines, so they need no needle.
        Sorted, without duplicates."""
        return sorted(set(self.data["error_needles"]))

    def context_window(self) -> int:
        """Lines before and after a needle's line that a reader must feed too: the largest
        window of a signature with context, and the time look-back."""
        return max([s["window"] for s in self.data["signatures"] if s["context"]]
                   + [self.data["time_lookback"]])

    def _record(self, sig: _Sig, lineno: int, rank: int | None, text: str, level: int,
                time: str | None) -> None:
        h = self.hits.get(sig.entry)
        if h is None or level > h.level:
            # a stronger hit (context-confirmed, or not weak) outranks earlier weaker ones
            if h is None:
                h = self.hits[sig.entry] = _EntryHits()
            h.first_line, h.rank, h.level, h.signature, h.time = lineno, rank, level, sig.index, time
            h.timed, h.untimed = None, False
        elif level == h.level and lineno < h.first_line:
            h.first_line, h.rank, h.signature, h.time = lineno, rank, sig.index, time
        if level == h.level:
            if time is None:
                h.untimed = True
            elif h.timed is None or (time, lineno) < (h.timed[0], h.timed[1]):
                h.timed = (time, lineno, rank, sig.index)
        h.count += 1
        if rank is not None and len(h.ranks) < MAX_RANKS:
            h.ranks.add(rank)
        text = text[:MAX_TEXT]
        for e in h.evidence:  # the same text from several ranks is one evidence line
            if e["text"] == text:
                if lineno < e["line"]:
                    e["line"], e["rank"] = lineno, rank
                if rank is not None and rank not in e["ranks"] and len(e["ranks"]) < MAX_RANKS:
                    e["ranks"].append(rank)
                return
        if len(h.evidence) < MAX_EVIDENCE:
            h.evidence.append({"line": lineno, "rank": rank,
                               "ranks": [] if rank is None else [rank], "text": text})

    def _resolve_pending(self) -> None:
        for i in sorted(self.pending):
            sig = self.sigs[i]
            for lineno, rank, text, time in self.pending[i]:
                for c in sig.context:
                    if any(abs(cl - lineno) <= sig.window
                           and (rank is None or cr is None or cr == rank)
                           for cl, cr in self.context_hits.get(c, ())):
                        self._record(sig, lineno, rank, text, SPECIFIC, time)
                        break
                else:
                    if sig.generic:  # a generic text without its context: a lead, not a cause
                        self._record(sig, lineno, rank, text, GENERIC, time)
        self.pending = {}

    # -- suggestions -----------------------------------------------------------------
    def _tokens(self, text: str) -> set[str]:
        stop = self._stop
        text = self.path.sub(" ", text)
        return {t for t in (m.lower() for m in self.token.findall(text)) if t not in stop}

    def suggestions(self) -> list[dict[str, Any]]:
        """The entries closest to the unmatched error lines, by the Dice coefficient of
        their words and the words of an entry's signatures or title (see matcherdata): at
        least ``min_common`` words shared and a score of at least ``min_score`` percent."""
        sug = self.data["suggest"]
        self._stop = set(sug["stop"])
        best: dict[str, tuple[int, int, str]] = {}  # id -> (score, line, text)
        for lineno, text in self.error_lines:
            words = self._tokens(text)
            if not words:
                continue
            for entry_id, docs in sug["docs"]:
                for doc in docs:
                    common = sum(1 for w in doc if w in words)
                    if common < sug["min_common"]:
                        continue
                    score = 200 * common // (len(words) + len(doc))
                    old = best.get(entry_id)
                    if score >= sug["min_score"] and (old is None or score > old[0]
                                                      or (score == old[0] and lineno < old[1])):
                        best[entry_id] = (score, lineno, text)
        ranked = sorted(best.items(), key=lambda kv: (-kv[1][0], kv[1][1], kv[0]))[:sug["max"]]
        meta = self.data["entries"]
        return [{"id": entry_id, "title": meta[entry_id]["title"], "url": meta[entry_id]["url"],
                 "score": score, "line": line, "text": text}
                for entry_id, (score, line, text) in ranked]

    # -- result ----------------------------------------------------------------------
    def _cut_lead(self) -> None:
        """A log that ends inside a message: see CUT_MIN."""
        cut = self.data["cut"]
        last = self.last_error
        if last is None or self.lines - last[0] > cut["slack"]:
            return
        lineno, rank, text = last
        tail = re.sub(r"[ \t]+", " ", text).strip(" ")
        found: dict[str, int] = {}
        for entry, index, lead in cut["texts"]:
            head = lead[:cut["min"]]
            at = tail.find(head)
            while at != -1:
                if (at == 0 or tail[at - 1] in cut["boundary"]) and lead.startswith(tail[at:]):
                    found.setdefault(entry, index)
                    break
                at = tail.find(head, at + 1)
        if len(found) != 1 or "" in found:
            return
        (entry, index), = found.items()
        if entry in self.hits:  # named by a whole line already
            return
        sig = next(s for s in self.sigs if s.entry == entry and s.index == index)
        self._record(sig, lineno, rank, text, GENERIC, None)
        self.hits[entry].cut = True

    def verdict(self) -> dict[str, Any]:
        self._flush()
        self._resolve_pending()
        self._cut_lead()
        meta = self.data["entries"]
        by_time = self.files > 1
        for h in self.hits.values():
            # several files: the earliest hit in time, when every hit of its level has a time
            if by_time and h.timed is not None and not h.untimed:
                h.time, h.first_line, h.rank, h.signature = h.timed
        # several files: within a role and level, earliest in time first when every match
        # there has a time, else earliest line (files in the order given)
        timed_groups: dict[tuple[int, int], bool] = {}
        for entry_id, h in self.hits.items():
            group = (self.role_order[meta[entry_id]["role"]], h.level)
            ok = by_time and h.timed is not None and not h.untimed
            timed_groups[group] = timed_groups.get(group, True) and ok
        ranked = sorted(
            self.hits.items(),
            key=lambda kv: (self.role_order[meta[kv[0]]["role"]], -kv[1].level,
                            (kv[1].time or "") if timed_groups[(self.role_order[meta[kv[0]]["role"]],
                                                                kv[1].level)] else "",
                            kv[1].first_line, kv[0]),
        )
        matches = []
        for entry_id, h in ranked:
            m = meta[entry_id]
            h.evidence.sort(key=lambda e: e["line"])
            for e in h.evidence:
                e["ranks"].sort()
            matches.append({
                "id": entry_id,
                "title": m["title"],
                "role": m["role"],
                "severity": m["severity"],
                "line": h.first_line,
                "rank": h.rank,
                "time": _readable(h.time),
                "ranks": sorted(h.ranks),
                "specific": h.level == SPECIFIC,
                "weak": h.level <= WEAK,
                "generic": h.level == GENERIC,
                "cut": h.cut,
                "count": h.count,
                "signature": h.signature,
                "evidence": h.evidence,
                "url": m["url"],
                "fix": m["fix"],
                "action": m["action"],
                "action_why": m["action_why"],
            })
        # a generic text without its context names no cause (it is listed, not concluded)
        root = next((m for m in matches if m["role"] == self.cause_role and not m["generic"]),
                    None)
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
            "suggestions": [] if matches else self.suggestions(),
        }


def _readable(key: str | None) -> str | None:
    """A timestamp key as "MM-DD hh:mm:ss.ffffff"."""
    if key is None:
        return None
    return f"{key[0:2]}-{key[2:4]} {key[4:6]}:{key[6:8]}:{key[8:10]}.{key[10:16]}"


def diagnose_text(data: dict[str, Any] | Engine, text: str) -> dict[str, Any]:
    """Convenience for tests and the checker: a whole log held in memory. Pass an Engine
    to reuse its compiled patterns across many small logs."""
    engine = data if isinstance(data, Engine) else Engine(data)
    engine.reset()
    lines = text.split("\n")
    engine.set_wrap(engine.wrap_width(lines[:engine.wrap_data["sample"]]))
    engine.feed_lines(lines)
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
        "suggestions": [place(s) for s in verdict["suggestions"]],
    }
