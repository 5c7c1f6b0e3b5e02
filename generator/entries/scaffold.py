"""`python -m generator new ID [--from EXISTING]`: scaffold an entry that cannot ship as is.

The scaffold holds every required field. Each text field holds a FILL-IN marker that the
checker rejects (E122) until it is replaced, so an untouched scaffold can never land. With
--from, the existing entry's structure (category, component, role, tags, related, stacks)
is copied and its texts are replaced by markers. It also writes a test-log stub folder.
Nothing is ever overwritten.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from ..project import Project
from . import schema
from .catalog import load_sources, vocabulary_from
from .checks import SCAFFOLD_MARKER
from .schema_export import SCHEMA_COMMENT

_ID = re.compile(schema.ID_PATTERN)


def _q(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def scaffold_text(entry_id: str, base: dict | None = None) -> str:
    base = base or {}
    m = SCAFFOLD_MARKER
    category = base.get("category", f"{m} a category id from entries/categories.yaml")
    component = base.get("component", f"{m} a component id from entries/categories.yaml")
    role = base.get("role", "root")
    severity = base.get("severity", "high")
    tags = base.get("tags") or [entry_id.split("-")[0]]
    related = base.get("related") or []
    lines = [
        SCHEMA_COMMENT,
        f"# A new entry. Every '{m}' must be replaced; `python -m generator check` lists them.",
        "# Quality bar: CONTRIBUTING.md. Every signature must be text real software prints.",
        f"id: {entry_id}",
        f"title: {_q(m + ' the failure as a reader would name it')}",
        f"category: {_q(category)}",
        f"component: {_q(component)}",
        f"severity: {severity}  # critical | high | medium | low",
        f"role: {role}  # root | collateral | wrapper",
        f"tags: [{', '.join(tags)}]",
        "signatures:",
        f"  - template: {_q(m + ' the exact printed line, with holes such as {n} for the parts that vary')}",
        f"    source: {_q(m + ' owner/repo path/to/file (function), or reproduced: how')}",
        "summary: |",
        f"  {m} the quick answer: what broke and what to do.",
        "mechanism: |",
        f"  {m} why it happens: which component, which condition, why the message appears where it does.",
        "observations:",
        f"  - {_q(m + ' what you will see in the logs and the job')}",
        "symptoms:",
        f"  - symptom: {_q(m + ' what the reader sees')}",
        f"    meaning: {_q(m + ' what it tells them')}",
        "affects:",
        "  - system: PyTorch",
        f"    versions: {_q(m + ' e.g. >= 2.4')}",
        "confirm:",
        f"  - {_q(m + ' a check that separates this failure from its siblings')}",
        "fingerprint: |",
        f"  {m} a realistic log excerpt (rank prefixes, launcher framing) that your signatures match",
        "fix:",
        f"  summary: {_q(m + ' the fix in one or two sentences')}",
        "  steps:",
        f"    - {_q(m + ' an exact step: setting, API, environment variable or command')}",
        f"  why: {_q(m + ' why the fix works')}",
        f"  verify: {_q(m + ' how to verify the signature is gone')}",
        "faq:",
        f"  - q: {_q(m + ' a question people ask in issue threads')}",
        f"    a: {_q(m + ' its answer')}",
        f"related: [{', '.join(related) if related else m + '-an-existing-entry-id'}]",
        "references:",
        f"  - title: {_q(m + ' upstream docs, source file or issue thread')}",
        "    url: https://github.com/",
    ]
    return "\n".join(lines) + "\n"


def run(root: Path, entry_id: str, from_id: str | None) -> int:
    project = Project(root)
    if not _ID.match(entry_id):
        print(f"error: '{entry_id}' is not lowercase kebab-case (e.g. nccl-my-failure)", file=sys.stderr)
        return 2
    area = entry_id.split("-")[0]
    sources = load_sources(project)  # every file, valid or not: an id is taken once written
    areas = vocabulary_from(sources).ids("areas")
    if area not in areas:
        print(f"error: '{entry_id}' starts with unknown area '{area}-'; known: "
              + ", ".join(a + "-" for a in areas) + " (add one to entries/vocabulary.yaml)",
              file=sys.stderr)
        return 2
    target = project.entries_dir / f"{entry_id}.yaml"
    if target.exists():
        print(f"error: {project.display(target)} already exists; not overwriting it", file=sys.stderr)
        return 2
    entries = {d.data.get("id"): d.data for d in sources.docs if isinstance(d.data, dict)}
    former = {old for e in entries.values() for old in (e.get("former_ids") or []) if isinstance(old, str)}
    if entry_id in entries:
        print(f"error: id '{entry_id}' is already used", file=sys.stderr)
        return 2
    if entry_id in former:
        print(f"error: id '{entry_id}' is a former id that redirects to another entry; ids are "
              "never reused", file=sys.stderr)
        return 2
    base = None
    if from_id is not None:
        if from_id not in entries:
            print(f"error: --from '{from_id}' names no entry", file=sys.stderr)
            return 2
        base = entries[from_id]
    target.parent.mkdir(parents=True, exist_ok=True)
    with target.open("x", encoding="utf-8") as fh:  # "x": never overwrite, even in a race
        fh.write(scaffold_text(entry_id, base))
    logs = root / "tests" / "logs" / entry_id
    logs.mkdir(parents=True, exist_ok=True)
    readme = logs / "README.md"
    if not readme.exists():
        readme.write_text(
            f"# Test logs for {entry_id}\n\nAdd `<case>.log` files here: realistic logs that "
            f"`python -m generator diagnose` must recognise as `{entry_id}`. For a collateral or "
            "wrapper entry, add `<case>.expect` listing the expected ids, root cause first.\n",
            encoding="utf-8")
    print(f"wrote {project.display(target)} and {project.display(logs)}/")
    print(f"next: fill in every '{SCAFFOLD_MARKER}', then `python -m generator check "
          f"{project.display(target)}`")
    return 0
