"""Validate loaded YAML against the schema: missing, empty, unknown, wrong type, bad enum."""

from __future__ import annotations

import difflib
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .loader import Document
from .problems import Problem
from .schema import Field

Report = Callable[[tuple, str, str], None]  # (path, code, message)
Words = Mapping[str, Sequence[str]]  # vocabulary list name -> its ids


def yaml_kind(value: Any) -> str:
    """The value's type in YAML words."""
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__  # pragma: no cover - the loader produces no other kind


EXPECTED = {
    "string": "a string",
    "integer": "a whole number",
    "boolean": "true or false",
    "list": "a list",
    "mapping": "a mapping",
}


def _type_ok(field: Field, value: Any) -> bool:
    if field.kind == "string":
        return isinstance(value, str)
    if field.kind == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if field.kind == "boolean":
        return isinstance(value, bool)
    if field.kind == "list":
        return isinstance(value, list)
    if field.kind == "mapping":
        return isinstance(value, dict)
    return False  # pragma: no cover


def _empty(value: Any) -> bool:
    if isinstance(value, str):
        return not value.strip()
    if isinstance(value, (list, dict)):
        return not value
    return value is None


def describe(path: tuple) -> str:
    out = ""
    for part in path:
        out += f"[{part + 1}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "the file"


def validate(doc: Document, field: Field, value: Any, path: tuple, report: Report,
             words: Words) -> None:
    if not _type_ok(field, value):
        if value is None:
            report(path, "E102", f"'{describe(path)}' is empty; expected {EXPECTED[field.kind]}")
            return
        # A number or true/false where text is expected is fine to read as text in YAML
        # terms, but it is almost always a mistake in an entry: say so.
        report(path, "E103",
               f"'{describe(path)}' should be {EXPECTED[field.kind]}, got {yaml_kind(value)}")
        return
    allowed = field.enum or (words.get(field.vocabulary, ()) if field.vocabulary else ())
    if field.kind == "string" and allowed and value not in allowed:
        close = difflib.get_close_matches(str(value), allowed, n=1)
        hint = f" (did you mean '{close[0]}'?)" if close else ""
        report(path, "E105",
               f"'{describe(path)}' is '{value}', expected one of: {', '.join(allowed)}{hint}")
    if field.kind == "list" and field.items is not None:
        for i, item in enumerate(value):
            if item is None or (isinstance(item, str) and not item.strip()):
                report(path + (i,), "E102", f"'{describe(path + (i,))}' is empty")
                continue
            validate(doc, field.items, item, path + (i,), report, words)
    if field.kind == "mapping":
        validate_mapping(doc, field, value, path, report, words)


def validate_mapping(doc: Document, field: Field, value: dict, path: tuple, report: Report,
                     words: Words) -> None:
    if field.values is not None:
        for key, item in value.items():
            validate(doc, field.values, item, path + (key,), report, words)
        return
    known = {f.name: f for f in field.fields}
    suggested: set[str] = set()
    for key, item in value.items():
        f = known.get(key)
        if f is None:
            missing = [name for name in known if name not in value]
            close = difflib.get_close_matches(str(key), missing or list(known), n=1, cutoff=0.6)
            suggested.update(close)
            hint = f" (did you mean '{close[0]}'?)" if close else ""
            where = f" in '{describe(path)}'" if path else ""
            report(path + (key,), "E104", f"unknown field '{key}'{where}{hint}")
            continue
        if _empty(item) and f.required:
            report(path + (key,), "E102", f"'{describe(path + (key,))}' is empty")
            continue
        if item is None and not f.required:
            continue
        validate(doc, f, item, path + (key,), report, words)
    for f in field.fields:
        # a misspelt field is reported once, as unknown with the suggestion
        if f.required and f.name not in value and f.name not in suggested:
            if f.name == "language" and field.name == "snippet":
                report(path, "E120", f"code snippet '{describe(path)}' has no 'language'")
                continue
            where = f" in '{describe(path)}'" if path else ""
            report(path, "E101", f"missing required field '{f.name}'{where}")


def problems_for(doc: Document, root: Field, words: Words | None = None) -> list[Problem]:
    """Schema problems of a document; `words` gives the ids of each vocabulary list
    (`roles`, `stacks`, ...) that fields with `vocabulary=` must take values from."""
    problems: list[Problem] = []

    def report(path: tuple, code: str, message: str) -> None:
        line, col = doc.key_at(path) if code == "E104" else doc.at(path)
        problems.append(Problem(doc.path, line, col, code, message))

    if isinstance(doc.data, dict):
        validate_mapping(doc, root, doc.data, (), report, words or {})
    return problems
