"""Pages built by worker processes (generator/site/mkdocs_parallel.py) give the very site that
MkDocs' own serial build gives, byte for byte; `--strict` still fails on a broken link or
anchor; a plugin that changes pages makes the parallel build fall back, never differ."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from types import SimpleNamespace

import pytest
from helpers import REPO, make_project

from generator.site import mkdocs_parallel
from generator.site.parallel import versions
from generator.site.parallel.build import ParallelBuild


def mkdocs_build(root, site, workers, config_file="mkdocs.yml"):
    env = dict(os.environ, PYTHONPATH=str(REPO), NO_MKDOCS_2_WARNING="1", FAILURE_ENCYCLOPEDIA_WORKERS=str(workers),
               SOURCE_DATE_EPOCH="1764633600")  # sitemap dates identical across the builds
    env.pop("FAILURE_ENCYCLOPEDIA_PRERENDERED", None)
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f", config_file,
                             "--site-dir", str(site)],
                            cwd=root, env=env, capture_output=True, text=True, check=False)
    return result.returncode, result.stdout + result.stderr


def files_of(site):
    return {p.relative_to(site).as_posix(): p.read_bytes() for p in sorted(site.rglob("*")) if p.is_file()}


def assert_same_site(parallel, serial):
    a, b = files_of(parallel), files_of(serial)
    assert sorted(a) == sorted(b)
    differing = [name for name in a if a[name] != b[name]]
    assert not differing, f"{len(differing)} files differ, e.g. {differing[:5]}"


def off_lines(output):
    """The info lines that say why the build went serial."""
    return [line.split("-  ", 1)[1] for line in output.splitlines() if "parallel build off" in line]


def warnings(output):
    return sorted(line for line in output.splitlines() if line.startswith("WARNING"))


@pytest.fixture(scope="module")
def real_project(tmp_path_factory):
    return make_project(tmp_path_factory.mktemp("parallel"), entries_from=REPO / "entries")


@pytest.mark.slow
def test_parallel_build_is_byte_identical_to_serial(real_project, tmp_path):
    """The proof behind versions.VERIFIED: the installed MkDocs and Material must be listed."""
    unverified = versions.why_unverified()
    assert unverified is None, (
        f"{unverified}: the parallel build reaches into MkDocs' and Material's internals "
        f"(generator/site/parallel/adapter.py). Re-verify: add {versions.installed()} to VERIFIED "
        "in generator/site/parallel/versions.py, run this test again, and keep it only if it "
        "passes (check the adapter's list of internals against the new releases too).")
    rc, out = mkdocs_build(real_project, tmp_path / "parallel", 2)
    assert rc == 0, out
    pages = len(list((tmp_path / "parallel").rglob("index.html")))
    # every page converted by the workers; every page but the first rendered there
    assert f"2 worker processes converted {pages} of {pages} pages, rendered {pages - 1} and split {pages - 1} for search" in out
    rc, serial_out = mkdocs_build(real_project, tmp_path / "serial", 1)
    assert rc == 0, serial_out
    assert "worker processes" not in serial_out
    assert off_lines(out) == off_lines(serial_out) == []
    assert_same_site(tmp_path / "parallel", tmp_path / "serial")


@pytest.mark.slow
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


@pytest.mark.slow
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
    assert mkdocs_parallel.why_serial(workers=4) == reason


def test_one_worker_or_few_pages_stay_serial(monkeypatch):
    monkeypatch.setattr(mkdocs_parallel, "_startup", {"command": "build", "dirty": False})
    assert mkdocs_parallel.why_serial(workers=1) == "one worker"
    assert mkdocs_parallel.why_serial(workers=2) is None
    few = ParallelBuild()
    few.begin(SimpleNamespace(documentation_pages=lambda files: ["a.md", "b.md", "c.md"]),
              config=None, files=None, workers=2)
    assert not few.on and few.pool is None


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


@pytest.mark.slow
def test_a_worker_that_dies_leaves_the_build_to_mkdocs(tmp_path):
    root = make_project(tmp_path, entries_from=REPO / "entries")
    (root / "crash_in_a_worker.py").write_text(CRASHING_EXTENSION)  # importable: `python -m` runs in root
    (root / "docs" / "crash.md").write_text("# Crash\n\nCRASH-IN-A-WORKER\n")
    config = root / "mkdocs.yml"
    config.write_text(config.read_text().replace(
        "markdown_extensions:\n", "markdown_extensions:\n  - crash_in_a_worker\n", 1))
    rc, out = mkdocs_build(root, tmp_path / "parallel", 2)
    assert rc == 0, out
    assert off_lines(out) == [("parallel build off: a worker process died (A process in the process pool "
                              "was terminated abruptly while the future was running or pending.); "
                              "building serially")]
    assert "worker processes converted" not in out
    rc, serial_out = mkdocs_build(root, tmp_path / "serial", 1)
    assert rc == 0, serial_out
    assert_same_site(tmp_path / "parallel", tmp_path / "serial")


def test_navigation_is_shared_only_by_pages_whose_links_are_the_same():
    from generator.site.parallel.adapter import navigation_key as key

    nav = ["", "diagnose/", "failures/", "browse/", "browse/tags/"]
    assert key("failures/a/", nav) == key("failures/b/", nav) is not None
    assert key("browse/category-x/", nav) is not None
    assert key("browse/category-x/", nav) != key("failures/a/", nav)
    assert key("diagnose/", nav) is None  # listed: one of its items is active
    assert key("browse/", nav) is None
    nav = ["", "guide/sub/"]
    assert key("guide/", nav) is None  # a listed page lies under it
    assert key("other/", nav) is not None
    nav = ["", "failures/index.html"]
    assert key("failures/a.html", nav) is None  # same base folder as a listed page
    assert key("x.html", nav) is None
    assert key("deep/x.html", nav) != key("deep/x/", nav)  # bases at depths 1 and 2
    assert key("deep/er/x.html", nav) == key("deep/x/", nav)  # both based in deep/*/


# ------------------------------------------------------------- the guarded door

def test_only_the_verified_releases_build_in_parallel(monkeypatch):
    assert ("1.6.1", "9.8.2") in versions.VERIFIED
    assert versions.why_unverified(("1.6.1", "9.8.2")) is None
    assert versions.why_unverified(("1.6.1", "9.7.1")) == "mkdocs-material 9.7.1 is not on the verified list"
    assert versions.why_unverified(("1.7.0", "9.7.1")) == (
        "mkdocs 1.7.0 and mkdocs-material 9.7.1 are not on the verified list")
    monkeypatch.setattr(versions, "VERIFIED", frozenset({("1.6.1", "9.8.2"), ("1.6.0", "9.6.0")}))
    assert versions.why_unverified(("1.6.1", "9.6.0")) == (
        "mkdocs 1.6.1 with mkdocs-material 9.6.0 is not on the verified list")
    monkeypatch.setattr(versions, "installed", lambda: ("1.6.1", "9.7.1"))
    assert versions.why_unverified() == "mkdocs-material 9.7.1 is not on the verified list"


def test_the_adapter_is_the_only_module_that_touches_mkdocs_or_material():
    """Everything else in the parallel build talks to generator/site/parallel/adapter.py:
    no import of mkdocs or material, no private name of another object."""
    modules = sorted((REPO / "generator" / "site" / "parallel").glob("*.py"))
    modules.append(REPO / "generator" / "site" / "mkdocs_parallel.py")
    offences = []
    for path in modules:
        if path.name == "adapter.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            offences += [f"{path.name}:{node.lineno} imports {name}" for name in names
                         if name.split(".")[0] in ("mkdocs", "material")]
            if (isinstance(node, ast.Attribute) and node.attr.startswith("_")
                    and not node.attr.startswith("__")
                    and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))):
                offences.append(f"{path.name}:{node.lineno} touches .{node.attr}")
    assert not offences


def test_the_hooks_do_not_import_the_adapter():
    """A renamed Material class must fail inside the door (on_nav), not when MkDocs loads
    the hooks."""
    code = ("import sys; import generator.site.mkdocs_parallel; "
            "print(sorted(m for m in sys.modules"
            " if m.startswith(('material', 'generator.site.parallel.adapter'))))")
    result = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True,
                            env=dict(os.environ, PYTHONPATH=str(REPO)), check=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


def test_turning_off_says_why_once_and_takes_the_stand_ins_out(caplog):
    build, undone = ParallelBuild(), []
    build.on = True
    build.undo += [lambda: undone.append(1), lambda: undone.append(2)]
    with caplog.at_level("INFO", logger="mkdocs.hooks.generator.parallel"):
        build.fail("in on_env", RuntimeError("first\nsecond line"))
        build.fail("in on_post_build", ValueError("later"))
    assert [r.getMessage() for r in caplog.records if r.levelname == "INFO"] == [
        "parallel build off: error in on_env (RuntimeError: first); building serially"]
    assert not build.on and undone == [2, 1] and build.undo == []


def middle_entry():
    ids = sorted(p.stem for p in (REPO / "entries").glob("*.yaml") if p.stem not in ("benign", "categories"))
    return ids[len(ids) // 2]


# Test-only MkDocs hooks that break one stage of the parallel build the way a new MkDocs or
# Material release, or a bug, could; each build must still succeed, serially from that
# point, byte-identical, with one info line.
INJECTIONS = {
    "unverified release": ('''
import importlib.metadata as metadata
_version = metadata.version
metadata.version = lambda name: "9.7.1" if name == "mkdocs-material" else _version(name)
''', "mkdocs-material 9.7.1 is not on the verified list"),
    "a Material class renamed": ('''
import builtins
_import = builtins.__import__
def renamed(name, globals=None, locals=None, fromlist=(), level=0):
    if (name == "material.plugins.search.plugin" and "Parser" in (fromlist or ())
            and (globals or {}).get("__name__") == "generator.site.parallel.adapter"):
        raise ImportError("cannot import name 'Parser' from 'material.plugins.search.plugin'")
    return _import(name, globals, locals, fromlist, level)
builtins.__import__ = renamed
''', ("error while importing the MkDocs/Material adapter (ImportError: cannot import name 'Parser' "
     "from 'material.plugins.search.plugin')")),
    "on_nav": ('''
from generator.site.parallel import adapter
def renders_templates(config):
    raise RuntimeError("injected in on_nav")
adapter.renders_templates = renders_templates  # after the conversions' stand-ins are in
''', "error in on_nav (RuntimeError: injected in on_nav)"),
    "on_env": ('''
from generator.site.parallel import adapter
def use_navigation_once(env, build):
    raise RuntimeError("injected in on_env")
adapter.use_navigation_once = use_navigation_once  # after the templates' stand-in is in
''', "error in on_env (RuntimeError: injected in on_env)"),
    "a converting worker": ('''
import multiprocessing
from generator.site.parallel import adapter
_convert = adapter.convert
def convert(config, files, uri):
    if multiprocessing.parent_process() is not None and uri == "diagnose.md":
        raise RuntimeError("injected in a worker")
    return _convert(config, files, uri)
adapter.convert = convert
''', "error in a worker (converting diagnose.md: RuntimeError: injected in a worker)"),
    "a rendering worker": ('''
import multiprocessing
from generator.site.parallel import adapter
_render = adapter.RenderState.render
def render(self, uri, *args, **kwargs):
    if multiprocessing.parent_process() is not None and uri == "failures/{entry}.md":
        raise RuntimeError("injected in a worker")
    return _render(self, uri, *args, **kwargs)
adapter.RenderState.render = render  # the pages before it come from the workers
''', "error in a worker (rendering failures/{entry}.md: RuntimeError: injected in a worker)"),
    "a stand-in, mid-build": ('''
from generator.site.parallel import adapter
_get_toc, calls = adapter.get_toc, []
def get_toc(tokens):
    calls.append(1)
    if len(calls) == 10:
        raise RuntimeError("injected in a stand-in")
    return _get_toc(tokens)
adapter.get_toc = get_toc  # nine pages take the workers' conversion first
''', "error while using a worker's conversion (RuntimeError: injected in a stand-in)"),
}


@pytest.fixture(scope="module")
def serial_site(real_project, tmp_path_factory):
    site = tmp_path_factory.mktemp("serial") / "site"
    rc, out = mkdocs_build(real_project, site, 1)
    assert rc == 0, out
    assert off_lines(out) == []
    return site


@pytest.mark.slow
@pytest.mark.parametrize("stage", list(INJECTIONS))
def test_any_failure_builds_serially_with_one_line_saying_why(real_project, serial_site, tmp_path, stage):
    hook, reason = (text.replace("{entry}", middle_entry()) for text in INJECTIONS[stage])
    name = "inject_" + stage.replace(" ", "_").replace(",", "").replace("-", "_")
    (real_project / "hooks" / f"{name}.py").write_text(hook)
    config = real_project / f"mkdocs-{name}.yml"
    config.write_text((real_project / "mkdocs.yml").read_text().replace(
        "hooks:\n", f"hooks:\n  - hooks/{name}.py\n", 1))
    rc, out = mkdocs_build(real_project, tmp_path / "site", 2, config_file=config.name)
    assert rc == 0, out
    assert off_lines(out) == [f"parallel build off: {reason}; building serially"]
    assert "worker processes converted" not in out
    assert_same_site(tmp_path / "site", serial_site)
