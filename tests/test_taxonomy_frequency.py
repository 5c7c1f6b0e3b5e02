"""taxonomy.yaml's `frequency:` counts are held to the sample file they cite (E130), and the
repository's own counts match research/failure-sample.tsv."""

from __future__ import annotations

import shutil

from helpers import FIXTURES, REPO

from generator.entries import checks
from generator.entries.catalog import load_catalog
from generator.project import Project

TAXONOMY = """\
taxonomy:
  - section: "DDP"
    ids:
      - ddp-fixture-unused
  - section: "NCCL"
    ids:
      - nccl-fixture-timeout
sample:
  threads: 3
  date: "2026-12-03"
  data: research/sample.tsv
frequency:
  - id: ddp-fixture-unused
    count: 2
  - id: nccl-fixture-timeout
    count: 1
"""


def _problems(tmp_path, sample_rows: list[str] | None):
    root = tmp_path / "project"
    shutil.copytree(FIXTURES / "project", root)
    (root / "entries" / "taxonomy.yaml").write_text(TAXONOMY, encoding="utf-8")
    if sample_rows is not None:
        (root / "research").mkdir()
        (root / "research" / "sample.tsv").write_text(
            "\n".join(["url\tkind", *sample_rows]) + "\n", encoding="utf-8")
    return [p for p in checks.check_taxonomy_file(load_catalog(Project(root)))]


def test_counts_that_match_the_sample_file_pass(tmp_path):
    rows = ["https://a.example/1\tddp-fixture-unused", "https://a.example/2\tnccl-fixture-timeout",
            "https://a.example/3\tddp-fixture-unused"]
    assert _problems(tmp_path, rows) == []


def test_counts_that_differ_from_the_sample_file_are_errors(tmp_path):
    rows = ["https://a.example/1\tddp-fixture-unused", "https://a.example/2\tnccl-fixture-timeout",
            "https://a.example/3\tnccl-fixture-timeout", "https://a.example/4\tfsdp-other"]
    messages = sorted(p.message for p in _problems(tmp_path, rows) if p.code == "E130")
    assert messages == [
        "'sample.threads' is 3, but 'research/sample.tsv' has 4 thread(s)",
        "kind 'ddp-fixture-unused' is counted 2 time(s) in 'frequency' but 1 time(s) in "
        "'research/sample.tsv' (python research/rank.py --yaml prints the counts)",
        "kind 'fsdp-other' is counted 0 time(s) in 'frequency' but 1 time(s) in "
        "'research/sample.tsv' (python research/rank.py --yaml prints the counts)",
        "kind 'nccl-fixture-timeout' is counted 1 time(s) in 'frequency' but 2 time(s) in "
        "'research/sample.tsv' (python research/rank.py --yaml prints the counts)",
    ]


def test_a_missing_sample_file_is_an_error(tmp_path):
    problems = _problems(tmp_path, None)
    assert [(p.code, p.message) for p in problems] == [
        ("E130", "sample file 'research/sample.tsv' does not exist")]


def test_repository_frequencies_match_the_repository_sample():
    catalog = load_catalog(Project(REPO))
    assert catalog.sample is not None and catalog.sample.threads >= 300
    assert checks.check_taxonomy_file(catalog) == []
    assert sum(f.count for f in catalog.frequency) == catalog.sample.threads
