"""The site also builds with Zensical (the Material team's successor to MkDocs), which reads
`mkdocs.yml` but runs no MkDocs hooks: `python -m generator render && zensical build`.

From a copy of the repository in a temporary folder (Zensical writes `site/` and `.cache/`
beside the config file it reads, and has no `--site-dir`): every entry has its page, with
the entry's title and every signature, and every page MkDocs builds is there with the same
article text. Skipped when zensical is not installed (`pip install zensical`, Python >= 3.11).
"""

from __future__ import annotations

import html
import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from helpers import REPO, make_project

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(importlib.util.find_spec("zensical") is None,
                       reason="zensical is not installed: pip install zensical (Python >= 3.11)"),
]

ARTICLE = re.compile(r"<article\b[^>]*>(.*?)</article>", re.S)
H1 = re.compile(r"<h1\b[^>]*>(.*?)<a class=\"headerlink\"", re.S)
CODE = re.compile(r"<code\b[^>]*>(.*?)</code>", re.S)
TAG = re.compile(r"<[^>]+>")


def text(fragment: str) -> str:
    """Visible text of an HTML fragment, whitespace collapsed."""
    return " ".join(html.unescape(TAG.sub(" ", fragment)).split())


def run(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    root = make_project(tmp_path_factory.mktemp("zensical"), entries_from=REPO / "entries")
    rendered = run([sys.executable, "-m", "generator", "render"], root)
    assert rendered.returncode == 0, rendered.stdout + rendered.stderr
    built = run([sys.executable, "-m", "zensical", "build", "--strict"], root)
    assert built.returncode == 0, built.stdout + built.stderr
    return root, root / "site"


def entries(root: Path) -> list[dict]:
    """The entries (categories.yaml and the other special files have no signatures)."""
    out = []
    for path in sorted((root / "entries").glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        if isinstance(data, dict) and "id" in data and "signatures" in data:
            out.append(data)
    return out


def test_every_entry_page_has_its_title_and_signatures(project):
    root, site = project
    found = entries(root)
    assert found, "the repository has no entries"
    assert len(found) == len([p for p in (root / "docs" / "failures").glob("*.md")
                              if p.name != "index.md"])
    for entry in found:
        page = site / "failures" / entry["id"] / "index.html"
        assert page.is_file(), f"Zensical built no page for {entry['id']}"
        body = page.read_text(encoding="utf-8")
        h1 = H1.search(body)
        assert h1 and html.unescape(TAG.sub("", h1.group(1))).strip() == entry["title"].replace("`", ""), \
            entry["id"]
        codes = {html.unescape(c) for c in CODE.findall(body)}
        for sig in entry["signatures"]:
            template = sig["template"] if isinstance(sig, dict) else sig
            assert template in codes, f"{entry['id']}: signature {template!r} not on its page"


def test_site_pages_and_exports_are_there(project):
    _, site = project
    for page in ("index.html", "diagnose/index.html", "browse/signatures/index.html",
                 "contributing/index.html", "failures/index.html",
                 "assets/generated/matcher.json", "assets/generated/entries.json", "llms.txt"):
        assert (site / page).is_file(), page


def test_same_pages_and_article_text_as_mkdocs(project, tmp_path):
    """What the reader sees in each page's article is what the MkDocs build shows."""
    root, site = project
    mkdocs_site = tmp_path / "mkdocs-site"
    built = run([sys.executable, "-m", "generator", "build", "--site-dir", str(mkdocs_site)], root)
    assert built.returncode == 0, built.stdout + built.stderr
    pages = sorted(p.relative_to(mkdocs_site) for p in mkdocs_site.rglob("*.html"))
    assert pages
    missing = [str(p) for p in pages if not (site / p).is_file()]
    assert missing == [], f"pages MkDocs builds and Zensical does not: {missing}"
    differ, compared = [], 0
    for rel in pages:
        ours = ARTICLE.search((mkdocs_site / rel).read_text(encoding="utf-8"))
        theirs = ARTICLE.search((site / rel).read_text(encoding="utf-8"))
        if ours is None:
            continue
        compared += 1
        if theirs is None or text(ours.group(1)) != text(theirs.group(1)):
            differ.append(str(rel))
    assert compared >= len(list((site / "failures").glob("*/index.html")))
    assert differ == [], f"article text differs from the MkDocs build on: {differ[:10]}"
