"""`python -m generator diagnose` and `explain`: exit codes, messages, report and JSON."""

from __future__ import annotations

import dataclasses
import gzip
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from diagnose_support import REPO, SMALL_BENIGN, SMALL_ENTRIES, as_yaml_data

from generator import cli

SITE = "https://ml-failure-encyclopedia.github.io/encyclopedia/"
OOM = "[rank3]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB"
WATCHDOG = ("[rank1]:[E1105 03:14:22.518273910 ProcessGroupNCCL.cpp:632] [Rank 1] Watchdog caught "
            "collective operation timeout: WorkNCCL(SeqNum=7, OpType=ALLREDUCE, NumelIn=1, "
            "NumelOut=1, Timeout(ms)=600000) ran for 600043 milliseconds before timing out.")


@pytest.fixture
def project(tmp_path, monkeypatch):
    root = tmp_path / "project"
    (root / "entries").mkdir(parents=True)
    shutil.copy(REPO / "mkdocs.yml", root / "mkdocs.yml")
    shutil.copy(REPO / "entries" / "vocabulary.yaml", root / "entries" / "vocabulary.yaml")
    for e in SMALL_ENTRIES:
        e = dataclasses.replace(e, summary=f"What {e.id} is.", fix=dataclasses.replace(
            e.fix, steps=("First step.", "Second step."), verify="It works."))
        (root / "entries" / f"{e.id}.yaml").write_text(
            yaml.safe_dump(as_yaml_data(e), sort_keys=False), encoding="utf-8")
    (root / "entries" / "benign.yaml").write_text(
        yaml.safe_dump({"benign": [as_yaml_data(b) for b in SMALL_BENIGN]}), encoding="utf-8")
    monkeypatch.chdir(root)
    return root


def run(*argv: str) -> int:
    return cli.main(list(argv))


def write(path: Path, text: str) -> str:
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_recognised_failure_exits_0_with_a_report(project, capsys):
    log = write(project / "train.log", f"start\n{WATCHDOG}\n{OOM}\ndone\n")
    assert run("diagnose", log) == 0
    out = capsys.readouterr().out
    assert "ROOT CAUSE: cuda-oom" in out
    assert f"{log}:3, rank 3" in out
    assert f"More: {SITE}failures/cuda-oom/" in out
    assert "Fix: fix cuda-oom" in out
    assert "explained by the root cause" in out and "nccl-watchdog-timeout" in out
    assert "a consequence" in out


def test_nothing_recognised_exits_1(project, capsys):
    log = write(project / "ok.log", "epoch 1 loss 0.3\nall good\n")
    assert run("diagnose", log) == 1
    out = capsys.readouterr().out
    assert "No known failure recognised" in out and "Read 2 lines" in out
    # no error line at all: the log is the launcher's only, or the job hung
    assert "If the job crashed, its error is not in this log" in out
    assert "If the job hung" in out and "py-spy dump --pid PID" in out
    assert "explain nccl-watchdog-timeout" in out


def test_json_format(project, capsys):
    log = write(project / "train.log", f"{WATCHDOG}\n{OOM}\n")
    assert run("diagnose", "--json", log) == 0
    v = json.loads(capsys.readouterr().out)
    assert list(v) == ["status", "root_cause", "lines", "files", "matches", "suggestions"]
    assert v["status"] == "root-cause-found" and v["root_cause"] == "cuda-oom" and v["lines"] == 2
    assert v["files"] == [{"name": log, "lines": 2}]
    m = v["matches"][0]
    assert list(m) == ["id", "title", "role", "severity", "line", "rank", "time", "ranks", "specific",
                       "weak", "generic", "cut", "count", "signature", "evidence", "url", "fix", "action",
                       "action_why"]
    assert (m["id"], m["role"], m["line"], m["rank"]) == ("cuda-oom", "root", 2, 3)
    assert m["url"] == f"{SITE}failures/cuda-oom/"
    assert "file" not in m  # only with several files


def test_json_several_files(project, capsys):
    a = write(project / "rank0.log", f"x\n{WATCHDOG}\n")
    b = write(project / "rank3.log", f"{OOM}\n")
    assert run("diagnose", "--json", a, b) == 0
    v = json.loads(capsys.readouterr().out)
    assert v["lines"] == 3 and [f["name"] for f in v["files"]] == [a, b]
    assert [(m["id"], m["file"], m["line"]) for m in v["matches"]] == [
        ("cuda-oom", b, 1), ("nccl-watchdog-timeout", a, 2)]
    assert all(e["file"] == m["file"] for m in v["matches"] for e in m["evidence"])


def test_no_match_json_exits_1(project, capsys):
    log = write(project / "ok.log", "fine\n")
    assert run("diagnose", "--json", log) == 1
    v = json.loads(capsys.readouterr().out)
    assert v == {"status": "no-known-failure", "root_cause": None, "lines": 1,
                 "files": [{"name": log, "lines": 1}], "matches": [], "suggestions": []}


@pytest.mark.parametrize("make, message", [
    (lambda p: str(p / "missing.log"), "no such file"),
    (lambda p: str(p), "is a directory"),
    (lambda p: (p / "bad.gz").write_bytes(b"\x1f\x8b\x08\x00garbage") and str(p / "bad.gz"),
     "not a valid gzip file"),
])
def test_read_errors_exit_2_with_one_line(project, capsys, make, message):
    target = make(project)
    assert run("diagnose", target) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0]


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files whatever their permissions")
def test_permission_denied(project, capsys):
    log = project / "secret.log"
    log.write_text(OOM)
    log.chmod(0)
    assert run("diagnose", str(log)) == 2
    assert "permission denied" in capsys.readouterr().err


def test_a_bad_file_among_good_ones_stops_with_2(project, capsys):
    good = write(project / "good.log", OOM)
    assert run("diagnose", good, str(project / "nope.log")) == 2
    assert "nope.log: no such file" in capsys.readouterr().err


def test_usage_errors_exit_2(project, capsys):
    with pytest.raises(SystemExit) as exc:
        run("diagnose")
    assert exc.value.code == 2
    assert run("diagnose", "-", "-") == 2


def test_dirty_inputs(project, capsys):
    cases = {
        "empty.log": (b"", 1),
        "binary.log": (bytes(range(256)) * 100 + b"\n\x00\x00" + OOM.encode() + b"\n", 0),
        "invalid-utf8.log": (b"\xff\xfe\xc3\x28 " + OOM.encode() + b" \xe2\x82\n", 0),
        "crlf.log": (f"a\r\n{OOM}\r\n".encode(), 0),
        "one-line-5mb.log": (b"x" * (5 << 20), 1),
        "gz.log.gz": (gzip.compress(f"a\n{OOM}\n".encode()), 0),
    }
    for name, (data, code) in cases.items():
        path = project / name
        path.write_bytes(data)
        assert run("diagnose", "--json", str(path)) == code, name
        v = json.loads(capsys.readouterr().out)
        if code == 0:
            assert v["root_cause"] == "cuda-oom", name


def test_subprocess_stdin_and_no_traceback(project):
    env = dict(os.environ, PYTHONPATH=str(REPO))
    py = [sys.executable, "-m", "generator", "diagnose"]
    r = subprocess.run(py + ["-"], input=gzip.compress(OOM.encode()), capture_output=True,
                       cwd=project, env=env, timeout=60, check=False)
    assert r.returncode == 0 and b"ROOT CAUSE: cuda-oom" in r.stdout and b"<stdin>:1" in r.stdout
    r = subprocess.run(py + ["nope.log"], capture_output=True, cwd=project, env=env, timeout=60, check=False)
    assert r.returncode == 2 and b"Traceback" not in r.stderr
    assert r.stderr.decode().strip() == "error: nope.log: no such file"


def test_explain(project, capsys):
    assert run("explain", "cuda-oom") == 0
    out = capsys.readouterr().out
    for text in ("cuda-oom: cuda oom", "severity high", "root cause", "Signatures",
                 "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate {size}",
                 "Summary", "What cuda-oom is.", "Fix", "1. First step.", "2. Second step.",
                 "Verify", "It works.", f"{SITE}failures/cuda-oom/"):
        assert text in out, text


def test_explain_unknown_id_suggests(project, capsys):
    assert run("explain", "cuda-om") == 2
    err = capsys.readouterr().err
    assert err.strip() == "error: no entry 'cuda-om' (did you mean 'cuda-oom'?)"
    assert run("explain", "watchdog") == 2
    assert "nccl-watchdog-timeout" in capsys.readouterr().err
    assert run("explain", "zzzzzz") == 2
    assert "no entry 'zzzzzz'" in capsys.readouterr().err


def test_explain_former_id(project, capsys):
    path = project / "entries" / "cuda-oom.yaml"
    data = yaml.safe_load(path.read_text())
    data["former_ids"] = ["cuda-out-of-memory"]
    path.write_text(yaml.safe_dump(data))
    assert run("explain", "cuda-out-of-memory") == 0
    assert "(formerly 'cuda-out-of-memory')" in capsys.readouterr().out


def test_outside_the_repository_the_package_checkout_is_used(tmp_path, monkeypatch, capsys):
    """On a cluster, logs sit in a folder of their own: the entries come from the checkout
    that the generator package is in."""
    monkeypatch.chdir(tmp_path)
    log = write(tmp_path / "train.log", f"{OOM}\n")
    assert run("diagnose", "--json", log) == 0
    assert json.loads(capsys.readouterr().out)["matches"][0]["url"].startswith(SITE)
