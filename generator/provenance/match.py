"""Does a release contain a signature? Literal parts of templates looked up in its text.

A template is split at its typed holes by the template tokenizer the checker uses
(``generator.matching.templates``); each literal run is looked for in the release's text:

1. **Directly**: the part is a substring of one extracted string (or, for Python, of one
   code line: tracebacks print code lines).
2. **Joined**: a printed line is often assembled from several constants
   (``c10::str("Watchdog caught collective operation timeout: ", work)`` then
   ``"WorkNCCL(" << "SeqNum="``; ``"%s NCCL WARN "`` then the message). A part is found
   joined when it reads as: the end of one *segment*, then zero or more whole segments, then
   the start of a segment, at most ``MAX_PIECES`` pieces. A segment is a string, or a piece
   of one between format placeholders (``%d``, ``%s``, ``{}``, ``{name}``, ``${name}``):
   boundaries are where a program's own text ends and a value begins. Every junction lies on
   such a boundary on both sides, which is what keeps a join from being assembled out of
   arbitrary fragments. A piece may also be a *value* that the template spells out where
   the program prints a placeholder: a number, an ALL_CAPS name (``SIGKILL``, ``BROADCAST``)
   or a text of the C library (``strerror``/``strsignal``: ``Bus error``), with the pieces
   next to it ending and starting at boundaries (``failed (exitcode: `` + ``-9`` +
   ``) local_rank:``). Every join needs one piece of the release's own text of at least
   ``FIRST_MIN`` characters. The pieces are recorded as evidence.
   A first piece that is a bare name (one identifier, maybe with a blank after it, that is a
   string of the release on its own or that no string holds after a blank:
   ``ProcessGroupNCCL``, ``~ProcessGroupNCCL``, ``ProcessGroupNCCL `` (a log prefix),
   ``socketPollConnect`` (``__func__``)) is a
   value the program formats, so the rest of the part must be the start of text that a
   format string prints right after a placeholder (``%s: Connect to %s`` filled with
   ``__func__``), in two pieces: never a plain constant (``"Backend " + name + " does not
   support scatter"`` prints the backend's short name, not the class name), nor a format's
   text followed by another value (``{} does not support {}``).
   The first piece may be shorter when it is a whole string of the release of at least
   ``WHOLE_FIRST_MIN`` characters (``, OpType=``, ``shape '``); a middle piece may also be the end of a longer
   string (``TAIL_MIDDLE_MIN`` characters or more, with text other than blanks before it):
   the linker stores a constant that ends another one as that one's tail.
3. **Runtime prefixes**: what the language runtime adds, not the release. A leading
   ``SomeError: `` is Python's traceback; the class name is looked up (a builtin class such
   as ``RuntimeError`` is CPython's, so it is not) and the rest is the message. A leading
   ``what():  `` is the C++ runtime's report of an uncaught exception.
4. **Data the release formats**: values are not the release's own text, so only the names
   the release owns are looked up, as whole words of its text (kind ``word``):
   - CPython's ``'X' object has no attribute 'Y'``: the class ``X`` and the attribute ``Y``;
   - a Python repr of a mapping (``'status': 'NOT_AVAILABLE', 'numel': 0``): its quoted names;
   - *glue* around values (``>: No space left on device (28)``, ``(errno: 98 - Address``):
     a part that is values (numbers, C library texts, the last one possibly cut short)
     joined by pieces of at most ``GLUE_MAX`` characters with at most one word each: its
     words are looked up, the values are not (a part with no word is the runtime's).
   A template needs at least one part that is not glue.
5. A part may end inside a value: a quoted name cut short (``"module.``, the start of a
   state-dict key the release formats through a placeholder). The last piece of a join may
   also be the end of a longer string (``TAIL_LAST_MIN`` characters or more, with or without
   the blank that precedes the template's next hole): constants stored without a
   terminating NUL run into the bytes before them (``$tI, NCCL version ``).
6. **The whole line as one format string** (kind ``arrangement``): a template with holes between
   its literal parts is also looked up as a format string of the release, each hole a
   placeholder, or text the hole matches (``Failed to clone() tensor with name {} on rank
   {}. This may mean``; ``... on CUDA device {} but ...`` for ``on {word} device {n}``). Its
   parts alone can be found in a release that prints a *sibling* wording: the same words in
   another arrangement. So a release with a format string that holds the template's
   longest literal part (``LAYOUT_ANCHOR_MIN`` characters or more) and the words of its
   first and last literal parts, but no
   format string of the template itself does not count for it (matrix.py). A line composed
   by C++ streams is never one format string (its constants hold no placeholder) and keeps
   the part-by-part answer.

Matching is cached per (release stack, part): see ``cache.py``.
"""

from __future__ import annotations

import bisect
import builtins
import os
import re
import signal
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from ..matching.templates import HOLES, TemplateError
from ..matching.templates import _tokenize as tokenize  # the one tokenizer of templates

MATCHER_VERSION = 15  # bump when the rules below change; cached match results are redone
MAX_PIECES = 5
FIRST_MIN = 10  # the first piece of a join: the constant it starts from
MIDDLE_MIN = 7  # a whole segment in the middle ('SeqNum=', a value such as 'out of memory')
WHOLE_FIRST_MIN = 7  # a first piece shorter than FIRST_MIN: a whole string ("shape '")
TAIL_MIDDLE_MIN = 16  # a middle piece that is the tail of a longer string (linker merging)
TAIL_LAST_MIN = 12  # a last piece that ends a string (its blank before a hole included)
GLUE_MAX = 8  # the pieces of a glue part between its values
LAYOUT_ANCHOR_MIN = 8  # a literal part this long in another format string makes it a sibling
LAST_MIN = 4  # the last piece, unless it is punctuation ("'", ')')
MAX_VALUES = 3  # values written into the template where the release prints a placeholder
FIT_MIN = 5  # a format string matched with values: its own text in the part, at least
MAX_FORMAT_CANDIDATES = 2000  # format strings tried per part
# a value: what a template may spell out where the program prints a placeholder
VALUE = re.compile(r"-?[0-9]+(?:[.][0-9]+)?(?:, -?[0-9]+)*|\[-?[0-9]+(?:, -?[0-9]+)*\]"
                   r"|0x[0-9a-fA-F]+|SIG[A-Z]+|[A-Z][A-Z0-9_]{4,}")
QUOTED_CUT = re.compile(r"[\"'][A-Za-z_][\w.]*")  # a quoted name, cut short: '"module.'
ATTRIBUTE_ERROR = re.compile(r"^'([A-Za-z_]\w*)' object has no attribute '([A-Za-z_]\w*)'$")
REPR_NAME = re.compile(r"'([A-Za-z_]\w*)'")
REPR_REST = re.compile(r"^[\s:,{}\[\]()-]*$")
NUMBER = re.compile(r"-?[0-9]+(?:[.][0-9]+)?")  # the values a join (not one format) may hold
WHOLE_VALUE_MIN = 8  # a whole string of the release used as a value, at least this long
WHOLE_LAST_MIN = 3  # a join may end with a whole string this short ('cpu')


def _c_library_texts() -> frozenset[str]:
    """strerror and strsignal texts of this machine's C library: printed through '%s' by
    the scanned programs (`Bus error`, `Too many open files`), never contained in them."""
    texts = set()
    for n in range(1, 134):
        text = os.strerror(n)
        if not text.startswith("Unknown error"):
            texts.add(text)
    for n in range(1, 65):
        try:
            name = signal.strsignal(n)
        except ValueError:
            continue
        if name and not name.startswith(("Unknown signal", "Real-time signal")):
            texts.add(name)
    return frozenset(texts)


C_LIBRARY_TEXTS = _c_library_texts()
PLACEHOLDER = re.compile(
    r"%(?:\([A-Za-z_]\w*\))?[-+ #0']*(?:\*|\d+)?(?:\.(?:\*|\d+))?(?:hh|h|ll|l|L|q|j|z|Z|t)?"
    r"[diouxXeEfFgGaAcspn]"
    r"|\{[A-Za-z0-9_.\[\]!]*(?::[^{}]*)?\}"
    r"|\$\{[A-Za-z_]\w*\}"
)
_EXC_PREFIX = re.compile(
    r"^((?:[A-Za-z_]\w*\.)*[A-Za-z_]\w*(?:Error|Exception|Interrupt|Exit|Warning|Fault))(?:: |:$)")
_CXX_WHAT = re.compile(r"^what\(\):\s+")
_WORD = re.compile(r"[A-Za-z0-9_]+")
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True)
class Part:
    """One thing to find: a literal run of the template, or an exception class name."""

    kind: str  # "text" | "class" | "word" (a whole word) | "glue" (words) | "arrangement" (rule 6)
    text: str


@dataclass(frozen=True)
class Plan:
    parts: tuple[Part, ...]
    runtime: tuple[str, ...]  # prefixes printed by a language runtime, not looked for
    layout: Part | None = None  # the whole template as one format string (rule 6)


def _is_builtin_exception(name: str) -> bool:
    obj = getattr(builtins, name, None)
    return isinstance(obj, type) and issubclass(obj, BaseException)


def plan(template: str) -> Plan:
    """The parts of a template to look for. Raises TemplateError for a bad template."""
    pieces = tokenize(template)
    literals = [text for kind, text, _ in pieces if kind == "lit"]
    runtime: list[str] = []
    parts: list[Part] = []
    if literals:
        first = literals[0]
        m = _CXX_WHAT.match(first)
        if m:
            runtime.append(m.group(0))
            first = first[m.end():]
        m = _EXC_PREFIX.match(first)
        if m:
            name = m.group(1)
            if _is_builtin_exception(name):
                runtime.append(m.group(0))
            else:
                parts.append(Part("class", name))
            first = first[m.end():]
        literals[0] = first
    for text in literals:
        text = text.strip()
        if text:
            parts.extend(_data_parts(text, runtime))
    if parts and all(p.kind == "glue" for p in parts):  # nothing of the release's own: look
        parts = [Part("text", text.strip()) for text in literals if text.strip()]  # it up as is
    layout = None
    if sum(1 for p in parts if p.kind == "text") >= 2 and all(p.kind in ("text", "class") for p in parts):
        at = sum(map(len, runtime)) + (len(parts[0].text) + 2 if parts[0].kind == "class" else 0)
        layout = Part("arrangement", template[at:].strip())
    return Plan(tuple(parts), tuple(runtime), layout)


def _data_parts(text: str, runtime: list[str]) -> list[Part]:
    """A literal as parts: itself, or the names of the data a runtime formatted."""
    m = ATTRIBUTE_ERROR.match(text)
    if m:
        runtime.append("' object has no attribute '")
        return [Part("word", m.group(1)), Part("word", m.group(2))]
    names = REPR_NAME.findall(text)
    if names and REPR_REST.match(NUMBER.sub("", REPR_NAME.sub("", text))):
        return [Part("word", n) for n in dict.fromkeys(names)]
    glue = _glue(text)
    if glue is not None:
        return [Part("glue", glue)]
    return [Part("text", text)]


def _glue(text: str) -> str | None:
    """The words of a glue part (values joined by short pieces), or None if it is not one."""
    pieces: list[str] = []
    values = 0
    at = start = 0
    while at < len(text):
        end = _number_at(text, at) if at == 0 or not _WORD.match(text[at - 1]) else 0
        if not end:
            cut = [c for c in C_LIBRARY_TEXTS if c.startswith(text[at:]) and len(text) - at >= 3]
            end = len(text) if cut and (at == 0 or not _WORD.match(text[at - 1])) else 0
        if end:
            pieces.append(text[start:at])
            values += 1
            at = start = end
        else:
            at += 1
    pieces.append(text[start:])
    if not values:
        return None
    words: list[str] = []
    for piece in pieces:
        found = _WORD.findall(piece)
        if len(piece) > GLUE_MAX or len(found) > 1:
            return None
        words += found
    return " ".join(words)


def plan_or_none(template: str) -> Plan | None:
    try:
        return plan(template)
    except TemplateError:
        return None


def segments(line: str) -> list[str]:
    """A string cut at its format placeholders; empty pieces dropped."""
    out, last = [], 0
    for m in PLACEHOLDER.finditer(line):
        if m.start() > last:
            out.append(line[last:m.start()])
        last = m.end()
    if last < len(line):
        out.append(line[last:])
    return out


def _interior_words(text: str) -> list[str]:
    """Words wholly inside `text` (not touching its ends): a text containing `text` has them
    as whole words too."""
    return [m.group() for m in _WORD.finditer(text) if m.start() > 0 and m.end() < len(text)]


def _substantial(piece: str, least: int) -> bool:
    return len(piece) >= least and _WORD.search(piece) is not None


def _punctuation(piece: str) -> bool:
    """Only punctuation and blanks (', ', ') : ', "'"): the glue around a value."""
    return _WORD.search(piece) is None


def _number_at(text: str, at: int) -> int:
    """The end of a number or C library text starting at `at` (0 if none): the values a
    join may contain."""
    best = 0
    m = NUMBER.match(text, at)
    if m and not (m.end() < len(text) and _WORD.match(text, m.end())):
        best = m.end()
    for runtime in C_LIBRARY_TEXTS:
        end = at + len(runtime)
        if end > best and text.startswith(runtime, at) and not (
                end < len(text) and _WORD.match(text, end)):
            best = end
    return best


def _anchored(pieces: tuple[str, ...]) -> bool:
    """At least one piece is long enough to identify the release's text: FIRST_MIN
    characters, or all but two of a shorter part (')' + ' ran for')."""
    least = min(FIRST_MIN, sum(map(len, pieces)) - 2)
    return any(_substantial(p, least) for p in pieces)


def _short_first(piece: str) -> bool:
    """A first piece under FIRST_MIN that may still start a join when it is a whole string:
    one with punctuation inside (', OpType=', "shape '"), not a lone word ('Integer')."""
    return _substantial(piece, WHOLE_FIRST_MIN) and re.search(r"[^\w\s]", piece.strip()) is not None


def _split_format(line: str) -> list[str]:
    """A format string as [text, text, ...], one more text than placeholders."""
    return PLACEHOLDER.split(line)


def _fit(text: str, texts: list[str], is_value: Callable[[str, bool], bool]) -> list[str] | None:
    """Pieces if `text` is a substring of the format `texts` (a placeholder between each
    two) with values in the placeholders it covers: it starts inside a text, covers at least
    one placeholder, and ends inside a text or inside a value."""
    if not text:
        return None
    first = text[0]
    for a in range(len(texts) - 1):
        seg = texts[a]
        cut = seg.find(first)
        while cut != -1:  # each cut where `seg` could start `text`, in order
            head = seg[cut:]
            cut = seg.find(first, cut + 1)
            if not text.startswith(head):
                continue
            found = _fit_rest(text[len(head):], texts[a + 1:], 0, is_value)
            if found is not None:
                own = (head, *found[1::2])
                if _anchored(own) or sum(map(len, own)) >= FIT_MIN:
                    return [head, *found]
    return None


def _fit_rest(rest: str, texts: list[str], values: int,
              is_value: Callable[[str, bool], bool]) -> list[str] | None:
    """rest = value + texts[0] + value + texts[1] ..., ending early: [value, text, ...]."""
    if values >= MAX_VALUES or not rest:
        return None
    nxt = texts[0]
    for end in range(len(rest), 0, -1):
        value, after = rest[:end], rest[end:]
        if not after:
            if is_value(value, True):
                return [value]
            continue
        if not is_value(value, False):
            continue
        if len(texts) > 1 and after.startswith(nxt):
            if after == nxt:
                return [value, nxt]
            more = _fit_rest(after[len(nxt):], texts[1:], values + 1, is_value)
            if more is not None:
                return [value, nxt, *more]
        elif nxt.startswith(after):
            return [value, after]
    return None


_PH = "(?:" + PLACEHOLDER.pattern + ")"
# what a hole stands for in a format string: one placeholder; a {token} may be printed by
# several with text between ('%s(%d)'), a {text} by anything that holds one
_SHAPE_HOLES = {"token": r"[^\s]*?" + _PH + r"[^\s]*?", "text": ".*?" + _PH + ".*?"}


class Index:
    """The text of one release stack, ready for lookups.

    `strings` are extracted strings (one per line), `code` Python code lines. Built once per
    stack; the joined-lookup tables are built on first need.
    """

    def __init__(self, strings: Iterable[str], code: Iterable[str] = (),
                 prefilter: bool = True) -> None:
        self.strings = sorted(set(strings))
        self.blob = "\n" + "\n".join(self.strings) + "\n"
        self.code_blob = "\n" + "\n".join(sorted(set(code))) + "\n"
        # every word of the text: a lookup whose interior words are not all in it is a miss
        # without a scan of the text. Worth building for many lookups, not for a few
        # (incremental runs); the answers are the same either way.
        self.words: set[str] | None = (
            set(_WORD.findall(self.blob)) | set(_WORD.findall(self.code_blob)) if prefilter else None)
        self._segs: set[str] | None = None
        self._collapsed: str | None = None  # the strings with each run of blanks as one space
        self._string_set: set[str] | None = None
        self._formats: dict[str, list[str]] | None = None
        self._heads: list[str] = []
        self._after: set[str] = set()
        self._after_heads: list[str] = []
        self._tails: list[str] = []  # reversed segments, sorted

    def _build_segments(self) -> None:
        segs: set[str] = set()
        after: set[str] = set()  # the segments that follow a placeholder ('%s: Connect to ')
        for line in self.strings:
            segs.update(segments(line))
            holes = list(PLACEHOLDER.finditer(line))
            for i, m in enumerate(holes):
                seg = line[m.end():holes[i + 1].start() if i + 1 < len(holes) else len(line)]
                if seg:
                    after.add(seg)
        self._after = after
        self._after_heads = sorted(after)
        self._segs = segs
        self._heads = sorted(segs)
        self._tails = sorted(s[::-1] for s in segs)

    def layout(self, template: str) -> str | None:
        """'format': some string of the release is `template` with a format placeholder at
        each hole; 'sibling': none is, but a string with a placeholder holds the template's
        first and last literal parts (another arrangement of the same words); else None.
        Whole strings of the string table only (code lines are not formats)."""
        pieces = tokenize(template)
        literals = [text.strip() for kind, text, _ in pieces if kind == "lit"]
        if not literals:
            return None
        pattern = re.compile("".join(
            re.escape(text) if kind == "lit"
            else "(?:" + _SHAPE_HOLES.get(text, _PH) + "|" + HOLES[text][0] + ")"
            for kind, text, _ in pieces))
        anchor = max(literals, key=len)
        # the first and last literal parts, without the punctuation next to their holes
        ends = [y for x in (literals[0], literals[-1]) if x != anchor
                and (y := x.strip(" ,.;:!?'\"()[]{}<>=-"))]
        sibling = False
        at = self.blob.find(anchor)
        while at != -1:
            start = self.blob.rfind("\n", 0, at) + 1
            end = self.blob.find("\n", at)
            if pattern.search(self.blob, start, end):
                return "format"
            sibling = sibling or (len(anchor) >= LAYOUT_ANCHOR_MIN
                                  and PLACEHOLDER.search(self.blob, start, end) is not None
                                  and all(self.blob.find(x, start, end) != -1 for x in ends))
            at = self.blob.find(anchor, end)
        return "sibling" if sibling else None

    def has_word(self, word: str) -> bool:
        """`word` occurs as a whole word in the strings or code lines."""
        if self.words is not None:
            return word in self.words
        pattern = re.compile(r"(?<![A-Za-z0-9_])" + re.escape(word) + r"(?![A-Za-z0-9_])")
        return bool(pattern.search(self.blob) or pattern.search(self.code_blob))

    def _maybe_in(self, text: str) -> bool:
        words = self.words
        return words is None or all(w in words for w in _interior_words(text))

    def direct(self, text: str) -> str | None:
        if not self._maybe_in(text):
            return None
        if text in self.blob:
            return "string"
        if text in self.code_blob:
            return "code"
        if re.search(r"[ \t]", text):  # the same words, other blanks between them
            if self._collapsed is None:
                self._collapsed = re.sub(r"[ \t]+", " ", self.blob)
            if " ".join(text.split()) in self._collapsed:
                return "string"
        return None

    @staticmethod
    def _has_prefix(sorted_list: list[str], prefix: str) -> bool:
        i = bisect.bisect_left(sorted_list, prefix)
        return i < len(sorted_list) and sorted_list[i].startswith(prefix)

    def _is_tail(self, piece: str) -> bool:  # the end of some segment
        return self._has_prefix(self._tails, piece[::-1])

    def _tail_after_text(self, piece: str) -> bool:
        """The end of a segment that holds more than blanks before it: what the linker's
        merging of a constant into a longer one looks like ('$tI, NCCL version '); the
        segment ' does not support scatter' without its blank is not another constant."""
        tails, rev = self._tails, piece[::-1]
        i = bisect.bisect_left(tails, rev)
        while i < len(tails) and tails[i].startswith(rev):
            if tails[i][len(rev):].strip():
                return True
            i += 1
        return False

    def _is_head(self, piece: str) -> bool:  # the start of some segment
        return self._has_prefix(self._heads, piece)

    def _bare_name(self, piece: str) -> bool:
        """One identifier, maybe with the blank a program prints after it, that is a string
        of its own or that no segment holds after a blank: a name (a class, a backend, a
        function: 'ProcessGroupNCCL', '~ProcessGroupNCCL', 'c10d::ProcessGroupNCCL', a log
        prefix 'ProcessGroupNCCL ')."""
        name = piece.rstrip(" ")
        return _IDENTIFIER.fullmatch(name) is not None and (
            self._is_whole(name) or self._is_whole(name + " ") or not self._is_tail(" " + name))

    def _name_first(self, pieces: tuple[str, ...]) -> bool:
        """The join so far is one bare name: the rest of the part must be the start of text
        that a format string prints right after a placeholder, the one the name fills
        ('%s: Connect to %s' with __func__), and nothing more; a name next to a plain
        constant is a value the program formats, not text it prints ('Backend ' + name +
        ' does not support scatter'), and a name, a format's text and another value
        ('{} does not support {}') could spell any sentence."""
        return len(pieces) == 1 and self._bare_name(pieces[0])

    def _is_whole(self, text: str) -> bool:
        if self._string_set is None:
            self._string_set = set(self.strings)
        return text in self._string_set

    def _is_value(self, text: str, last: bool) -> bool:
        """A value for a placeholder: a number, an ALL_CAPS name, a C library text, a whole
        string of the release; the last value of a part may be cut short ('Address')."""
        if VALUE.fullmatch(text) or text in C_LIBRARY_TEXTS:
            return True
        if len(text) >= WHOLE_VALUE_MIN and self._is_whole(text):
            return True
        return last and (QUOTED_CUT.fullmatch(text) is not None or len(text) >= WHOLE_LAST_MIN and any(
            t.startswith(text) for t in C_LIBRARY_TEXTS))

    def joined(self, text: str) -> list[str] | None:
        """Pieces that spell `text`: the end of a segment, then whole segments (or numbers
        and C library texts, each followed by a whole segment or punctuation), then the
        start of a segment; None if there is no such split. Fewest pieces first."""
        n = len(text)
        if n < 2:
            return None
        if self._segs is None:
            self._build_segments()
        segs = self._segs or set()
        # (end, pieces, which pieces are values)
        State = tuple[int, tuple[str, ...], tuple[bool, ...]]
        frontier: list[State] = [
            (e, (text[:e],), (False,)) for e in range(n - 1, 0, -1)
            if (_substantial(text[:e], FIRST_MIN) or _punctuation(text[:e])
                or _short_first(text[:e]) and self._is_whole(text[:e]))
            and self._is_tail(text[:e])]
        seen = {(e, False) for e, _, _ in frontier}
        while frontier:
            for s, pieces, values in frontier:
                rest = text[s:]
                own = tuple(p for p, v in zip(pieces, values, strict=True) if not v)
                last_ok = (_substantial(rest, LAST_MIN) or _punctuation(rest)
                           or len(rest) >= WHOLE_LAST_MIN and self._is_whole(rest))
                if self._name_first(pieces):
                    if last_ok and self._has_prefix(self._after_heads, rest) \
                            and _anchored((*own, rest)):
                        return [*pieces, rest]
                    continue
                if last_ok and (self._is_head(rest) or _substantial(rest, TAIL_LAST_MIN)
                                and (self._tail_after_text(rest)
                                     or self._tail_after_text(rest + " ")))\
                        and _anchored((*own, rest)):
                    return [*pieces, rest]
                if not values[-1] and sum(values) < MAX_VALUES and _number_at(text, s) == n \
                        and _anchored(own):
                    return [*pieces, rest]
            nxt: list[State] = []
            for s, pieces, values in frontier:
                if self._name_first(pieces):
                    continue  # a name and the text after its placeholder, or nothing
                if not values[-1] and sum(values) < MAX_VALUES:
                    e = _number_at(text, s)
                    if 0 < e < n and (e, True) not in seen:
                        seen.add((e, True))
                        nxt.append((e, (*pieces, text[s:e]), (*values, True)))
                if len(values) - sum(values) + 1 >= MAX_PIECES:
                    continue
                for e in range(n - 1, s, -1):
                    piece = text[s:e]
                    if (e, False) in seen:
                        continue
                    if piece not in segs and not (_substantial(piece, TAIL_MIDDLE_MIN)
                                                  and self._tail_after_text(piece)):
                        continue
                    if _substantial(piece, MIDDLE_MIN) or values[-1] and _punctuation(piece):
                        seen.add((e, False))
                        nxt.append((e, (*pieces, piece), (*values, False)))
            frontier = nxt
        return None

    def _format_index(self) -> dict[str, list[str]]:
        """word -> the strings with a placeholder that contain it (built on first need)."""
        if self._formats is None:
            index: dict[str, list[str]] = {}
            for line in self.strings:
                if PLACEHOLDER.search(line):
                    for word in set(_WORD.findall(line)):
                        index.setdefault(word, []).append(line)
            self._formats = index
        return self._formats

    def formatted(self, text: str) -> list[str] | None:
        """`text` read as one format string of the release with values written into its
        placeholders ('failed (exitcode: {}) local_rank: {}' for 'failed (exitcode: -9)
        local_rank:'): the pieces, values included, or None."""
        formats = self._format_index()
        words = sorted((w for w in set(_interior_words(text))
                        if w in formats and not VALUE.fullmatch(w)),
                       key=lambda w: (len(formats[w]), w))
        tried: set[str] = set()
        for word in words[:3]:  # the rarest words; one of them may belong to a value
            for line in formats[word][:MAX_FORMAT_CANDIDATES]:
                if line in tried:
                    continue
                tried.add(line)
                pieces = _fit(text, _split_format(line), self._is_value)
                if pieces:
                    return pieces
        return None

    def find(self, part: Part) -> str | list[str] | None:
        """'string' / 'code' (found directly), the pieces of a join, or None."""
        if part.kind == "class":
            return "string" if part.text in self.blob else None
        if part.kind == "arrangement":
            return self.layout(part.text)
        if part.kind in ("word", "glue"):
            return "words" if all(self.has_word(w) for w in part.text.split()) else None
        how = self.direct(part.text)
        if how is not None:
            return how
        return self.joined(part.text) or self.formatted(part.text)
