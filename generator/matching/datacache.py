"""A cache of the loaded matcher, so that ``diagnose`` does not parse every entry each run.

Loading and checking the entries is most of the start-up time of ``diagnose`` (0.27 s of
0.45 s with 131 entries; the matcher data then unpickles in about 15 ms). The cache is keyed
by the content of everything the load reads: every file under ``entries/`` and
``reproductions/``, ``mkdocs.yml`` (the site URL in the verdict's links) and the
``generator`` package's own files, so an edited entry or a new release of the code can never
be answered from a stale copy. Files live under ``~/.cache/failure-encyclopedia/matcher``
(``$XDG_CACHE_HOME`` is honoured; ``FAILURE_ENCYCLOPEDIA_MATCHER_CACHE`` names another folder,
or ``off`` to disable). A cache folder that cannot be written is skipped silently: the cache
only ever saves time.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

CACHE_ENV = "FAILURE_ENCYCLOPEDIA_MATCHER_CACHE"
KEEP = 8  # cache files kept; older ones (other checkouts, earlier edits) are removed
PACKAGE = Path(__file__).resolve().parent.parent  # generator/
INPUT_FOLDERS = ("entries", "reproductions")
INPUT_FILES = ("mkdocs.yml",)

T = TypeVar("T")


def cache_dir() -> Path | None:
    """The cache folder, or None when caching is switched off."""
    env = os.environ.get(CACHE_ENV)
    if env:
        return None if env.lower() == "off" else Path(env).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "failure-encyclopedia" / "matcher"


def _files(folder: Path, suffixes: tuple[str, ...] | None = None) -> list[Path]:
    found = []
    for dirpath, dirnames, filenames in os.walk(folder):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        for name in sorted(filenames):
            if suffixes is None or name.endswith(suffixes):
                found.append(Path(dirpath) / name)
    return found


def input_key(root: Path) -> str:
    """A hash of the names and bytes of every file the matcher's load reads."""
    digest = hashlib.sha256()
    paths = [p for folder in INPUT_FOLDERS for p in _files(root / folder)]
    paths += [root / name for name in INPUT_FILES]
    paths += _files(PACKAGE, (".py", ".yaml", ".json", ".txt"))
    for path in paths:
        try:
            data = path.read_bytes()
        except OSError:
            data = b"\0missing"
        digest.update(str(path).encode("utf-8", "surrogateescape") + b"\0")
        digest.update(len(data).to_bytes(8, "little") + data)
    return digest.hexdigest()


def cached(root: Path, load: Callable[[], T]) -> T:
    """``load()``'s result for the project at ``root``: from the cache when the inputs are
    unchanged, else computed and stored."""
    folder = cache_dir()
    if folder is None:
        return load()
    path = folder / f"{input_key(root.resolve())}.pickle"
    try:
        with path.open("rb") as fh:
            return pickle.load(fh)
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError,
            IndexError, TypeError, ValueError):
        pass  # absent, or written by other code: computed again below
    value = load()
    _store(folder, path, value)
    return value


def _store(folder: Path, path: Path, value: Any) -> None:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".tmp-")
        try:
            with os.fdopen(fd, "wb") as fh:
                pickle.dump(value, fh, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, path)  # readers see a whole file or none
        except BaseException:
            os.unlink(tmp)
            raise
        old = sorted(folder.glob("*.pickle"), key=lambda p: p.stat().st_mtime, reverse=True)
        for stale in old[KEEP:]:
            stale.unlink(missing_ok=True)
    except OSError:
        pass  # a read-only or full cache folder only costs time
