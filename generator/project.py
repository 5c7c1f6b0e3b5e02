"""Where things are: the repository layout and the two settings read from mkdocs.yml.

Everything else is derived from the repository root.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import yaml

DEFAULT_SITE_URL = "https://ml-failure-encyclopedia.github.io/encyclopedia/"
DEFAULT_EDIT_BASE = "https://github.com/ml-failure-encyclopedia/encyclopedia/edit/main/"


@dataclass(frozen=True)
class Project:
    """A checkout of the encyclopedia, found by its root folder."""

    root: Path

    @property
    def entries_dir(self) -> Path:
        return self.root / "entries"

    @property
    def templates_dir(self) -> Path:
        return self.root / "templates"

    @property
    def docs_dir(self) -> Path:
        return self.root / "docs"

    def display(self, path: Path) -> str:
        """A path as the reader should see it: relative to the current directory if inside."""
        try:
            return os.path.relpath(path.resolve(), Path.cwd())
        except ValueError:  # pragma: no cover - another drive on Windows
            return str(path)

    def site_url(self) -> str:
        """`site_url` from mkdocs.yml, ending in '/': where entry pages are published."""
        return _folder_url(self._mkdocs_setting("site_url"), DEFAULT_SITE_URL)

    def edit_base(self) -> str:
        """`extra.edit_entry_base` from mkdocs.yml: where 'Edit this entry' links point."""
        return _folder_url(self._mkdocs_setting("edit_entry_base"), DEFAULT_EDIT_BASE)

    def _mkdocs_setting(self, key: str) -> object:
        """The value of `key:` in mkdocs.yml, read line by line (the file holds python tags
        that a safe YAML loader refuses); None when absent or unreadable."""
        try:
            text = (self.root / "mkdocs.yml").read_text(encoding="utf-8")
        except OSError:
            return None
        for line in text.splitlines():
            if line.strip().startswith(key + ":"):
                try:
                    return yaml.safe_load(line.strip().split(":", 1)[1])
                except yaml.YAMLError:
                    return None
        return None


def _folder_url(value: object, default: str) -> str:
    if not isinstance(value, str) or not value.strip():
        return default
    value = value.strip()
    return value if value.endswith("/") else value + "/"
