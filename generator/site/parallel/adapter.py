"""Every MkDocs and Material internal the parallel build touches, and nothing else.

The only module of the parallel build that imports mkdocs or material, or touches a name
they keep private. The rest hands it the objects MkDocs passes to hook events and gets
back plain values (strings, the dataclasses below), or installs its stand-ins, each of
which can be taken out again (`Undo`) and steps aside by itself once the build is off.

What it relies on, verified for the releases in `versions.VERIFIED` by
tests/test_parallel_build.py (a release not on that list never imports this module):

MkDocs 1.6
- `Page.read_source` and `Page.render`, and what `render` leaves on a page: `content`,
  `toc` (Python-Markdown toc tokens through `mkdocs.structure.toc.get_toc`), the private
  `_title_from_render`, `present_anchor_ids`, `links_to_anchors` (keyed by `File`);
  `render` is looked up on the page, so a stand-in set on the instance replaces it.
- The private `config._current_page`, set while a page is converted or rendered.
- Pages outside the nav get their `Page(None, file, config)` just after `on_nav`.
- `_build_page`: `page.active`, `get_context`, the page's template
  (`env.get_template(page.meta template or 'main.html')`), `plugins.on_page_context`, then
  `template.render(context)`; `config.plugins.events['page_context']` lists the handlers.
Material 9
- The search plugin (`material/search`), its `search_index` (a `SearchIndex`: its
  `add_entry_from_context(page)`, `create_entry_for_section` and `entries`), and the
  HTML splitter of its module (`Parser`, `Element`, `Section`).
- The theme's `partials/nav.html`, which renders the same HTML for every page in one
  folder that the nav does not list (see `navigation_key`).
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import jinja2
from material.plugins.search.plugin import Element, Parser, SearchIndex, Section
from mkdocs.commands.build import get_context
from mkdocs.structure.pages import Page
from mkdocs.structure.toc import get_toc

Undo = Callable[[], None]  # takes a stand-in out again

# Material's search sections, in plain values: tag, attributes, depth, id, text, title
Sections = list[tuple[str, dict[str, Any], float, "str | None", list[str], list[str]]]


class Build(Protocol):
    """What the stand-ins call back: the parallel build of `build.ParallelBuild`."""

    on: bool  # False once the build is serial: every stand-in then steps aside
    in_worker: bool  # True in a forked worker process
    started: bool  # the template workers were started (or tried)

    def fail(self, where: str, exc: BaseException) -> None: ...
    def count(self, what: str) -> None: ...
    def start(self, state: RenderState) -> None: ...
    def result(self, uri: str, *, last: bool) -> Rendered | None: ...


def digest(*parts: str) -> bytes:
    hashed = hashlib.blake2b(digest_size=16)
    for part in parts:
        hashed.update(part.encode("utf-8", "surrogatepass"))
        hashed.update(b"\0")
    return hashed.digest()


# ----------------------------------------------------------------- stage 1: conversion

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
    messages: list[tuple[str, int, str]] = field(default_factory=list)  # logged meanwhile


def documentation_pages(files: Any) -> list[str]:
    """The src_uri of every page MkDocs is about to convert."""
    return [file.src_uri for file in files.documentation_pages()]


def attach_pages(files: Any, config: Any) -> None:
    """What MkDocs does just after `on_nav`: a Page for each page outside the nav."""
    for file in files.documentation_pages():
        if file.page is None:
            Page(None, file, config)


def convert(config: Any, files: Any, uri: str) -> Converted:
    """In a worker: `Page.read_source` and `Page.render`, as `_populate_page` runs them."""
    page = files.get_file_from_path(uri).page
    config._current_page = page
    try:
        page.read_source(config)
        source = page.markdown
        page.render(config, files)
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
    )


def _toc_token(item: Any) -> dict[str, Any]:
    return {"level": item.level, "id": item.id, "name": item.title,
            "children": [_toc_token(child) for child in item.children]}


def use_conversions(files: Any, converted: dict[str, Converted], build: Build) -> Undo:
    """Puts a stand-in for `page.render` on each converted page: it takes the worker's
    conversion when the page's Markdown is still the very text the worker converted."""
    pages = []
    for uri, result in converted.items():
        page = files.get_file_from_path(uri).page
        page.render = _CachedRender(page, result, files, build)
        pages.append(page)

    def undo() -> None:
        for page in pages:
            if isinstance(vars(page).get("render"), _CachedRender):
                del page.render

    return undo


class _CachedRender:
    def __init__(self, page: Any, converted: Converted, files: Any, build: Build) -> None:
        self.page, self.converted, self.files, self.build = page, converted, files, build

    def __call__(self, config: Any, files: Any) -> None:
        page, converted = self.page, self.converted
        vars(page).pop("render", None)  # from now on MkDocs' own method
        if self.build.on and page.markdown == converted.markdown and files is self.files:
            try:  # everything that can fail, before the page changes
                toc = get_toc(converted.toc)  # type: ignore[arg-type]  # the same dicts
                links = None if converted.links_to_anchors is None else {
                    files.get_file_from_path(uri): anchors
                    for uri, anchors in converted.links_to_anchors.items()}
            except Exception as exc:  # noqa: BLE001
                self.build.fail("while using a worker's conversion", exc)
            else:
                for name, level, message in converted.messages:  # as MkDocs would log them now
                    logging.getLogger(name).log(level, message)
                page.content = converted.content
                page.toc = toc
                page._title_from_render = converted.title
                page.present_anchor_ids = converted.present_anchor_ids
                if links is not None:
                    page.links_to_anchors = links
                self.build.count("converted")
                return
        page.render(config, files)


# ------------------------------------------------------- stage 2: templates and search

@dataclass
class Rendered:
    """A worker's work on one page: its search sections and its output HTML."""

    content_key: bytes  # the HTML the sections were split from
    sections: Sections | None
    page_key: bytes  # what the output was rendered from
    output: str


def page_key(page: Any, template_name: str) -> bytes:
    """What a page's HTML depends on besides the state shared by all pages."""
    return digest(page.content or "", str(page.title), page.url, template_name)


def renders_templates(config: Any) -> bool:
    """Whether Material's search plugin, if any, is the only `on_page_context` handler
    (the one event between a worker's fork and a page's template whose effects could
    differ)."""
    plugin = _search_plugin(config)
    handlers = config.plugins.events.get("page_context", [])
    return all(getattr(handler, "__self__", None) is plugin for handler in handlers)


def search_index(config: Any) -> Any | None:
    """Material's search index, or None (another search plugin, or none)."""
    index = getattr(_search_plugin(config), "search_index", None)
    return index if isinstance(index, SearchIndex) else None


def _search_plugin(config: Any) -> Any:
    return config.plugins.get("material/search") or config.plugins.get("search")


def split_for_search(html: str) -> Sections:
    """Material's split of a page's HTML into search sections, in plain values."""
    parser = Parser()
    parser.feed(html)
    parser.close()
    # Fragments joined here, the way Material joins them; an empty title stays empty
    # (Material then uses the page title).
    return [(s.el.tag, s.el.attrs, s.depth, s.id, ["".join(s.text)],
             ["".join(s.title)] if s.title else []) for s in parser.data]


def use_sections(index: Any, build: Build) -> Undo:
    """Puts a stand-in for Material's `SearchIndex.add_entry_from_context`: it indexes a
    page from a worker's sections when they were split from the HTML indexed here."""
    original = index.add_entry_from_context

    def add_entry_from_context(page: Any) -> None:
        if build.in_worker:
            return None  # the main process builds the index
        if build.on:
            try:
                if _index_from_worker(index, page, build):
                    return None
            except Exception as exc:  # noqa: BLE001
                build.fail("while indexing a page for search", exc)
        return original(page)

    index.add_entry_from_context = add_entry_from_context

    def undo() -> None:
        if vars(index).get("add_entry_from_context") is add_entry_from_context:
            del index.add_entry_from_context

    return undo


def _index_from_worker(index: Any, page: Any, build: Build) -> bool:
    rendered = build.result(page.file.src_uri, last=False)
    if rendered is None or rendered.sections is None or rendered.content_key != digest(page.content):
        return False
    sections = []
    for tag, attrs, depth, anchor, text, title in rendered.sections:
        section = Section(Element(tag, attrs), depth)
        section.id, section.text, section.title = anchor, text, title
        sections.append(section)
    build.count("indexed")
    search = page.meta.get("search") or {}
    if search.get("exclude"):
        return True
    before = len(index.entries)
    try:
        for section in sections:
            if not section.is_excluded():
                index.create_entry_for_section(section, page.toc, page.url, page)
    except Exception:
        del index.entries[before:]  # as if this page had never been indexed here
        raise
    return True


def use_page_templates(env: Any, build: Build) -> Undo:
    """Wraps the template MkDocs renders each page with: the first page's render starts the
    workers (`build.start`), every later page takes a worker's output when it was rendered
    from the same page content, title, URL and template."""
    get_template = env.get_template

    def get_page_template(name: Any, parent: Any = None, globals: Any = None) -> Any:
        template = get_template(name, parent, globals)
        if parent is not None or globals is not None or build.in_worker or not build.on:
            return template  # Jinja's own includes and imports; a worker's own render
        return _PageTemplate(template, name, env, build)

    env.get_template = get_page_template

    def undo() -> None:
        if vars(env).get("get_template") is get_page_template:
            del env.get_template

    return undo


class _PageTemplate:
    """The template MkDocs renders a page with; `render` may come from a worker."""

    def __init__(self, template: Any, name: str, env: Any, build: Build) -> None:
        self.template, self.name, self.env, self.build = template, name, env, build

    def render(self, context: Any) -> str:
        page = context.get("page")
        if page is not None and self.build.on:
            try:
                output = self._from_worker(page, context)
            except Exception as exc:  # noqa: BLE001
                self.build.fail("while rendering a page", exc)
                output = None
            if output is not None:
                return output
        return self.template.render(context)

    def _from_worker(self, page: Any, context: Any) -> str | None:
        if not self.build.started:
            self.build.start(RenderState(context, page, self.env))
            return None  # the first page renders here
        rendered = self.build.result(page.file.src_uri, last=True)
        if rendered is None or rendered.page_key != page_key(page, self.name):
            return None
        self.build.count("rendered")
        return rendered.output

    def __getattr__(self, attribute: str) -> Any:
        return getattr(self.template, attribute)


class RenderState:
    """What a worker forked while MkDocs renders the first page needs to render any other
    page as `_build_page` does."""

    def __init__(self, context: Any, first: Any, env: Any) -> None:
        self.nav, self.pages, self.config = context["nav"], context["pages"], context["config"]
        self.first, self.env = first, env
        self.by_uri = {f.src_uri: f.page for f in self.pages if f.page is not None}

    def later_uris(self) -> list[str]:
        return [uri for uri, page in self.by_uri.items() if page is not self.first]

    def enter_worker(self) -> None:
        """In a new worker: the page the main process was rendering at the fork is not."""
        self.first.active = False
        self.config._current_page = None

    def render(self, uri: str, split: bool, before_template: Callable[[], None]) -> Rendered:
        """In a worker: Material's search split of the page (when `split`), then
        `_build_page` up to the template's output; `before_template` runs just before the
        template renders."""
        config, nav, page = self.config, self.nav, self.by_uri[uri]
        page.active = True
        config._current_page = page
        try:
            context = get_context(nav, self.pages, config, page)
            name = page.meta.get("template", "main.html")
            template = self.env.get_template(name)
            sections = split_for_search(page.content) if split else None
            content_key = digest(page.content)
            context = config.plugins.on_page_context(context, page=page, config=config, nav=nav)
            before_template()
            output = template.render(context)
            return Rendered(content_key, sections, page_key(page, name), output)
        finally:
            page.active = False
            config._current_page = None


# ------------------------------------------------------------------ Material's nav

_NAV_TEMPLATE = "partials/nav.html"
_NAV_WRAPPER = (  # Jinja: the theme's own nav.html inside a call block
    '{%- call navigation_once(page, nav) -%}'
    '{% include "generator-theme/partials/nav.html" %}'
    '{%- endcall -%}')


def use_navigation_once(env: Any, build: Build) -> Undo:
    """Material's primary navigation rendered once per folder for the pages that the nav
    does not list, instead of once per page (see `navigation_key`). The wrapper stays in
    the theme until the build ends (a template being rendered may include it); once the
    build is off it renders Material's navigation for every page."""
    env.loader = jinja2.ChoiceLoader([
        jinja2.DictLoader({_NAV_TEMPLATE: _NAV_WRAPPER}),
        jinja2.PrefixLoader({"generator-theme": env.loader}),
        env.loader,
    ])
    env.globals["navigation_once"] = _NavigationOnce(build)
    return lambda: None


class _NavigationOnce:
    def __init__(self, build: Build) -> None:
        self.build = build
        self.html: dict[str, str] = {}
        self.listed: tuple[Any, list[str]] | None = None

    def __call__(self, page: Any, nav: Any, caller: Any) -> str:
        folder = None
        if self.build.on:
            try:
                if self.listed is None or self.listed[0] is not nav:
                    self.listed = (nav, [p.url for p in nav.pages])
                folder = None if page is None else navigation_key(page.url, self.listed[1])
            except Exception as exc:  # noqa: BLE001
                self.build.fail("while sharing the navigation", exc)
                folder = None
        if folder is None:
            return caller()
        if folder not in self.html:
            self.html[folder] = caller()
        return self.html[folder]


def navigation_key(url: str, listed: list[str]) -> str | None:
    """The key of the pages whose navigation HTML is the page at `url`'s, or None to render
    it: on a page that the nav (listing `listed` URLs) does not list no item is active,
    and every link in it is relative to the page's base folder (its URL up to the last
    "/"). Two bases at the same depth under the same parent give the same relative link to
    any target that lies under neither of them, and no listed page lies under the base of
    a page that gets a key."""
    if url in listed:
        return None
    base = url[:url.rfind("/") + 1]
    if any(other.startswith(base) for other in listed):
        return None
    return f"{base.count('/')}:{base.rstrip('/').rpartition('/')[0]}"
