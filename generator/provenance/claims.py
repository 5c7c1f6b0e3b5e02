"""Free-text `versions:` claims, the simple ones, read as version ranges.

Parsed (case-insensitive; a package name may be left out, then the package is the one whose
upstream repository the signature's `source` names):

    torch >= 2.1        >= 1.12        torch <= 1.9 ...     torch < 2.0
    torch 1.12 - 2.0    NCCL 2.7 - 2.11                     torch 2.3
    torch 2.x           torch 1.x and 2.x                   torch 1.x - 2.7
    all / all versions                                      ... (checked in 2.14.1)
    PyTorch >= 1.13 with NCCL >= 2.12      (the 'with' part is a condition: not checked)

A clause may be followed by a comment: a parenthesis, then the rest after ';', ':',
' with ' or ' when ' is ignored ('with NCCL >= 2.12' is a condition, not a claim), except that
'checked in [<package>] <version>' anywhere says that release prints the text. Anything
else ("torch 2.x and late 1.x", "torch releases since mid-2021") is not read and not
checked. A version with two parts compares with releases by minor ('<= 1.9' includes
1.9.1); with three parts, exactly.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from .ranges import version_key

Version = tuple[int, ...]
_VER = r"\d+(?:\.\d+){0,2}"
_TERMINATOR = re.compile(r"^(?:\s*[;:]|\s+(?:with|when|built with)\s|\s*$)", re.IGNORECASE)
_CHECKED = re.compile(r"checked in (?:the )?(?:([A-Za-z][\w -]*?) )?v?(\d+\.\d+\.\d+)\b", re.IGNORECASE)


@dataclass(frozen=True)
class Span:
    low: Version | None  # inclusive, compared at len(low) parts
    high: Version | None  # inclusive, compared at len(high) parts

    def contains(self, version: str) -> bool:
        v = version_key(version)
        if self.low is not None and v[:len(self.low)] < self.low:
            return False
        return self.high is None or v[:len(self.high)] <= self.high


@dataclass(frozen=True)
class Claim:
    package: str
    spans: tuple[Span, ...]  # the releases that print the text (union); () = only `exact`
    text: str  # the words the claim was read from
    exact: str | None = None  # 'checked in 2.14.1': this release prints it

    def contains(self, version: str) -> bool:
        return any(s.contains(version) for s in self.spans)


def _v(text: str) -> Version:
    return tuple(int(x) for x in text.split("."))


def _span(text: str) -> tuple[Span, int] | None:
    """One range at the start of `text`: (span, characters used)."""
    patterns: list[tuple[str, Callable[[re.Match[str]], Span]]] = [
        (r"all(?: versions)?\b", lambda m: Span(None, None)),
        (rf"(\d+)\.x\s*-\s*({_VER})\b", lambda m: Span((int(m[1]),), _v(m[2]))),
        (rf"({_VER})\s*-\s*({_VER})\b(?!\.)", lambda m: Span(_v(m[1]), _v(m[2]))),
        (r">=\s*(\d+)\.x\b", lambda m: Span((int(m[1]),), None)),
        (rf">=\s*({_VER})\b(?!\.)", lambda m: Span(_v(m[1]), None)),
        (rf"<=\s*({_VER})\b(?!\.)", lambda m: Span(None, _v(m[1]))),
        (rf">\s*({_VER})\b(?!\.)", lambda m: Span(_next(_v(m[1])), None)),
        (rf"<\s*({_VER})\b(?!\.)", lambda m: Span(None, _prev(_v(m[1])))),
        (r"(\d+)\.x\b", lambda m: Span((int(m[1]),), (int(m[1]),))),
        (rf"({_VER})\+", lambda m: Span(_v(m[1]), None)),
        (rf"({_VER})\b(?![.+])", lambda m: Span(_v(m[1]), _v(m[1]))),
    ]
    for pattern, make in patterns:
        m = re.match(pattern, text, re.IGNORECASE)
        if m:
            return make(m), m.end()
    return None


def _next(v: Version) -> Version:
    return v[:-1] + (v[-1] + 1,)


def _prev(v: Version) -> Version | None:
    if v[-1] > 0:
        return v[:-1] + (v[-1] - 1,)
    return None  # '< 2.0': needs the last 1.x, which a two-part bound cannot say


def _clause(text: str, resolve: Callable[[str | None], str | None]) -> tuple[Claim, str] | None:
    """'[package] range [and range]...' at the start of `text`, then (claim, rest)."""
    m = re.match(r"\s*([A-Za-z][A-Za-z-]*(?: [A-Za-z][A-Za-z-]*)?)?\s*", text)
    name = m.group(1) if m else None
    rest = text[m.end():] if m else text
    package = resolve(name) if name else resolve(None)
    if name and package is None:
        if name.lower().startswith("all"):  # 'all', 'all versions' is a range, not a name
            rest, package = text.lstrip(), resolve(None)
        else:
            return None
    if package is None:
        return None
    spans: list[Span] = []
    while True:
        got = _span(rest)
        if got is None:
            return None
        span, used = got
        if span.high is None and span.low is None and spans:
            return None
        spans.append(span)
        rest = rest[used:]
        more = re.match(r"\s+and\s+", rest, re.IGNORECASE)
        if not more:
            break
        rest = rest[more.end():]
        again = re.match(r"([A-Za-z][A-Za-z-]*)\s+", rest)
        if again and resolve(again.group(1)) == package:
            rest = rest[again.end():]
    if any(s.low is None and s.high is None for s in spans) and len(spans) > 1:
        return None
    words = text[: len(text) - len(rest)].strip()
    return Claim(package, tuple(spans), words), rest


def _skip_parenthesis(rest: str) -> str:
    """The text after a leading '( ... )' comment (balanced), or `rest` unchanged."""
    stripped = rest.lstrip()
    if not stripped.startswith("("):
        return rest
    depth = 0
    for i, ch in enumerate(stripped):
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth == 0:
            return stripped[i + 1:]
    return ""


_ALL = re.compile(r"^all ([A-Za-z][\w-]*(?: [A-Za-z][\w-]*)?) (?:versions|releases)\b", re.IGNORECASE)


def parse(text: str, resolve: Callable[[str | None], str | None]) -> list[Claim] | None:
    """The claims in a `versions:` text, or None when it is not one of the simple forms.

    `resolve(name)` maps a package name in the text to a package key (None: unknown); with
    None it gives the package of the signature's source. 'all torch releases' reads as
    'torch all versions'; an en dash separates a range like a hyphen."""
    text = text.strip().replace("\u2013", "-")
    m = _ALL.match(text)
    named = resolve(m.group(1)) if m else None
    if m and named is not None:
        return parse("all versions" + text[m.end():],
                     lambda name: named if name is None else resolve(name))
    first = _clause(text, resolve)
    if first is None:
        if re.match(r"checked in ", text, re.IGNORECASE):  # only 'checked in [package] X.Y.Z'
            package = resolve(None)
            out = []
            for m in _CHECKED.finditer(text):
                pkg = resolve(m.group(1)) if m.group(1) else package
                if pkg:
                    out.append(Claim(pkg, (), m.group(0), exact=m.group(2)))
            return out or None
        return None
    claims = [first[0]]
    rest = _skip_parenthesis(first[1])
    if not _TERMINATOR.match(rest):
        return None
    for m in _CHECKED.finditer(text):
        package = resolve(m.group(1)) if m.group(1) else claims[0].package
        if package is not None:
            claims.append(Claim(package, (), m.group(0), exact=m.group(2)))
    return claims


@dataclass(frozen=True)
class Contradiction:
    claim: Claim
    outside: tuple[str, ...]  # found in these scanned releases, outside the claim
    missing: tuple[str, ...]  # not found in these scanned releases, inside the claim


def contradictions(claim: Claim, scanned: list[str], found: list[str]) -> Contradiction | None:
    have = set(found)
    if claim.exact is not None:
        if claim.exact in scanned and claim.exact not in have:
            return Contradiction(claim, (), (claim.exact,))
        return None
    outside = tuple(v for v in scanned if v in have and not claim.contains(v))
    missing = tuple(v for v in scanned if v not in have and claim.contains(v))
    if outside or missing:
        return Contradiction(claim, outside, missing)
    return None
