"""Signature templates: literal text plus typed holes, compiled to safe patterns.

A template such as ``Watchdog caught collective operation timeout: WorkNCCL(SeqNum={n},``
compiles to one regular expression that is valid, and means the same, in Python ``re`` and
JavaScript ``RegExp``. The rules keep every pattern linear-time:

- holes are character classes with one quantifier each, never nested;
- two holes are never adjacent (literal text separates them), so they cannot fight over the
  same characters;
- ``{text}`` (anything to the end of the line) appears at most once;
- a template starts with literal text, and its longest blank-free literal word (the *anchor*, used as a
  substring prefilter) has at least ``MIN_ANCHOR`` characters.

A run of blanks in a template matches one or more blanks in the log, because terminals and
issue threads collapse or widen spaces.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

# name -> (pattern, description). Patterns use only [] classes, (?:) groups and + * ?.
HOLES: dict[str, tuple[str, str]] = {
    "n": ("-?[0-9]+", "an integer, e.g. 42 or -6"),
    "num": ("-?[0-9]+(?:[.][0-9]+)?", "a number, e.g. 3 or 20.00"),
    "hex": ("(?:0x)?[0-9a-fA-F]+", "a hexadecimal id, e.g. 0x7f3a or 7f3a"),
    "size": ("[0-9]+(?:[.][0-9]+)? ?(?:[KMGTPE]i?B|bytes|B)", "a memory size, e.g. 20.00 MiB"),
    "word": ("[A-Za-z_][A-Za-z0-9_.]*", "an identifier or dotted name, e.g. torch.float32"),
    "token": ("[^ \\t]+", "a run of non-blank characters, e.g. a path or a shape"),
    "text": (".*", "anything up to the end of the line"),
}
UNBOUNDED_ONCE = ("text",)
MIN_ANCHOR = 6
MAX_PHRASE = 24
_SPECIAL = set("\\^$.|?*+()[]{}/")
_HOLE = re.compile(r"\{([a-z]*)\}")
WORD = re.compile(r"[A-Za-z0-9_]+")
MIN_KEY = 4


class TemplateError(ValueError):
    """A template that cannot be compiled; `column` is 1-based within the template."""

    def __init__(self, message: str, column: int = 1) -> None:
        super().__init__(message)
        self.column = column


@dataclass(frozen=True)
class Compiled:
    template: str
    pattern: str  # the regular expression source, same text for Python and JavaScript
    anchor: str  # the longest blank-free literal run: a matching line contains it
    key: str  # a whole word every matching line contains as a word ("" when none is safe)
    keys: tuple[str, ...]  # every such word; the matcher data picks the rarest as the key
    literals: tuple[str, ...]  # every literal run, in order (for grep -F comparisons)
    # the prefilter's needle: the run of whole words of one literal with the most letters and
    # digits in MAX_PHRASE characters (blank runs as one space); a matching line holds it,
    # its blanks maybe wider
    phrase: str = ""


def _escape(text: str) -> str:
    out = []
    for ch in text:
        out.append("\\" + ch if ch in _SPECIAL else ch)
    return "".join(out)


def _literal_pattern(text: str) -> str:
    parts = re.split(r"([ \t]+)", text)
    return "".join("[ \\t]+" if p and p[0] in " \t" else _escape(p) for p in parts)


def _tokenize(template: str) -> list[tuple[str, str, int]]:
    """Split into ('lit', text, col) and ('hole', name, col) pieces; col is 1-based."""
    pieces: list[tuple[str, str, int]] = []
    buf: list[str] = []
    buf_col = 1
    i = 0
    while i < len(template):
        ch = template[i]
        if template.startswith("{{", i) or template.startswith("}}", i):
            if not buf:
                buf_col = i + 1
            buf.append(ch)
            i += 2
            continue
        if ch == "{":
            m = _HOLE.match(template, i)
            if not m:
                raise TemplateError("unclosed '{' (write '{{' for a literal brace)", i + 1)
            name = m.group(1)
            if name not in HOLES:
                known = ", ".join("{" + h + "}" for h in HOLES)
                raise TemplateError(f"unknown hole '{{{name}}}' (known holes: {known})", i + 1)
            if buf:
                pieces.append(("lit", "".join(buf), buf_col))
                buf = []
            pieces.append(("hole", name, i + 1))
            i = m.end()
            continue
        if ch == "}":
            raise TemplateError("unmatched '}' (write '}}' for a literal brace)", i + 1)
        if ch in "\n\r":
            raise TemplateError("a template is one line; split it into several signatures", i + 1)
        if not buf:
            buf_col = i + 1
        buf.append(ch)
        i += 1
    if buf:
        pieces.append(("lit", "".join(buf), buf_col))
    return pieces


@cache
def compile_template(template: str) -> Compiled:
    """Compile a template or raise TemplateError saying what to change.

    Cached: the checker, the matcher data and the renderer all compile the same templates.
    The pattern is assembled from escaped literals and fixed hole patterns, so it is valid
    by construction (tests compile every hole and template in both Python and JavaScript).
    """
    if not template.strip():
        raise TemplateError("the template is empty")
    pieces = _tokenize(template)
    if pieces[0][0] != "lit" or not pieces[0][1].strip():
        raise TemplateError("a template must start with literal text, not a hole", 1)
    seen_once: set[str] = set()
    prev = ""
    for kind, value, col in pieces:
        if kind == "hole":
            if prev == "hole":
                raise TemplateError("two holes must be separated by literal text", col)
            if value in UNBOUNDED_ONCE:
                if value in seen_once:
                    raise TemplateError(f"'{{{value}}}' may appear only once", col)
                seen_once.add(value)
        prev = kind
    literals = tuple(v.strip() for k, v, _ in pieces if k == "lit" and v.strip())
    # The anchor is searched as a plain substring before the pattern is tried, and blanks
    # in the log may be wider than in the template, so it is the longest blank-free run.
    anchor = max((w for lit in literals for w in lit.split()), key=len)
    if len(anchor) < MIN_ANCHOR:
        raise TemplateError(
            f"the longest word '{anchor}' is shorter than {MIN_ANCHOR} characters; "
            "include more of the real message so the signature is specific",
            1,
        )
    pattern = "".join(
        _literal_pattern(v) if k == "lit" else HOLES[v][0] for k, v, _ in pieces
    )
    keys = _keys(pieces)
    return Compiled(template, pattern, anchor, keys[0] if keys else "", keys, literals,
                    _phrase(literals))


def _phrase(literals: tuple[str, ...]) -> str:
    """The most distinctive run of whole words of one literal, blanks as single spaces: the
    run with the most letters and digits among those that fit in MAX_PHRASE characters (a
    word longer than that stands alone; of equals, the shorter). Rarer in healthy logs than
    any single word; a run of punctuation such as ``:`` would send every line of a log,
    with its context window, through the engine."""
    best, best_score = "", (-1, 0)
    for lit in literals:
        words = lit.split()
        for i in range(len(words)):
            out = words[i]
            for w in words[i + 1:]:
                if len(out) + 1 + len(w) > MAX_PHRASE:
                    break
                out += " " + w
            score = (sum(ch.isalnum() for ch in out), -len(out))  # ties: less punctuation
            if score > best_score:
                best, best_score = out, score
    return best


def _keys(pieces: list[tuple[str, str, int]]) -> tuple[str, ...]:
    """The words that any matching line holds as whole words, longest first.

    A word of a literal qualifies when the characters around it in the template are
    non-word characters of the same literal (or blanks); a word touching a hole, or the
    start or end of the template, could run into other word characters in the log.
    """
    found: dict[str, None] = {}
    for kind, text, _ in pieces:
        if kind != "lit":
            continue
        for m in WORD.finditer(text):
            # runs are maximal, so a character before or after inside the literal is a
            # non-word character; at the literal's edges sits a hole or the template's end
            if m.start() > 0 and m.end() < len(text) and len(m.group()) >= MIN_KEY:
                found[m.group()] = None
    return tuple(sorted(found, key=lambda w: (-len(w), w)))


def holes_help() -> list[tuple[str, str]]:
    return [("{" + name + "}", desc) for name, (_, desc) in HOLES.items()]
