"""Pages built by worker processes (generator/site/mkdocs_parallel.py) give the very site that
MkDocs' own serial build gives, byte for byte; `--strict` still fails on a broken link or
anchor; a plugin that changes pages makes the parallel build fall back, never differ."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from generator.site import mkdocs_parallel
from helpers import REPO, make_project


def mkdocs_build(root, site, workers):
    env = dict(os.environ, PYTHONPATH=str(REPO), NO_MKDOCS_2_WARNING="1", FAILURE_ENCYCLOPEDIA_WORKERS=str(workers),
               SOURCE_DATE_EPOCH="1764633600")  # sitemap dates identical across the builds
    env.pop("FAILURE_ENCYCLOPEDIA_PRERENDERED", None)
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
                            cwd=root, env=env, capture_output=True, text=True)
    return result.returncode, result.stdout + result.stderr


def files_of(site):
    return {p.relative_to(site).as_posix(): p.read_bytes() for p in sorted(site.rglob("*")) if p.is_file()}


def assert_same_site(parallel, serial):
    a, b = files_of(parallel), files_of(serial)
    assert sorted(a) == sorted(b)
    differing = [name for name in a if a[name] != b[name]]
    assert not differing, f"{len(differing)} files differ, e.g. {differing[:5]}"


def warnings(output):
    return sorted(line for line in output.splitlines() if line.startswith("WARNING"))


@pytest.fixture(scope="module")
def real_project(tmp_path_factory):
    return make_project(tmp_path_factory.mktemp("parallel"), entries_from=REPO / "entries")


def test_parallel_build_is_byte_identical_to_serial(real_project, tmp_path):
    rc, out = mkdocs_build(real_project, tmp_path / "parallel", 2)
    assert rc == 0, out
    pages = len(list((tmp_path / "parallel").rglob("index.html")))
    # every page converted by the workers; every page but the first rendered there
    assert f"2 worker processes converted {pages} of {pages} pages, rendered {pages - 1} and split {pages - 1} for search" in out
    rc, serial_out = mkdocs_build(real_project, tmp_path / "serial", 1)
    assert rc == 0, serial_out
    assert "worker processes" not in serial_out
    assert_same_site(tmp_path / "parallel", tmp_path / "serial")


def test_strict_build_still_fails_on_broken_links(real_project, tmp_path):
    page = real_project / "docs" / "broken-links.md"
    page.write_text("# Broken\n\nSee [a page](no-such-page.md) and [an anchor](diagnose.md#no-such-anchor).\n")
    try:
        rc, out = mkdocs_build(real_project, tmp_path / "parallel", 2)
        serial_rc, serial_out = mkdocs_build(real_project, tmp_path / "serial", 1)
    finally:
        page.unlink()
    assert rc == serial_rc == 1
    assert warnings(out) == warnings(serial_out)
    assert any("'no-such-page.md', but the target is not found" in w for w in warnings(out))
    assert any("does not contain an anchor '#no-such-anchor'" in w for w in warnings(out))
    assert "Aborted with 2 warnings in strict mode!" in out


STAMP_HOOK = '''
def on_page_markdown(markdown, page, **kwargs):
    if page.file.src_uri == "diagnose.md":
        return markdown + "\\n\\nAdded by a plugin.\\n"
    return markdown

def on_page_content(html, page, **kwargs):
    if page.file.src_uri == "diagnose-json.md":
        return html + "<p>Also added by a plugin.</p>"
    return html

def on_page_context(context, page, **kwargs):
    context["stamped"] = page.file.src_uri
    return context
'''


def test_a_plugin_that_changes_pages_gets_the_serial_result(tmp_path):
    root = make_project(tmp_path, entries_from=REPO / "entries")
    (root / "hooks" / "stamp.py").write_text(STAMP_HOOK)
    config = root / "mkdocs.yml"
    config.write_text(config.read_text().replace("hooks:\n", "hooks:\n  - hooks/stamp.py\n", 1))
    rc, out = mkdocs_build(root, tmp_path / "parallel", 2)
    assert rc == 0, out
    pages = len(list((tmp_path / "parallel").rglob("index.html")))
    # diagnose.md's Markdown changed after the worker converted it; a second on_page_context
    # handler keeps every template in the main process
    assert f"converted {pages - 1} of {pages} pages, rendered 0 and split 0 for search" in out
    assert "Added by a plugin." in (tmp_path / "parallel" / "diagnose" / "index.html").read_text()
    rc, serial_out = mkdocs_build(root, tmp_path / "serial", 1)
    assert rc == 0, serial_out
    assert_same_site(tmp_path / "parallel", tmp_path / "serial")


@pytest.mark.parametrize("command, dirty, reason", [
    ("serve", False, "command 'serve'"),
    ("build", True, "--dirty"),
])
def test_serve_and_dirty_builds_stay_serial(monkeypatch, command, dirty, reason):
    monkeypatch.setattr(mkdocs_parallel, "_startup", {"command": command, "dirty": dirty})
    assert mkdocs_parallel._why_serial(pages=500, workers=4) == reason


def test_one_worker_or_few_pages_stay_serial(monkeypatch):
    monkeypatch.setattr(mkdocs_parallel, "_startup", {"command": "build", "dirty": False})
    assert mkdocs_parallel._why_serial(pages=500, workers=1) == "one worker"
    assert mkdocs_parallel._why_serial(pages=3, workers=2) == "few pages"
    assert mkdocs_parallel._why_serial(pages=500, workers=2) is None


def test_worker_count_follows_the_environment(monkeypatch):
    monkeypatch.setenv(mkdocs_parallel.WORKERS_ENV, "3")
    assert mkdocs_parallel.worker_count() == 3
    monkeypatch.setenv(mkdocs_parallel.WORKERS_ENV, "lots")
    assert mkdocs_parallel.worker_count() >= 1


CRASHING_EXTENSION = '''
import multiprocessing, os
from markdown.extensions import Extension
from markdown.preprocessors import Preprocessor

class Crash(Preprocessor):
    def run(self, lines):
        if multiprocessing.parent_process() is not None and "CRASH-IN-A-WORKER" in lines:
            os._exit(3)  # as if the kernel had killed the worker for memory
        return lines

class CrashExtension(Extension):
    def extendMarkdown(self, md):
        md.preprocessors.register(Crash(md), "crash_in_a_worker", 100)

def makeExtension(**kwargs):
    return CrashExtension(**kwargs)
'''


def test_a_worker_that_dies_leaves_the_build_to_mkdocs(tmp_path):
    root = make_project(tmp_path, entries_from=REPO / "entries")
    (root / "crash_in_a_worker.py").write_text(CRASHING_EXTENSION)  # importable: `python -m` runs in root
    (root / "docs" / "crash.md").write_text("# Crash\n\nCRASH-IN-A-WORKER\n")
    config = root / "mkdocs.yml"
    config.write_text(config.read_text().replace(
        "markdown_extensions:\n", "markdown_extensions:\n  - crash_in_a_worker\n", 1))
    rc, out = mkdocs_build(root, tmp_path / "parallel", 2)
    assert rc == 0, out
    assert "pages build serially: the worker processes failed" in out
    assert "worker processes converted" not in out
    rc, serial_out = mkdocs_build(root, tmp_path / "serial", 1)
    assert rc == 0, serial_out
    assert_same_site(tmp_path / "parallel", tmp_path / "serial")


class _Page:
    def __init__(self, url):
        self.url = url


class _Nav:
    def __init__(self, *urls):
        self.pages = [_Page(url) for url in urls]


def test_navigation_is_shared_only_by_pages_whose_links_are_the_same():
    once = mkdocs_parallel._NavigationOnce()
    nav = _Nav("", "diagnose/", "failures/", "browse/", "browse/tags/")
    key = once.folder
    assert key(_Page("failures/a/"), nav) == key(_Page("failures/b/"), nav) is not None
    assert key(_Page("browse/category-x/"), nav) is not None
    assert key(_Page("browse/category-x/"), nav) != key(_Page("failures/a/"), nav)
    assert key(_Page("diagnose/"), nav) is None  # listed: one of its items is active
    assert key(_Page("browse/"), nav) is None
    nav = _Nav("", "guide/sub/")
    assert key(_Page("guide/"), nav) is None  # a listed page lies under it
    assert key(_Page("other/"), nav) is not None
    nav = _Nav("", "failures/index.html")
    assert key(_Page("failures/a.html"), nav) is None  # same base folder as a listed page
    assert key(_Page("x.html"), nav) is None
    assert key(_Page("deep/x.html"), nav) != key(_Page("deep/x/"), nav)  # bases at depths 1 and 2
    assert key(_Page("deep/er/x.html"), nav) == key(_Page("deep/x/"), nav)  # both based in deep/*/
