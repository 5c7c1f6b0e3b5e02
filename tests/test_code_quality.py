"""The code stays clean against the project's own ruff rules and mypy configuration
(pyproject.toml), so neither drifts between reviews."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest
from helpers import REPO

pytestmark = pytest.mark.slow


def _run(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, cwd=REPO, capture_output=True, text=True, timeout=600, check=False)


@pytest.mark.skipif(shutil.which("ruff") is None, reason="ruff is not installed: "
                    "pip install -e '.[test]'")
def test_ruff_is_clean() -> None:
    result = _run("ruff", "check", "--no-cache", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_is_clean() -> None:
    pytest.importorskip("mypy", reason="mypy is not installed: pip install -e '.[test]'")
    result = _run(sys.executable, "-m", "mypy", "generator")
    assert result.returncode == 0, result.stdout + result.stderr
