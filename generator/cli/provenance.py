"""`python -m generator provenance`: fetch, extract, measure, write the matrix.

    provenance                 fetch what the cache lacks, then write provenance/signatures.json
    provenance --from-cache    never download: recompute from the cache (fails if incomplete)
    provenance --fetch-only    fill the cache, write nothing
    provenance --incremental   keep the committed record of every signature whose text is
                               unchanged; measure only new and changed signatures (with
                               --from-cache: the usual command after editing signatures)
    provenance --holes         per entry, the scanned releases in which none of its
                               signatures occurs, inside the ranges its `affects` gives
                               (read from the committed matrix)

Progress goes to stderr. Interrupting is safe: an artifact whose text is in the cache is
never fetched again, and match results are cached per release stack.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from pathlib import Path
from typing import Any

from ..entries.catalog import load_catalog
from ..project import Project
from ..provenance import artifacts as artifact_list
from ..provenance import matrix as mx
from ..provenance.cache import Cache, default_dir
from ..provenance.fetch import FetchError, fetch_and_extract


def _err(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def _fetch_missing(alist: artifact_list.ArtifactList, cache: Cache, jobs: int,
                   only: list[str] | None) -> list[str]:
    cached = {a.id for a in alist.artifacts if cache.manifest(a.id) is not None}
    todo = [a for a in alist.artifacts if a.id not in cached and (not only or a.id in only)]
    done = len(cached)
    _err(f"provenance: {done} of {len(alist.artifacts)} artifacts already in {cache.folder}; "
         f"fetching {len(todo)} with {jobs} job(s)")
    failed: list[str] = []
    started = time.monotonic()
    with ProcessPoolExecutor(max_workers=max(1, jobs)) as pool:
        pending: dict[Future[Any], str] = {}
        queue = list(todo)
        while queue or pending:
            while queue and len(pending) < max(1, jobs):
                a = queue.pop(0)
                pending[pool.submit(fetch_and_extract, a, cache, _err)] = a.id
            finished, _ = wait(pending, return_when=FIRST_COMPLETED)
            for fut in finished:
                aid = pending.pop(fut)
                try:
                    m = fut.result()
                except (FetchError, OSError, ValueError) as exc:
                    failed.append(aid)
                    _err(f"provenance: {aid}: FAILED: {exc}")
                    continue
                done += 1
                _err(f"provenance: [{done}/{len(alist.artifacts)}] {aid}: {m['strings']} strings, "
                     f"{m['code_lines']} code lines ({time.monotonic() - started:.0f} s elapsed, "
                     f"cache {cache.text_bytes() / 2**20:.0f} MiB)")
    return failed


def run(root: Path, args: argparse.Namespace) -> int:
    project = Project(root)
    if args.holes:
        return _holes(project)
    try:
        alist = artifact_list.load(root)
    except artifact_list.ArtifactListError as exc:
        _err(f"error: {exc}")
        return 2
    cache = Cache(args.cache or default_dir())
    if not args.from_cache:
        failed = _fetch_missing(alist, cache, args.jobs, args.only)
        if failed:
            _err(f"provenance: {len(failed)} artifact(s) failed: {', '.join(failed)}")
            return 1
        if args.fetch_only:
            return 0
    entries = load_catalog(project).entries
    previous = None
    if args.incremental:
        try:
            previous = _committed(root)
        except ValueError as exc:
            _err(f"error: {mx.MATRIX_FILE}: {exc}; run without --incremental")
            return 2
    started = time.monotonic()
    computed = mx.compute(alist, cache, entries, jobs=args.jobs,
                          progress=lambda s: _err("provenance: " + s), previous=previous)
    if computed.missing_artifacts:
        _err("error: not in the cache: " + ", ".join(computed.missing_artifacts)
             + "; run `python -m generator provenance` (without --from-cache) to fetch them")
        return 1
    if previous is not None and not mx.same_artifacts(computed.data, previous):
        _err("provenance: the scanned releases differ from the committed matrix's; "
             "measuring every signature")
        computed = mx.compute(alist, cache, entries, jobs=args.jobs,
                              progress=lambda s: _err("provenance: " + s))
    _err(f"provenance: matched in {time.monotonic() - started:.0f} s")
    text = mx.dumps(computed.data)
    target = root / mx.MATRIX_FILE
    current = target.read_text(encoding="utf-8") if target.exists() else None
    if current != text:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        _err(f"provenance: wrote {mx.MATRIX_FILE}")
    else:
        _err(f"provenance: {mx.MATRIX_FILE} is up to date")
    records = computed.data["signatures"]
    found = sum(1 for r in records.values() if r["found"])
    _err(f"provenance: {len(records)} signatures, {found} found in at least one scanned "
         f"release, {len(records) - found} in none; text cache {cache.text_bytes() / 2**20:.0f} MiB")
    return 0


def _committed(root: Path) -> dict[str, Any] | None:
    """The committed matrix as written (None when there is none); ValueError if unreadable."""
    path = root / mx.MATRIX_FILE
    if not path.is_file():
        return None
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise ValueError("expected a JSON object")
    return data


def _holes(project: Project) -> int:
    try:
        matrix = mx.load(project.root)
    except mx.MatrixError as exc:
        _err(f"error: {exc}")
        return 2
    if matrix is None:
        _err(f"error: no {mx.MATRIX_FILE}; run `python -m generator provenance` first")
        return 2
    try:
        alist = artifact_list.load(project.root)
    except artifact_list.ArtifactListError:
        alist = None  # holes without the entries' `affects` ranges
    entries = load_catalog(project).entries
    for entry_id, title, text in mx.holes(matrix, entries, alist):
        print(f"{entry_id}: {title} {text}")
    return 0
