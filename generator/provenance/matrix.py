"""The provenance matrix: for every signature, the scanned releases that contain it.

Computed from the cache (never downloads), written to provenance/signatures.json, and read
back by the checker, the page renderer and `explain` (they use only the committed file).

The file, sorted and stable (two runs over the same cache give the same bytes)::

    {"format": 1,
     "packages": {"torch": {"title": "torch", "scanned": ["1.8.1", ...]}, ...},
     "artifacts": [{"id", "package", "dist", "version", "file", "sha256", "with", ...}],
     "signatures": {"<entry id>/<index>": {"template": "...",
                                           "found": {"torch": ["2.4.1", ...]},
                                           "joined": [["CUDA error: ", "out of memory"]]}}}

`template` is the text the record was measured for: when the entry's template differs,
the record is stale. `joined` lists the pieces of every part that was found only as a join
of constants (see match.py), for review.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..entries.model import Entry
from ..entries.model import Signature as EntrySignature
from . import ranges
from .artifacts import Artifact, ArtifactList
from .cache import Cache
from .extract import EXTRACTOR_VERSION
from .match import MATCHER_VERSION, Index, Part, plan_or_none

MATRIX_FILE = "provenance/signatures.json"
PREFILTER_FROM = 30  # lookups in one release stack from which its word index pays off
FORMAT = 1
EXEMPT = re.compile(r"\[not scannable: ([^\]]+)\]")
_REPO = re.compile(r"^([\w.-]+/[\w.-]+)\s")


def exemption(source: Any) -> str | None:
    """'Linux kernel' for a source with '[not scannable: Linux kernel]', else None."""
    if not isinstance(source, str):
        return None
    m = EXEMPT.search(source)
    return m.group(1).strip() if m else None


def source_repo(source: Any) -> str | None:
    if not isinstance(source, str):
        return None
    m = _REPO.match(source.strip())
    return m.group(1) if m else None


@dataclass(frozen=True)
class Signature:
    key: str  # '<entry id>/<index>'
    entry: str
    index: int
    template: str
    source: str
    versions: str


def signatures_of(entries: Sequence[Entry]) -> list[Signature]:
    out = [Signature(f"{e.id}/{i}", e.id, i, sig.template, sig.source, sig.versions or "")
           for e in entries for i, sig in enumerate(e.signatures)]
    return sorted(out, key=lambda s: (s.entry, s.index))


def part_key(part: Part) -> str:
    return f"{part.kind}:{part.text}"


# -- computing -----------------------------------------------------------------------------

def stack_key(stack: list[Artifact], manifests: dict[str, dict[str, Any]]) -> str:
    # an sdist-c artifact's text holds its C sources too: not the matches of the same file as
    # a Python-only sdist (the suffix leaves every other key, and its cached matches, as it was)
    ident = "|".join(f"{a.id}:{manifests[a.id]['sha256']}" + (":c" if a.kind == "sdist-c" else "")
                     for a in stack)
    ident += f"|extractor={EXTRACTOR_VERSION}|matcher={MATCHER_VERSION}"
    return f"{stack[0].id}-{hashlib.sha256(ident.encode()).hexdigest()[:12]}"


def _match_stack(args: tuple[str, list[str], str, list[str]]) -> tuple[str, dict[str, Any], int]:
    """Worker: look up the parts not yet cached for one stack; returns (key, results, new)."""
    cache_dir, ids, key, wanted = args
    cache = Cache(Path(cache_dir))
    known = cache.load_matches(key)
    missing = [k for k in wanted if k not in known]
    if missing:
        strings: list[str] = []
        code: list[str] = []
        for artifact_id in ids:
            s, c = cache.load_text(artifact_id)
            strings += s
            code += c
        index = Index(strings, code, prefilter=len(missing) > PREFILTER_FROM)
        del strings, code
        for k in missing:
            kind, _, text = k.partition(":")
            known[k] = index.find(Part(kind, text))
        cache.store_matches(key, known)
    return key, {k: known[k] for k in wanted}, len(missing)


@dataclass
class Computed:
    data: dict[str, Any]
    missing_artifacts: list[str] = field(default_factory=list)


def reusable(previous: dict[str, Any] | None, sigs: list[Signature]) -> dict[str, dict[str, Any]]:
    """The records of `previous` (a matrix as written) that still hold: the signature's
    text is the one the record was measured for."""
    records = previous.get("signatures") if isinstance(previous, dict) else None
    if not isinstance(records, dict):
        return {}
    return {s.key: records[s.key] for s in sigs
            if isinstance(records.get(s.key), dict) and records[s.key].get("template") == s.template}


def compute(alist: ArtifactList, cache: Cache, entries: Sequence[Entry], jobs: int = 1,
            progress: Callable[[str], None] = lambda s: None,
            previous: dict[str, Any] | None = None) -> Computed:
    """The matrix from the cache. Artifacts not in the cache are left out (and named).

    With `previous` (the committed matrix; incremental mode), a signature whose text has
    not changed keeps its record, and only the other signatures are looked up: a release is
    read only if one of their parts is not in its cached match results. The caller checks
    that the scanned artifacts are the same as in `previous` (`same_artifacts`)."""
    sigs = signatures_of(entries)
    plans = {s.key: plan_or_none(s.template) for s in sigs}
    kept = reusable(previous, sigs)
    wanted = sorted({part_key(p) for key, pl in plans.items() if pl and key not in kept
                     for p in (*pl.parts, *([pl.layout] if pl.layout else []))})
    manifests: dict[str, dict[str, Any]] = {}
    missing: list[str] = []
    for a in alist.artifacts:
        m = cache.manifest(a.id)
        if m is None:
            missing.append(a.id)
        else:
            manifests[a.id] = m
    roots = [a for a in alist.artifacts
             if all(x.id in manifests for x in alist.stack(a))]
    tasks = []
    for a in roots:
        stack = alist.stack(a)
        tasks.append((str(cache.folder), [x.id for x in stack], stack_key(stack, manifests), wanted))
    results: dict[str, dict[str, Any]] = {}
    started = 0

    def note(key: str, new: int) -> None:
        nonlocal started
        started += 1
        progress(f"matched {started}/{len(tasks)}: {key} ({new} new lookups)")

    if jobs > 1 and len(tasks) > 1:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for key, res, new in pool.map(_match_stack, tasks):
                results[key] = res
                note(key, new)
    else:
        for task in tasks:
            key, res, new = _match_stack(task)
            results[key] = res
            note(key, new)
    by_root = {a.id: results[t[2]] for a, t in zip(roots, tasks, strict=True)}
    return Computed(build(alist, manifests, roots, by_root, sigs, plans, kept), missing)


def same_artifacts(a: dict[str, Any], b: dict[str, Any] | None) -> bool:
    """Whether two matrices were measured over the same releases (ids, files, hashes)."""
    return isinstance(b, dict) and a.get("artifacts") == b.get("artifacts")


def _bundled_nccl(manifest: dict[str, Any], stack: list[Artifact]) -> str | None:
    """The NCCL version a torch wheel links in itself (its own 'NCCL version X' string),
    when no NCCL wheel is installed with it."""
    if any(a.package == "nccl" for a in stack[1:]):
        return None
    found = manifest.get("nccl_version_strings") or []
    return found[0] if len(found) == 1 else None


LEFTOVER_PIECES = 3  # a join of this many pieces or more, see _last_whole


def _last_whole(roots: list[Artifact], by_root: dict[str, dict[str, Any]],
                keys: list[str]) -> dict[str, dict[str, tuple[int, ...]]]:
    """Package -> part -> the newest release that holds the part as one string. A message
    that a package stored whole and then removed is, in a later release, spelled out of
    three or more fragments of other texts only by coincidence (`FlatParameter` + ' does
    not support ' + 'nesting'); such joins do not count. An older release may still hold
    it as pieces (the wording was joined into one constant later)."""
    out: dict[str, dict[str, tuple[int, ...]]] = {}
    for a in roots:
        for k in keys:
            if by_root[a.id].get(k) in ("string", "code"):
                best = out.setdefault(a.package, {})
                best[k] = max(best.get(k, ()), ranges.version_key(a.version))
    return out


def build(alist: ArtifactList, manifests: dict[str, dict[str, Any]], roots: list[Artifact],
          by_root: dict[str, dict[str, Any]], sigs: list[Signature],
          plans: dict[str, Any], kept: dict[str, dict[str, Any]] | None = None) -> dict[str, Any]:
    """The matrix as written; `kept`: records taken over unchanged (incremental mode)."""
    scanned: dict[str, set[str]] = {k: set() for k in alist.packages}
    artifacts = []
    bundles: dict[str, str] = {}
    for a in roots:
        m = manifests[a.id]
        scanned[a.package].add(a.version)
        rec: dict[str, Any] = {"id": a.id, "package": a.package, "dist": a.dist,
                               "version": a.version, "file": m["file"], "sha256": m["sha256"]}
        if a.with_:
            rec["with"] = list(a.with_)
        if a.package == "torch" and "nccl" in alist.packages:
            nccl = _bundled_nccl(m, alist.stack(a))
            if nccl:
                rec["bundles"] = {"nccl": nccl}
                bundles[a.id] = nccl
                scanned["nccl"].add(nccl)
        artifacts.append(rec)
    records: dict[str, Any] = {}
    for s in sigs:
        if kept and s.key in kept:
            records[s.key] = kept[s.key]
            continue
        pl = plans.get(s.key)
        rec = {"template": s.template, "found": {}}
        if pl is None:
            records[s.key] = rec
            continue
        keys = [part_key(p) for p in pl.parts]
        found: dict[str, set[str]] = {}
        joins: set[tuple[str, ...]] = set()
        source_pkg = alist.package_for_repo(source_repo(s.source) or "")
        layout = part_key(pl.layout) if pl.layout else ""
        last_whole = _last_whole(roots, by_root, keys)
        for a in roots:
            res = by_root[a.id]
            if res.get(layout) == "sibling":  # the release prints another arrangement
                continue
            if any(isinstance(res.get(k), list) and len(res[k]) >= LEFTOVER_PIECES
                   and k in last_whole.get(a.package, {})
                   and ranges.version_key(a.version) > last_whole[a.package][k] for k in keys):
                continue  # spelled from fragments after the release that last held it whole
            if all(res.get(k) is not None for k in keys):
                found.setdefault(a.package, set()).add(a.version)
                if a.id in bundles and source_pkg == "nccl":
                    found.setdefault("nccl", set()).add(bundles[a.id])
                joins.update(tuple(res[k]) for k in keys if isinstance(res[k], list))
        rec["found"] = {p: ranges.sort_versions(v) for p, v in sorted(found.items())}
        if not found:  # which parts no release has: what to look at first
            rec["unfound"] = [p.text for p, k in zip(pl.parts, keys, strict=True)
                              if all(by_root[a.id].get(k) is None for a in roots)]
        if joins:
            rec["joined"] = [list(j) for j in sorted(joins)]
        records[s.key] = rec
    return {
        "about": "Generated by `python -m generator provenance` from the releases in "
                 "provenance/artifacts.yaml; do not edit.",
        "format": FORMAT,
        "packages": {k: {"title": alist.packages[k].title, "order": i,
                         "repos": list(alist.packages[k].repos),
                         "scanned": ranges.sort_versions(scanned[k])}
                     for i, k in enumerate(alist.packages)},
        "artifacts": sorted(artifacts, key=lambda r: (r["package"],
                                                      ranges.version_key(r["version"]), r["id"])),
        "signatures": records,
    }


def dumps(data: dict[str, Any]) -> str:
    return json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


# -- reading -------------------------------------------------------------------------------

class MatrixError(ValueError):
    pass


@dataclass
class Matrix:
    """The committed matrix, as the checker, the renderer and `explain` read it."""

    packages: dict[str, dict[str, Any]]
    artifacts: list[dict[str, Any]]
    records: dict[str, dict[str, Any]]

    @property
    def titles(self) -> dict[str, str]:
        return {k: str(v.get("title", k)) for k, v in self.packages.items()}

    def scanned(self, package: str) -> list[str]:
        return list(self.packages.get(package, {}).get("scanned") or [])

    def bundled(self, package: str) -> set[str]:
        """Versions of `package` measured only inside another release (torch 1.x's NCCL)."""
        return {str(b[package]) for a in self.artifacts
                if isinstance(b := a.get("bundles"), dict) and package in b}

    def scanned_all(self) -> dict[str, list[str]]:
        """Scanned versions per package, in the order of provenance/artifacts.yaml."""
        keys = sorted(self.packages, key=lambda k: (self.packages[k].get("order", 0), k))
        return {k: self.scanned(k) for k in keys}

    def record(self, entry_id: str, index: int) -> dict[str, Any] | None:
        return self.records.get(f"{entry_id}/{index}")

    def ranges(self, entry_id: str, index: int, template: str) -> str | None:
        """'torch 2.4-2.13; NCCL 2.19-2.28' for a current record; '' when the record says
        no scanned release prints it; None when there is no current record."""
        rec = self.record(entry_id, index)
        if rec is None or rec.get("template") != template:
            return None
        return ranges.human(rec.get("found") or {}, self.scanned_all(), self.titles)

    def describe(self, signature: EntrySignature, entry_id: str, index: int) -> str:
        """The sentence shown next to a signature on its page and in `explain`."""
        software = exemption(signature.source)
        text = self.ranges(entry_id, index, signature.template)
        if text:
            return f"printed by {text}"
        if software:
            return f"printed by {software}, whose releases are not scanned"
        if text == "":
            return "found in no scanned release"
        return "not measured yet (run `python -m generator provenance`)"


def parse(data: Any) -> Matrix:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise MatrixError(f"expected a provenance matrix of format {FORMAT}")
    packages = data.get("packages")
    records = data.get("signatures")
    artifacts = data.get("artifacts")
    if not isinstance(packages, dict) or not isinstance(records, dict) or not isinstance(artifacts, list):
        raise MatrixError("expected 'packages', 'artifacts' and 'signatures'")
    return Matrix(packages, artifacts, {k: v for k, v in records.items() if isinstance(v, dict)})


def load(root: Path) -> Matrix | None:
    """The committed matrix, or None when the project has none."""
    path = root / MATRIX_FILE
    if not path.is_file():
        return None
    try:
        return parse(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError) as exc:
        raise MatrixError(f"{MATRIX_FILE}: {exc}") from None


def load_or_none(root: Path) -> Matrix | None:
    """The committed matrix for display; None when absent or unreadable (the checker says
    why: E125)."""
    try:
        return load(root)
    except MatrixError:
        return None


def printed_by(root: Path, entries: Sequence[Entry]) -> dict[str, tuple[str, ...]]:
    """Entry id -> for each signature, the sentence that says which releases print it (the
    committed matrix read once); empty when the project has no readable matrix."""
    matrix = load_or_none(root)
    if matrix is None:
        return {}
    return {e.id: tuple(matrix.describe(sig, e.id, i) for i, sig in enumerate(e.signatures))
            for e in entries}


def affected(entry: Entry, alist: ArtifactList) -> dict[str, list[Any]]:
    """Package -> the version claims of the entry's `affects` items that name it ('PyTorch
    FSDP1', versions '>= 1.12'): where the page says the failure exists. Items whose
    versions the claim parser cannot read are left out."""
    from . import claims  # claims reads ranges only; imported here to keep the module light

    out: dict[str, list[Any]] = {}
    for item in entry.affects:
        words = [w.lower() for w in re.findall(r"[A-Za-z][\w-]*", item.system)]
        named = {p for w in words if (p := alist.package_for_alias(w))}
        if len(named) != 1:  # none, or several ('PyTorch Lightning'): not one package's range
            continue
        package = named.pop()
        def resolve(name: str | None, default: str = package) -> str | None:
            return default if name is None else alist.package_for_alias(name)

        parsed = claims.parse(item.versions, resolve)
        for claim in parsed or []:
            if claim.package == package and claim.spans:
                out.setdefault(package, []).append(claim)
    return out


def holes(matrix: Matrix, entries: Sequence[Entry],
          alist: ArtifactList | None = None) -> Iterator[tuple[str, str, str]]:
    """(entry id, package title, ranges) of scanned releases in which none of an entry's
    signatures occurs, for each package in which at least one of them occurs. With the
    artifact list, a release outside every range the entry's `affects` gives for that
    package is not a hole: the page says the failure does not exist there."""
    repos = {str(r).lower() for r in matrix.packages.get("nccl", {}).get("repos") or []}
    for e in sorted(entries, key=lambda e: e.id):
        union: dict[str, set[str]] = {}
        for i, sig in enumerate(e.signatures):
            rec = matrix.record(e.id, i)
            if rec and rec.get("template") == sig.template:
                for pkg, versions in (rec.get("found") or {}).items():
                    union.setdefault(pkg, set()).update(versions)
        from_nccl = any((source_repo(sig.source) or "").lower() in repos for sig in e.signatures)
        scope = affected(e, alist) if alist is not None else {}
        for pkg in matrix.scanned_all():
            if pkg not in union:
                continue
            scanned = matrix.scanned(pkg)
            if not from_nccl:  # a torch binary's own NCCL counts for NCCL's text only
                scanned = [v for v in scanned if v not in matrix.bundled(pkg)]
            missing = [v for v in scanned if v not in union[pkg]
                       and (pkg not in scope or any(c.contains(v) for c in scope[pkg]))]
            text = ranges.format_runs(scanned, missing)
            if text:
                yield e.id, matrix.titles[pkg], text
