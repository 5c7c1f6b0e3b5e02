"""Which failure a set of logs shows: the verdict of ``python -m generator diagnose``.

The matcher data is built in-process from ``entries/`` (no rendered site needed; the command
line reuses it through ``datacache`` while the entries are unchanged) and the logs
are streamed through ``logread`` into the engine. The verdict is the JSON object defined in
``verdict_schema.py`` (published as ``schema/verdict.schema.json`` and documented in
``docs/diagnose-json.md``). Nothing here prints: the command line (``generator/cli``) shows the
verdict as a text report or as JSON and chooses the exit status.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..entries.vocabulary_types import ActionKind, Role
from . import datacache, logread
from . import engine as engine_mod

if TYPE_CHECKING:
    from ..entries.catalog import Catalog


class DiagnoseError(Exception):
    """A usage error (stdin named twice, no signatures to match with). The message is one
    line for the reader. Unreadable logs raise ``logread.LogError``."""


@dataclass(frozen=True)
class Diagnosis:
    verdict: dict[str, Any]  # the JSON object of docs/diagnose-json.md
    broken: int  # entry files with load problems, which may be missing from the verdict
    roles: dict[str, Role]  # the roles the verdict names (entries/vocabulary.yaml), by id
    actions: dict[str, ActionKind]  # the next-step kinds the verdict names, by id


def load_data(root: Path) -> tuple[dict[str, Any], int]:
    """(matcher data with absolute entry URLs, number of entry files with load problems)."""
    data, broken, _ = _load(root)
    return data, broken


def _load(root: Path) -> tuple[dict[str, Any], int, Catalog]:
    # imported here: with the matcher cached (datacache), `diagnose` never loads entries
    from ..entries.catalog import load_catalog
    from ..project import Project

    project = Project(root)
    catalog = load_catalog(project)
    base = project.site_url()
    data = catalog.matcher_with_urls(lambda entry_id: f"{base}failures/{entry_id}/")
    broken = len({p.path for p in catalog.problems if p.severity == "error"})
    return data, broken, catalog


def diagnose(data: dict[str, Any], paths: list[str],
             prefilter: logread.Prefilter | None = None) -> dict[str, Any]:
    """The verdict for these log files (raises logread.LogError)."""
    engine = engine_mod.Engine(data)
    results = logread.diagnose_files(paths, engine, prefilter)
    files = [{"name": r.name, "start": r.start, "lines": r.lines} for r in results]
    return engine_mod.attribute_files(engine.verdict(), files)


@dataclass(frozen=True)
class _Loaded:
    """What ``diagnose_logs`` keeps in the matcher cache (``datacache``)."""
    data: dict[str, Any]
    broken: int
    roles: dict[str, Role]
    actions: dict[str, ActionKind]
    needles: logread.NeedleSets  # the prefilter's needles, reduced once


def _load_for_diagnose(root: Path) -> _Loaded:
    data, broken, catalog = _load(root)
    return _Loaded(data, broken, {role.id: role for role in catalog.vocabulary.roles},
                   {action.id: action for action in catalog.vocabulary.actions},
                   logread.engine_needle_sets(engine_mod.Engine(data)))


def diagnose_logs(root: Path, files: list[str]) -> Diagnosis:
    """The verdict for these log files ('-' is stdin) with the entries of the project at
    ``root`` (loaded through ``datacache``). Raises DiagnoseError or logread.LogError."""
    if files.count("-") > 1:
        raise DiagnoseError("'-' (stdin) can be given only once")
    loaded = datacache.cached(root, lambda: _load_for_diagnose(root))
    if not loaded.data["signatures"]:
        raise DiagnoseError(f"no signatures found in {root / 'entries'}; run this inside the "
                            "encyclopedia's repository")
    verdict = diagnose(loaded.data, files, logread.prefilter_for(loaded.needles))
    return Diagnosis(verdict, loaded.broken, loaded.roles, loaded.actions)
