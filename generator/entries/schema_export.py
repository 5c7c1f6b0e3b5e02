"""Generate the JSON Schema for entries from generator/entries/schema.py.

The committed copy lives at schema/entry.schema.json; each entry's first line points editors
to it (`# yaml-language-server: $schema=../schema/entry.schema.json`). A test fails when the
committed copy is stale: run `python -m generator schema` to refresh it.
"""

from __future__ import annotations

import json
from typing import Any

from . import schema
from .schema import Field

SCHEMA_PATH = "schema/entry.schema.json"
SCHEMA_COMMENT = "# yaml-language-server: $schema=../schema/entry.schema.json"


def field_schema(f: Field) -> dict[str, Any]:
    out: dict[str, Any] = {"description": f.description}
    if f.kind == "string":
        out["type"] = "string"
        if f.enum:
            out["enum"] = list(f.enum)
        else:
            out["minLength"] = 1
    elif f.kind == "integer":
        out["type"] = "integer"
    elif f.kind == "boolean":
        out["type"] = "boolean"
    elif f.kind == "list":
        out["type"] = "array"
        if f.required:
            out["minItems"] = 1
        if f.items is not None:
            out["items"] = field_schema(f.items)
    elif f.kind == "mapping":
        out["type"] = "object"
        if f.values is not None:
            out["additionalProperties"] = field_schema(f.values)
        else:
            out["properties"] = {c.name: field_schema(c) for c in f.fields}
            out["required"] = [c.name for c in f.fields if c.required]
            out["additionalProperties"] = False
    if f.name == "id" and f.kind == "string" and f is schema.ENTRY.child("id"):
        out["pattern"] = schema.ID_PATTERN
    return out


def entry_schema() -> dict[str, Any]:
    body = field_schema(schema.ENTRY)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://ml-failure-encyclopedia.github.io/encyclopedia/schema/entry.schema.json",
        "title": "Failure encyclopedia entry",
        **body,
    }


def render_schema() -> str:
    return json.dumps(entry_schema(), indent=2, ensure_ascii=False) + "\n"
