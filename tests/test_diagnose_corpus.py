"""The log corpus: every tests/logs/<id>/<case>.log is recognised as <id>.

A sibling <case>.expect file overrides the expectation: one id per line ('#' starts a
comment), the first is the first match (the root cause, or the top consequence when the
log holds none), the others must all be among the matches. tests/logs/_benign/*.log are
healthy logs, warnings and errors that no entry is about: no match at all.
tests/logs/_negative/*.log are unrelated failures that print a launcher's report or a generic
text some entry names (a user's KeyError under torchrun, `'weight' must be 2-D` without
DeepSpeed): matches may be listed, but no root cause, in the Python and the JavaScript engine.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from diagnose_support import REPO

from generator.matching import diagnose

LOGS = REPO / "tests" / "logs"
BENIGN = "_benign"
NEGATIVE = "_negative"
SPECIAL = (BENIGN, NEGATIVE)


def cases() -> list[Path]:
    return sorted(p for p in LOGS.glob("*/*.log") if p.parent.name not in SPECIAL)


def expected(log: Path) -> list[str]:
    exp = log.with_suffix(".expect")
    if not exp.exists():
        return [log.parent.name]
    ids = [line.split("#", 1)[0].strip() for line in exp.read_text(encoding="utf-8").splitlines()]
    ids = [i for i in ids if i]
    assert ids, f"{exp} lists no id"
    return ids


@pytest.fixture(scope="module")
def data():
    data, _ = diagnose.load_data(REPO)
    return data


def rel(p: Path) -> str:
    return p.relative_to(LOGS).as_posix()


@pytest.mark.parametrize("log", cases(), ids=rel)
def test_case_is_recognised(data, log):
    ids = expected(log)
    unknown = [i for i in ids if i not in data["entries"]]
    assert not unknown, f"{rel(log)} expects ids that are not entries: {unknown}"
    v = diagnose.diagnose(data, [str(log)])
    got = [m["id"] for m in v["matches"]]
    assert got, f"{rel(log)}: nothing recognised, expected {ids[0]}"
    assert got[0] == ids[0], f"{rel(log)}: first match {got[0]}, expected {ids[0]} (all: {got})"
    missing = [i for i in ids[1:] if i not in got]
    assert not missing, f"{rel(log)}: expected also {missing} (got {got})"


@pytest.mark.parametrize("log", sorted((LOGS / BENIGN).glob("*.log")), ids=rel)
def test_benign_logs_have_no_match(data, log):
    v = diagnose.diagnose(data, [str(log)])
    assert v["matches"] == [], [(m["id"], m["line"]) for m in v["matches"]]
    assert v["status"] == "no-known-failure"


def no_root(verdict) -> list:
    """Matches that would name a cause: role root and not a generic lead."""
    return [(m["id"], m["line"]) for m in verdict["matches"]
            if m["role"] == "root" and not m["generic"]]


@pytest.mark.parametrize("log", sorted((LOGS / NEGATIVE).glob("*.log")), ids=rel)
def test_negative_logs_have_no_root_cause(data, log):
    v = diagnose.diagnose(data, [str(log)])
    assert v["root_cause"] is None and v["status"] != "root-cause-found", no_root(v)
    assert no_root(v) == []


def test_no_root_on_benign_and_negative_logs_in_javascript(data, tmp_path):
    from diagnose_support import node, run_node

    if node() is None:
        pytest.skip("node is not installed")
    files = sorted((LOGS / BENIGN).glob("*.log")) + sorted((LOGS / NEGATIVE).glob("*.log"))
    js = run_node(data, files, tmp_path, "each")
    py = [diagnose.diagnose(data, [str(f)]) for f in files]
    assert js == py
    assert all(v["root_cause"] is None and no_root(v) == [] for v in js)


def test_there_are_benign_and_negative_logs():
    assert len(list((LOGS / BENIGN).glob("*.log"))) >= 6
    assert len(list((LOGS / NEGATIVE).glob("*.log"))) >= 3


def test_case_folders_are_entry_ids(data):
    folders = sorted(p.name for p in LOGS.iterdir() if p.is_dir() and p.name not in SPECIAL)
    stray = [f for f in folders if f not in data["entries"] and list((LOGS / f).glob("*.log"))]
    assert not stray, f"tests/logs folders that name no entry: {stray}"
