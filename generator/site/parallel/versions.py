"""The MkDocs and Material releases the parallel build is verified with.

The parallel build reaches into MkDocs' and Material's internals (see `adapter`), which any
release may change without notice. It therefore runs only on a pair of exact releases
listed here, each added after `tests/test_parallel_build.py` built the site both ways with
it and found every file byte-identical; with any other release MkDocs builds serially.
That test fails when the installed pair is not listed, so an upgrade is re-verified before
it is added.
"""

from __future__ import annotations

from importlib import metadata

PACKAGES = ("mkdocs", "mkdocs-material")

# (mkdocs, mkdocs-material), each verified byte-identical by tests/test_parallel_build.py
VERIFIED: frozenset[tuple[str, str]] = frozenset({
    ("1.6.1", "9.8.2"),
})


def installed() -> tuple[str, str]:
    """The installed releases of MkDocs and Material, in the order of PACKAGES."""
    mkdocs, material = (metadata.version(name) for name in PACKAGES)
    return mkdocs, material


def why_unverified(releases: tuple[str, str] | None = None) -> str | None:
    """None when `releases` (default: the installed ones) are on the verified list, else why
    not, in words: 'mkdocs-material 9.7.1 is not on the verified list'."""
    releases = installed() if releases is None else releases
    if releases in VERIFIED:
        return None
    unknown = [f"{name} {release}" for i, (name, release) in enumerate(zip(PACKAGES, releases, strict=True))
               if release not in {pair[i] for pair in VERIFIED}]
    if len(unknown) == 1:
        return f"{unknown[0]} is not on the verified list"
    if unknown:
        return f"{' and '.join(unknown)} are not on the verified list"
    return f"{PACKAGES[0]} {releases[0]} with {PACKAGES[1]} {releases[1]} is not on the verified list"
