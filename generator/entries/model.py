"""The typed model: checked entries as frozen dataclasses, and the Catalog that holds them.

The checker works on loaded documents (plain data with positions) because it must describe
whatever a contributor wrote. Once a file has passed the schema, everything downstream (the
matcher, the pages, `explain`, `diagnose`) reads these types instead: attribute names are
the YAML field names, an optional field that is absent is None (a scalar or mapping) or an
empty tuple (a list), and defaults are written here once.
"""

from __future__ import annotations

import collections.abc
import dataclasses
import functools
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar, Union

from .loader import Document
from .vocabulary_types import ActionKind, Area, Role, Stack

DEFAULT_WINDOW = 60  # lines before or after a signature's line where its context may be


@dataclass(frozen=True)
class Signature:
    template: str
    source: str
    versions: str | None = None
    context: tuple[str, ...] = ()
    window: int = DEFAULT_WINDOW
    reproduced: bool = False
    weak: bool = False
    generic: bool = False
    repeated: bool = False


@dataclass(frozen=True)
class Symptom:
    symptom: str
    meaning: str


@dataclass(frozen=True)
class Affected:
    system: str
    versions: str
    note: str | None = None


@dataclass(frozen=True)
class Fix:
    summary: str
    steps: tuple[str, ...]
    why: str
    verify: str


@dataclass(frozen=True)
class Question:
    q: str
    a: str


@dataclass(frozen=True)
class Reference:
    title: str
    url: str


@dataclass(frozen=True)
class Snippet:
    title: str
    language: str
    code: str


@dataclass(frozen=True)
class Practice:
    stack: str
    advice: str


@dataclass(frozen=True)
class Edge:
    label: str
    to: str


@dataclass(frozen=True)
class DecisionNode:
    node: str
    text: str
    entry: str | None = None
    edges: tuple[Edge, ...] = ()


@dataclass(frozen=True)
class Reproduction:
    script: str
    launcher: str
    nprocs: int
    needs: str
    timeout: int
    env: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Action:
    """What an operator does next: one kind from entries/vocabulary.yaml `actions`, and why."""

    kind: str
    why: str


@dataclass(frozen=True)
class Check:
    """One `verified:` record: a library version this entry was checked against, and how."""

    library: str
    version: str
    how: str
    date: str | None = None
    platform: str | None = None


@dataclass(frozen=True)
class Entry:
    id: str
    title: str
    category: str
    component: str
    severity: str
    role: str
    tags: tuple[str, ...]
    signatures: tuple[Signature, ...]
    summary: str
    mechanism: str
    observations: tuple[str, ...]
    symptoms: tuple[Symptom, ...]
    affects: tuple[Affected, ...]
    confirm: tuple[str, ...]
    fingerprint: str
    fix: Fix
    faq: tuple[Question, ...]
    related: tuple[str, ...]
    references: tuple[Reference, ...]
    action: Action
    code: tuple[Snippet, ...] = ()
    practices: tuple[Practice, ...] = ()
    decision: tuple[DecisionNode, ...] = ()
    notes: str | None = None
    also_quoted_as: tuple[str, ...] = ()
    former_ids: tuple[str, ...] = ()
    reproduce: Reproduction | None = None
    verified: tuple[Check, ...] = ()
    reviewed: str | None = None
    # where it was loaded from: positions for messages, and the mapping as written (exports)
    document: Document | None = field(default=None, compare=False, repr=False)

    @property
    def path(self) -> str:
        return self.document.path if self.document else f"entries/{self.id}.yaml"

    def as_written(self) -> dict[str, Any]:
        """The entry's mapping exactly as its file wrote it (no defaults filled in)."""
        return self.document.data if self.document and isinstance(self.document.data, dict) else {}


@dataclass(frozen=True)
class Group:
    """A category or component from entries/categories.yaml."""

    title: str
    description: str


@dataclass(frozen=True)
class BenignTemplate:
    """Log noise that is never a failure (entries/benign.yaml)."""

    template: str
    source: str
    why: str | None = None


VOCABULARY_LISTS = ("roles", "stacks", "actions", "areas")  # the lists of entries/vocabulary.yaml


@dataclass(frozen=True)
class Vocabulary:
    """entries/vocabulary.yaml: the roles (in ranking order), stacks, next actions and id areas."""

    roles: tuple[Role, ...] = ()
    stacks: tuple[Stack, ...] = ()
    actions: tuple[ActionKind, ...] = ()
    areas: tuple[Area, ...] = ()

    def ids(self, kind: str) -> tuple[str, ...]:
        """The ids of `roles`, `stacks`, `actions` or `areas`, in file order."""
        return tuple(item.id for item in getattr(self, kind))


@dataclass(frozen=True)
class TaxonomySection:
    section: str
    ids: tuple[str, ...]


@dataclass(frozen=True)
class TaxonomySample:
    """entries/taxonomy.yaml `sample:`: the labelled sample of public failure reports that the
    `frequency:` counts come from."""

    threads: int  # M: sampled threads, each labelled with one kind
    date: str  # YYYY-MM-DD
    data: str | None = None  # the sample file, relative to the project root (one row per thread)
    method: str | None = None  # how the sample was drawn, relative to the project root


@dataclass(frozen=True)
class KindFrequency:
    """entries/taxonomy.yaml `frequency[]`: how often one kind was seen in the sample."""

    id: str
    count: int
    examples: tuple[str, ...] = ()  # up to 3 thread URLs
    covered_by: str | None = None  # the entry that covers this kind under another id


T = TypeVar("T")


class ModelError(ValueError):
    """Data that does not fit the model: a schema problem the checker should have reported."""


def build(cls: type[T], data: Any, where: str = "") -> T:
    """A dataclass of type `cls` from checked YAML data (mappings, lists, scalars)."""
    return typing.cast(T, _convert(cls, data, where or cls.__name__))


@functools.cache
def _hints(cls: Any) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _convert(kind: Any, value: Any, where: str) -> Any:
    origin = typing.get_origin(kind)
    if origin in (Union, types.UnionType):
        options = [a for a in typing.get_args(kind) if a is not type(None)]
        return None if value is None else _convert(options[0], value, where)
    if isinstance(kind, type) and dataclasses.is_dataclass(kind):
        if not isinstance(value, dict):
            raise ModelError(f"{where}: expected a mapping")
        hints = _hints(kind)
        names = {f.name for f in dataclasses.fields(kind) if f.init and f.name != "document"}
        unknown = set(value) - names
        if unknown:
            raise ModelError(f"{where}: unknown field(s) {', '.join(sorted(map(str, unknown)))}")
        missing = [f.name for f in dataclasses.fields(kind) if f.init and f.name not in value
                   and f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING]
        if missing:
            raise ModelError(f"{where}: missing field(s) {', '.join(missing)}")
        return kind(**{k: _convert(hints[k], v, f"{where}.{k}") for k, v in value.items()
                       if v is not None})
    if origin is tuple:
        if not isinstance(value, list):
            raise ModelError(f"{where}: expected a list")
        item = typing.get_args(kind)[0]
        return tuple(_convert(item, v, f"{where}[{i}]") for i, v in enumerate(value))
    if origin in (collections.abc.Mapping, dict):
        if not isinstance(value, dict):
            raise ModelError(f"{where}: expected a mapping")
        return dict(value)
    if kind is bool or kind is int or kind is str:
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise ModelError(f"{where}: expected {kind.__name__}")
        return value
    raise ModelError(f"{where}: no conversion for {kind!r}")  # pragma: no cover - model bug


def entry_from(doc: Document) -> Entry:
    entry = build(Entry, doc.data, doc.path)
    return dataclasses.replace(entry, document=doc)
