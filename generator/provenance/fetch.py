"""Fetch one artifact with pip, extract its text into the cache, delete the download.

pip is run as a subprocess in its own configuration: the machine's pip configuration may
cap versions (constraints) or add local wheel folders, which must not decide which file
a release is measured from. Wheels are Linux x86_64 builds (the ones that carry CUDA and
NCCL); sdists are fetched as published, never built (if pip cannot prepare an sdist's
metadata, the file is taken from the index's simple page, sha256 checked).
"""

from __future__ import annotations

import hashlib
import html.parser
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .artifacts import Artifact
from .cache import Cache
from .extract import STRING, artifact_strings, wheel_metadata

# pip does not widen --platform to older glibc tags: name every one (newest first)
PLATFORMS = tuple(f"manylinux_2_{n}_x86_64" for n in range(28, 4, -1)) + (
    "manylinux2014_x86_64", "manylinux2010_x86_64", "manylinux1_x86_64")
INDEX = "https://pypi.org/simple/"
_NCCL_VERSION = re.compile(r"^NCCL version (\d+\.\d+\.\d+)")


class FetchError(RuntimeError):
    pass


def _pip_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_")}
    env["PIP_CONFIG_FILE"] = os.devnull
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    for keep in ("PIP_CERT", "PIP_DEFAULT_TIMEOUT", "PIP_INDEX_URL"):
        if keep in os.environ:
            env[keep] = os.environ[keep]
    return env


def pip_command(artifact: Artifact, dest: Path) -> list[str]:
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--quiet", "-d", str(dest)]
    if artifact.kind.startswith("sdist"):
        cmd += ["--no-binary=:all:", "--no-build-isolation"]
    else:
        cmd += ["--only-binary=:all:", "--python-version", artifact.python]
        for platform in PLATFORMS:
            cmd += ["--platform", platform]
    return cmd + [artifact.requirement]


class _Links(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "a":
            self.links += [v for k, v in attrs if k == "href" and v]


def _from_index(artifact: Artifact, dest: Path) -> Path:
    """The file named on the index's simple page, used when pip refuses a release (an sdist
    whose metadata it cannot prepare, a wheel whose metadata newer pip rejects): the sdist,
    or the pure-Python wheel. The sha256 the page gives is checked."""
    name = re.sub(r"[-_.]+", "-", artifact.dist).lower()
    with urllib.request.urlopen(INDEX + name + "/", timeout=120) as resp:
        parser = _Links()
        parser.feed(resp.read().decode("utf-8", "replace"))
    stem = re.escape(artifact.dist).replace("\\-", "[-_.]") + "-" + re.escape(artifact.version)
    suffix = r"\.(tar\.gz|zip)$" if artifact.kind.startswith("sdist") else r"-py3-none-any\.whl$"
    wanted = re.compile(stem + suffix, re.IGNORECASE)
    for link in parser.links:
        url, _, fragment = link.partition("#")
        filename = url.rsplit("/", 1)[-1]
        if wanted.match(filename):
            target = dest / filename
            with urllib.request.urlopen(url, timeout=600) as resp, target.open("wb") as out:
                shutil.copyfileobj(resp, out, 1 << 22)
            if fragment.startswith("sha256=") and sha256(target) != fragment[7:]:
                raise FetchError(f"{filename}: sha256 differs from the index")
            return target
    raise FetchError(f"{artifact.requirement}: no matching file on {INDEX}{name}/")


def download(artifact: Artifact, dest: Path) -> Path:
    proc = subprocess.run(pip_command(artifact, dest), env=_pip_env(), capture_output=True,
                          text=True, check=False)
    files = sorted(p for p in dest.iterdir() if p.is_file())
    if proc.returncode == 0 and len(files) == 1:
        return files[0]
    for p in files:
        p.unlink()
    tail = (proc.stderr or proc.stdout).strip().splitlines()[-3:]
    try:
        return _from_index(artifact, dest)
    except (FetchError, OSError) as exc:
        raise FetchError(f"pip could not download {artifact.requirement}: "
                         + " / ".join(tail) + f"; from the index page: {exc}") from None


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 22), b""):
            h.update(block)
    return h.hexdigest()


def _pins(metadata: str) -> list[str]:
    """Exact pins (name==version) in a wheel's Requires-Dist, markers dropped."""
    out = []
    for line in metadata.splitlines():
        if line.startswith("Requires-Dist:") and "==" in line:
            req = line.split(":", 1)[1].split(";")[0]
            out.append(re.sub(r"[\s()]", "", req))
    return sorted(out)


def fetch_and_extract(artifact: Artifact, cache: Cache,
                      progress: Callable[[str], None] = lambda s: None) -> dict[str, Any]:
    """Download, extract, store, delete. Returns the manifest."""
    work = Path(tempfile.mkdtemp(prefix=artifact.id + ".", dir=cache.tmp))
    try:
        started = time.monotonic()
        path = download(artifact, work)
        size = path.stat().st_size
        progress(f"{artifact.id}: downloaded {path.name} ({size / 2**20:.0f} MiB, "
                 f"{time.monotonic() - started:.0f} s); extracting")
        digest = sha256(path)
        strings: set[str] = set()
        code: set[str] = set()
        for kind, text in artifact_strings(path, str(work), c_sources=artifact.kind == "sdist-c"):
            (strings if kind == STRING else code).add(text)
        bundled = sorted({m.group(1) for s in strings if (m := _NCCL_VERSION.match(s))})
        manifest = {
            "id": artifact.id, "package": artifact.package, "dist": artifact.dist,
            "version": artifact.version, "file": path.name, "sha256": digest, "bytes": size,
            "pins": _pins(wheel_metadata(path)), "nccl_version_strings": bundled,
        }
        return cache.store(artifact.id, strings, code, manifest)
    finally:
        shutil.rmtree(work, ignore_errors=True)
