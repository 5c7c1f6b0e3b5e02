"""The 37 real logs from public issue threads (tests/real_logs/, copied from the project's
reference set with labels.tsv: file, expected_id, also_acceptable, source, rationale) are
diagnosed as the failure their thread says it was."""

from __future__ import annotations

import csv

import pytest
from helpers import REPO

from generator.entries.catalog import load_catalog
from generator.matching.engine import Engine, diagnose_text
from generator.project import Project

LOGS = REPO / "tests" / "real_logs"


def labels() -> list[dict[str, str]]:
    with (LOGS / "labels.tsv").open(encoding="utf-8") as fh:
        return list(csv.DictReader(fh, delimiter="\t"))


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine(load_catalog(Project(REPO)).matcher)


@pytest.mark.parametrize("row", labels(), ids=lambda r: r["file"])
def test_real_log_is_diagnosed_as_labelled(engine, row):
    text = (LOGS / row["file"]).read_text(encoding="utf-8", errors="replace")
    verdict = diagnose_text(engine, text)
    assert verdict["matches"], f"{row['file']}: nothing recognised"
    first = verdict["matches"][0]["id"]
    acceptable = {row["expected_id"]} | {a for a in row.get("also_acceptable", "").split(",") if a}
    assert first in acceptable, f"{row['file']}: diagnosed {first}, labelled {row['expected_id']}"
