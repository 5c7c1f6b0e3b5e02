"""`python -m generator new ID [--from EXISTING]`: scaffold an entry that cannot ship as is.

The scaffold (templates/scaffold/entry.yaml.j2) holds every required field. Each text field
holds a FILL-IN marker that the checker rejects (E122) until it is replaced, so an untouched
scaffold can never land. With --from, the existing entry's structure (category, component,
severity, role, tags, related) is copied and its texts are replaced by markers. It also writes
a test-log folder with a README. Nothing is ever overwritten: `create` raises ScaffoldError
instead, and the command line reports it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from .. import templating
from ..project import Project
from . import schema
from .catalog import load_catalog
from .checks import SCAFFOLD_MARKER
from .model import Entry
from .schema_export import SCHEMA_COMMENT

_ID = re.compile(schema.ID_PATTERN)
TEST_LOGS = Path("tests") / "logs"


class ScaffoldError(Exception):
    """Why no entry was created: a bad or used id, a file that exists, an unknown --from.
    The message is one line for the reader."""


@dataclass(frozen=True)
class Scaffold:
    """What `create` wrote: the entry file and the folder for its test logs."""

    entry: Path
    logs: Path


def scaffold_text(entry_id: str, roles: Sequence[str], actions: Sequence[str],
                  base: Entry | None = None) -> str:
    """The scaffold for `entry_id`; `roles` and `actions` the vocabulary's ids, `base` the
    entry given with --from, or None."""
    return templating.tool_template("scaffold/entry.yaml.j2").render(
        entry_id=entry_id, marker=SCAFFOLD_MARKER, schema_comment=SCHEMA_COMMENT, base=base,
        roles=roles, actions=actions, severities=schema.SEVERITIES)


def create(project: Project, entry_id: str, from_id: str | None = None) -> Scaffold:
    """Write entries/<entry_id>.yaml and tests/logs/<entry_id>/README.md; raise
    ScaffoldError, writing nothing, when the id is malformed, in use or was ever used."""
    if not _ID.match(entry_id):
        raise ScaffoldError(f"'{entry_id}' is not lowercase kebab-case (e.g. nccl-my-failure)")
    catalog = load_catalog(project)
    areas = catalog.vocabulary.ids("areas")
    area = entry_id.split("-")[0]
    if area not in areas:
        raise ScaffoldError(f"'{entry_id}' starts with unknown area '{area}-'; known: "
                            + ", ".join(a + "-" for a in areas)
                            + " (add one to entries/vocabulary.yaml)")
    target = project.entries_dir / f"{entry_id}.yaml"
    if target.exists():
        raise ScaffoldError(f"{project.display(target)} already exists; not overwriting it")
    # every file counts, valid or not: an id is taken once it is written
    written = [d.data for d in catalog.sources.docs if isinstance(d.data, dict)]
    used = {d.get("id") for d in written}
    former = {old for d in written for old in (d.get("former_ids") or [])
              if isinstance(old, str)}
    if entry_id in used:
        raise ScaffoldError(f"id '{entry_id}' is already used")
    if entry_id in former:
        raise ScaffoldError(f"id '{entry_id}' is a former id that redirects to another entry; "
                            "ids are never reused")
    base = None
    if from_id is not None:
        if from_id not in catalog.by_id:
            raise ScaffoldError(f"--from '{from_id}' names no entry (or one that does not pass "
                                "the checker)")
        base = catalog.by_id[from_id]
    text = scaffold_text(entry_id, catalog.vocabulary.ids("roles"), catalog.vocabulary.ids("actions"),
                         base)
    target.parent.mkdir(parents=True, exist_ok=True)
    with target.open("x", encoding="utf-8") as fh:  # "x": never overwrite, even in a race
        fh.write(text)
    logs = project.root / TEST_LOGS / entry_id
    logs.mkdir(parents=True, exist_ok=True)
    readme = logs / "README.md"
    if not readme.exists():
        readme.write_text(templating.tool_template("scaffold/test-logs-README.md.j2").render(
            entry_id=entry_id), encoding="utf-8")
    return Scaffold(target, logs)
