"""`serve`: a rebuild after a save gives what a build from scratch gives, reports what the
checker rejects, and neither the generator's own writes into docs/ nor a save that a build
has already seen start another build."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from helpers import REPO, make_project

from generator import pipeline
from generator.entries.reload import EntryCache
from generator.project import Project
from generator.site import serve

sys.path.insert(0, str(REPO / "bench"))
from generator_scale import (  # the benchmark's synthetic entries
    synthetic_entry,
    write_synthetic_entries,
)

N = 20  # synthetic entries; entry i lists i+1 and i+7 (mod N) as related


def synthetic_project(tmp: Path, n: int = N) -> Path:
    entries = tmp / "entries-src"
    write_synthetic_entries(entries, n)
    return make_project(tmp, entries_from=entries)


def entry_file(root: Path, i: int) -> Path:
    return root / "entries" / f"nccl-synthetic-{i:05d}.yaml"


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def snapshot(docs: Path) -> dict[str, bytes]:
    return {p.relative_to(docs).as_posix(): p.read_bytes() for p in sorted(docs.rglob("*")) if p.is_file()}


# a signature of entry 0 that every synthetic fingerprint matches, confirmed by context
# (so more specific than each entry's own): the checker must then report E119 for the others
CLAIMS_EVERY_FINGERPRINT = """signatures:
  - template: "NCCL collective {token} failed on rank {n} after {n} milliseconds"
    source: "reproduced: test"
    context: ["Traceback (most recent call last):"]
"""


def test_rebuilds_give_what_a_build_from_scratch_gives(tmp_path, monkeypatch):
    root = synthetic_project(tmp_path)
    monkeypatch.chdir(root)
    project = Project(root)
    cache = pipeline.BuildCache(project)
    assert pipeline.check_and_render(project, cache).errors == []

    def same_as_from_scratch() -> pipeline.Result:
        result = pipeline.check_and_render(project, cache)
        assert result.problems == pipeline.check(project).problems
        if not result.errors:
            before = snapshot(project.docs_dir)
            fresh = pipeline.check_and_render(project)  # no cache: renders every page
            assert (fresh.written, fresh.removed) == ([], []), "the rebuild left stale files"
            assert snapshot(project.docs_dir) == before
        return result

    # a summary: one file parsed, its page and the whole-site files rendered again
    edit(entry_file(root, 3), "summary: |\n", "summary: |\n  A sentence added by a test.\n")
    result = same_as_from_scratch()
    assert cache.entries.stats["parsed"] == 1 and cache.entries.stats["fingerprints"] == 1
    assert "failures/nccl-synthetic-00003.md" in result.written
    assert 0 < cache.pages.rendered < N

    # a title: the entries that list entry 3 as related show it (2 -> 3, 16 -> 3)
    edit(entry_file(root, 3), "title: Synthetic failure 3\n", "title: Renamed by a test\n")
    result = same_as_from_scratch()
    for page in ("failures/nccl-synthetic-00002.md", "failures/nccl-synthetic-00016.md"):
        assert page in result.written
        assert "Renamed by a test" in (project.docs_dir / page).read_text(encoding="utf-8")

    # a signature that claims every other entry's fingerprint, then taken back
    first = entry_file(root, 0)
    original = first.read_text(encoding="utf-8")
    first.write_text(re.sub(r"signatures:\n(  .*\n)+", CLAIMS_EVERY_FINGERPRINT, original, count=1),
                     encoding="utf-8")
    result = same_as_from_scratch()
    assert {p.path for p in result.errors if p.code == "E119"} == {
        f"entries/nccl-synthetic-{i:05d}.yaml" for i in range(1, N)}
    assert "failures/nccl-synthetic-00001.md" not in result.written  # not rendered
    first.write_text(original, encoding="utf-8")
    assert same_as_from_scratch().errors == []

    # an entry added, then removed; a category renamed; a template changed
    new = entry_file(root, N)
    new.write_text(synthetic_entry(N, N + 1), encoding="utf-8")
    assert f"failures/nccl-synthetic-{N:05d}.md" in same_as_from_scratch().written
    new.unlink()
    assert f"failures/nccl-synthetic-{N:05d}.md" in same_as_from_scratch().removed
    categories = root / "entries" / "categories.yaml"
    text = categories.read_text(encoding="utf-8")
    title = re.search(r"^  nccl:\n    title: (.*)$", text, re.MULTILINE)
    assert title, "categories.yaml has no 'nccl' category with a title"
    edit(categories, title.group(0), title.group(0).replace(title.group(1), "Renamed category"))
    assert same_as_from_scratch().written
    edit(root / "templates" / "entry.md.j2", "{{ marker }}", "{{ marker }}\n{## a test ##}")
    same_as_from_scratch()


def test_entries_json_is_json_dumps_of_the_export(tmp_path):
    import json

    from generator.entries.catalog import load_catalog
    from generator.site.render import EXPORT_FIELDS, entries_json

    for root in (synthetic_project(tmp_path), REPO):
        entries = load_catalog(Project(root)).entries
        exported = [{"url": f"failures/{e.id}/",
                     **{k: v for k, v in e.as_written().items() if k in EXPORT_FIELDS}} for e in entries]
        for items, export in ((entries, exported), ((), [])):
            expected = json.dumps({"format": 1, "entries": export}, sort_keys=True,
                                  ensure_ascii=False, indent=1) + "\n"
            assert entries_json(items) == expected


def test_an_error_is_reported_and_nothing_is_rendered(tmp_path, monkeypatch):
    root = synthetic_project(tmp_path)
    monkeypatch.chdir(root)
    project = Project(root)
    cache = pipeline.BuildCache(project)
    pipeline.check_and_render(project, cache)
    before = snapshot(project.docs_dir)
    edit(entry_file(root, 7), "severity: high", "severity: huge")
    edit(entry_file(root, 7), "summary: |\n", "summary: |\n  Not shown.\n")
    result = pipeline.check_and_render(project, cache)
    assert [(p.path, p.code) for p in result.errors] == [("entries/nccl-synthetic-00007.yaml", "E105")]
    assert snapshot(project.docs_dir) == before
    # reported again on the next build, though the file did not change
    assert [p.code for p in pipeline.check_and_render(project, cache).errors] == ["E105"]
    edit(entry_file(root, 7), "severity: huge", "severity: high")
    result = pipeline.check_and_render(project, cache)
    assert result.errors == [] and "failures/nccl-synthetic-00007.md" in result.written


def test_generated_files_and_seen_saves_start_no_build(tmp_path):
    from mkdocs.livereload import LiveReloadServer

    docs = tmp_path / "docs"
    (docs / "failures").mkdir(parents=True)
    entries = tmp_path / "entries"
    entries.mkdir()
    generated = docs / "failures" / "x.md"
    marker = "---\n# generated by `python -m generator render`; edit entries/*.yaml, not this file\n"
    generated.write_text(marker + "---\n# X\n", encoding="utf-8")
    (docs / "failures" / "hand.md").write_text("# written by hand\n", encoding="utf-8")
    assert serve.is_generated(docs, str(generated))
    assert serve.is_generated(docs, str(docs / "index.md"))  # absent: the generator removed it
    assert not serve.is_generated(docs, str(docs / "failures" / "hand.md"))
    assert not serve.is_generated(docs, str(docs / "diagnose.md"))

    server = LiveReloadServer(builder=lambda: None, host="127.0.0.1", port=0, root=str(tmp_path),
                              polling_interval=0.1)
    templates = tmp_path / "templates"
    templates.mkdir()
    loaded = EntryCache()
    server.watch(str(docs))  # what `mkdocs serve` does before the hook's on_serve
    serve.watch_sources(server, docs, entries, templates, loaded.unchanged)
    server.watch(str(entries))  # mkdocs.yml's `watch:`, added after on_serve
    server.observer.start()
    try:
        def wants_build_after(change, wait: float = 1.0) -> bool:
            """Whether the change schedules a build: as soon as it does, or after `wait` s
            (ten polling intervals) without one. A loaded machine delays the event; it does
            not invent one."""
            time.sleep(1.0)  # the polling observer's first snapshot, or the last change, settles
            server._want_rebuild = False
            change()
            deadline = time.monotonic() + wait
            while time.monotonic() < deadline:
                if server._want_rebuild:
                    return True
                time.sleep(0.05)
            return server._want_rebuild

        assert not wants_build_after(lambda: generated.write_text(marker + "---\n# Y\n", encoding="utf-8"))
        assert not wants_build_after(generated.unlink)
        assert wants_build_after(lambda: (docs / "failures" / "hand.md").write_text("# edited\n"), wait=10)
        assert wants_build_after(lambda: (docs / "page.md").write_text("# new\n"), wait=10)
        entry = entries / "x.yaml"
        assert wants_build_after(lambda: entry.write_text("id: x\n"), wait=10)
        loaded.load(entry, "entries/x.yaml")  # what a build does
        assert not wants_build_after(lambda: entry.write_text("id: x\n"))  # seen by a build
        assert wants_build_after(lambda: entry.write_text("id: y\n"), wait=10)
        assert wants_build_after(lambda: (templates / "t.j2").write_text("x"), wait=10)
    finally:
        server.observer.stop()
        server.observer.join()
        server.server_close()


# -- the real command ---------------------------------------------------------------------

class Serving:
    def __init__(self, root: Path) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        self.log = root.parent / "serve.log"
        env = dict(os.environ, PYTHONPATH=str(REPO), NO_MKDOCS_2_WARNING="1")
        with self.log.open("w") as log:  # the child keeps its own copy open
            self.process = subprocess.Popen(
                [sys.executable, "-m", "generator", "serve", "--dev-addr", f"127.0.0.1:{port}"],
                cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True)

    def output(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")

    def get(self, path: str, timeout: float = 5) -> str | None:
        m = re.search(r"Serving on (http://\S+)", self.output())
        if not m:
            return None
        try:
            with urllib.request.urlopen(m.group(1).rstrip("/") + "/" + path, timeout=timeout) as r:
                return r.read().decode("utf-8")
        except (urllib.error.URLError, OSError):
            return None

    def wait_for(self, path: str, text: str, timeout: float = 120) -> None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            assert self.process.poll() is None, self.output()
            body = self.get(path)
            if body is not None and text in body:
                return
            time.sleep(0.1)
        raise AssertionError(f"{text!r} not served at {path}:\n{self.output()[-3000:]}")

    def builds(self) -> int:
        return self.output().count("Building documentation")

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGINT)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()


@pytest.mark.slow
def test_serve_shows_a_save_once_built_and_holds_back_errors(tmp_path):
    root = synthetic_project(tmp_path)
    server = Serving(root)
    page = "failures/nccl-synthetic-00003/"
    try:
        server.wait_for(page, "Synthetic failure 3", timeout=300)
        time.sleep(2)
        builds = server.builds()
        edit(entry_file(root, 3), "title: Synthetic failure 3\n", "title: Renamed by a test\n")
        server.wait_for(page, "Renamed by a test")
        server.wait_for("failures/nccl-synthetic-00002/", "Renamed by a test")  # lists 3 as related
        time.sleep(2)  # a second build would have started by now
        assert server.builds() == builds + 1, server.output()[-3000:]
        index = server.get("search/search_index.json")
        assert index is not None
        locations = re.findall(r'"location":"([^"]*)"', index)
        pages = {loc.split("#")[0] for loc in locations}
        assert {f"failures/nccl-synthetic-{i:05d}/" for i in range(N)} <= pages
        assert len(locations) == len(set(locations)), "a page is in the search index twice"

        edit(entry_file(root, 3), "severity: high", "severity: huge")
        end = time.monotonic() + 60
        while "E105" not in server.output() and time.monotonic() < end:
            time.sleep(0.2)
        assert "entries/nccl-synthetic-00003.yaml:5:11: E105" in server.output()
        assert server.get(page, timeout=2) is None  # held back until a save fixes it
        edit(entry_file(root, 3), "severity: huge", "severity: critical")
        server.wait_for(page, "critical")
    finally:
        server.stop()
