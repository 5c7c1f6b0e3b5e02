"""The kinds listed in entries/vocabulary.yaml (roles, stacks, next actions, id areas), as
frozen dataclasses in a module of their own: ``diagnose`` unpickles roles and actions from
its cache on every run and should not pay for importing the whole entry model to do it.
``model`` re-exports them.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Role:
    id: str
    title: str  # on entry pages
    word: str  # in the diagnose report
    explanation: str  # why a match of this role is listed after the root cause


@dataclass(frozen=True)
class Stack:
    id: str
    title: str


@dataclass(frozen=True)
class ActionKind:
    id: str
    title: str  # on entry pages and in the diagnose report
    explanation: str  # what an operator does when this is the next step


@dataclass(frozen=True)
class Area:
    id: str
    description: str
