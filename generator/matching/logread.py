"""Read logs for ``diagnose``: streamed in bounded memory, dirty input tolerated.

- Files are read in binary, in big chunks into one reused buffer (``readinto``): a log of
  many GB costs the buffer (16 MiB) plus the engine's bounded state, never the file.
- gzip is recognised by its magic bytes, not the file name; ``-`` reads stdin (gzip too).
- A file that starts with a UTF-16 byte-order mark (what Windows PowerShell's `>` writes),
  followed by mostly-ASCII code units (``is_utf16``), is decoded as UTF-16 (invalid code
  units replaced); anything else is UTF-8.
- Lines end at LF only (a CR before it is removed by the engine). A final LF does not start
  another line. Each line is decoded as
  UTF-8 with invalid bytes replaced (U+FFFD), a UTF-8 byte-order mark at the start of a
  file is dropped, and only the first ``LINE_CAP_BYTES`` of a line are kept (a line of
  gigabytes is skipped through, not held). The engine then looks at the first
  ``engine.MAX_LINE`` characters; ``LINE_CAP_BYTES`` is large enough that the cap in bytes
  never changes what those characters are, so the browser (which caps characters only)
  sees the same text.
- Fast path: a line can change the verdict only if it holds one of the engine's
  ``needles()`` (the anchors of all signature and context templates, the torchelastic event
  mark, the error words kept for suggestions, and ESC). A prefilter finds those lines in the
  raw chunk; the lines between are only counted. The result is identical to feeding every
  line (the tests compare both paths). A hard-wrapped log (``engine.wrap_width`` of its first
  lines) is fed line by line instead: a message cut by the wrap may hold no whole needle.

Prefilter implementations, fastest available first (``FAILURE_ENCYCLOPEDIA_PREFILTER``
picks one: ``re2``, ``re`` or ``none``):

- ``re2``: google-re2 (a dependency of the package), one alternation of all needles
  compiled to a DFA, searched over the raw chunk. It only decides which lines to look at,
  never what they mean, so a platform where it cannot be imported gets the same answers.
  A buffer of ``PARALLEL_MIN`` bytes or more is cut at LFs into one segment per usable CPU
  (at most ``MAX_THREADS``), searched in threads (RE2 releases the GIL; each thread also
  counts its segment's lines while the others search); the lines fed are those of one
  sequential search (tests/test_logread.py compares them).
  Measured with bench/diagnose_throughput.py on the 300 MB --noisy 8-rank log (a third of
  the lines benign warnings, NCCL INFO, torch/distributed lines) on the 2-core dev machine,
  2026-12-03: 0.74-0.78 s (0.95 s of CPU), peak RSS 48 MiB; one thread: 0.94 s. That is
  about 0.5x the time of ``LC_ALL=C grep -c -F -f`` with the signatures' literals of six
  characters or more, and 2.8x the time of grep with all literals (0.27 s; its one- and
  two-character literals match at the start of every line, so that grep only splits lines,
  at 1.1 GB/s). Of the CPU, about 0.16 s is start-up (the matcher comes from ``datacache``;
  compiling the RE2 DFA is 0.02 s), 0.55 s the RE2 DFA, 0.13 s counting lines, 0.05 s
  reading. 2026-12-04: start-up 0.27 -> 0.18 s (the reduced needles ride in the matcher
  cache, the entry model is not imported, RE2 patterns from a byte table); grep with
  diagnose's own needles takes 2.5 s on that log, 2.4x diagnose's time.

The needles are each signature's most distinctive run of literal words (``templates._phrase``:
the most letters and digits in at most 24 characters; a space in it stands for any run of
blanks), ESC and the torchelastic event mark; a line holding one is fed together with the
``window`` lines before and after it, where its context templates and its time can be
(benign and context templates have no needles of their own). The lines before it come from
the buffer or from a tail of the previous buffer (at most ``TAIL_BYTES``: only lines of
megabytes each can fall out of it). Error words for suggestions are line needles: such a
line is fed alone.
- ``re``: the same alternation, factored as a trie, in Python's ``re``: pure Python,
  same answers, 10-70x slower.
- ``none``: every line goes through the engine (the reference path, slowest).
"""

from __future__ import annotations

import bisect
import codecs
import contextlib
import gzip
import io
import os
import re
import stat
import sys
import zlib
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import IO, Any

from . import engine as engine_mod

CHUNK = 16 << 20  # bytes read per readinto; the buffer is allocated once per reader
# Bytes of a line kept for matching: decoding 4 bytes per character at most, this many
# bytes always yield more than engine.MAX_LINE characters whose decoding does not depend
# on the bytes cut off.
LINE_CAP_BYTES = 4 * engine_mod.MAX_LINE + 8
GZIP_MAGIC = b"\x1f\x8b"
BOM = "\ufeff"
UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")
UTF16_SNIFF = 64  # bytes after the byte-order mark looked at to tell UTF-16 (see is_utf16)
PREFILTER_ENV = "FAILURE_ENCYCLOPEDIA_PREFILTER"
# A buffer of at least this many bytes is searched by the re2 prefilter in as many segments
# as threads (RE2 releases the GIL while it searches); smaller ones in one call.
PARALLEL_MIN = 4 << 20
MAX_THREADS = 8

Finder = Callable[[Any, int, int], int]  # (buffer, start, end) -> position of a needle or -1


class LogError(Exception):
    """A log that cannot be read; the message is one line, ready for the user."""


# -- opening -------------------------------------------------------------------------------
class _Prefixed(io.RawIOBase):
    """A stream with a few already-read bytes put back in front (stdin cannot seek)."""

    def __init__(self, head: bytes, rest: IO[bytes], owns_rest: bool) -> None:
        super().__init__()
        self._head = head
        self._rest = rest
        self._owns_rest = owns_rest

    def close(self) -> None:
        if not self.closed and self._owns_rest:
            self._rest.close()
        super().close()

    def readable(self) -> bool:
        return True

    def readinto(self, b: Any) -> int:
        if self._head:
            n = min(len(b), len(self._head))
            b[:n] = self._head[:n]
            self._head = self._head[n:]
            if n < len(b):  # and more in the same read, so that a peek sees past the head
                more = self._rest.readinto(memoryview(b)[n:])  # type: ignore[attr-defined]
                n += more or 0
            return n
        return self._rest.readinto(b)  # type: ignore[attr-defined]


def _describe_os_error(name: str, exc: OSError) -> str:
    reason = {
        "ENOENT": "no such file",
        "EACCES": "permission denied",
        "EISDIR": "is a directory, not a log file",
        "ELOOP": "too many levels of symbolic links",
    }.get(_errno_name(exc), exc.strerror or str(exc))
    return f"{name}: {reason}"


def _errno_name(exc: OSError) -> str:
    import errno

    return errno.errorcode.get(exc.errno or 0, "")


class _Utf16(io.RawIOBase):
    """A UTF-16 stream (with its byte-order mark) read as UTF-8 bytes: what Windows
    PowerShell's `>` writes becomes what the rest of the reader expects. Invalid code units
    become U+FFFD; the byte-order mark is dropped."""

    def __init__(self, rest: IO[bytes]) -> None:
        super().__init__()
        self._rest = rest
        self._decoder = codecs.getincrementaldecoder("utf-16")("replace")
        self._out = b""
        self._eof = False

    def readable(self) -> bool:
        return True

    def readinto(self, b: Any) -> int:
        while not self._out and not self._eof:
            raw = self._rest.read(1 << 20)
            self._eof = not raw
            self._out = self._decoder.decode(raw, final=self._eof).encode("utf-8", "surrogatepass")
        n = min(len(b), len(self._out))
        b[:n] = self._out[:n]
        self._out = self._out[n:]
        return n


class LogStream:
    """An opened log: ``stream`` yields the decompressed bytes; ``close`` closes every layer."""

    def __init__(self, name: str, layers: list[IO[bytes]]) -> None:
        self.name = name
        self.stream = layers[-1]
        self._layers = layers

    def close(self) -> None:
        for layer in reversed(self._layers):
            with contextlib.suppress(Exception):  # closing a broken gzip stream may raise again
                layer.close()

    def __enter__(self) -> LogStream:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_log(path: str) -> LogStream:
    """Open a log file (or stdin for '-'), gunzipping when it starts with the gzip magic
    bytes. Raises LogError with a one-line message."""
    if path == "-":
        name = "<stdin>"
        raw: IO[bytes] = sys.stdin.buffer
    else:
        name = path
        try:
            st = os.stat(path)
        except OSError as exc:
            raise LogError(_describe_os_error(name, exc)) from None
        if stat.S_ISDIR(st.st_mode):
            raise LogError(f"{name}: is a directory, not a log file (give the files inside it)")
        try:
            raw = open(path, "rb", buffering=0)  # noqa: SIM115 - closed by the caller
        except OSError as exc:
            raise LogError(_describe_os_error(name, exc)) from None
    try:
        head = _read_exactly(raw, 2)
    except OSError as exc:
        raw.close()
        raise LogError(_describe_os_error(name, exc)) from None
    layers: list[IO[bytes]] = [io.BufferedReader(_Prefixed(head, raw, path != "-"),  # type: ignore[list-item]
                                                 buffer_size=1 << 16)]
    if head == GZIP_MAGIC:
        layers.append(gzip.GzipFile(fileobj=layers[0], mode="rb"))  # type: ignore[arg-type]
    try:
        start = layers[-1].peek(UTF16_SNIFF + 2)[:UTF16_SNIFF + 2]  # type: ignore[attr-defined]
    except (OSError, EOFError, zlib.error) as exc:
        LogStream(name, layers).close()
        raise read_error(name, exc) from None
    if is_utf16(start):
        layers.append(io.BufferedReader(_Utf16(layers[-1]), buffer_size=1 << 16))  # type: ignore[arg-type]
    return LogStream(name, layers)


def is_utf16(head: bytes) -> bool:
    """Whether a file starting with these bytes is UTF-16: a byte-order mark, then code units
    of which at least half have a zero high byte (text that is mostly ASCII, as logs are;
    invalid UTF-8 that happens to start with FF FE stays UTF-8). The JavaScript reader
    (decodeLog) applies the same rule to the same UTF16_SNIFF bytes."""
    bom = head[:2]
    if bom not in UTF16_BOMS:
        return False
    units = head[2:UTF16_SNIFF + 2]
    pairs = len(units) // 2
    high = 1 if bom == b"\xff\xfe" else 0  # the high byte of each unit: second in LE
    zeros = sum(1 for k in range(pairs) if units[2 * k + high] == 0)
    return 2 * zeros >= pairs


def _read_exactly(raw: IO[bytes], n: int) -> bytes:
    out = b""
    while len(out) < n:
        got = raw.read(n - len(out))
        if not got:
            break
        out += got
    return out


def read_error(name: str, exc: BaseException) -> LogError:
    """A LogError for something that went wrong while reading (corrupt gzip, I/O)."""
    if isinstance(exc, (gzip.BadGzipFile, zlib.error)):
        return LogError(f"{name}: not a valid gzip file ({exc})")
    if isinstance(exc, EOFError):
        return LogError(f"{name}: not a valid gzip file (truncated: it ends inside the compressed data)")
    if isinstance(exc, OSError):
        return LogError(_describe_os_error(name, exc))
    return LogError(f"{name}: cannot be read ({exc})")


# -- prefilter -------------------------------------------------------------------------------
@dataclass
class Prefilter:
    kind: str  # "re2", "re" or "none"
    find: Finder | None  # position of any needle in buf[start:end], -1 if none; None: every line
    # whether buf[start:end] (one line) holds a signature needle; None when window is 0
    signal: Callable[[Any, int, int], bool] | None = None
    window: int = 0  # lines fed before and after a line that holds a signature needle
    # threads that may call ``find`` at once on one buffer (re2 releases the GIL; re does not)
    threads: int = 1


def _minimal(needles: list[bytes]) -> list[bytes]:
    """Drop needles that contain another needle: the shorter one already finds the line.

    Shortest first, each needle is looked up by its substrings of every length kept so far
    (a set lookup each), not compared with every kept needle: with 520 needles the pairwise
    test took 0.09 s of every start-up."""
    keep: set[bytes] = set()
    lengths: list[int] = []
    for n in sorted(set(needles), key=lambda b: (len(b), b)):
        if not n or not keep.isdisjoint([n[i:i + size] for size in lengths
                                         for i in range(len(n) - size + 1)]):
            continue
        keep.add(n)
        if len(n) not in lengths:
            lengths.append(len(n))
    return sorted(keep)


BLANKS = b"[ \t]+"  # a space in a needle stands for a run of blanks in the log
# each byte of a needle as RE2 reads it literally (a table: formatting each byte took 12 ms of
# every start-up)
_RE2_BYTE = tuple(BLANKS if c == 0x20 else b"\\x%02x" % c for c in range(256))


def _trie_pattern(needles: list[bytes]) -> bytes:
    """One alternation, factored on common prefixes (Python's re tries fewer branches)."""
    trie: dict[int, Any] = {}
    for n in needles:
        node = trie
        for byte in n:
            node = node.setdefault(byte, {})
        node[-1] = {}

    def emit(node: dict[int, Any]) -> bytes:
        branches = []
        for byte in sorted(k for k in node if k != -1):
            head = BLANKS if byte == 0x20 else re.escape(bytes([byte]))
            branches.append(head + emit(node[byte]))
        if -1 in node or not branches:
            # with _minimal no needle is a prefix of another, so an end has no children
            return b""
        if len(branches) == 1:
            return branches[0]
        return b"(?:" + b"|".join(branches) + b")"

    return emit(trie)


def _re2_search(needles: list[bytes]) -> Finder | None:
    try:
        import re2  # type: ignore[import-not-found]
        from re2 import _re2  # type: ignore[import-not-found]
    except ImportError:
        return None
    options = re2.Options()
    options.encoding = re2.Options.Encoding.LATIN1  # bytes in, bytes matched
    options.max_mem = 256 << 20  # room for the DFA of a few thousand needles
    options.never_capture = True
    pattern = b"|".join(b"".join(map(_RE2_BYTE.__getitem__, n)) for n in needles)
    regexp = _re2.RE2(pattern, options)
    if not regexp.ok():  # pragma: no cover - every needle is a literal
        return None
    unanchored = re2._Anchor.UNANCHORED
    match = regexp.Match

    def find(buf: Any, start: int, end: int) -> int:
        return match(unanchored, buf, start, end)[0][0]

    return find


def _re_search(needles: list[bytes]) -> Finder:
    search = re.compile(_trie_pattern(needles)).search

    def find(buf: Any, start: int, end: int) -> int:
        m = search(buf, start, end)
        return m.start() if m else -1

    return find


@dataclass(frozen=True)
class NeedleSets:
    """What a prefilter searches for, reduced by ``_minimal`` (24 ms with 680 needles, so
    ``diagnose`` keeps this in its matcher cache instead of computing it on every run)."""
    every: tuple[bytes, ...]  # signature and line needles: a line holding none is skipped
    signature: tuple[bytes, ...]  # signature needles alone (empty when ``window`` is 0)
    window: int  # lines fed before and after a line that holds a signature needle
    usable: bool = True  # False: a needle could match across a decoding error, feed every line


def needle_sets(needles: list[str], line_needles: list[str] = (),  # type: ignore[assignment]
                window: int = 0) -> NeedleSets:
    """``needles``: signature needles (a space stands for any run of blanks); a line holding
    one is fed with the ``window`` lines before and after it. ``line_needles``: lines
    holding one are fed alone."""
    every = list(needles) + list(line_needles)
    if any("\ufffd" in n or "\n" in n for n in every):
        return NeedleSets((), (), 0, usable=False)
    sig = _minimal([n.encode("utf-8") for n in needles])
    lines = _minimal([n.encode("utf-8") for n in line_needles])
    # the union of two minimal sets is minimal once a needle of one set that contains a
    # needle of the other is dropped (a few `in` tests per line needle, not _minimal again)
    union = [n for n in sig if not any(m in n for m in lines)]
    union += [m for m in lines if not any(n in m for n in union)]
    return NeedleSets(tuple(sorted(set(union))), tuple(sig) if window else (),
                      window if sig else 0)


def engine_needle_sets(engine: engine_mod.Engine) -> NeedleSets:
    """The needle sets of this engine's needles, line needles and context window."""
    return needle_sets(engine.needles(), engine.line_needles(), engine.context_window())


def prefilter_for(sets: NeedleSets, kind: str | None = None,
                  threads: int | None = None) -> Prefilter:
    """The fastest prefilter available for these needles (or the one named in ``kind`` / the
    environment). ``threads``: how many threads search a big buffer with re2 (default: the
    CPUs this process may use, at most ``MAX_THREADS``)."""
    kind = kind or os.environ.get(PREFILTER_ENV) or "auto"
    if kind == "none" or not sets.usable or not sets.every:
        return Prefilter("none", None)
    raw, sig = list(sets.every), list(sets.signature)
    if kind in ("auto", "re2"):
        finder = _re2_search(raw)
        if finder is not None:
            signal = _re2_search(sig) if sig else None
            return Prefilter("re2", finder, _as_signal(signal), sets.window if sig else 0,
                             max(1, threads if threads is not None else _usable_cpus()))
        if kind == "re2":
            raise LogError("the re2 prefilter was asked for, but google-re2 is not installed")
    return Prefilter("re", _re_search(raw), _as_signal(_re_search(sig) if sig else None),
                     sets.window if sig else 0)


def make_prefilter(needles: list[str], kind: str | None = None, line_needles: list[str] = (),  # type: ignore[assignment]
                   window: int = 0, threads: int | None = None) -> Prefilter:
    """The prefilter for these needles (see ``needle_sets``) and ``kind`` (see
    ``prefilter_for``)."""
    return prefilter_for(needle_sets(needles, line_needles, window), kind, threads)


def _usable_cpus() -> int:
    try:
        count = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not on Linux
        count = os.cpu_count() or 1
    return min(count, MAX_THREADS)


def _as_signal(find: Finder | None) -> Callable[[Any, int, int], bool] | None:
    if find is None:
        return None
    return lambda buf, start, end: find(buf, start, end) >= 0


def for_engine(engine: engine_mod.Engine, kind: str | None = None) -> Prefilter:
    """The prefilter for this engine's needles, line needles and context window."""
    return prefilter_for(engine_needle_sets(engine), kind)


# -- scanning --------------------------------------------------------------------------------
def _decode(data: Any, first: bool, cap: int = LINE_CAP_BYTES) -> str:
    text = bytes(data[:cap]).decode("utf-8", "replace")
    if first and text.startswith(BOM):
        text = text[1:]
    return text


def _head(buf: bytearray, filled: int, eof: bool, count: int, cap: int) -> list[str]:
    """The first ``count`` lines in buf[:filled], decoded (a last line without LF only at EOF)."""
    out: list[str] = []
    pos = 0
    while len(out) < count and pos < filled:
        nl = buf.find(b"\n", pos, filled)
        if nl < 0:
            if eof:
                out.append(_decode(buf[pos:filled], pos == 0, cap))
            break
        out.append(_decode(buf[pos:nl], pos == 0, cap))
        pos = nl + 1
    return out


TAIL_BYTES = 8 << 20  # bytes of look-back lines kept across a buffer refill


@dataclass
class _Searched:
    """The needle lines of a buffer, found before it is fed (see _Feeder._search)."""
    starts: list[int]  # where each line that holds a needle starts, in order
    lines_before: list[int]  # per such line, the LFs in the buffer before it
    lines: int  # the LFs in the whole buffer


def _needle_lines(find: Finder, buf: bytearray, start: int, end: int) -> _Searched:
    """The lines of buf[start:end] (start at a line start, end just after an LF) that hold a
    needle, with the LFs before each; in a thread, the LFs are counted while others search."""
    starts: list[int] = []
    before: list[int] = []
    pos = start
    lfs = 0  # LFs in buf[start:pos]
    while pos < end:
        hit = find(buf, pos, end)
        if hit < 0:
            break
        line_start = buf.rfind(b"\n", pos, hit) + 1 or pos
        lfs += buf.count(b"\n", pos, line_start)
        starts.append(line_start)
        before.append(lfs)
        pos = buf.find(b"\n", hit, end) + 1
        lfs += 1
    if pos < end:
        lfs += buf.count(b"\n", pos, end)
    return _Searched(starts, before, lfs)


class _Feeder:
    """Feeds the lines a prefilter selects, with the look-back and look-ahead window.

    Lines are numbered from 1 in the file. Every line that holds a needle is fed; when it
    holds a signature needle, so is every line up to ``window`` lines before it (from the
    buffer, or from the tail kept of the previous buffer) and after it. The lines between
    are only counted.
    """

    def __init__(self, feed: Callable[[int, str], None], prefilter: Prefilter, offset: int,
                 cap: int) -> None:
        self.feed = feed
        self.find = prefilter.find
        self.signal = prefilter.signal
        self.window = prefilter.window
        self.offset = offset
        self.cap = cap
        self.done = 0  # every line up to this one was fed or cannot matter
        self.alone: set[int] = set()  # lines after `done` fed by a line needle
        self.until = 0  # every line up to this one is fed
        self.tail: list[tuple[int, bytes]] = []  # (line, bytes) of lines before the buffer
        self.threads = prefilter.threads
        self.pool: ThreadPoolExecutor | None = None  # started for the first big buffer

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown()
            self.pool = None

    def _search(self, buf: bytearray, end: int, find: Finder) -> _Searched:
        """The needle lines of buf[:end]. A big buffer is cut into segments (each ends just
        after an LF), searched one per thread: RE2 releases the GIL while it searches."""
        if self.threads < 2 or end < PARALLEL_MIN:
            return _needle_lines(find, buf, 0, end)
        bounds = [0]
        for i in range(1, self.threads):
            cut = buf.find(b"\n", end * i // self.threads, end) + 1
            if bounds[-1] < cut < end:
                bounds.append(cut)
        bounds.append(end)
        if self.pool is None:
            self.pool = ThreadPoolExecutor(self.threads, thread_name_prefix="prefilter")
        whole = _Searched([], [], 0)
        for part in self.pool.map(lambda span: _needle_lines(find, buf, *span),
                                  zip(bounds, bounds[1:], strict=False)):
            whole.starts += part.starts
            whole.lines_before += [whole.lines + k for k in part.lines_before]
            whole.lines += part.lines
        return whole

    def _feed(self, n: int, data: Any) -> None:
        self.feed(self.offset + n, _decode(data, n == 1, self.cap))
        if n == self.done + 1:
            self.done = n
            while self.done + 1 in self.alone:
                self.alone.discard(self.done + 1)
                self.done += 1
        else:
            self.alone.add(n)
            if len(self.alone) > 4 * self.window + 64:  # lines too far back for any window
                self.alone = {k for k in self.alone if k >= n - self.window}

    def _look_back(self, n: int, buf: bytearray, base: int, line_start: int) -> None:
        """Feed the lines before line n (which starts at line_start) not fed yet, within the
        window; lines before ``base`` (the buffer's first line) come from the tail."""
        first = max(self.done + 1, n - self.window)
        if first >= n:
            return
        self.alone = {k for k in self.alone if k >= first}
        for k, data in self.tail:
            if first <= k < base and k not in self.alone:
                self._feed(k, data)
        spans = []
        end = line_start - 1  # the LF ending the line before
        k = n - 1
        while k >= max(first, base):
            start = buf.rfind(b"\n", 0, end) + 1
            if k not in self.alone:
                spans.append((k, start, end))
            end = start - 1
            k -= 1
        for k, start, stop in reversed(spans):
            self._feed(k, buf[start:stop])
        self.done = max(self.done, n - 1)
        self.alone = {k for k in self.alone if k > self.done}

    def hit(self, n: int, buf: bytearray, base: int, start: int, stop: int, signal: bool) -> None:
        """Line n (buf[start:stop]) is fed; ``signal``: it may hold a signature needle."""
        if signal and self.window:
            self._look_back(n, buf, base, start)
            self.until = max(self.until, n + self.window)
        self._feed(n, buf[start:stop])

    def lines(self, buf: bytearray, end: int, lineno: int) -> int:
        """Feed the selected complete lines of buf[:end] (end is just after an LF), the
        buffer's first line being lineno + 1; return the lines completed."""
        base = lineno + 1
        signal = self.signal
        # None: every line is fed (no prefilter)
        searched = None if self.find is None else self._search(buf, end, self.find)
        pos = 0
        n = lineno  # lines completed before pos
        while pos < end:
            if n < self.until:  # inside a window: the next line is fed
                nl = buf.find(b"\n", pos, end)
                n += 1
                self.hit(n, buf, base, pos, nl, signal is not None and signal(buf, pos, nl))
                pos = nl + 1
                continue
            line_start = pos
            if searched is not None:  # the next needle line, and the lines before it
                i = bisect.bisect_left(searched.starts, pos)
                if i == len(searched.starts):
                    break
                line_start = searched.starts[i]
                n = lineno + searched.lines_before[i]
            line_end = buf.find(b"\n", line_start, end)
            n += 1
            self.hit(n, buf, base, line_start, line_end,
                     signal is not None and signal(buf, line_start, line_end))
            pos = line_end + 1
        if searched is not None:
            n = lineno + searched.lines
        if self.window:
            self._keep_tail(buf, end, n)
        return n

    def _keep_tail(self, buf: bytearray, end: int, n: int) -> None:
        """Keep the last ``window`` lines of buf[:end] (line n is the last), within TAIL_BYTES."""
        lines: list[tuple[int, bytes]] = []
        size = 0
        stop = end - 1
        k = n
        while k > n - self.window and k > self.done and stop >= 0:
            start = buf.rfind(b"\n", 0, stop) + 1
            data = bytes(buf[start:min(stop, start + self.cap)])
            size += len(data)
            if size > TAIL_BYTES:
                break
            lines.append((k, data))
            stop = start - 1
            k -= 1
            if start == 0:
                break
        if k > n - self.window:  # the window reaches into the previous tail
            lines += [t for t in reversed(self.tail) if n - self.window < t[0] <= k]
        self.tail = sorted(lines)

    def over_long(self, n: int, data: Any) -> None:
        """Line n, longer than the buffer (its head): always fed, with its window."""
        if self.window:
            first = max(self.done + 1, n - self.window)
            for k, tail_data in self.tail:
                if first <= k < n and k not in self.alone:
                    self._feed(k, tail_data)
            self.done = max(self.done, n - 1)
            self.alone = {k for k in self.alone if k > self.done}
            self.until = max(self.until, n + self.window)
        self._feed(n, data)
        self.tail = []


def scan(stream: IO[bytes], feed: Callable[[int, str], None], prefilter: Prefilter,
         offset: int = 0, chunk: int = CHUNK, line_cap: int = LINE_CAP_BYTES,
         every_line: Callable[[list[str]], bool] | None = None, sample: int = 0) -> int:
    """Feed the lines of ``stream`` that can matter as ``feed(offset + lineno, text)``;
    return the number of lines read. ``prefilter.find`` None feeds every line.

    ``every_line``, when given, is called once with the first ``sample`` lines (decoded);
    when it returns True every line is fed (a hard-wrapped log: see engine.wrap_width).
    ``chunk`` and ``line_cap`` (bytes kept of a line) are parameters for the tests, which
    use tiny values to exercise lines across chunk boundaries and over-long lines.
    """
    cap = line_cap
    chunk = max(chunk, cap + 1)
    buf = bytearray(chunk)
    view = memoryview(buf)
    feeder = _Feeder(feed, prefilter, offset, cap)
    filled = 0  # bytes of buf holding data; buf[0] is always the start of a line
    lineno = 0  # lines completed before buf[0]
    skipping = False  # inside an over-long line whose kept head is buf[:cap]
    eof = False
    try:
        while not eof:
            while filled < chunk:  # fill the buffer: few, big rounds through Python
                n = stream.readinto(view[filled:])  # type: ignore[attr-defined]
                if not n:
                    eof = True
                    break
                filled += n
            if every_line is not None:
                if every_line(_head(buf, filled, eof, sample, cap)):
                    feeder = _Feeder(feed, Prefilter("none", None), offset, cap)
                every_line = None
            if skipping:
                nl = buf.find(b"\n", cap, filled)
                if nl < 0:
                    if eof:  # the file ends inside the over-long line
                        lineno += 1
                        feeder.over_long(lineno, view[:cap])
                        return lineno
                    filled = cap  # drop the middle of the line
                    continue
                lineno += 1
                feeder.over_long(lineno, view[:cap])
                skipping = False
                rest = filled - (nl + 1)
                view[:rest] = view[nl + 1:filled]  # memoryview copies overlaps safely (memmove)
                filled = rest
                if not eof:
                    continue
            end = buf.rfind(b"\n", 0, filled) + 1  # complete lines are buf[:end]
            if end:
                lineno = feeder.lines(buf, end, lineno)
            if eof:
                rest = filled - end
                if rest:  # a last line without LF: moved to the front, given one
                    if end:
                        view[:rest] = view[end:filled]
                    if rest >= chunk:  # as long as the buffer: its head, like an over-long line
                        lineno += 1
                        feeder.over_long(lineno, view[:cap])
                    else:
                        buf[rest] = 0x0A
                        lineno = feeder.lines(buf, rest + 1, lineno)
                return lineno
            if end == 0 and filled == chunk:  # one line longer than the buffer
                skipping = True
                filled = cap
                continue
            rest = filled - end
            view[:rest] = view[end:filled]
            filled = rest
    finally:
        view.release()
        feeder.close()
    return lineno  # pragma: no cover - the loop returns at EOF


@dataclass
class FileResult:
    name: str
    start: int  # global line number of the file's line 0
    lines: int


def diagnose_files(paths: list[str], engine: engine_mod.Engine, prefilter: Prefilter | None = None,
                   chunk: int = CHUNK, line_cap: int = LINE_CAP_BYTES) -> list[FileResult]:
    """Feed every file into ``engine`` with file-separating line numbers (see
    engine.file_gap). Raises LogError on the first file that cannot be read."""
    prefilter = prefilter or for_engine(engine)
    gap = engine_mod.file_gap(engine.data)
    results: list[FileResult] = []
    start = 0

    def wrapped(head: list[str]) -> bool:
        engine.set_wrap(engine.wrap_width(head))
        return engine.wrap > 0

    for path in paths:
        with open_log(path) as log:
            try:
                n = scan(log.stream, engine.feed, prefilter, offset=start, chunk=chunk,
                         line_cap=line_cap, every_line=wrapped,
                         sample=engine.wrap_data["sample"])
            except (OSError, EOFError, zlib.error) as exc:
                raise read_error(log.name, exc) from None
        results.append(FileResult(log.name, start, n))
        engine.skip_to(start + n)
        start += n + gap
    return results
