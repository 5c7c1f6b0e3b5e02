"""Rendering: golden page, byte-identical rebuilds, and hand-written files left alone."""

from __future__ import annotations

import pytest
from helpers import compare_golden, make_project

from generator import pipeline
from generator.project import Project
from generator.site.render import GENERATED_MARKER, RenderError


@pytest.fixture
def project(tmp_path, monkeypatch):
    root = make_project(tmp_path)
    monkeypatch.chdir(root)
    return Project(root)


def render(project: Project) -> pipeline.Result:
    result = pipeline.check_and_render(project)
    assert result.errors == []
    return result


def snapshot(project: Project) -> dict[str, bytes]:
    docs = project.docs_dir
    return {p.relative_to(docs).as_posix(): p.read_bytes() for p in sorted(docs.rglob("*")) if p.is_file()}


def test_entry_page_golden(project):
    render(project)
    page = (project.docs_dir / "failures" / "ddp-fixture-unused.md").read_text(encoding="utf-8")
    compare_golden("ddp-fixture-unused.md", page)


def test_sections_in_design_order(project):
    """DESIGN.md's order, except that the quick answer and the jump to the fix come before
    the signatures (issue 13: the first screen answers a reader in a hurry)."""
    render(project)
    page = (project.docs_dir / "failures" / "ddp-fixture-unused.md").read_text(encoding="utf-8")
    order = ["**high severity**", "**Category:**", "**Tags:**", "[Jump to the fix", "{#quick-answer}",
             "{#signatures}", "??? quote", "{#mechanism}", "{#symptoms}", "{#confirm}",
             "{#fingerprint}", "{#fix}", "{#code}", "{#decision}", "{#faq}", "{#related}",
             "{#referenced-by}", "{#references}", "Edit this entry"]
    positions = [page.index(anchor) for anchor in order]
    assert positions == sorted(positions)
    assert "``` mermaid" in page and "flowchart TD" in page


def test_rebuild_is_byte_identical_and_writes_nothing(project):
    first = render(project)
    assert first.written
    before = snapshot(project)
    second = render(project)
    assert second.written == [] and second.removed == []
    assert snapshot(project) == before


def test_generated_pages_carry_the_marker(project):
    render(project)
    for rel, data in snapshot(project).items():
        if rel.endswith(".md") and not rel.startswith(("diagnose", "assets")):
            if rel in ("diagnose-json.md",):
                continue
            assert data.decode().startswith(GENERATED_MARKER) or rel in hand_written(project), rel


def hand_written(project: Project) -> set[str]:
    return {p.relative_to(project.docs_dir).as_posix() for p in project.docs_dir.rglob("*.md")
            if not p.read_text(encoding="utf-8").startswith(GENERATED_MARKER)}


def test_hand_written_pages_survive(project):
    notes = project.docs_dir / "notes.md"
    notes.write_text("# My notes\n", encoding="utf-8")
    stray = project.docs_dir / "failures" / "my-own-page.md"
    stray.parent.mkdir(parents=True, exist_ok=True)
    stray.write_text("# Hand-written, inside a generated folder\n", encoding="utf-8")
    render(project)
    render(project)
    assert notes.read_text(encoding="utf-8") == "# My notes\n"
    assert stray.exists()


def test_never_overwrites_a_hand_written_file(project):
    home = project.docs_dir / "index.md"
    home.write_text("# Hand-written home\n", encoding="utf-8")
    with pytest.raises(RenderError, match="not written by the generator"):
        pipeline.check_and_render(project)
    assert home.read_text(encoding="utf-8") == "# Hand-written home\n"


def test_stale_generated_pages_are_removed(project):
    entry = project.entries_dir / "ddp-fixture-unused.yaml"
    original = entry.read_text()
    entry.write_text(original + "former_ids: [ddp-old-fixture-name]\n")
    render(project)
    redirect = project.docs_dir / "failures" / "ddp-old-fixture-name.md"
    assert "redirect_to: \"../ddp-fixture-unused/\"" in redirect.read_text()
    entry.write_text(original)
    result = render(project)
    assert "failures/ddp-old-fixture-name.md" in result.removed and not redirect.exists()


def test_errors_block_rendering(project):
    entry = project.entries_dir / "ddp-fixture-unused.yaml"
    entry.write_text(entry.read_text().replace("severity: high", "severity: hihg"))
    result = pipeline.check_and_render(project)
    assert [p.code for p in result.errors] == ["E105"]
    assert not (project.docs_dir / "failures").exists()


COVERAGE_TAXONOMY = """\
taxonomy:
  - section: "DDP"
    ids:
      - ddp-fixture-unused
      - ddp-open-kind
      - ddp-never-seen
  - section: "NCCL"
    ids:
      - nccl-fixture-timeout
sample:
  threads: 6
  date: "2026-12-03"
  method: research/SAMPLING.md
frequency:
  - id: ddp-open-kind
    count: 3
    examples:
      - https://github.com/example/project/issues/1
  - id: ddp-fixture-unused
    count: 2
  - id: nccl-fixture-timeout
    count: 1
"""


def test_coverage_page_ranks_kinds_by_frequency_and_marks_open_ones(project):
    (project.entries_dir / "taxonomy.yaml").write_text(COVERAGE_TAXONOMY, encoding="utf-8")
    render(project)
    page = (project.docs_dir / "browse" / "coverage.md").read_text(encoding="utf-8")
    # the share of sampled threads whose kind has an entry: (2 + 1) of 6
    assert "**3 of 6 sampled threads (50.0%) are of a kind that has an entry**" in page
    assert "1 kinds seen in the sample, 3 threads in all, have none yet" in page
    ranking = page.split("{#frequency}")[1].split("\n## ")[0]
    rows = [line for line in ranking.splitlines() if line.startswith("| ") and "Rank" not in line]
    assert [r.split(" | ")[1] for r in rows] == [
        "`ddp-open-kind`", "[`ddp-fixture-unused`](../failures/ddp-fixture-unused.md)",
        "[`nccl-fixture-timeout`](../failures/nccl-fixture-timeout.md)"]
    assert "| 1 | `ddp-open-kind` | 3 of 6 | **open** | [1](https://github.com/example/project/issues/1) |" in page
    # in each section the most frequent kind comes first, and an unseen kind reads 0 of M
    ddp = page.split("## DDP")[1].split("\n## ")[0]
    assert ddp.index("`ddp-open-kind` | 3 of 6") < ddp.index("`ddp-fixture-unused` | 2 of 6") \
        < ddp.index("`ddp-never-seen` | 0 of 6")


def test_coverage_page_without_a_sample_shows_no_frequencies(project):
    taxonomy = COVERAGE_TAXONOMY.split("sample:")[0]
    (project.entries_dir / "taxonomy.yaml").write_text(taxonomy, encoding="utf-8")
    render(project)
    page = (project.docs_dir / "browse" / "coverage.md").read_text(encoding="utf-8")
    assert "{#frequency}" not in page and " of 6" not in page
    assert "| `ddp-never-seen` |  | not written yet | | | |" in page


def test_coverage_figures():
    from generator.entries.model import KindFrequency, TaxonomySample, TaxonomySection
    from generator.site.coverage import coverage

    sections = (TaxonomySection("A", ("a-one", "a-two")), TaxonomySection("B", ("b-one", "a-one")))
    cov = coverage(sections, TaxonomySample(threads=10, date="2026-12-03"),
                   (KindFrequency("a-two", 6), KindFrequency("b-one", 4),
                    KindFrequency("a-one", 0)), entry_ids={"b-one"})
    assert [k.id for k in cov.ranked] == ["a-two", "b-one"]  # seen kinds only, most frequent first
    assert (cov.covered, cov.covered_percent, cov.open_threads) == (4, 40.0, 6)
    assert [k.id for k in cov.open] == ["a-two"]
    # a kind listed in two sections appears in the first one only
    assert [[k.id for k in rows] for _, rows in cov.sections] == [["a-two", "a-one"], ["b-one"]]
    assert coverage(sections, None, (), entry_ids=()).threads == 0


def test_a_kind_covered_by_another_entry_counts_as_covered_and_links_to_it():
    from generator.entries.model import KindFrequency, TaxonomySample, TaxonomySection
    from generator.site.coverage import coverage

    sections = (TaxonomySection("A", ("a-hang", "a-timeout", "a-open")),)
    frequency = (KindFrequency("a-hang", 5, covered_by="a-timeout"), KindFrequency("a-timeout", 3),
                 KindFrequency("a-open", 2, covered_by="a-missing"))
    cov = coverage(sections, TaxonomySample(threads=10, date="2026-12-03"), frequency,
                   entry_ids={"a-timeout"})
    assert [(k.id, k.entry) for k in cov.ranked] == [("a-hang", "a-timeout"), ("a-timeout", "a-timeout"),
                                                    ("a-open", "")]  # covered_by a non-entry: open
    assert (cov.covered, cov.open_threads) == (8, 2)


def test_covered_by_must_name_an_entry(project):
    from generator.entries import checks
    from generator.entries.catalog import load_catalog

    text = COVERAGE_TAXONOMY.replace("count: 3\n", "count: 3\n    covered_by: ddp-no-such-entry\n", 1)
    assert text != COVERAGE_TAXONOMY
    (project.entries_dir / "taxonomy.yaml").write_text(text, encoding="utf-8")
    problems = checks.check_catalog(load_catalog(project))
    assert [(p.code, "ddp-no-such-entry" in p.message) for p in problems] == [("E130", True)]


def test_front_matter_keeps_backslashes_and_quotes(project):
    """A summary or title with a Windows path (`%APPDATA%\\Ultralytics\\DDP\\`) and double
    quotes still gives front matter that YAML reads back as written: an unescaped `\\U` is a
    YAML escape, and a broken front matter is shown as page text above the title."""
    import yaml

    path = project.root / "entries" / "ddp-fixture-unused.yaml"
    text = path.read_text(encoding="utf-8")
    text = text.replace("title: DDP parameters unused in the loss",
                        'title: "DDP parameters unused in C:\\\\Users\\\\x (\\"loss\\")"')
    text = text.replace("summary: |\n", "summary: |\n  In %APPDATA%\\Ultralytics\\DDP\\ the \"temp\" file.\n", 1)
    path.write_text(text, encoding="utf-8")
    render(project)
    page = (project.docs_dir / "failures" / "ddp-fixture-unused.md").read_text(encoding="utf-8")
    front = yaml.safe_load(page.split("---\n")[1])
    assert front["title"] == 'DDP parameters unused in C:\\Users\\x ("loss")'
    assert front["description"].startswith('In %APPDATA%\\Ultralytics\\DDP\\ the "temp" file.')
