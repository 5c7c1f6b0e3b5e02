"""The parallel build proper: forked worker processes, their results, and the switch that
turns it all off.

Talks to MkDocs and Material only through the adapter module it is handed (never imported
here, so a renamed Material class fails where the door catches it). Two stages:

1. Conversion (`begin`, from `on_nav`): workers convert every page's Markdown; the
   adapter's stand-in for `page.render` takes a worker's conversion where the page's
   Markdown is the very text the worker converted, and logs again what the worker's
   conversion logged, when MkDocs would have logged it (so `--strict` still fails).
2. Templates and search (`use_env`, `start`, `result`): armed only when Material's search
   is the only `on_page_context` handler. The first page MkDocs renders forks the workers,
   which split each later page's HTML for search and render its template; the main
   process still runs every event, builds the search index and writes every file.

Any exception, here or in a worker, and a worker that dies, turn the build off (`fail`,
`off`): every stand-in is taken out or steps aside, MkDocs and Material do the rest
themselves, and one info line says why.
"""

from __future__ import annotations

import logging
import multiprocessing
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from types import ModuleType
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from .adapter import Converted, Rendered, RenderState

CHUNK = 8  # pages per task: small enough to balance the cores, large enough to batch

log = logging.getLogger("mkdocs.hooks.generator.parallel")

_fork: dict[str, Any] = {}  # what forked workers inherit


class WorkerError(Exception):
    """An exception in a worker, as text: any exception crosses back this way."""


def describe(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {lines[0]}" if lines else type(exc).__name__


class ParallelBuild:
    """One `mkdocs build` on several cores; what the adapter's stand-ins call back."""

    def __init__(self) -> None:
        self.on = False  # True from the start of stage 1 until the build ends or goes off
        self.in_worker = False
        self.said = False  # the one info line was logged
        self.adapter: Any = None
        self.workers = 0
        self.undo: list[Callable[[], None]] = []
        self.pool: ProcessPoolExecutor | None = None
        self.templates = self.started = self.splits_for_search = False
        self.results: Iterator[list[tuple[str, Rendered | None]]] | None = None
        self.done: dict[str, Rendered | None] = {}
        self.used = {"pages": 0, "workers": 0, "converted": 0, "rendered": 0, "indexed": 0}

    # ------------------------------------------------------------------- the switch

    def off(self, why: str) -> None:
        """Build serially from here on, and say why (once per build)."""
        if not self.said:
            self.said = True
            log.info("parallel build off: %s; building serially", why)
        self.on = False
        self.close()

    def fail(self, where: str, exc: BaseException) -> None:
        """`off`, for an exception; in a worker, the exception goes on to the main process."""
        if self.in_worker:
            raise exc
        log.debug("parallel build: error %s", where, exc_info=exc)
        if isinstance(exc, BrokenProcessPool):
            self.off(f"a worker process died ({exc})")
        elif isinstance(exc, WorkerError):
            self.off(f"error in a worker ({exc})")
        else:
            self.off(f"error {where} ({describe(exc)})")

    def close(self) -> None:
        """Stop the workers and take every stand-in out again."""
        self._stop_pool()
        while self.undo:
            undo = self.undo.pop()
            try:
                undo()
            except Exception:  # the stand-in stays, and steps aside (self.on is False)
                log.debug("parallel build: could not take a stand-in out", exc_info=True)

    def _stop_pool(self) -> None:
        pool, self.pool, self.results = self.pool, None, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)

    def count(self, what: str) -> None:
        self.used[what] += 1

    def finish(self) -> None:
        """At the end of the build: its last line, and everything put back."""
        if self.on and self.used["workers"]:
            log.info("%(workers)d worker processes converted %(converted)d of %(pages)d pages, "
                     "rendered %(rendered)d and split %(indexed)d for search", self.used)
        self.on = False
        self.close()

    def _fork_pool(self, initializer: Callable[[], None]) -> ProcessPoolExecutor:
        """Worker processes forked (at the first task), inheriting this process's state,
        `_fork` included. A worker that dies (killed for memory, say) breaks the pool and
        raises BrokenProcessPool where its results are awaited, never a hang."""
        self.pool = ProcessPoolExecutor(self.workers, initializer=initializer,
                                        mp_context=multiprocessing.get_context("fork"))
        return self.pool

    # ------------------------------------------------------------ stage 1 (on_nav)

    def begin(self, adapter: ModuleType, config: Any, files: Any, workers: int) -> None:
        """Convert every page in the workers; arm stage 2."""
        uris = adapter.documentation_pages(files)
        if len(uris) < 2 * workers:
            log.debug("parallel build off: few pages")
            return
        self.adapter, self.workers, self.on = adapter, workers, True
        adapter.attach_pages(files, config)
        _fork.update(adapter=adapter, config=config, files=files, build=self)
        try:
            pool = self._fork_pool(_enter_convert_worker)
            converted = {uri: c for done in pool.map(_convert_chunk, _chunks(uris)) for uri, c in done}
        except Exception as exc:  # noqa: BLE001
            self.fail("in the worker processes", exc)
            return
        finally:
            _fork.clear()
        self._stop_pool()
        self.undo.append(adapter.use_conversions(files, converted, self))
        self.used.update(pages=len(uris), workers=workers)
        if not adapter.renders_templates(config):
            log.debug("parallel build: templates render serially: a plugin other than search "
                      "handles on_page_context")
            return
        self.templates = True
        index = adapter.search_index(config)
        if index is not None:
            self.splits_for_search = True
            self.undo.append(adapter.use_sections(index, self))

    # ------------------------------------------------------------ stage 2 (on_env on)

    def use_env(self, env: Any) -> None:
        if self.on and self.templates:
            self.undo.append(self.adapter.use_page_templates(env, self))
            self.undo.append(self.adapter.use_navigation_once(env, self))

    def start(self, state: RenderState) -> None:
        """Fork the workers now that MkDocs is about to render its first page."""
        self.started = True  # or tried: never again in this build
        if threading.active_count() > 1:
            self.off("other threads are running")
            return
        _fork.update(state=state, build=self)
        try:
            pool = self._fork_pool(_enter_render_worker)
            self.results = pool.map(_render_chunk, _chunks(state.later_uris()))
        finally:
            _fork.clear()

    def result(self, uri: str, *, last: bool) -> Rendered | None:
        """The worker's result for the page `uri`, waiting for it if need be; None without
        one. `last`: the result is not asked for again."""
        while uri not in self.done and self.results is not None:
            try:
                self.done.update(next(self.results))
            except StopIteration:
                self.results = None
            except Exception as exc:  # noqa: BLE001
                self.fail("in the worker processes", exc)
        return self.done.pop(uri, None) if last else self.done.get(uri)


def _chunks(items: list[str]) -> list[list[str]]:
    return [items[i:i + CHUNK] for i in range(0, len(items), CHUNK)]


# ------------------------------------------------------------------ in the workers

class _Capture(logging.Handler):
    messages: ClassVar[list[tuple[str, int, str]]] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append((record.name, record.levelno, record.getMessage()))

    @classmethod
    def clear(cls) -> None:
        cls.messages = []


def _capture_logging() -> None:
    """In a worker: keep every log record for the main process instead of printing it."""
    capture = _Capture()
    for logger in (logging.getLogger(), logging.getLogger("mkdocs")):
        for handler in list(logger.handlers):
            logger.removeHandler(handler)
        logger.addHandler(capture)


def _enter_convert_worker() -> None:
    _fork["build"].in_worker = True
    _capture_logging()


def _convert_chunk(uris: list[str]) -> list[tuple[str, Converted]]:
    adapter, config, files = _fork["adapter"], _fork["config"], _fork["files"]
    done = []
    for uri in uris:
        _Capture.clear()
        try:
            converted = adapter.convert(config, files, uri)
        except Exception as exc:
            raise WorkerError(f"converting {uri}: {describe(exc)}") from exc
        converted.messages = _Capture.messages
        done.append((uri, converted))
    return done


def _enter_render_worker() -> None:
    _fork["build"].in_worker = True
    _capture_logging()
    _fork["state"].enter_worker()


def _render_chunk(uris: list[str]) -> list[tuple[str, Rendered | None]]:
    state, split = _fork["state"], _fork["build"].splits_for_search
    done: list[tuple[str, Rendered | None]] = []
    for uri in uris:
        try:
            rendered = state.render(uri, split, before_template=_Capture.clear)
        except Exception as exc:
            raise WorkerError(f"rendering {uri}: {describe(exc)}") from exc
        # a template that logged anything renders again in the main process, which logs it
        done.append((uri, None if _Capture.messages else rendered))
    return done
