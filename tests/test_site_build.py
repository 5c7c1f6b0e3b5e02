"""The real site builds with `mkdocs build --strict` from a copy of the repository, and a
second build gives byte-identical pages."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys

import pytest
from helpers import REPO, make_project


def build(root, site):
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    return subprocess.run([sys.executable, "-m", "generator", "build", "--site-dir", str(site)],
                          cwd=root, env=env, capture_output=True, text=True)


def digest(folder):
    out = {}
    for p in sorted(folder.rglob("*")):
        if p.is_file() and p.suffix in (".md",):
            out[p.relative_to(folder).as_posix()] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out


@pytest.fixture(scope="module")
def real_site(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("site")
    root = make_project(tmp, entries_from=REPO / "entries")
    result = build(root, tmp / "site")
    assert result.returncode == 0, result.stdout + result.stderr
    return root, tmp / "site"


@pytest.mark.slow
def test_real_site_builds_strict(real_site):
    root, site = real_site
    from generator.entries.catalog import SPECIAL_FILES

    entries = sorted(p.stem for p in (root / "entries").glob("*.yaml") if p.name not in SPECIAL_FILES)
    assert entries, "the repository has no entries"
    for entry_id in entries:
        assert (site / "failures" / entry_id / "index.html").is_file(), entry_id
    for page in ("index.html", "diagnose/index.html", "browse/signatures/index.html",
                 "contributing/index.html", "assets/generated/matcher.json"):
        assert (site / page).is_file(), page


@pytest.mark.slow
def test_second_build_is_byte_identical(real_site):
    root, _ = real_site
    before = digest(root / "docs")
    site2 = root.parent / "site2"
    result = build(root, site2)
    assert result.returncode == 0, result.stderr
    assert digest(root / "docs") == before
    shutil.rmtree(site2)


def test_plain_mkdocs_build_checks_entries_first(tmp_path):
    """`mkdocs build` alone runs the checker through the hook and refuses a bad entry."""
    root = make_project(tmp_path)
    entry = root / "entries" / "ddp-fixture-unused.yaml"
    entry.write_text(entry.read_text().replace("mechanism: |", "mechansim: |"))
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    env.pop("FAILURE_ENCYCLOPEDIA_PRERENDERED", None)
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir",
                             str(tmp_path / "site")], cwd=root, env=env, capture_output=True, text=True)
    assert result.returncode != 0
    assert "E104 unknown field 'mechansim' (did you mean 'mechanism'?)" in result.stdout + result.stderr
    assert not (tmp_path / "site" / "index.html").exists()
