"""Helpers shared by the diagnose tests: matcher data from small entry dicts, the Node
runner, and a buildable copy of the repository's entries for the browser test."""

from __future__ import annotations

import dataclasses
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import yaml

from generator.entries.catalog import SPECIAL_FILES, load_sources, vocabulary_from
from generator.entries.model import Action, BenignTemplate, Entry, Fix, Signature
from generator.matching import matcherdata
from generator.project import Project

REPO = Path(__file__).resolve().parent.parent
NODE_CLI = REPO / "tests" / "js" / "diagnose_cli.js"
ENGINE_JS = REPO / "docs" / "assets" / "diagnose-engine.js"


def node() -> str | None:
    return shutil.which("node")


def entry(entry_id: str, role: str, *templates: str, context: dict[int, list[str]] | None = None,
          window: int | None = None, severity: str = "high") -> Entry:
    """A minimal typed entry: what matcherdata.build reads, the prose left empty."""
    sigs = []
    for i, t in enumerate(templates):
        sig = Signature(template=t, source="test")
        if context and i in context:
            sig = dataclasses.replace(sig, context=tuple(context[i]))
            if window:
                sig = dataclasses.replace(sig, window=window)
        sigs.append(sig)
    return Entry(id=entry_id, title=entry_id.replace("-", " "), category="", component="",
                 severity=severity, role=role, tags=(), signatures=tuple(sigs), summary="",
                 mechanism="", observations=(), symptoms=(), affects=(), confirm=(),
                 fingerprint="", fix=Fix(summary=f"fix {entry_id}", steps=(), why="", verify=""),
                 faq=(), related=(), references=(),
                 action=Action(kind="fix-code", why=f"next step for {entry_id}"))


def as_yaml_data(value: Any) -> Any:
    """A typed entry (or benign template) as the YAML mapping that would load into it."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: as_yaml_data(getattr(value, f.name)) for f in dataclasses.fields(value)
                if f.name != "document" and getattr(value, f.name) is not None}
    if isinstance(value, (tuple, list)):
        return [as_yaml_data(v) for v in value]
    return value


# The roles in ranking order, as entries/vocabulary.yaml defines them.
ROLES = vocabulary_from(load_sources(Project(REPO))).ids("roles")


# A small catalogue with real message texts: enough to exercise ranking and context.
SMALL_ENTRIES = [
    entry("cuda-oom", "root",
          "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate {size}",
          "RuntimeError: CUDA out of memory. Tried to allocate {size}"),
    entry("fsdp-unshard-oom", "root",
          "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate {size}",
          context={0: ['in _unshard', 'in _pre_forward_unshard']}, window=40),
    entry("nccl-watchdog-timeout", "collateral",
          "Watchdog caught collective operation timeout: WorkNCCL(SeqNum={n}, OpType={word}, "
          "NumelIn={n}, NumelOut={n}, Timeout(ms)={n}) ran for {n} milliseconds before timing out."),
    entry("elastic-child-failed", "wrapper",
          "torch.distributed.elastic.multiprocessing.errors.ChildFailedError:",
          "failed (exitcode: {n}) local_rank: {n} (pid: {n}) of binary: {token}"),
    entry("nccl-unhandled-system-error", "root",
          "NCCL error in: {token}, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version {token}"),
]
SMALL_BENIGN = [
    BenignTemplate("NCCL INFO Channel {token} : {text}", source="test"),
    BenignTemplate("destroy_process_group() was not called before program exit, which can leak "
                   "resources.", source="test"),
]


def small_data() -> dict[str, Any]:
    return matcherdata.build(SMALL_ENTRIES, SMALL_BENIGN, ROLES)


def run_node(data: dict[str, Any], files: list[Path], tmp: Path, mode: str = "fast") -> dict[str, Any]:
    matcher = tmp / "matcher.json"
    if not matcher.exists():
        matcher.write_text(json.dumps(data), encoding="utf-8")
    out = subprocess.run([node() or "node", str(NODE_CLI), str(matcher), mode, *map(str, files)],
                         capture_output=True, text=True, check=True, timeout=300)
    return json.loads(out.stdout)


def sanitized_entries(dest: Path) -> list[str]:
    """Copy entries/ to dest, dropping cross-links to entries that do not exist yet
    (entries are written concurrently; a dangling link must not stop a browser test).
    Returns the ids copied."""
    dest.mkdir(parents=True, exist_ok=True)
    src = REPO / "entries"
    docs = {}
    for path in sorted(src.glob("*.yaml")):
        if path.name in SPECIAL_FILES:
            shutil.copy(path, dest / path.name)
            continue
        try:
            docs[path.name] = yaml.safe_load(path.read_text(encoding="utf-8"))
        except yaml.YAMLError:
            continue
    ids = {d["id"] for d in docs.values() if isinstance(d, dict) and isinstance(d.get("id"), str)}
    for name, d in docs.items():
        if not isinstance(d, dict):
            continue
        if isinstance(d.get("related"), list):
            d["related"] = [r for r in d["related"] if r in ids]
            if not d["related"]:
                del d["related"]
        for node_ in d.get("decision") or []:
            if isinstance(node_, dict) and node_.get("entry") not in ids:
                node_.pop("entry", None)
        (dest / name).write_text(yaml.safe_dump(d, sort_keys=False, allow_unicode=True, width=1000),
                                 encoding="utf-8")
    return sorted(ids)
