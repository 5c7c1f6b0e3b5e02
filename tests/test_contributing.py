"""The contributor path: scaffold -> located problems -> filled entry passes -> the site
builds with it -> renaming keeps the old URL. Plus the editor schema and GitHub files."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest
from helpers import FIXTURES, REPO, make_project

from generator.entries import schema
from generator.entries.schema_export import SCHEMA_PATH, project_words, render_schema
from generator.project import Project


def run(root, *args):
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", PYTHONPATH=str(REPO))  # this checkout's code
    env.pop("FAILURE_ENCYCLOPEDIA_PRERENDERED", None)
    return subprocess.run([sys.executable, "-m", "generator", *args], cwd=root, env=env,
                          capture_output=True, text=True)


def test_committed_schema_is_current():
    assert (REPO / SCHEMA_PATH).read_text(encoding="utf-8") == render_schema(project_words(Project(REPO))), \
        "schema/entry.schema.json is stale: run `python -m generator schema`"


def test_every_field_has_a_description():
    for path, field in schema.walk():
        assert field.description.strip(), f"field {path} has no description"


@pytest.mark.slow  # builds the site
def test_scaffold_cannot_land_and_filled_entry_can(tmp_path):
    root = make_project(tmp_path)
    created = run(root, "new", "nccl-contributed-failure")
    assert created.returncode == 0, created.stderr
    entry = root / "entries" / "nccl-contributed-failure.yaml"
    assert entry.read_text().startswith("# yaml-language-server: $schema=../schema/entry.schema.json")
    assert (root / "tests" / "logs" / "nccl-contributed-failure").is_dir()

    # refuses to overwrite, and refuses bad or used ids
    assert run(root, "new", "nccl-contributed-failure").returncode == 2
    assert run(root, "new", "Not_Kebab").returncode == 2
    assert run(root, "new", "ddp-fixture-unused").returncode == 2

    # the untouched scaffold: one located E122 per field that needs content, nothing else
    check = run(root, "check", "entries/nccl-contributed-failure.yaml")
    assert check.returncode == 1
    lines = check.stdout.strip().splitlines()
    assert lines and all(re.match(r"entries/nccl-contributed-failure\.yaml:\d+:\d+: E122 ", line) for line in lines)
    fields = {line.split("'")[1] for line in lines}
    assert {"title", "summary", "mechanism", "fingerprint", "fix.summary", "signatures[1].template"} <= fields

    # filled in (here: the fixture timeout entry's content under the new id) it passes
    filled = (FIXTURES / "project" / "entries" / "nccl-fixture-timeout.yaml").read_text()
    filled = filled.replace("nccl-fixture-timeout", "nccl-contributed-failure")
    filled = filled.replace("OpType={word}", "OpType={word}, NumelIn={n}")
    entry.write_text(filled)
    assert run(root, "check").returncode == 0

    build = run(root, "build", "--site-dir", str(tmp_path / "site"))
    assert build.returncode == 0, build.stdout + build.stderr
    assert (tmp_path / "site" / "failures" / "nccl-contributed-failure" / "index.html").is_file()

    # rename: new id and file, old id in former_ids -> the old URL still resolves
    renamed = filled.replace("nccl-contributed-failure", "nccl-renamed-failure")
    renamed += "former_ids: [nccl-contributed-failure]\n"
    entry.unlink()
    (root / "entries" / "nccl-renamed-failure.yaml").write_text(renamed)
    build = run(root, "build", "--site-dir", str(tmp_path / "site"))
    assert build.returncode == 0, build.stdout + build.stderr
    old = (tmp_path / "site" / "failures" / "nccl-contributed-failure" / "index.html").read_text()
    assert '<meta http-equiv="refresh" content="0; url=../nccl-renamed-failure/">' in old
    assert (tmp_path / "site" / "failures" / "nccl-renamed-failure" / "index.html").is_file()

    # and the old id can never be used again
    assert run(root, "new", "nccl-contributed-failure").returncode == 2


def test_exports_are_published(tmp_path):
    root = make_project(tmp_path)
    assert run(root, "render").returncode == 0
    data = json.loads((root / "docs" / "assets" / "generated" / "entries.json").read_text())
    ids = [e["id"] for e in data["entries"]]
    assert ids == sorted(ids) and "ddp-fixture-unused" in ids
    assert data["entries"][0]["url"] == f"failures/{ids[0]}/"
    llms = (root / "docs" / "llms.txt").read_text()
    assert llms.startswith("# Distributed Training Failure Encyclopedia")
    assert "(failures/ddp-fixture-unused/)" in llms


@pytest.mark.parametrize("schema_name, pattern", [
    ("vendor.github-workflows", ".github/workflows/*.yml"),
    ("vendor.github-issue-forms", ".github/ISSUE_TEMPLATE/*.yml"),
])
def test_github_files_are_valid(schema_name, pattern):
    pytest.importorskip("check_jsonschema", reason="install the test extra: pip install -e '.[test]'")
    files = sorted(str(p) for p in REPO.glob(pattern))
    assert files
    result = subprocess.run([sys.executable, "-m", "check_jsonschema", "--builtin-schema", schema_name,
                             *files], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_workflows_are_least_privilege():
    import yaml

    for path in sorted((REPO / ".github" / "workflows").glob("*.yml")):
        data = yaml.safe_load(path.read_text())
        assert data["permissions"] == {"contents": "read"}, path.name
        text = path.read_text()
        assert "secrets." not in text, f"{path.name} must not use secrets"
