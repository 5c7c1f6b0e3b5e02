"""Find and load the project's YAML (entries, categories, benign noise, taxonomy), and turn
what passed the schema into the typed Catalog.

Two stages: `load_sources` reads every file with positions (what the checker needs, valid or
not); `catalog_from` converts the files that fit the model into frozen dataclasses and holds
the one compiled matcher that checking and rendering share.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from ..project import Project
from . import model
from .loader import Document, load_file
from .model import (
    ActionKind,
    Area,
    BenignTemplate,
    Entry,
    Group,
    KindFrequency,
    ModelError,
    Role,
    Stack,
    TaxonomySample,
    TaxonomySection,
    Vocabulary,
)
from .problems import Problem

CATEGORIES_FILE = "categories.yaml"
BENIGN_FILE = "benign.yaml"
TAXONOMY_FILE = "taxonomy.yaml"
VOCABULARY_FILE = "vocabulary.yaml"
SPECIAL_FILES = (CATEGORIES_FILE, BENIGN_FILE, TAXONOMY_FILE, VOCABULARY_FILE)
VERIFIED_FILE = "reproductions/verified.json"  # written by `python -m generator reproduce --record`


@dataclass
class Sources:
    """The project's files as loaded: plain data with positions, valid or not."""

    project: Project
    docs: list[Document] = field(default_factory=list)  # entry documents, sorted by path
    categories: Document | None = None
    benign: Document | None = None
    taxonomy: Document | None = None
    vocabulary: Document | None = None
    verified: dict[str, Any] = field(default_factory=dict)  # id -> reproduction record
    problems: list[Problem] = field(default_factory=list)  # load problems


@dataclass
class Catalog:
    """Every entry that fits the model, with the shared definitions, typed."""

    sources: Sources
    entries: tuple[Entry, ...]  # sorted by id
    categories: dict[str, Group]
    components: dict[str, Group]
    benign: tuple[BenignTemplate, ...]
    taxonomy: tuple[TaxonomySection, ...]
    vocabulary: Vocabulary
    sample: TaxonomySample | None = None  # taxonomy.yaml `sample:`
    frequency: tuple[KindFrequency, ...] = ()  # taxonomy.yaml `frequency:`, file order

    @property
    def project(self) -> Project:
        return self.sources.project

    @property
    def verified(self) -> dict[str, Any]:
        return self.sources.verified

    @property
    def problems(self) -> list[Problem]:
        """Problems met while loading (the checker reports the rest)."""
        return self.sources.problems

    @cached_property
    def by_id(self) -> dict[str, Entry]:
        return {e.id: e for e in self.entries}

    @cached_property
    def matcher(self) -> dict[str, Any]:
        """The compiled matcher data, entry URLs relative to the site root (matcher.json)."""
        return self.matcher_with_urls(lambda entry_id: f"failures/{entry_id}/")

    def matcher_with_urls(self, url_for: Callable[[str], str]) -> dict[str, Any]:
        from ..matching import matcherdata  # matching depends on entries, not the reverse

        words = {r.id: {"word": r.word, "explanation": r.explanation}
                 for r in self.vocabulary.roles}
        return matcherdata.build(self.entries, self.benign, self.vocabulary.ids("roles"),
                                 url_for=url_for, words=words,
                                 action_titles={a.id: a.title for a in self.vocabulary.actions})


def entry_files(project: Project) -> list[Path]:
    if not project.entries_dir.is_dir():
        return []
    return sorted(p for p in project.entries_dir.glob("*.yaml") if p.name not in SPECIAL_FILES)


# how one file is loaded: (path, display name) -> document and its load problems
Load = Callable[[Path, str], "tuple[Document, list[Problem]]"]


def load_sources(project: Project, load: Load = load_file) -> Sources:
    """Load every entry file plus the shared definition files (`load`: see reload.FileCache,
    which loads only what changed since the last build)."""
    cat = Sources(project)
    for path in entry_files(project):
        doc, problems = load(path, project.display(path))
        cat.docs.append(doc)
        cat.problems.extend(problems)
    for name in SPECIAL_FILES:
        path = project.entries_dir / name
        if name == TAXONOMY_FILE and not path.exists():
            continue  # optional: only the coverage page needs it
        doc, problems = load(path, project.display(path))
        cat.problems.extend(problems)
        if name == CATEGORIES_FILE:
            cat.categories = doc
        elif name == BENIGN_FILE:
            cat.benign = doc
        elif name == VOCABULARY_FILE:
            cat.vocabulary = doc
        else:
            cat.taxonomy = doc
    verified = project.root / VERIFIED_FILE
    if verified.is_file():
        try:
            data = json.loads(verified.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            cat.problems.append(Problem(project.display(verified), 1, 1, "E002",
                                        f"cannot read reproduction records: {exc}"))
        else:
            if isinstance(data, dict):
                cat.verified = data
    return cat


def _typed(kind: type, doc: Document | None, key: str) -> list[Any]:
    """The items under `key` of a definition file that fit `kind`; the checker reports the rest."""
    data = doc.data.get(key) if doc is not None and isinstance(doc.data, dict) else None
    items = data.items() if isinstance(data, dict) else enumerate(data) if isinstance(data, list) else ()
    out: list[tuple[Any, Any]] = []
    for name, value in items:
        try:
            out.append((name, model.build(kind, value)))
        except ModelError:
            continue
    return out


def catalog_from(sources: Sources, entry_from: Callable[[Document], Entry] = model.entry_from) -> Catalog:
    """The typed catalog: entry files that fit the model (the checker reports the others)."""
    entries = []
    for doc in sources.docs:
        try:
            entries.append(entry_from(doc))
        except ModelError:
            continue
    return Catalog(
        sources=sources,
        entries=tuple(sorted(entries, key=lambda e: e.id)),
        categories=dict(_typed(Group, sources.categories, "categories")),
        components=dict(_typed(Group, sources.categories, "components")),
        benign=tuple(b for _, b in _typed(BenignTemplate, sources.benign, "benign")),
        taxonomy=tuple(s for _, s in _typed(TaxonomySection, sources.taxonomy, "taxonomy")),
        vocabulary=vocabulary_from(sources),
        sample=_sample(sources.taxonomy),
        frequency=tuple(f for _, f in _typed(KindFrequency, sources.taxonomy, "frequency")),
    )


def _sample(doc: Document | None) -> TaxonomySample | None:
    data = doc.data.get("sample") if doc is not None and isinstance(doc.data, dict) else None
    try:
        return model.build(TaxonomySample, data) if isinstance(data, dict) else None
    except ModelError:
        return None


def vocabulary_from(sources: Sources) -> Vocabulary:
    """The vocabulary lists' items that fit the model (the checker reports the others)."""
    return Vocabulary(
        roles=tuple(r for _, r in _typed(Role, sources.vocabulary, "roles")),
        stacks=tuple(s for _, s in _typed(Stack, sources.vocabulary, "stacks")),
        actions=tuple(a for _, a in _typed(ActionKind, sources.vocabulary, "actions")),
        areas=tuple(a for _, a in _typed(Area, sources.vocabulary, "areas")),
    )


def load_catalog(project: Project) -> Catalog:
    return catalog_from(load_sources(project))
