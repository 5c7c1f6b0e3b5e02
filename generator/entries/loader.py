"""Load entry YAML safely, keeping the 1-based line and column of every key and value.

The C parser (libyaml) produces events; this module builds plain Python values from them,
so it never constructs objects from tags and never expands aliases. What it refuses, with a
located problem each: bytes that are not UTF-8, tab characters, anchors and aliases (YAML
bombs), explicit tags (``!!python/object``), duplicate keys (both lines), several documents,
files or nesting beyond the limits. Plain scalars stay strings except ``true``/``false``,
integers and ``null``: ``yes``, ``no``, ``on`` and dates are strings.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from .problems import Problem

try:
    _Parser: Any = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - libyaml missing
    _Parser = yaml.SafeLoader

MAX_BYTES = 1_000_000
MAX_DEPTH = 32
MAX_NODES = 100_000
_INT = re.compile(r"^[-+]?[0-9]+$")
_NULL = ("", "~", "null", "Null", "NULL")
_BOOL = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}


@dataclass
class Document:
    """A loaded YAML file: plain data plus the position of each value and key."""

    path: str
    data: Any = None
    values: dict[tuple, tuple[int, int]] = field(default_factory=dict)
    keys: dict[tuple, tuple[int, int]] = field(default_factory=dict)

    def at(self, path: tuple) -> tuple[int, int]:
        """Position of the value at path, or of its nearest located parent."""
        p = tuple(path)
        while p:
            if p in self.values:
                return self.values[p]
            p = p[:-1]
        return self.values.get((), (1, 1))

    def key_at(self, path: tuple) -> tuple[int, int]:
        return self.keys.get(tuple(path)) or self.at(path)


class _Refused(Exception):
    def __init__(self, code: str, message: str, line: int, column: int) -> None:
        super().__init__(message)
        self.problem = (code, message, line, column)


def _pos(mark: Any) -> tuple[int, int]:
    return (mark.line + 1, mark.column + 1)


def _scalar(event: Any) -> Any:
    value = event.value
    if event.tag == "tag:yaml.org,2002:str" or (event.style is not None and event.style != ""):
        return value  # quoted or block scalars are always strings
    if value in _NULL:
        return None
    if value in _BOOL:
        return _BOOL[value]
    if _INT.match(value):
        return int(value)
    return value


_OPENERS = {"(": ")", "[": "]"}


def _unclosed(value: str) -> bool:
    """Whether a bracket opened in ``value`` is never closed."""
    return any(value.count(o) > value.count(c) for o, c in _OPENERS.items())


class _Builder:
    def __init__(self, doc: Document, events: Any, lines: list[str]) -> None:
        self.doc = doc
        self.events = events
        self.lines = lines
        self.nodes = 0
        self.noted: list[Problem] = []  # problems found on the way that stop nothing

    def cut_by_comment(self, event: Any) -> None:
        """A plain scalar that a ' #' on its last line ended: YAML took the rest of the line
        for a comment. Reported only when the value leaves a bracket open, i.e. it was cut
        mid-phrase, not when an author wrote a real comment after a complete value."""
        if event.style or not isinstance(event.value, str) or not _unclosed(event.value):
            return
        mark = event.end_mark
        rest = self.lines[mark.line][mark.column:] if mark.line < len(self.lines) else ""
        if rest.lstrip(" ").startswith("#"):
            line, col = _pos(mark)
            self.noted.append(Problem(
                self.doc.path, line, col + len(rest) - len(rest.lstrip(" ")), "E010",
                f"'{rest.strip()[:40]}' is read as a comment, so the value ends with "
                f"'{event.value[-30:]}'; put the whole value in double quotes"))

    def next(self) -> Any:
        return self.events.get_event()

    def refuse_special(self, event: Any) -> None:
        line, col = _pos(event.start_mark)
        if isinstance(event, yaml.AliasEvent):
            raise _Refused("E004", f"alias '*{event.anchor}' is not allowed in entries; "
                           "write the value out", line, col)
        if getattr(event, "anchor", None):
            raise _Refused("E004", f"anchor '&{event.anchor}' is not allowed in entries; "
                           "write the value out", line, col)
        tag = getattr(event, "tag", None)
        implicit = getattr(event, "implicit", True)
        explicit = tag is not None and (
            implicit is False or (isinstance(implicit, tuple) and not any(implicit))
        )
        if explicit and tag not in ("tag:yaml.org,2002:str",):
            raise _Refused("E005", f"tag '{tag}' is not allowed; entries hold plain strings, "
                           "lists and mappings only", line, col)

    def value(self, event: Any, path: tuple, depth: int) -> Any:
        self.nodes += 1
        if self.nodes > MAX_NODES:
            line, col = _pos(event.start_mark)
            raise _Refused("E008", f"more than {MAX_NODES} values; an entry is never this big",
                           line, col)
        if depth > MAX_DEPTH:
            line, col = _pos(event.start_mark)
            raise _Refused("E008", f"nested deeper than {MAX_DEPTH} levels", line, col)
        self.refuse_special(event)
        self.doc.values[path] = _pos(event.start_mark)
        if isinstance(event, yaml.ScalarEvent):
            self.cut_by_comment(event)
            return _scalar(event)
        if isinstance(event, yaml.SequenceStartEvent):
            items: list[Any] = []
            while True:
                ev = self.next()
                if isinstance(ev, yaml.SequenceEndEvent):
                    return items
                items.append(self.value(ev, path + (len(items),), depth + 1))
        if isinstance(event, yaml.MappingStartEvent):
            mapping: dict[Any, Any] = {}
            while True:
                ev = self.next()
                if isinstance(ev, yaml.MappingEndEvent):
                    return mapping
                self.refuse_special(ev)
                kpos = _pos(ev.start_mark)
                if not isinstance(ev, yaml.ScalarEvent):
                    raise _Refused("E003", "a mapping key must be a plain word", *kpos)
                key = ev.value
                vev = self.next()
                if key in mapping:
                    first = self.doc.keys[path + (key,)]
                    self.noted.append(Problem(
                        self.doc.path, kpos[0], kpos[1], "E003",
                        f"duplicate key '{key}' (first defined at line {first[0]}); "
                        "keep one of them",
                    ))
                    self.value(vev, path + ("\x00dup", key), depth + 1)
                    continue
                self.doc.keys[path + (key,)] = kpos
                mapping[key] = self.value(vev, path + (key,), depth + 1)
        line, col = _pos(event.start_mark)  # pragma: no cover - the parser sends no other kind
        raise _Refused("E002", "unexpected YAML structure", line, col)


def _decode(raw: bytes, path: str) -> tuple[str | None, list[Problem]]:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = raw[: exc.start]
        line = before.count(b"\n") + 1
        col = exc.start - (before.rfind(b"\n") + 1) + 1
        return None, [Problem(path, line, col, "E001",
                              f"byte 0x{raw[exc.start]:02x} is not UTF-8; save the file as UTF-8")]
    if text.startswith("\ufeff"):
        text = text[1:]
    return text, []


def _tabs(text: str, path: str) -> list[Problem]:
    for lineno, line in enumerate(text.split("\n"), 1):
        col = line.find("\t")
        if col >= 0:
            return [Problem(path, lineno, col + 1, "E006",
                            "tab character; indent and separate with spaces")]
    return []


def parse_text(text: str, path: str) -> tuple[Document, list[Problem]]:
    doc = Document(path=path)
    problems = _tabs(text, path)
    if problems:
        return doc, problems
    parser = _Parser(text)
    builder = _Builder(doc, parser, text.split("\n"))
    try:
        ev = parser.get_event()  # StreamStart
        ev = parser.get_event()
        if isinstance(ev, yaml.StreamEndEvent):
            return doc, [Problem(path, 1, 1, "E007", "the file is empty; an entry is a mapping "
                                 "of fields (run `python -m generator new ID` for a scaffold)")]
        ev = parser.get_event()  # first node of the document
        doc.data = builder.value(ev, (), 0)
        parser.get_event()  # DocumentEnd
        ev = parser.get_event()
        if not isinstance(ev, yaml.StreamEndEvent):
            line, col = _pos(ev.start_mark)
            return doc, [Problem(path, line, col, "E002",
                                 "a second YAML document; an entry file holds one document")]
    except _Refused as exc:
        code, message, line, col = exc.problem
        return doc, builder.noted + [Problem(path, line, col, code, message)]
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (_pos(mark) if mark else (1, 1))
        what = (exc.problem or "invalid YAML").strip()
        if exc.context:
            what = f"{exc.context.strip()}: {what}"
        return doc, builder.noted + [Problem(path, line, col, "E002",
                                                  f"YAML syntax error: {what}")]
    except yaml.YAMLError as exc:  # reader errors (control characters) and the like
        return doc, [Problem(path, 1, 1, "E002", f"YAML error: {exc}")]
    finally:
        parser.dispose()
    if doc.data is not None and not isinstance(doc.data, dict):
        kind = "a list" if isinstance(doc.data, list) else "a single value"
        return doc, builder.noted + [Problem(path, 1, 1, "E007",
                                                  f"expected a mapping of fields, got {kind}")]
    if doc.data is None:
        return doc, [Problem(path, 1, 1, "E007", "the file holds no fields")]
    return doc, builder.noted


def load_file(file: Path, display: str | None = None) -> tuple[Document, list[Problem]]:
    name = display or str(file)
    try:
        raw = file.read_bytes() if file.stat().st_size <= MAX_BYTES else None
    except OSError as exc:
        return Document(path=name), [Problem(name, 1, 1, "E009", f"cannot read: {exc.strerror}")]
    if raw is None:
        return Document(path=name), [Problem(name, 1, 1, "E008",
                                             f"file larger than {MAX_BYTES} bytes")]
    text, problems = _decode(raw, name)
    if text is None:
        return Document(path=name), problems
    return parse_text(text, name)
