"""What the commands print and write, byte for byte: the diagnose report and JSON, explain,
the scaffold of `new`, and the reproduce summary. Each case is run through the command line
in-process and compared with a golden file in tests/golden/cli/ (UPDATE_GOLDEN=1 rewrites
them; review the diff like code).
"""

from __future__ import annotations

import dataclasses
import re
import shutil
import sys
from pathlib import Path

import pytest
import yaml
from diagnose_support import REPO, SMALL_BENIGN, SMALL_ENTRIES, as_yaml_data
from helpers import compare_golden, make_project

from generator import cli, reproduce

OOM = "[rank3]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB"
WATCHDOG = ("[rank1]:[E1105 03:14:22.518273910 ProcessGroupNCCL.cpp:632] [Rank 1] Watchdog caught "
            "collective operation timeout: WorkNCCL(SeqNum=7, OpType=ALLREDUCE, NumelIn=1, "
            "NumelOut=1, Timeout(ms)=600000) ran for 600043 milliseconds before timing out.")
CHILD = ("E1105 03:14:30.1 7 torch/distributed/elastic/multiprocessing/api.py:881] failed "
         "(exitcode: 1) local_rank: 3 (pid: 4242) of binary: /usr/bin/python3")
LONG_FIX = ("Lower the per-GPU batch size, enable activation checkpointing, or shard the model "
            "and optimizer state (FSDP, ZeRO); set PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True "
            "when the reserved-but-unallocated figure is large, and read the allocator's memory "
            "summary to see which tensors hold the memory.")


def _cases(captured: list[tuple[str, int, str, str]]) -> str:
    """One text for several runs: a header per case, then its exit code, stdout, stderr."""
    out = []
    for name, code, stdout, stderr in captured:
        out.append(f"==> {name} (exit {code}) <==\n{stdout}")
        if stderr:
            out.append(f"--> stderr\n{stderr}")
    return "".join(out)


def _run(capsys: pytest.CaptureFixture[str], name: str, *argv: str) -> tuple[str, int, str, str]:
    code = cli.main(list(argv))
    captured = capsys.readouterr()
    return name, code, captured.out, captured.err


@pytest.fixture
def small(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project with the small catalogue of diagnose_support, one long fix, and a richer
    entry for explain (paragraphs, code lines, multi-line steps, versions, related)."""
    root = tmp_path / "project"
    (root / "entries").mkdir(parents=True)
    shutil.copy(REPO / "mkdocs.yml", root / "mkdocs.yml")
    shutil.copy(REPO / "entries" / "vocabulary.yaml", root / "entries" / "vocabulary.yaml")
    for e in SMALL_ENTRIES:
        fix = dataclasses.replace(e.fix, steps=("First step.", "Second step."), verify="It works.",
                                  summary=LONG_FIX if e.id == "cuda-oom" else e.fix.summary)
        e = dataclasses.replace(e, summary=f"What {e.id} is.", fix=fix)
        (root / "entries" / f"{e.id}.yaml").write_text(
            yaml.safe_dump(as_yaml_data(e), sort_keys=False), encoding="utf-8")
    (root / "entries" / "benign.yaml").write_text(
        yaml.safe_dump({"benign": [as_yaml_data(b) for b in SMALL_BENIGN]}), encoding="utf-8")
    (root / "entries" / "ddp-rich-entry.yaml").write_text(RICH, encoding="utf-8")
    monkeypatch.chdir(root)
    return root


RICH = '''\
id: ddp-rich-entry
title: "A rich entry: every part explain prints"
category: ddp
component: ddp
severity: medium
role: wrapper
tags: [ddp]
former_ids: [ddp-old-name, ddp-older-name]
signatures:
  - template: "Expected to have finished reduction in the prior iteration {text}"
    source: pytorch/pytorch torch/csrc/distributed/c10d/reducer.cpp
    versions: "torch >= 1.0, < 2.99"
  - template: "Parameter indices which did not receive grad for rank {n}: {text}"
    source: pytorch/pytorch torch/csrc/distributed/c10d/reducer.cpp
summary: |
  A parameter of the DDP-wrapped module got no gradient in the previous iteration, so its
  bucket never finished reducing, and the reducer raises at the start of the next forward pass
  on every rank that has the same model.

  A second paragraph, short.

  Code-like lines keep their shape:
    model = DDP(model, find_unused_parameters=True)
    loss = out.sum()
mechanism: Not printed by explain.
fix:
  summary: |
    Make every parameter contribute to the loss, or pass `find_unused_parameters=True`.

    - a list item stays as written
    - and so does this one
  steps:
    - "Set `TORCH_DISTRIBUTED_DEBUG=DETAIL` and rerun one iteration to get the names of the parameters that received no gradient on each rank, then decide what to do with each of them."
    - |
      Wrap the model:
      ```python
      model = DDP(model, find_unused_parameters=True)
      ```
      This costs one extra traversal of the autograd graph per iteration.
    - |
      A step whose first line is long enough to be wrapped if it were the only line of the step, but it is not
      so it is kept as written.
  why: Not printed.
  verify: |
    The RuntimeError no longer appears; `TORCH_DISTRIBUTED_DEBUG=DETAIL` reports no unused
    parameters.
related: [cuda-oom, nccl-watchdog-timeout]
observations: [Not printed by explain.]
symptoms: [{symptom: Not printed., meaning: Not printed.}]
affects: [{system: PyTorch, versions: all}]
confirm: [Not printed.]
fingerprint: Not printed.
faq: [{q: Not printed?, a: Not printed.}]
references: [{title: Not printed, url: "https://example.org/"}]
action:
  kind: restart-job
  why: "The rich entry's next step, long enough to be wrapped by explain when it prints this sentence in the terminal."
'''


def _write(root: Path, name: str, text: str) -> str:
    (root / name).write_text(text, encoding="utf-8")
    return name


# -- diagnose ---------------------------------------------------------------------------------
def test_diagnose_reports(small: Path, capsys: pytest.CaptureFixture[str]) -> None:
    single = _write(small, "train.log", f"start\n{WATCHDOG}\n{OOM}\n{CHILD}\n"
                    "torch.distributed.elastic.multiprocessing.errors.ChildFailedError:\ndone\n")
    rank0 = _write(small, "rank0.log", f"x\n{WATCHDOG}\n{CHILD}\n")
    rank3 = _write(small, "rank3.log", f"y\ny\n{OOM}\n{OOM}\n")
    consequences = _write(small, "consequences.log", f"{WATCHDOG}\n{WATCHDOG}\n{CHILD}\n")
    nothing = _write(small, "ok.log", "epoch 1 loss 0.3\nall good\n")
    unshard = ("[rank0]:   File \"fsdp/_runtime_utils.py\", line 1, in _pre_forward_unshard\n"
               + "[rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 9.00 GiB. "
               + "GPU 0 has a total capacity of 79.15 GiB\x07\tof which " + "z" * 200 + "\n")
    dirty = _write(small, "dirty.log", unshard + "".join(f"{OOM} #{i}\n" for i in range(5)))
    ranks = _write(small, "ranks.log", "".join(f"[rank{r}]: {OOM}\n" for r in (0, 1, 2, 3, 5, 7)))
    unknown = _write(small, "unknown.log", "[rank0]: Traceback (most recent call last):\n"
                     "[rank0]: torch.distributed.DistBackendError: NCCL error in: ../x.cpp:1, "
                     "unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5\n")
    runs = [
        _run(capsys, "root, collateral and wrapper", "diagnose", single),
        _run(capsys, "several files", "diagnose", rank0, rank3),
        _run(capsys, "only consequences", "diagnose", consequences),
        _run(capsys, "nothing recognised", "diagnose", nothing),
        _run(capsys, "context, long and non-printable lines", "diagnose", dirty),
        _run(capsys, "read error", "diagnose", "missing.log"),
        _run(capsys, "stdin twice", "diagnose", "-", "-"),
        _run(capsys, "json, several files", "diagnose", "--json", rank0, rank3),
        _run(capsys, "json, nothing", "diagnose", "--json", nothing),
        _run(capsys, "identical lines of several ranks", "diagnose", ranks),
        _run(capsys, "several files with timestamps: the earliest failing rank", "diagnose",
             _write(small, "t0.log", f"[2026-06-30 12:00:40,100] INFO step 9\n{WATCHDOG}\n"),
             _write(small, "t3.log", f"[2026-06-30 12:00:30,229] INFO step 9\n{OOM}\n")),
        _run(capsys, "nothing recognised, suggestions", "diagnose", unknown),
        _run(capsys, "json, suggestions", "diagnose", "--json", unknown),
    ]
    (small / "entries" / "ddp-broken.yaml").write_text("id: [unclosed\n", encoding="utf-8")
    runs.append(_run(capsys, "an entry with problems", "diagnose", single))
    compare_golden("cli/diagnose.txt", _cases(runs))


def test_diagnose_without_signatures(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "empty"
    (root / "entries").mkdir(parents=True)
    shutil.copy(REPO / "mkdocs.yml", root / "mkdocs.yml")
    monkeypatch.chdir(root)
    _write(root, "x.log", "x\n")
    assert cli.main(["diagnose", "x.log"]) == 2
    err = capsys.readouterr().err
    assert err == f"error: no signatures found in {root / 'entries'}; run this inside the " \
                  "encyclopedia's repository\n"


# -- explain ----------------------------------------------------------------------------------
def test_explain_reports(small: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ids = sorted(p.stem for p in (small / "entries").glob("*-*.yaml"))
    runs = [_run(capsys, entry_id, "explain", entry_id) for entry_id in ids]
    runs += [_run(capsys, f"former id {old}", "explain", old)
             for old in ("ddp-old-name", "ddp-older-name")]
    runs += [_run(capsys, f"unknown {wanted}", "explain", wanted)
             for wanted in ("cuda-om", "watchdog", "oom", "timeout_watchdog", "zzzzzz")]
    compare_golden("cli/explain.txt", _cases(runs))


# -- new --------------------------------------------------------------------------------------
def test_new_scaffolds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                       capsys: pytest.CaptureFixture[str]) -> None:
    root = make_project(tmp_path, with_docs=False)
    old = root / "entries" / "nccl-fixture-timeout.yaml"
    old.write_text(old.read_text() + "former_ids: [nccl-fixture-old]\n")
    unused = (root / "entries" / "ddp-fixture-unused.yaml").read_text()
    (root / "entries" / "ddp-misnamed.yaml").write_text(
        unused.replace("id: ddp-fixture-unused", "id: ddp-other-id"))
    monkeypatch.chdir(root)
    runs = [
        _run(capsys, "new", "new", "nccl-contributed-failure"),
        _run(capsys, "new --from", "new", "ddp-copied-structure", "--from", "nccl-fixture-timeout"),
    ]
    files = ["entries/nccl-contributed-failure.yaml",
             "tests/logs/nccl-contributed-failure/README.md",
             "entries/ddp-copied-structure.yaml"]
    written = "".join(f"==> {name} <==\n{(root / name).read_text(encoding='utf-8')}"
                      for name in files)
    runs += [
        _run(capsys, "exists", "new", "nccl-contributed-failure"),
        _run(capsys, "not kebab", "new", "Not_Kebab"),
        _run(capsys, "unknown area", "new", "zzz-thing"),
        _run(capsys, "used id", "new", "ddp-fixture-unused"),
        _run(capsys, "id of another file", "new", "ddp-other-id"),
        _run(capsys, "former id", "new", "nccl-fixture-old"),
        _run(capsys, "--from unknown", "new", "nccl-other", "--from", "nccl-nope"),
    ]
    compare_golden("cli/new.txt", written + _cases(runs))
    assert not (root / "entries" / "nccl-other.yaml").exists()


# -- reproduce --------------------------------------------------------------------------------
REPRO_OUTPUT = {
    # passes: the root entry's signature, ranked first
    "reproductions/ddp-fixture-unused.py":
        ("[rank0]: RuntimeError: Expected to have finished reduction in the prior iteration "
         "before starting a new one.\n[rank1]: " + WATCHDOG[8:] + "\n", 1, False, 3.25),
    # fails: the collateral entry without a root cause; error lines are shown
    "reproductions/nccl-fixture-timeout.py":
        ("starting\n" + WATCHDOG + "\nRuntimeError: boom\n" + "x" * 300 + " Exception\n",
         1, False, 12.0),
    # fails: killed at the timeout, nothing printed that looks like an error
    "reproductions/ddp-fixture-slow.py":
        ("".join(f"step {i}\n" for i in range(30)), -15, True, 65.04),
}


def _repro_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = make_project(tmp_path, with_docs=False)
    blocks = {
        "ddp-fixture-unused": "python\n  nprocs: 1\n  needs: cpu\n  timeout: 60\n",
        "nccl-fixture-timeout": "torchrun\n  nprocs: 2\n  needs: cpu\n  timeout: 30\n",
        "ddp-fixture-slow": "torchrun\n  nprocs: 2\n  needs: cpu\n  timeout: 60\n",
        "ddp-fixture-gpu": "torchrun\n  nprocs: 2\n  needs: cuda\n  timeout: 60\n",
    }
    unused = (root / "entries" / "ddp-fixture-unused.yaml").read_text()
    for entry_id, block in blocks.items():
        path = root / "entries" / f"{entry_id}.yaml"
        text = path.read_text() if path.exists() else unused.replace(
            "ddp-fixture-unused", entry_id).replace(
            "Expected to have finished reduction in the prior iteration before starting a new one.",
            f"Fixture {entry_id} failed with code {{n}}.")
        text = text.replace("versions: \"torch >= 1.0\"",
                            "versions: \"torch >= 1.0\"\n    reproduced: true")
        path.write_text(text + f"reproduce:\n  script: reproductions/{entry_id}.py\n"
                        f"  launcher: {block}")
        (root / "reproductions").mkdir(exist_ok=True)
        (root / "reproductions" / f"{entry_id}.py").write_text("# canned\n")
    monkeypatch.chdir(root)
    monkeypatch.setattr(reproduce, "probe_torch", lambda: reproduce.Torch("2.13.0+cpu", False))
    monkeypatch.setattr(reproduce, "launch", lambda root, block: REPRO_OUTPUT[block.script])
    return root


def _no_total_time(text: str) -> str:
    return re.sub(r"skipped in [0-9.]+ s\n", "skipped in (time) s\n", text)


def test_reproduce_summary(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                           capsys: pytest.CaptureFixture[str]) -> None:
    root = _repro_project(tmp_path, monkeypatch)
    runs = [_run(capsys, "all", "reproduce"),
            _run(capsys, "one, recorded", "reproduce", "--record", "ddp-fixture-unused",
                 "ddp-fixture-gpu")]
    passing = REPRO_OUTPUT["reproductions/ddp-fixture-unused.py"]
    monkeypatch.setattr(reproduce, "launch", lambda root, block: passing)
    runs.append(_run(capsys, "collateral, recorded", "reproduce", "--record",
                     "nccl-fixture-timeout"))
    runs = [(name, code, _no_total_time(out), err) for name, code, out, err in runs]
    verified = (root / "reproductions" / "verified.json").read_text()
    log = (root / "tests/logs/ddp-fixture-unused/reproduced-torch-2.13.0-cpu.log").read_text()
    compare_golden("cli/reproduce.txt", _cases(runs) + "==> verified.json <==\n"
                   + re.sub(r'"date": "[0-9-]+"', '"date": "(today)"', verified)
                   + "==> log <==\n" + log)


def test_reproduce_usage_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                capsys: pytest.CaptureFixture[str]) -> None:
    root = _repro_project(tmp_path, monkeypatch)
    runs = [_run(capsys, "unknown", "reproduce", "no-such-entry", "nor-this"),
            _run(capsys, "unknown among known", "reproduce", "ddp-fixture-unused", "ddp-plain")]
    plain = (root / "entries" / "ddp-fixture-unused.yaml").read_text().split("reproduce:")[0]
    (root / "entries" / "ddp-plain.yaml").write_text(plain.replace("ddp-fixture-unused",
                                                                   "ddp-plain"))
    runs.append(_run(capsys, "no block", "reproduce", "ddp-fixture-unused", "ddp-plain"))
    (root / "reproductions" / "ddp-fixture-slow.py").unlink()
    runs.append(_run(capsys, "missing script", "reproduce"))
    monkeypatch.setattr(reproduce, "probe_torch", lambda: None)
    runs.append(_run(capsys, "no torch", "reproduce", "ddp-fixture-unused"))
    for name in ("ddp-fixture-unused", "nccl-fixture-timeout", "ddp-fixture-slow",
                 "ddp-fixture-gpu"):
        path = root / "entries" / f"{name}.yaml"
        path.write_text(path.read_text().split("reproduce:")[0])
    runs.append(_run(capsys, "nothing reproducible", "reproduce"))
    text = _cases(runs).replace(sys.executable, "(python)")
    compare_golden("cli/reproduce-errors.txt", text)


# -- the library returns values and raises; it never prints -----------------------------------
def test_library_returns_values_and_prints_nothing(small: Path, capsys: pytest.CaptureFixture[str]
                                                   ) -> None:
    from generator.cli import explain
    from generator.entries import scaffold
    from generator.entries.catalog import load_catalog
    from generator.matching import diagnose
    from generator.project import Project

    log = _write(small, "train.log", f"{WATCHDOG}\n{OOM}\n")
    result = diagnose.diagnose_logs(small, [log])
    assert result.verdict["root_cause"] == "cuda-oom" and result.broken > 0
    with pytest.raises(diagnose.DiagnoseError, match="only once"):
        diagnose.diagnose_logs(small, ["-", "-"])

    project = Project(small)
    made = scaffold.create(project, "nccl-new-failure")
    assert made == scaffold.Scaffold(small / "entries" / "nccl-new-failure.yaml",
                                     small / "tests" / "logs" / "nccl-new-failure")
    for bad, message in (("nccl-new-failure", "already exists"), ("Bad_Id", "kebab-case"),
                         ("zzz-thing", "unknown area 'zzz-'")):
        with pytest.raises(scaffold.ScaffoldError, match=message):
            scaffold.create(project, bad)

    entries = load_catalog(project).entries
    assert explain.find(entries, "ddp-old-name")[1] == "ddp-old-name"
    with pytest.raises(explain.UnknownEntry) as exc:
        explain.find(entries, "cuda-om")
    assert exc.value.suggestions == ["cuda-oom"]
    assert capsys.readouterr() == ("", "")


def test_every_template_names_its_context() -> None:
    for path in sorted((REPO / "templates").rglob("*.j2")):
        text = path.read_text(encoding="utf-8")
        assert text.startswith("{##"), f"{path.relative_to(REPO)} must start with a {{## ##}} comment"
        assert "Context" in text.split("##}", 1)[0], f"{path.relative_to(REPO)}: name its context"


def test_rank_ranges_filter() -> None:
    from generator.templating import rank_ranges

    assert rank_ranges([]) == ""
    assert rank_ranges([3]) == "3"
    assert rank_ranges([0, 1, 2, 3, 5, 7, 8]) == "0-3, 5, 7-8"
