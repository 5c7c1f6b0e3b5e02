"""What the commands print, rendered from the templates in templates/terminal/.

Each function takes what the library returned (a verdict, an entry, a scaffold, a
reproduction outcome) and returns the text to write; the commands (``commands.py``) write it
and choose the exit status.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..entries.vocabulary_types import ActionKind, Role

if TYPE_CHECKING:  # the entry model is heavy to import; `diagnose` never needs it
    from ..entries.model import Entry


def _template(name: str) -> Any:
    """The terminal template ``name``; Jinja2 is imported on first use (``diagnose --json``
    never needs it, and start-up time is what a reader of a diagnosis waits for)."""
    from ..templating import tool_template

    return tool_template(name)


def diagnose_text(verdict: dict[str, Any], roles: Mapping[str, Role],
                  actions: Mapping[str, ActionKind]) -> str:
    """The text report of a verdict; `roles` name and explain each match's role, `actions`
    name the next step."""
    return _template("terminal/diagnose.txt.j2").render(verdict=verdict, roles=roles,
                                                             actions=actions)


def diagnose_json(verdict: dict[str, Any]) -> str:
    """The verdict as the JSON object of docs/diagnose-json.md (keys in the engine's order)."""
    return json.dumps(verdict, ensure_ascii=False, indent=2) + "\n"


def explain_text(entry: Entry, role: Role, action: ActionKind, url: str,
                 former: str | None = None, printed_by: Sequence[str] = ()) -> str:
    """An entry for the terminal; ``former`` is the former id it was asked by, ``printed_by``
    the measured release range of each signature (none without a provenance matrix)."""
    return _template("terminal/explain.txt.j2").render(e=entry, role=role, action=action,
                                                            url=url, former=former,
                                                            printed_by=printed_by)


def new_text(entry: str, logs: str, marker: str) -> str:
    """What `new` says after writing the scaffold (paths as the reader should see them)."""
    return _template("terminal/new.txt.j2").render(entry=entry, logs=logs, marker=marker)


class ReproduceReport:
    """The reproduce report in three parts, so each outcome shows as soon as it is known."""

    def __init__(self) -> None:
        # the template's macros, called like functions (a TemplateModule: typed as Any)
        self._macros: Any = _template("terminal/reproduce.txt.j2").module

    def header(self, torch: Any, count: int) -> str:
        return str(self._macros.header(torch, count))

    def outcome(self, outcome: Any, written: list[Path]) -> str:
        return str(self._macros.outcome(outcome, written))

    def summary(self, counts: Mapping[str, int], seconds: float) -> str:
        return str(self._macros.summary(counts, seconds))
