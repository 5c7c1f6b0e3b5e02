"""The command line: exit codes, formats, and problems printed like a compiler's."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from helpers import REPO, make_project


def run(root, *args):
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", PYTHONPATH=str(REPO))  # this checkout's code
    return subprocess.run([sys.executable, "-m", "generator", *args], cwd=root, env=env,
                          capture_output=True, text=True)


def test_check_clean_project_exits_0(tmp_path):
    root = make_project(tmp_path, with_docs=False)
    result = run(root, "check")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 error(s), 0 warning(s)" in result.stderr


def test_check_problems_exit_1_in_every_format(tmp_path):
    root = make_project(tmp_path, with_docs=False)
    entry = root / "entries" / "ddp-fixture-unused.yaml"
    entry.write_text(entry.read_text().replace("mechanism: |", "mechansim: |"))
    text = run(root, "check")
    assert text.returncode == 1
    assert text.stdout.startswith("entries/ddp-fixture-unused.yaml:")
    assert ": E104 unknown field 'mechansim' (did you mean 'mechanism'?)" in text.stdout
    gh = run(root, "check", "--format", "github")
    assert gh.returncode == 1 and gh.stdout.startswith("::error file=entries/ddp-fixture-unused.yaml,line=")
    js = run(root, "check", "--format", "json")
    assert js.returncode == 1 and json.loads(js.stdout)[0]["code"] == "E104"


def test_check_only_reports_named_files(tmp_path):
    root = make_project(tmp_path, with_docs=False)
    entry = root / "entries" / "ddp-fixture-unused.yaml"
    entry.write_text(entry.read_text().replace("severity: high", "severity: hihg"))
    assert run(root, "check", "entries/nccl-fixture-timeout.yaml").returncode == 0
    assert run(root, "check", "entries/ddp-fixture-unused.yaml").returncode == 1


def test_usage_errors_exit_2(tmp_path):
    root = make_project(tmp_path, with_docs=False)
    assert run(root, "check", "entries/nope.yaml").returncode == 2
    assert run(root, "frobnicate").returncode == 2
    assert run(root).returncode == 2


def test_list_codes(tmp_path):
    result = run(tmp_path, "check", "--list-codes")
    assert result.returncode == 0 and "E104" in result.stdout and "W203" in result.stdout


def test_unsafe_yaml_is_never_executed(tmp_path):
    root = make_project(tmp_path, with_docs=False)
    marker = tmp_path / "pwned"
    (root / "entries" / "ddp-evil.yaml").write_text(
        f"id: ddp-evil\ntitle: !!python/object/apply:os.system ['touch {marker}']\n")
    result = run(root, "check")
    assert result.returncode == 1 and "E005" in result.stdout and "Traceback" not in result.stderr
    assert not marker.exists()
