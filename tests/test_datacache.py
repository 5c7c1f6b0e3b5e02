"""The matcher cache of `diagnose` (generator/matching/datacache.py): the same answers as a
fresh load, a new load whenever anything the load reads changes, and never a failure of its
own."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import REPO, make_project

from generator.matching import datacache


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv(datacache.CACHE_ENV, str(folder))
    return folder


def counting_loader(value: object) -> tuple[list[int], object]:
    calls: list[int] = []

    def load() -> object:
        calls.append(1)
        return value

    return calls, load


def test_unchanged_inputs_are_answered_from_the_cache(tmp_path: Path, cache: Path) -> None:
    root = make_project(tmp_path, with_docs=False)
    calls, load = counting_loader({"signatures": [1, 2]})
    assert datacache.cached(root, load) == {"signatures": [1, 2]}
    assert datacache.cached(root, load) == {"signatures": [1, 2]}
    assert len(calls) == 1
    assert len(list(cache.glob("*.pickle"))) == 1


@pytest.mark.parametrize("change", ["edit an entry", "add an entry", "edit mkdocs.yml",
                                    "add a reproduction"])
def test_any_change_to_what_the_load_reads_loads_again(tmp_path: Path, cache: Path,
                                                       change: str) -> None:
    root = make_project(tmp_path, with_docs=False)
    calls, load = counting_loader("first")
    datacache.cached(root, load)
    entry = sorted((root / "entries").glob("*.yaml"))[0]
    if change == "edit an entry":
        entry.write_text(entry.read_text() + "\n# edited\n")
    elif change == "add an entry":
        (root / "entries" / "zz-new.yaml").write_text(entry.read_text())
    elif change == "edit mkdocs.yml":
        (root / "mkdocs.yml").write_text((root / "mkdocs.yml").read_text() + "\n")
    else:
        (root / "reproductions").mkdir(exist_ok=True)
        (root / "reproductions" / "x.py").write_text("print(1)\n")
    datacache.cached(root, load)
    assert len(calls) == 2


def test_off_and_unwritable_folders_only_cost_time(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    root = make_project(tmp_path, with_docs=False)
    monkeypatch.setenv(datacache.CACHE_ENV, "off")
    calls, load = counting_loader("v")
    assert datacache.cached(root, load) == "v" and datacache.cached(root, load) == "v"
    assert len(calls) == 2
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv(datacache.CACHE_ENV, str(blocker / "cache"))
    assert datacache.cached(root, load) == "v"


def test_a_corrupt_cache_file_is_replaced(tmp_path: Path, cache: Path) -> None:
    root = make_project(tmp_path, with_docs=False)
    calls, load = counting_loader("good")
    datacache.cached(root, load)
    (path,) = cache.glob("*.pickle")
    path.write_bytes(b"\x80\x05garbage")
    assert datacache.cached(root, load) == "good"
    assert datacache.cached(root, load) == "good"
    assert len(calls) == 2


def test_only_the_newest_files_are_kept(tmp_path: Path, cache: Path) -> None:
    root = make_project(tmp_path, with_docs=False)
    entry = sorted((root / "entries").glob("*.yaml"))[0]
    for i in range(datacache.KEEP + 3):
        entry.write_text(entry.read_text() + f"\n# {i}\n")
        datacache.cached(root, lambda i=i: i)
    assert len(list(cache.glob("*.pickle"))) == datacache.KEEP


def diagnose_json(log: Path, env: dict[str, str]) -> dict[str, object]:
    done = subprocess.run([sys.executable, "-m", "generator", "diagnose", str(log), "--json"],
                          cwd=REPO, env=env, capture_output=True, text=True, check=False)
    assert done.returncode in (0, 1), done.stderr
    return json.loads(done.stdout)


def test_the_command_gives_the_same_verdict_cold_warm_and_uncached(tmp_path: Path) -> None:
    log = next(iter(sorted((REPO / "tests" / "logs" / "cuda-oom").glob("*.log"))))
    env = dict(os.environ, **{datacache.CACHE_ENV: str(tmp_path / "cache")})
    cold = diagnose_json(log, env)
    assert list((tmp_path / "cache").glob("*.pickle"))
    warm = diagnose_json(log, env)
    uncached = diagnose_json(log, dict(env, **{datacache.CACHE_ENV: "off"}))
    assert cold == warm == uncached
    assert cold["matches"]
