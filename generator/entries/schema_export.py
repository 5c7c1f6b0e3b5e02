"""Generate the JSON Schema for entries from generator/entries/schema.py.

The committed copy lives at schema/entry.schema.json; each entry's first line points editors
to it (`# yaml-language-server: $schema=../schema/entry.schema.json`). A test fails when the
committed copy is stale: run `python -m generator schema` to refresh it.
"""

from __future__ import annotations

import json
from typing import Any

from ..project import Project
from . import schema
from .catalog import load_catalog
from .model import VOCABULARY_LISTS
from .schema import Field
from .validate import Words

SCHEMA_PATH = "schema/entry.schema.json"
SCHEMA_COMMENT = "# yaml-language-server: $schema=../schema/entry.schema.json"


def field_schema(f: Field, words: Words) -> dict[str, Any]:
    out: dict[str, Any] = {"description": f.description}
    if f.kind == "string":
        out["type"] = "string"
        allowed = f.enum or (words.get(f.vocabulary, ()) if f.vocabulary else ())
        if allowed:
            out["enum"] = list(allowed)
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
            out["items"] = field_schema(f.items, words)
    elif f.kind == "mapping":
        out["type"] = "object"
        if f.values is not None:
            out["additionalProperties"] = field_schema(f.values, words)
        else:
            out["properties"] = {c.name: field_schema(c, words) for c in f.fields}
            out["required"] = [c.name for c in f.fields if c.required]
            out["additionalProperties"] = False
    if f.name == "id" and f.kind == "string" and f is schema.ENTRY.child("id"):
        out["pattern"] = schema.ID_PATTERN
    return out


def entry_schema(words: Words) -> dict[str, Any]:
    """The JSON Schema; `words` gives the vocabulary lists' ids (entries/vocabulary.yaml)."""
    body = field_schema(schema.ENTRY, words)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://ml-failure-encyclopedia.github.io/encyclopedia/schema/entry.schema.json",
        "title": "Failure encyclopedia entry",
        **body,
    }


def project_words(project: Project) -> Words:
    """The ids of each vocabulary list of the project (entries/vocabulary.yaml)."""
    vocabulary = load_catalog(project).vocabulary
    return {kind: vocabulary.ids(kind) for kind in VOCABULARY_LISTS}


def render_schema(words: Words) -> str:
    return json.dumps(entry_schema(words), indent=2, ensure_ascii=False) + "\n"
