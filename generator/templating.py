"""The Jinja2 environment that every template is rendered with, and its filters, in one place.

Site pages (``templates/*.md.j2``), the terminal reports (``templates/terminal/``), the
scaffold of ``new`` (``templates/scaffold/``) and the generated reference pages share one
set of settings: ``StrictUndefined`` (a misspelt name is an error, never an empty string),
no autoescaping (the output is Markdown, YAML or plain text), ``trim_blocks`` and
``lstrip_blocks`` (a line holding only a block tag leaves nothing behind), a kept final
newline, and comments written ``{## ... ##}`` because Markdown heading anchors are ``{#id}``.
Every template starts with such a comment naming its context.
"""

from __future__ import annotations

import json
import textwrap
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import jinja2

# The templates that ship with this code: the terminal reports, the scaffold of `new` and the
# pages generated from code. Site pages are the project's (``Project.templates_dir``).
TOOL_TEMPLATES = Path(__file__).resolve().parent.parent / "templates"
TERMINAL_WIDTH = 96  # columns that terminal reports wrap their prose at

CODE_LIKE = ("  ", "\t", "```", "- ", "* ", "|")  # a line that keeps its shape in a terminal


def fence(text: str) -> str:
    """A backtick fence longer than any backtick run inside the text."""
    longest = 0
    run = 0
    for ch in str(text):
        run = run + 1 if ch == "`" else 0
        longest = max(longest, run)
    return "`" * max(3, longest + 1)


def fill(text: str, indent: str = "", subsequent_indent: str | None = None,
         width: int = TERMINAL_WIDTH) -> str:
    """``textwrap.fill``: the text as lines of at most ``width`` characters, each indented."""
    return textwrap.fill(str(text), width=width, initial_indent=indent,
                         subsequent_indent=indent if subsequent_indent is None else subsequent_indent)


def printable(text: str, width: int) -> str:
    """One line for a terminal: control characters as spaces, cut to ``width`` with '...'."""
    text = "".join(ch if ch.isprintable() else " " for ch in str(text))
    return text if len(text) <= width else text[: width - 3] + "..."


def yaml_string(text: str) -> str:
    """A double-quoted YAML scalar."""
    return '"' + str(text).replace("\\", "\\\\").replace('"', '\\"') + '"'


def code_like(line: str) -> bool:
    """A line of a paragraph that a terminal shows as written: indented, fenced, a list
    item or a table row."""
    return str(line).startswith(CODE_LIKE)


def rank_ranges(ranks: list[int]) -> str:
    """[0, 1, 2, 3, 5] -> '0-3, 5' (ranks ascending, as the verdict lists them)."""
    parts: list[str] = []
    i = 0
    while i < len(ranks):
        j = i
        while j + 1 < len(ranks) and ranks[j + 1] == ranks[j] + 1:
            j += 1
        parts.append(str(ranks[i]) if i == j else f"{ranks[i]}-{ranks[j]}")
        i = j + 1
    return ", ".join(parts)


FILTERS: dict[str, Callable[..., Any]] = {
    # site pages
    "mermaid_text": lambda s: str(s).replace('"', "#quot;").replace("\n", " "),
    "table_cell": lambda s: " ".join(str(s).split()).replace("|", "\\|"),
    "one_line": lambda s: " ".join(str(s).split()),
    "fence": fence,
    "tojson_sorted": lambda v: json.dumps(v, sort_keys=True, ensure_ascii=False),
    # terminal reports and the scaffold
    "fill": fill,
    "printable": printable,
    "rank_ranges": rank_ranges,
    "dedent": lambda s: textwrap.dedent(str(s)),
    "yaml_string": yaml_string,
}
TESTS: dict[str, Callable[..., bool]] = {"code_like": code_like}


def environment(templates_dir: Path, globals: Mapping[str, Any] | None = None) -> jinja2.Environment:
    """The environment for the templates in ``templates_dir``, with every filter and test."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(templates_dir)),
        undefined=jinja2.StrictUndefined,
        autoescape=False,  # Markdown, YAML and plain text; entries are checked for raw HTML
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        # Markdown heading anchors are written `{#id}`, so Jinja comments are `{## ##}`
        comment_start_string="{##",
        comment_end_string="##}",
    )
    env.filters.update(FILTERS)
    env.tests.update(TESTS)
    env.globals.update(globals or {})
    return env


_TOOL_ENV: jinja2.Environment | None = None


def tool_template(name: str) -> jinja2.Template:
    """A template that ships with the code (``templates/terminal/...``, ``templates/scaffold/...``)."""
    global _TOOL_ENV
    if _TOOL_ENV is None:
        _TOOL_ENV = environment(TOOL_TEMPLATES)
    return _TOOL_ENV.get_template(name)
