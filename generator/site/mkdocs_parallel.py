"""MkDocs hook part: build the site's pages on every core.

MkDocs 1.6 builds pages one after another on one core: it converts every page's Markdown
(`_populate_page` in `mkdocs/commands/build.py`), then renders every page through the
theme's templates (`_build_page`), where Material's search plugin also splits each page's
HTML into sections with a pure-Python HTML parser. For this site that is nearly all of a
build. This module does the same work in forked worker processes, in two stages, and the
main process takes a worker's result only where it is provably the same work:

1. Conversion (`on_nav`, the last event before MkDocs converts). Workers run
   `Page.read_source` + `Page.render` with the same config and the same `Files`, so
   MkDocs' link and anchor validation runs on every page. The main process uses a page's
   conversion only where its Markdown after every `on_page_markdown` event is the very
   text the worker converted. Messages a worker's conversion logged (a broken link, a
   missing anchor) are logged again in the main process at the moment MkDocs would have
   logged them, so `mkdocs build --strict` still fails on them.
2. Templates and search (from the first page MkDocs renders, when every plugin and theme
   event has run). Workers forked at that moment split each later page's HTML into
   search sections with Material's own `Parser` and render the page exactly as
   `_build_page` would (template context, `on_page_context` events, template); the main
   process still runs every event, builds the search index and writes every file. It
   uses a page's sections only where the HTML it indexes is the HTML they were split
   from, and a page's output only where the page's content, title, URL and template are
   what the worker rendered. This stage runs only when Material's search plugin is the
   only `on_page_context` handler (the one event in between whose effects could differ).
   Pages that the navigation does not list render Material's navigation once per folder
   (see `_NavigationOnce`).

Anything else falls back to MkDocs' and Material's own code; a test builds the site both
ways and compares every output file byte for byte. Runs for `mkdocs build` and
`gh-deploy` (not `serve`, not `--dirty`), on Linux (it forks), when no other thread runs
and there are two or more workers. FAILURE_ENCYCLOPEDIA_WORKERS=N sets the number of workers;
1 gives MkDocs' own serial build.
"""

from __future__ import annotations

import hashlib
import logging
import multiprocessing
import os
import sys
import threading
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

WORKERS_ENV = "FAILURE_ENCYCLOPEDIA_WORKERS"
CHUNK = 8  # pages per task: small enough to balance the cores, large enough to batch

log = logging.getLogger("mkdocs.hooks.generator.parallel")


@dataclass
class Converted:
    """What `Page.render` leaves on a page, in plain values (cheap to send between
    processes)."""

    markdown: str
    content: str
    toc: list[dict[str, Any]]  # Python-Markdown toc tokens: level, id, name, children
    title: str | None
    present_anchor_ids: set[str] | None
    links_to_anchors: dict[str, dict[str, str]] | None  # keyed by the target's src_uri
    messages: list[tuple[str, int, str]] = field(default_factory=list)


# Material's search sections, in plain values: tag, attributes, depth, id, text, title
Sections = list[tuple[str, dict[str, Any], float, "str | None", list[str], list[str]]]


_startup = {"command": "", "dirty": False}
_work: dict[str, Any] = {}  # what forked workers inherit
_used = {"pages": 0, "workers": 0, "converted": 0, "rendered": 0, "indexed": 0}  # for the build's last line


def on_startup(command: str, dirty: bool, **kwargs: Any) -> None:
    _startup.update(command=command, dirty=dirty)


def worker_count() -> int:
    """Workers to use: the environment's setting, else the CPUs this process may run on."""
    setting = os.environ.get(WORKERS_ENV, "").strip()
    if setting.isdigit() and int(setting) > 0:
        return int(setting)
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def _why_serial(pages: int, workers: int) -> str | None:
    if _startup["command"] not in ("build", "gh-deploy"):
        return f"command {_startup['command'] or 'unknown'!r}"
    if _startup["dirty"]:
        return "--dirty"
    if workers < 2:
        return "one worker"
    if not sys.platform.startswith("linux"):  # fork is missing (Windows) or unsafe (macOS)
        return f"platform {sys.platform}"
    if threading.active_count() > 1:
        return "other threads are running"
    if pages < 2 * workers:
        return "few pages"
    return None


def _pool(workers: int, initializer: Any) -> ProcessPoolExecutor:
    """Worker processes forked now, inheriting this process's state (`_work` included).
    A worker that dies (killed for memory, say) breaks the pool and raises
    BrokenProcessPool where its results are awaited, never a hang."""
    return ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork"),
                               initializer=initializer)


def _chunks(items: list[str]) -> list[list[str]]:
    return [items[i:i + CHUNK] for i in range(0, len(items), CHUNK)]


# ----------------------------------------------------------------------------- stage 1

def on_nav(nav: Any, config: Any, files: Any, **kwargs: Any) -> Any:
    from mkdocs.structure.pages import Page

    _templates.reset()
    _used.update(pages=0, workers=0, converted=0, rendered=0, indexed=0)
    documents = files.documentation_pages()
    workers = worker_count()
    reason = _why_serial(len(documents), workers)
    if reason:
        log.debug("pages build serially: %s", reason)
        return nav
    for file in documents:
        if file.page is None:  # what MkDocs does next for pages outside the nav
            Page(None, file, config)
    _work.update(config=config, files=files)
    try:
        with _pool(workers, initializer=_capture_logging) as pool:
            results = {uri: converted for done in pool.map(
                _convert_chunk, _chunks([f.src_uri for f in documents])) for uri, converted in done}
    except Exception as exc:  # a worker died: MkDocs does everything itself
        log.info("pages build serially: the worker processes failed (%s)", exc)
        return nav
    finally:
        _work.clear()
    for file in documents:
        converted = results.get(file.src_uri)
        if converted is not None:
            file.page.render = _CachedRender(file.page, converted, files)
    _templates.arm(config, workers)
    _used.update(pages=len(documents), workers=workers)
    return nav


class _Capture(logging.Handler):
    messages: list[tuple[str, int, str]] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append((record.name, record.levelno, record.getMessage()))


def _capture_logging() -> None:
    """In a worker: keep every log record for the main process instead of printing it."""
    capture = _Capture()
    for logger in (logging.getLogger(), logging.getLogger("mkdocs")):
        for handler in list(logger.handlers):
            logger.removeHandler(handler)
        logger.addHandler(capture)


def _convert_chunk(uris: list[str]) -> list[tuple[str, Converted]]:
    return [(uri, converted) for uri in uris if (converted := _convert(uri)) is not None]


def _convert(uri: str) -> Converted | None:
    config, files = _work["config"], _work["files"]
    page = files.get_file_from_path(uri).page
    _Capture.messages = []
    config._current_page = page
    try:
        page.read_source(config)
        source = page.markdown
        page.render(config, files)
    except Exception:  # the main process converts it again and reports the error itself
        return None
    finally:
        config._current_page = None
    links = page.links_to_anchors
    return Converted(
        markdown=source,
        content=page.content,
        toc=[_toc_token(item) for item in page.toc],
        title=page._title_from_render,
        present_anchor_ids=page.present_anchor_ids,
        links_to_anchors=None if links is None else {f.src_uri: dict(a) for f, a in links.items()},
        messages=_Capture.messages,
    )


def _toc_token(item: Any) -> dict[str, Any]:
    return {"level": item.level, "id": item.id, "name": item.title,
            "children": [_toc_token(child) for child in item.children]}


class _CachedRender:
    """Stands in for `page.render`: the worker's result when the Markdown is unchanged."""

    def __init__(self, page: Any, converted: Converted, files: Any) -> None:
        self.page, self.converted, self.files = page, converted, files

    def __call__(self, config: Any, files: Any) -> None:
        from mkdocs.structure.toc import get_toc

        page, converted = self.page, self.converted
        del page.render  # from now on MkDocs' own method
        if page.markdown != converted.markdown or files is not self.files:
            page.render(config, files)
            return
        _used["converted"] += 1
        for name, level, message in converted.messages:
            logging.getLogger(name).log(level, message)
        page.content = converted.content
        page.toc = get_toc(converted.toc)
        page._title_from_render = converted.title
        page.present_anchor_ids = converted.present_anchor_ids
        if converted.links_to_anchors is not None:
            page.links_to_anchors = {files.get_file_from_path(uri): anchors
                                     for uri, anchors in converted.links_to_anchors.items()}


def _search_plugin(config: Any) -> Any:
    return config.plugins.get("material/search") or config.plugins.get("search")


def _search_index(config: Any) -> Any:
    index = getattr(_search_plugin(config), "search_index", None)
    if index is None or not hasattr(index, "create_entry_for_section"):
        return None  # not Material's search, or disabled: nothing to prepare
    return index


# ----------------------------------------------------------------------------- stage 2

def on_env(env: Any, config: Any, files: Any, **kwargs: Any) -> Any:
    if _templates.armed:
        env.get_template = _templates.wrap(env.get_template)
        _NavigationOnce.install(env)
    return env


def on_post_build(config: Any, **kwargs: Any) -> None:
    _templates.reset()
    if _used["workers"]:
        log.info("%(workers)d worker processes converted %(converted)d of %(pages)d pages, "
                 "rendered %(rendered)d and split %(indexed)d for search", _used)


def on_build_error(error: Exception, **kwargs: Any) -> None:
    _templates.reset()


def _digest(*parts: str) -> bytes:
    digest = hashlib.blake2b(digest_size=16)
    for part in parts:
        digest.update(part.encode("utf-8", "surrogatepass"))
        digest.update(b"\0")
    return digest.digest()


def _page_key(page: Any, template_name: str) -> bytes:
    """What a page's HTML depends on besides the state shared by all pages."""
    return _digest(page.content or "", str(page.title), page.url, template_name)


@dataclass
class Rendered:
    """A worker's work on one page: its search sections and its output HTML."""

    content_key: bytes  # the HTML the sections were split from
    sections: Sections | None
    page_key: bytes  # what the output was rendered from
    output: str


class _TemplateStage:
    """Hands MkDocs a stand-in for each page's template, and Material's search index a
    stand-in for its parsing: the first page is indexed and rendered here and forks the
    workers, which do every later page; the stand-ins then take the worker's result for
    their page."""

    def __init__(self) -> None:
        self.pool: ProcessPoolExecutor | None = None
        self.reset()

    def reset(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)
        self.armed = self.started = self.splits_for_search = False
        self.pool = None
        self.results: Iterator[list[tuple[str, Rendered | None]]] | None = None
        self.done: dict[str, Rendered | None] = {}
        self.workers = 0

    def arm(self, config: Any, workers: int) -> None:
        plugin = _search_plugin(config)
        handlers = config.plugins.events.get("page_context", [])
        if not all(getattr(handler, "__self__", None) is plugin for handler in handlers):
            log.debug("templates render serially: a plugin other than search handles on_page_context")
            return
        self.armed, self.workers = True, workers
        index = _search_index(config)
        if index is not None:
            self.splits_for_search = True
            self.index_with_sections(index)

    def wrap(self, get_template: Any) -> Any:
        stage = self

        def get_page_template(name: Any, parent: Any = None, globals: Any = None) -> Any:
            template = get_template(name, parent, globals)
            if parent is not None or globals is not None or not stage.armed:
                return template  # Jinja's own includes and imports
            return _PageTemplate(stage, template, name)

        return get_page_template

    def result(self, page: Any) -> Rendered | None:
        """The worker's result for `page`, waiting for it if need be; None without one."""
        uri = page.file.src_uri
        while uri not in self.done and self.results is not None:
            try:
                self.done.update(next(self.results))
            except StopIteration:
                self.results = None
            except Exception as exc:  # a worker died: the rest is done here
                log.info("templates render serially: the worker processes failed (%s)", exc)
                self.results = None
        return self.done.get(uri)

    def index_with_sections(self, index: Any) -> None:
        """Material's `SearchIndex.add_entry_from_context`, with the page's HTML split into
        sections by a worker when it is the HTML the main process indexes."""
        from material.plugins.search.plugin import Element, Section

        original = index.add_entry_from_context

        def add_entry_from_context(page: Any) -> None:
            if "_in_worker" in _work:
                return None  # the main process builds the index
            rendered = self.result(page)
            if rendered is None or rendered.sections is None or rendered.content_key != _digest(page.content):
                return original(page)
            _used["indexed"] += 1
            search = page.meta.get("search") or {}
            if search.get("exclude"):
                return None
            for tag, attrs, depth, anchor, text, title in rendered.sections:
                section = Section(Element(tag, attrs), depth)
                section.id, section.text, section.title = anchor, text, title
                if not section.is_excluded():
                    index.create_entry_for_section(section, page.toc, page.url, page)
            return None

        index.add_entry_from_context = add_entry_from_context

    def render(self, template: Any, name: str, context: Any) -> str:
        page = context.get("page")
        if page is None or "_in_worker" in _work:
            return template.render(context)
        if not self.started:
            self.start(context, page, template.environment)
            return template.render(context)
        rendered = self.result(page)
        self.done.pop(page.file.src_uri, None)
        if rendered is None or rendered.page_key != _page_key(page, name):
            return template.render(context)
        _used["rendered"] += 1
        return rendered.output

    def start(self, context: Any, first: Any, env: Any) -> None:
        """Fork the workers now that MkDocs is about to render its first page."""
        self.started = True  # or tried: never again in this build
        if threading.active_count() > 1:
            return
        by_uri = {f.src_uri: f.page for f in context["pages"] if f.page is not None}
        later = [uri for uri, page in by_uri.items() if page is not first]
        _work.update(nav=context["nav"], pages=context["pages"], config=context["config"], env=env,
                     by_uri=by_uri, first=first, _in_worker=True,
                     parser=self.splits_for_search and _material_parser())
        try:
            self.pool = _pool(self.workers, initializer=_quiet_worker)
            self.results = self.pool.map(_render_chunk, _chunks(later))
        except Exception as exc:
            log.info("templates render serially: could not start workers (%s)", exc)
        finally:
            _work.clear()


class _PageTemplate:
    """The template MkDocs renders a page with; `render` may come from a worker."""

    def __init__(self, stage: _TemplateStage, template: Any, name: str) -> None:
        self.stage, self.template, self.name = stage, template, name

    def render(self, context: Any) -> str:
        return self.stage.render(self.template, self.name, context)

    def __getattr__(self, attribute: str) -> Any:
        return getattr(self.template, attribute)


_templates = _TemplateStage()


class _NavigationOnce:
    """Material's primary navigation (`partials/nav.html`) rendered once per folder for the
    pages the navigation does not list, instead of once per page: on those pages no item
    is active, and every link in it is relative to the page's folder, so the HTML is the
    same for every such page in one folder. A page that the navigation lists, or that is a
    folder some listed page lies in, renders it as usual. Installed only with the worker
    processes (the serial build renders Material's template as it is)."""

    WRAPPER = (  # Jinja: the theme's own nav.html inside a call block
        '{%- call navigation_once(page, nav) -%}'
        '{% include "generator-theme/partials/nav.html" %}'
        '{%- endcall -%}')

    def __init__(self) -> None:
        self.html: dict[str, str] = {}
        self.listed: tuple[Any, list[str]] | None = None

    @classmethod
    def install(cls, env: Any) -> None:
        import jinja2

        env.loader = jinja2.ChoiceLoader([
            jinja2.DictLoader({"partials/nav.html": cls.WRAPPER}),
            jinja2.PrefixLoader({"generator-theme": env.loader}),
            env.loader,
        ])
        env.globals["navigation_once"] = cls()

    def __call__(self, page: Any, nav: Any, caller: Any) -> str:
        folder = self.folder(page, nav)
        if folder is None:
            return caller()
        if folder not in self.html:
            self.html[folder] = caller()
        return self.html[folder]

    def folder(self, page: Any, nav: Any) -> str | None:
        """The key of the pages whose navigation HTML is this page's, or None to render it.

        MkDocs makes a link relative to the page's base folder (its URL up to the last
        "/"). Two bases at the same depth under the same parent give the same relative
        link to any target that lies under neither of them, and no listed page lies under
        the base of a page that gets a key."""
        if self.listed is None or self.listed[0] is not nav:
            self.listed = (nav, [p.url for p in nav.pages])
        urls = self.listed[1]
        if page is None or page.url in urls:
            return None
        base = page.url[:page.url.rfind("/") + 1]
        if any(url.startswith(base) for url in urls):
            return None
        return f"{base.count('/')}:{base.rstrip('/').rpartition('/')[0]}"


def _material_parser() -> Any:
    from material.plugins.search.plugin import Parser
    return Parser


def _quiet_worker() -> None:
    _capture_logging()
    _work["first"].active = False  # the page the main process was rendering at the fork
    _work["config"]._current_page = None


def _render_chunk(uris: list[str]) -> list[tuple[str, Rendered | None]]:
    return [(uri, _render_page(uri)) for uri in uris]


def _render_page(uri: str) -> Rendered | None:
    """Material's search parse of the page, then `_build_page` up to the template's output,
    as MkDocs runs it."""
    from mkdocs.commands.build import get_context

    config, nav, pages, page = _work["config"], _work["nav"], _work["pages"], _work["by_uri"][uri]
    page.active = True
    config._current_page = page
    try:
        context = get_context(nav, pages, config, page)
        name = page.meta.get("template", "main.html")
        template = _work["env"].get_template(name)
        sections = _sections(page.content) if _work["parser"] else None
        content_key = _digest(page.content)
        context = config.plugins.on_page_context(context, page=page, config=config, nav=nav)
        _Capture.messages = []
        output = template.render(context)
        if _Capture.messages:  # something logged while rendering: the main process renders it
            return None
        return Rendered(content_key, sections, _page_key(page, name), output)
    except Exception:  # the main process does it again and reports the error itself
        return None
    finally:
        page.active = False
        config._current_page = None


def _sections(html: str) -> Sections:
    parser = _work["parser"]()
    parser.feed(html)
    parser.close()
    # Fragments joined here, the way Material joins them; an empty title stays empty
    # (Material then uses the page title).
    return [(s.el.tag, s.el.attrs, s.depth, s.id, ["".join(s.text)], ["".join(s.title)] if s.title else [])
            for s in parser.data]
