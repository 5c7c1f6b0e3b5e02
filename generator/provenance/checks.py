"""Checker rules on the committed provenance matrix (codes E125-E128 in
generator/entries/codes.py).

A project takes part once it has provenance/artifacts.yaml. Then every signature needs a
current record in provenance/signatures.json (E125, E126), must be found in some scanned
release (E127), and a `versions:` claim that claims.py can read must agree with the
releases (E128). A source marked `[not scannable: <software>]` is exempt: no release the
matrix can scan contains that text. There is no list of accepted exceptions: a problem is
fixed in the entry (or in the matcher), never waved through.
"""

from __future__ import annotations

from collections.abc import Callable

from ..entries.catalog import Catalog
from ..entries.codes import BY_CODE
from ..entries.model import Entry, Signature
from ..entries.problems import Problem
from . import artifacts as artifact_list
from . import claims as claim_parser
from . import matrix as mx
from . import ranges
from .match import plan_or_none

RERUN = "run `python -m generator provenance --from-cache --incremental`"


def _at(entry: Entry, path: tuple[str | int, ...], code: str, message: str) -> Problem:
    line, col = entry.document.at(path) if entry.document else (1, 1)
    return Problem(entry.path, line, col, code, message, BY_CODE[code].severity)


def _versions_text(found: list[str], scanned: list[str], title: str) -> str:
    text = ranges.format_runs(scanned, found)
    return f"{title} {text}" if text else f"no scanned {title} release"


def _claim_problem(entry: Entry, i: int, claim: claim_parser.Claim,
                   c: claim_parser.Contradiction, matrix: mx.Matrix, found: list[str]) -> Problem:
    title = matrix.titles.get(claim.package, claim.package)
    scanned = matrix.scanned(claim.package)
    if claim.exact is not None:
        detail = f"'{claim.text}', but {title} {claim.exact} does not contain it"
    else:
        said = []
        if c.outside:
            said.append(f"found outside it in {title} {ranges.format_runs(scanned, c.outside)}")
        if c.missing:
            said.append(f"not found inside it in {title} {ranges.format_runs(scanned, c.missing)}")
        detail = f"'{claim.text}', but it is " + " and ".join(said)
    return _at(entry, ("signatures", i, "versions"), "E128",
               f"signature {entry.id}/{i}: versions claims {detail}; the releases print it in "
               f"{_versions_text(found, scanned, title)}")


def resolver(alist: artifact_list.ArtifactList, source: str) -> Callable[[str | None], str | None]:
    """Package key for a name in a claim; with no name, the package of the source's repo."""
    repo_pkg = alist.package_for_repo(mx.source_repo(source) or "")

    def resolve(name: str | None) -> str | None:
        return alist.package_for_alias(name) if name else repo_pkg

    return resolve


def signature_problem(entry: Entry, i: int, sig: Signature, matrix: mx.Matrix | None,
                      alist: artifact_list.ArtifactList) -> Problem | None:
    """The first provenance problem of one signature, or None."""
    key = f"{entry.id}/{i}"
    if mx.exemption(sig.source) or plan_or_none(sig.template) is None:
        return None  # exempt; or E117 says why the template does not compile
    rec = matrix.record(entry.id, i) if matrix else None
    where = ("signatures", i, "template")
    if rec is None:
        return _at(entry, where, "E125", f"signature {key} has no record in {mx.MATRIX_FILE}; {RERUN}")
    if rec.get("template") != sig.template:
        return _at(entry, where, "E126", f"signature {key} was measured for another text "
                                         f"('{rec.get('template')}'); {RERUN}")
    found: dict[str, list[str]] = rec.get("found") or {}
    if not found:
        unfound = rec.get("unfound") or []
        detail = (" (never found: " + ", ".join(f"'{u}'" for u in unfound) + ")"
                  if unfound else "")
        return _at(entry, where, "E127",
                   f"signature {key} is found in no scanned release{detail}; correct the text, "
                   "or mark a source that no scanned release contains with "
                   "'[not scannable: <software>]'")
    if not sig.versions or not sig.versions.strip() or matrix is None:
        return None
    for claim in claim_parser.parse(sig.versions, resolver(alist, sig.source)) or []:
        got = found.get(claim.package, [])
        c = claim_parser.contradictions(claim, matrix.scanned(claim.package), got)
        if c is not None:
            return _claim_problem(entry, i, claim, c, matrix, got)
    return None


def check_provenance(catalog: Catalog) -> list[Problem]:
    """E125-E128 for every signature of every entry (nothing when the project does not
    measure provenance: it has no provenance/artifacts.yaml)."""
    root = catalog.project.root
    if not (root / artifact_list.ARTIFACTS_FILE).is_file():
        return []
    display = catalog.project.display
    try:
        alist = artifact_list.load(root)
    except artifact_list.ArtifactListError as exc:
        return [Problem(display(root / artifact_list.ARTIFACTS_FILE), 1, 1, "E125", str(exc),
                        BY_CODE["E125"].severity)]
    try:
        matrix = mx.load(root)
    except mx.MatrixError as exc:
        return [Problem(display(root / mx.MATRIX_FILE), 1, 1, "E125",
                        f"cannot read the provenance matrix: {exc}; {RERUN}",
                        BY_CODE["E125"].severity)]
    out = []
    for entry in catalog.entries:
        for i, sig in enumerate(entry.signatures):
            problem = signature_problem(entry, i, sig, matrix, alist)
            if problem is not None:
                out.append(problem)
    return out
