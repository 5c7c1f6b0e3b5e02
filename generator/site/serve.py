"""`python -m generator serve`: MkDocs' development server, rebuilding only what a save changes.

It runs `mkdocs serve --dirty`. After each save MkDocs builds again; with `--dirty` it
converts and renders only the pages whose Markdown is newer than their HTML, but still
writes the theme's pages (404, sitemap) and the search index. The hook
(`mkdocs_hook`) first checks and renders the entries with the caches of
`pipeline.BuildCache`, so a generated page is written, and therefore built again, only when
its content changed: the edited entry's page and the pages that show something of it (an
entry that lists it as related shows its title). What this module adds:

- The generator's own writes into docs/ must not start another build: the build that wrote
  them is already building them. `watch_sources` watches docs/ through a filter that drops
  the events of generated files (a hand-written file's events pass), and entries/ through
  one that drops the events of a file that holds what the last build read.
- A dirty build indexes for search only the pages it builds. Material keeps the last
  index and merges the new pages into it, assuming there is only one and that no page's
  URL starts with another's ("failures/" would drop every entry). `keep_search_entries`
  instead starts the index with the previous entries of the pages that are not rebuilt, so
  the index always holds every page once.
- A dirty build reads only the pages it rebuilds, and a page that is not read has no
  title, so the navigation of a rebuilt page would show "None" for the others;
  `title_unbuilt_pages` reads the few pages the navigation lists.
- A page removed from docs/ (an entry deleted or renamed) leaves its HTML in the served
  folder under `--dirty`; `forget_pages` removes it.
- MkDocs makes a new Jinja environment for every build, which compiles the theme's
  templates again; `TEMPLATE_BYTECODE` keeps the compiled templates between builds (Jinja
  compares each template's source before it uses them).

An edit that the checker rejects fails the build as before: the problems are printed and
the served site stays as it was until a save fixes them.
"""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import jinja2

from .render import OWNED_DIRS, OWNED_FILES, _is_generated

log = logging.getLogger("mkdocs.hooks.generator.serve")


def run(root: Path, dev_addr: str) -> int:
    """Serve the site at dev_addr until interrupted; the exit code of `mkdocs serve`."""
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    command = [sys.executable, "-m", "mkdocs", "serve", "--dirty", "--dev-addr", dev_addr]
    try:
        return subprocess.call(command, cwd=root, env=env)
    except KeyboardInterrupt:
        return 0


# -- the watcher ------------------------------------------------------------------------

def is_generated(docs_dir: Path, path: str) -> bool:
    """Whether `path` (absolute) is a file the generator writes or removes in docs/: in a
    place the generator owns, and a generated file (or gone, which is what the generator
    does with a generated file it no longer plans)."""
    try:
        rel = Path(path).resolve().relative_to(docs_dir.resolve()).as_posix()
    except ValueError:
        return False
    if rel not in OWNED_FILES and not any(rel.startswith(d + "/") for d in OWNED_DIRS):
        return False
    target = docs_dir / rel
    return not target.is_file() or _is_generated(target, docs_dir)


class _Filtered:
    """A watchdog event handler that passes on every event except those whose every path
    `needless` says starts no useful build."""

    def __init__(self, handler: Any, needless: Callable[[str], bool]) -> None:
        self.handler, self.needless = handler, needless

    def dispatch(self, event: Any) -> None:
        paths = [event.src_path] + ([event.dest_path] if getattr(event, "dest_path", "") else [])
        if not event.is_directory and all(self.needless(os.fsdecode(p)) for p in paths):
            log.debug("no build needed for %s", event)
            return
        self.handler.dispatch(event)


def _watch_filtered(server: Any, folder: Path, needless: Callable[[str], bool]) -> None:
    """server.watch(folder), with MkDocs' own handler (the one that requests builds)
    behind a filter: the watch is scheduled through a wrapper of the observer's method."""
    observer = server.observer
    schedule = observer.schedule

    def schedule_filtered(handler: Any, path: str, recursive: bool = True, **kwargs: Any) -> Any:
        return schedule(_Filtered(handler, needless), path, recursive=recursive, **kwargs)

    observer.schedule = schedule_filtered
    try:
        server.watch(str(folder))
    finally:
        del observer.schedule  # the class's method again


def watch_sources(server: Any, docs_dir: Path, entries_dir: Path, templates_dir: Path,
                  unchanged: Callable[[Path], bool] = lambda path: False) -> None:
    """Watch docs/ without the generator's own files, entries/ without the saves a build
    has already seen (`unchanged`: the file holds what the last build read; an editor that
    truncates, then writes, can be seen twice), and the templates.

    MkDocs has already watched docs/ with its own handler; it is watched again here with
    that handler behind the filter. A folder that is already watched (mkdocs.yml's `watch:`
    is added after this) keeps a single watch: the filtered one."""
    try:
        server.unwatch(str(docs_dir))
    except KeyError:  # not watched (`mkdocs serve --no-livereload` watches nothing)
        return
    _watch_filtered(server, docs_dir, lambda path: is_generated(docs_dir, path))
    _watch_filtered(server, entries_dir, lambda path: unchanged(Path(path)))
    server.watch(str(templates_dir))


# -- the dirty build --------------------------------------------------------------------

def _search_plugin(config: Any) -> Any:
    return config.plugins.get("material/search") or config.plugins.get("search")


class _Whole:
    """Stands in for Material's previous search index once this build's index holds every
    page: Material merges its (no) entries into the new index. Keeps the real previous
    index in case this build fails before Material replaces the stand-in."""

    def __init__(self, previous: Any) -> None:
        self.previous = previous
        self.entries: list[dict[str, Any]] = []


def keep_search_entries(config: Any, files: Any) -> None:
    """Start this build's search index with the previous build's entries of every page
    that this dirty build does not rebuild (Material's search plugin; others are left
    alone)."""
    plugin = _search_plugin(config)
    index = getattr(plugin, "search_index", None)
    previous = getattr(plugin, "search_index_prev", None)
    if isinstance(previous, _Whole):  # the last build failed after this point
        previous = previous.previous
    if index is None or previous is None or not isinstance(getattr(index, "entries", None), list):
        return
    kept = {f.url for f in files.documentation_pages() if not f.is_modified()}
    index.entries[:0] = [e for e in previous.entries if e["location"].split("#")[0] in kept]
    plugin.search_index_prev = _Whole(previous)


def title_unbuilt_pages(config: Any, files: Any) -> None:
    """Read the source of each navigation page that this dirty build does not rebuild, so
    that the navigation of the pages it does rebuild shows that page's title (MkDocs leaves
    an unread page without one, and Material prints "None")."""
    for file in files.documentation_pages():
        page = file.page
        if page is not None and page.markdown is None and file.inclusion.is_in_nav():
            page.read_source(config)


def forget_pages(config: Any, removed: Iterable[str]) -> None:
    """Delete the built HTML of pages whose Markdown the generator removed from docs/."""
    from mkdocs.structure.files import File

    for rel in removed:
        if not rel.endswith(".md"):
            continue
        built = Path(File(rel, config.docs_dir, config.site_dir, config.use_directory_urls).abs_dest_path)
        if built.is_file():
            built.unlink()


class _MemoryBytecode(jinja2.BytecodeCache):
    """Compiled Jinja templates kept in memory; Jinja checks each one against the template's
    source before using it."""

    def __init__(self) -> None:
        self.compiled: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        code = self.compiled.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self.compiled[bucket.key] = bucket.bytecode_to_string()


TEMPLATE_BYTECODE = _MemoryBytecode()
