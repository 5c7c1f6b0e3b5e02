"""Render again only the pages whose inputs changed (long-running processes: `serve`).

A page's text is a function of the templates, the values its `plan` passes it (the entry,
a category's members, ...) and what its template reads from the `Site`. While a page
renders, the template sees a stand-in for the Site that notes every read: an attribute
(`site.edit_base`), one key of a mapping (`site.by_id[rid]`,
`site.referenced_by.get(e.id)`), a whole mapping (iterating `site.tags`, its length, any
other use), or one field of one entry of `site.entries` (so the page that lists every
entry's title is not rendered again when a summary changes). The next build renders the
page again only if a template file changed, a value passed to it differs, or a read gives
a different value now; otherwise the text from last time is the text a render would give.
Nothing has to be declared, so a template that starts reading something new is tracked at
once.

Values are compared by content, with a shortcut for the very same object: an unchanged
entry file keeps its Entry object between builds (entries.reload), so most comparisons
are identity checks. Entries are also compared by the mapping their file wrote and by
their path, which Entry equality leaves out. Each entry's item of entries.json is kept
the same way, by its Entry object.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from .. import templating
from ..entries.model import Entry
from .render import Pages, Site

_WHOLE = object()  # a read of a whole attribute or mapping
_MISSING = object()  # a key that was absent


def _same(a: Any, b: Any) -> bool:
    """Equal for every purpose a template could have: same content, same order."""
    if a is b:
        return True
    if type(a) is not type(b):
        return False
    if isinstance(a, Entry):
        return a == b and a.path == b.path and a.as_written() == b.as_written()
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(map(_same, a, b))
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(v, b[k]) for k, v in a.items())
    return bool(a == b)


class _Field(NamedTuple):
    """A read of one field of the entry at `position` in `site.entries` (name None: a read of
    the whole entry, e.g. a method call)."""

    position: int
    name: str | None


# (Site attribute, key) -> the value read; the key is _WHOLE, a mapping's key, _LENGTH or
# a _Field of site.entries
Reads = dict[tuple[str, Any], Any]
_LENGTH = object()
_FIELDS = frozenset(f.name for f in dataclasses.fields(Entry) if f.compare)


class _SiteReads:
    """The Site as one page's template sees it: every read is noted in `reads`."""

    def __init__(self, site: Site, reads: Reads) -> None:
        self._site, self._reads = site, reads
        self._entries: tuple[_EntryReads, ...] | None = None

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._site, name)
        if name == "entries" and isinstance(value, tuple):
            if self._entries is None:
                self._reads.setdefault((name, _LENGTH), len(value))
                self._entries = tuple(_EntryReads(e, i, self._reads) for i, e in enumerate(value))
            return self._entries
        if isinstance(value, dict):
            return _MappingReads(name, value, self._reads)
        self._reads.setdefault((name, _WHOLE), value)
        return value


class _EntryReads:
    """An entry of `site.entries` whose field reads are noted one by one, so that a page
    listing every entry's title is not rendered again when a summary changes. Any other
    use (a method, a property, printing or comparing the entry) is noted as a read of the
    whole entry."""

    __slots__ = ("_entry", "_index", "_reads")

    def __init__(self, entry: Entry, index: int, reads: Reads) -> None:
        self._entry, self._index, self._reads = entry, index, reads

    def _whole(self) -> Entry:
        self._reads.setdefault(("entries", _Field(self._index, None)), self._entry)
        return self._entry

    def __getattr__(self, name: str) -> Any:
        if name in _FIELDS:
            value = getattr(self._entry, name)
            self._reads.setdefault(("entries", _Field(self._index, name)), value)
            return value
        return getattr(self._whole(), name)

    def __eq__(self, other: object) -> bool:
        return self._whole() == (other._whole() if isinstance(other, _EntryReads) else other)

    def __hash__(self) -> int:
        return hash(self._whole())

    def __str__(self) -> str:
        return str(self._whole())

    def __repr__(self) -> str:
        return repr(self._whole())


class _MappingReads:
    """A Site mapping whose single-key reads are noted per key; any other use is noted as
    a read of the whole mapping."""

    def __init__(self, name: str, data: dict[Any, Any], reads: Reads) -> None:
        self._name, self._data, self._reads = name, data, reads

    def _key(self, key: Any) -> None:
        self._reads.setdefault((self._name, key), self._data.get(key, _MISSING))

    def _whole(self) -> dict[Any, Any]:
        self._reads.setdefault((self._name, _WHOLE), self._data)
        return self._data

    def __getitem__(self, key: Any) -> Any:
        self._key(key)
        return self._data[key]

    def get(self, key: Any, default: Any = None) -> Any:
        self._key(key)
        return self._data.get(key, default)

    def __contains__(self, key: Any) -> bool:
        self._key(key)
        return key in self._data

    def __iter__(self) -> Iterator[Any]:
        return iter(self._whole())

    def __len__(self) -> int:
        return len(self._whole())

    def __bool__(self) -> bool:
        return bool(self._whole())

    def __getattr__(self, name: str) -> Any:  # items(), keys(), values(), ...
        attribute = getattr(self._data, name)
        self._whole()
        return attribute


@dataclass
class _Page:
    template: str
    ctx: dict[str, Any]
    reads: Reads
    text: str


def _still(name: str, key: Any, value: Any, site: Site) -> bool:
    now = getattr(site, name, _MISSING)
    if key is _LENGTH:
        now = len(now) if isinstance(now, tuple) else _MISSING
    elif isinstance(key, _Field):
        entry = now[key.position] if isinstance(now, tuple) and key.position < len(now) else _MISSING
        now = entry if key.name is None or entry is _MISSING else getattr(entry, key.name)
    elif key is not _WHOLE:
        now = now.get(key, _MISSING) if isinstance(now, dict) else _MISSING
    return _same(value, now)


class PageCache(Pages):
    """`render.Pages` that keeps each page's text with what it was rendered from, and
    renders a page again only when that changed. One build at a time."""

    def __init__(self, templates_dir: Path) -> None:
        super().__init__(templates_dir)
        self.templates_dir = templates_dir
        self._templates = self._template_files()
        self._pages: dict[str, _Page] = {}
        self._before: dict[str, _Page] = {}
        self._exported: dict[int, tuple[Entry, str]] = {}
        self._exported_before: dict[int, tuple[Entry, str]] = {}
        self.rendered = 0  # pages rendered in the current build (the others were reused)

    def _template_files(self) -> dict[str, bytes]:
        return {p.relative_to(self.templates_dir).as_posix(): p.read_bytes()
                for p in sorted(self.templates_dir.rglob("*")) if p.is_file()}

    def begin(self) -> None:
        templates = self._template_files()
        if templates != self._templates:  # any template may include any other
            self._templates, self._pages = templates, {}
            self.env = templating.environment(self.templates_dir)
        self._before, self._pages = self._pages, {}  # pages not rendered again are dropped
        self._exported_before, self._exported = self._exported, {}
        self.rendered = 0

    def exported(self, e: Entry) -> str:
        known = self._exported_before.get(id(e))
        if known is None or known[0] is not e:  # an unchanged file keeps its Entry object
            known = (e, super().exported(e))
        self._exported[id(e)] = known
        return known[1]

    def render(self, path: str, template: str, site: Site, **ctx: Any) -> str:
        known = self._before.get(path)
        if (known is not None and known.template == template and _same(known.ctx, ctx)
                and all(_still(name, key, value, site) for (name, key), value in known.reads.items())):
            self._pages[path] = known
            return known.text
        reads: Reads = {}
        text = super().render(path, template, _SiteReads(site, reads), **ctx)  # type: ignore[arg-type]
        self._pages[path] = _Page(template, ctx, reads, text)
        self.rendered += 1
        return text
