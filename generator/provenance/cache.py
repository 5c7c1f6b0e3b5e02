"""The provenance cache, outside the repository: extracted text and match results.

Layout under the cache folder (``~/.cache/failure-encyclopedia/provenance`` or
``$FAILURE_ENCYCLOPEDIA_PROVENANCE_CACHE``)::

    text/<id>.strings.gz   extracted strings, one record per line, sorted and unique
    text/<id>.code.gz      Python code lines, the same way
    text/<id>.json         the manifest, written last: an artifact with a manifest of the
                           current extractor version is done and is skipped on the next run
    matches/<stack>.json   per release stack: each looked-up part and how it was found
    tmp/                   one download at a time per job, deleted after extraction

Only text is kept; the downloaded files are deleted as soon as their text is out.
"""

from __future__ import annotations

import gzip
import json
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from .extract import EXTRACTOR_VERSION

CACHE_ENV = "FAILURE_ENCYCLOPEDIA_PROVENANCE_CACHE"


def default_dir() -> Path:
    env = os.environ.get(CACHE_ENV)
    if env:
        return Path(env).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "failure-encyclopedia" / "provenance"


def _atomic_write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name + ".", suffix=".part")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


class Cache:
    def __init__(self, folder: Path) -> None:
        self.folder = folder

    @property
    def tmp(self) -> Path:
        path = self.folder / "tmp"
        path.mkdir(parents=True, exist_ok=True)
        return path

    def _text(self, artifact_id: str, suffix: str) -> Path:
        return self.folder / "text" / f"{artifact_id}{suffix}"

    def manifest(self, artifact_id: str) -> dict[str, Any] | None:
        """The manifest of an extracted artifact, or None if it must be (re)extracted."""
        try:
            data = json.loads(self._text(artifact_id, ".json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if not isinstance(data, dict) or data.get("extractor") != EXTRACTOR_VERSION:
            return None
        if not all(self._text(artifact_id, s).is_file() for s in (".strings.gz", ".code.gz")):
            return None
        return data

    def store(self, artifact_id: str, strings: Iterable[str], code: Iterable[str],
              manifest: dict[str, Any]) -> dict[str, Any]:
        s = sorted(set(strings))
        c = sorted(set(code))
        for suffix, lines in ((".strings.gz", s), (".code.gz", c)):
            raw = ("\n".join(lines) + "\n").encode("utf-8")
            _atomic_write(self._text(artifact_id, suffix), gzip.compress(raw, 6, mtime=0))
        manifest = dict(manifest, extractor=EXTRACTOR_VERSION, strings=len(s), code_lines=len(c))
        _atomic_write(self._text(artifact_id, ".json"),
                      (json.dumps(manifest, indent=1, sort_keys=True) + "\n").encode("utf-8"))
        return manifest

    def load_text(self, artifact_id: str) -> tuple[list[str], list[str]]:
        out = []
        for suffix in (".strings.gz", ".code.gz"):
            raw = gzip.decompress(self._text(artifact_id, suffix).read_bytes()).decode("utf-8")
            out.append([line for line in raw.split("\n") if line])
        return out[0], out[1]

    def text_bytes(self) -> int:
        folder = self.folder / "text"
        return sum(p.stat().st_size for p in folder.glob("*")) if folder.is_dir() else 0

    def _matches_path(self, stack_key: str) -> Path:
        return self.folder / "matches" / f"{stack_key}.json"

    def load_matches(self, stack_key: str) -> dict[str, Any]:
        try:
            data = json.loads(self._matches_path(stack_key).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def store_matches(self, stack_key: str, matches: dict[str, Any]) -> None:
        _atomic_write(self._matches_path(stack_key),
                      (json.dumps(matches, sort_keys=True) + "\n").encode("utf-8"))
