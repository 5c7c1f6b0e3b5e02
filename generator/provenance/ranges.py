"""Version order and human ranges: "printed by torch 2.4-2.13; NCCL 2.19-2.28".

A range is a run of consecutive scanned releases of one package in which a signature was
found; a scanned release without it splits the run ("torch 1.8-1.10, 2.0-2.15"). A version
is shown as its minor release ("2.4") when that minor has one scanned release, in full
("2.13.0") when it has several.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

_NUM = re.compile(r"\d+")


def version_key(version: str) -> tuple[int, ...]:
    """'2.10.0' > '2.9.1'; a local part ('+cu121') is ignored; '.post0' sorts after."""
    return tuple(int(n) for n in _NUM.findall(version.split("+", 1)[0]))


def sort_versions(versions: Iterable[str]) -> list[str]:
    return sorted(set(versions), key=lambda v: (version_key(v), v))


def minor(version: str) -> str:
    return ".".join(version.split(".")[:2])


def runs(scanned: Sequence[str], found: Iterable[str]) -> list[tuple[str, str]]:
    """Maximal runs (first, last) of consecutive scanned versions that are in `found`."""
    have = set(found)
    out: list[tuple[str, str]] = []
    start: str | None = None
    prev: str | None = None
    for v in sort_versions(scanned):
        if v in have:
            start = start or v
            prev = v
        elif start is not None and prev is not None:
            out.append((start, prev))
            start = prev = None
    if start is not None and prev is not None:
        out.append((start, prev))
    return out


def short(version: str, scanned: Sequence[str]) -> str:
    m = minor(version)
    return m if sum(1 for v in scanned if minor(v) == m) == 1 else version


def format_runs(scanned: Sequence[str], found: Iterable[str]) -> str:
    """'2.4-2.13' or '1.8-1.10, 2.0-2.15' ('' when nothing was found)."""
    parts = []
    for first, last in runs(scanned, found):
        a, b = short(first, scanned), short(last, scanned)
        parts.append(a if a == b else f"{a}-{b}")
    return ", ".join(parts)


def human(found: dict[str, list[str]], scanned: dict[str, list[str]],
          titles: dict[str, str]) -> str:
    """'torch 2.4-2.13; NCCL 2.19-2.28' in the order of `scanned` ('' when found nowhere)."""
    parts = []
    for package, versions in scanned.items():
        text = format_runs(versions, found.get(package, []))
        if text:
            parts.append(f"{titles.get(package, package)} {text}")
    return "; ".join(parts)
