"""The verdict defined once: schema/verdict.schema.json and docs/diagnose-json.md are generated
from generator/matching/verdict_schema.py, are current, and describe what diagnose prints (real
verdicts on every corpus log validate against the schema, with undeclared fields forbidden)."""

from __future__ import annotations

import copy
import itertools
from pathlib import Path

import pytest
from diagnose_support import REPO
from helpers import make_project

from generator import cli
from generator.entries.schema_export import project_words
from generator.matching import diagnose, verdict_schema
from generator.project import Project

jsonschema = pytest.importorskip("jsonschema", reason="install the test extra: pip install -e '.[test]'")

WORDS = project_words(Project(REPO))
LOGS = sorted((REPO / "tests" / "logs").glob("*/*.log"))
FAILING = [log for log in LOGS if not log.parent.name.startswith("_")]  # not _benign/
REAL_LOGS = sorted((REPO / "tests" / "real_logs").glob("*.log"))


@pytest.fixture(scope="module")
def data():
    return diagnose.load_data(REPO)[0]


def _validator(strict: bool):
    schema = verdict_schema.json_schema(WORDS, strict=strict)
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def _errors(validator, verdict) -> list[str]:
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
            for e in validator.iter_errors(verdict)]


# -- generated files are current -------------------------------------------------------------
def test_committed_verdict_schema_is_current():
    assert (REPO / verdict_schema.SCHEMA_PATH).read_text(encoding="utf-8") == \
        verdict_schema.render_schema(WORDS), f"{verdict_schema.SCHEMA_PATH} is stale: run `python -m generator schema`"


def test_committed_reference_page_is_current():
    page = (REPO / verdict_schema.PAGE_PATH).read_text(encoding="utf-8")
    assert verdict_schema.page_is_generated(page)
    assert page == verdict_schema.render_page(), \
        f"{verdict_schema.PAGE_PATH} is stale: run `python -m generator schema`"


def test_every_field_is_described_and_on_the_page():
    page = verdict_schema.render_page()
    for path, obj, prop in verdict_schema.walk():
        assert prop.description.strip(), f"{path} has no description"
        assert f"| `{prop.name}` |" in page.split(f"## {obj.title}\n", 1)[1], path
    for obj in verdict_schema.OBJECTS.values():
        assert obj.description.strip(), obj.name
    schema = verdict_schema.json_schema(WORDS)
    for definition in [schema, *schema["$defs"].values()]:
        assert all(p["description"] for p in definition["properties"].values())
        assert definition["required"] == [n for n in definition["properties"] if n != "file"]


# -- real verdicts validate -------------------------------------------------------------------
def test_every_corpus_verdict_validates(data):
    strict, published = _validator(True), _validator(False)
    assert LOGS and REAL_LOGS
    statuses = set()
    for log in LOGS + REAL_LOGS:
        verdict = diagnose.diagnose(data, [str(log)])
        statuses.add(verdict["status"])
        assert _errors(strict, verdict) == [], log
        assert _errors(published, verdict) == [], log
    assert statuses == set(verdict_schema.STATUSES)


def test_several_files_verdicts_validate_and_keep_the_declared_order(data):
    strict = _validator(True)
    folders = sorted({log.parent for log in LOGS})
    checked = 0
    for first, second in itertools.pairwise(folders):
        files = [str(p) for p in sorted(first.glob("*.log"))[:1] + sorted(second.glob("*.log"))[:1]]
        verdict = diagnose.diagnose(data, files)
        assert _errors(strict, verdict) == [], files
        assert list(verdict) == [p.name for p in verdict_schema.VERDICT.props]
        for m in verdict["matches"]:
            assert list(m) == [p.name for p in verdict_schema.MATCH.props]
            for e in m["evidence"]:
                assert list(e) == [p.name for p in verdict_schema.EVIDENCE.props]
            checked += 1
    assert checked


def test_the_schema_catches_what_is_not_a_verdict(data):
    strict, published = _validator(True), _validator(False)
    one = diagnose.diagnose(data, [str(FAILING[0])])
    two = diagnose.diagnose(data, [str(FAILING[0]), str(FAILING[-1])])
    assert one["matches"] and "file" not in one["matches"][0]
    assert _errors(strict, one) == [] and _errors(strict, two) == []

    def changed(verdict, change):
        copied = copy.deepcopy(verdict)
        change(copied)
        return copied

    # `file` exactly when several files were given
    assert _errors(strict, changed(one, lambda v: v["matches"][0].update(file="x.log")))
    assert _errors(strict, changed(two, lambda v: v["matches"][0].pop("file")))
    assert _errors(strict, changed(two, lambda v: v["matches"][0]["evidence"][0].pop("file")))
    # types, enums, limits
    assert _errors(strict, changed(one, lambda v: v.update(status="found")))
    assert _errors(strict, changed(one, lambda v: v["matches"][0].update(role="cause")))
    assert _errors(strict, changed(one, lambda v: v["matches"][0].update(rank="3")))
    assert _errors(strict, changed(one, lambda v: v["matches"][0].update(evidence=[])))
    assert _errors(strict, changed(one, lambda v: v["matches"][0].pop("url")))
    # an added field: the published schema lets readers ignore it, the strict one does not
    extra = changed(one, lambda v: v["matches"][0].update(new_field=1))
    assert _errors(published, extra) == [] and _errors(strict, extra)


# -- the schema command ------------------------------------------------------------------------
def test_schema_command_writes_checks_and_never_overwrites_a_hand_written_page(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]):
    root = make_project(tmp_path)
    monkeypatch.chdir(root)
    assert cli.main(["schema", "--check"]) == 1  # the copy has docs/ but no schema/
    assert cli.main(["schema"]) == 0
    assert sorted(capsys.readouterr().err.splitlines()) == [
        "schema/entry.schema.json is stale: run `python -m generator schema`",
        "schema/verdict.schema.json is stale: run `python -m generator schema`",
        "wrote schema/entry.schema.json",
        "wrote schema/verdict.schema.json",
    ]
    for rel in (verdict_schema.SCHEMA_PATH, verdict_schema.PAGE_PATH):
        assert (root / rel).read_bytes() == (REPO / rel).read_bytes()
    assert cli.main(["schema", "--check"]) == 0

    page = root / verdict_schema.PAGE_PATH
    page.write_text("# My own notes on the JSON\n", encoding="utf-8")
    assert cli.main(["schema", "--check"]) == 1
    assert cli.main(["schema"]) == 2
    assert "docs/diagnose-json.md exists and was not written by the generator" in \
        capsys.readouterr().err
    assert page.read_text(encoding="utf-8") == "# My own notes on the JSON\n"
