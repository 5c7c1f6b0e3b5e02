"""CI runs one list of steps: `.ci/run`, on the project's CI machines and in the GitHub
workflow alike, ending in the README's test command. The steps the workflow once ran on
their own (check with annotations, schema --check) are the tests here; the site build is
tests/test_site_build.py, the Zensical build tests/test_zensical.py."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import yaml
from helpers import REPO

TEST_COMMAND = "pip install -e '.[test]' && python -m pytest"


def generator(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "generator", *args], cwd=REPO,
                          capture_output=True, text=True, timeout=300)


def test_repository_entries_check_clean(capsys):
    """`generator check` over entries/. Under GitHub Actions, in its annotation format,
    printed past pytest's capture so the problems appear on the pull request's lines."""
    github = os.environ.get("GITHUB_ACTIONS") == "true"
    result = generator("check", "--format", "github" if github else "text")
    if result.returncode and github:
        with capsys.disabled():
            print("\n" + result.stdout, flush=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_committed_schema_passes_schema_check():
    result = generator("schema", "--check")
    assert result.returncode == 0, result.stdout + result.stderr


def commands(script: str) -> list[str]:
    """The script's command lines (comments and blank lines left out)."""
    return [line.strip() for line in script.splitlines()
            if line.strip() and not line.lstrip().startswith("#")]


def test_ci_run_ends_in_the_readme_test_command():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```bash\n(.*?)```", readme, re.S)
    assert [TEST_COMMAND] in [commands(b) for b in blocks], "README lost its test command"
    script = REPO / ".ci" / "run"
    assert commands(script.read_text(encoding="utf-8"))[-1] == TEST_COMMAND
    assert os.access(script, os.X_OK), ".ci/run must be executable (the workflow runs it)"


def test_workflow_runs_ci_run_and_nothing_else():
    name = "ci.yml"
    workflow = yaml.safe_load((REPO / ".github" / "workflows" / name).read_text(encoding="utf-8"))
    for job_id, job in workflow["jobs"].items():
        steps = job["steps"]
        runs = [s["run"].strip() for s in steps if "run" in s]
        assert runs == [".ci/run"], f"{name}: job {job_id} must run .ci/run only, runs {runs}"
        uses = sorted(s["uses"].split("@")[0] for s in steps if "uses" in s)
        assert uses == ["actions/checkout", "actions/setup-python"], (
            f"{name}: job {job_id} may only check out and set up Python before .ci/run")
