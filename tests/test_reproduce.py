"""Reproductions: the runner's checks on canned output (fast), and, marked ``repro``, one real
run per entry with a ``reproduce:`` block (needs torch; each takes a few seconds on 2 CPUs).

Run only the real reproductions with ``python -m pytest -m repro``; skip them with
``-m "not repro"``.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import json
from pathlib import Path

import pytest
import yaml
from diagnose_support import ROLES, entry
from helpers import REPO

from generator import cli, reproduce
from generator.entries.catalog import SPECIAL_FILES
from generator.entries.model import BenignTemplate, Entry, Reproduction
from generator.matching import engine as engine_mod
from generator.matching import matcherdata

TORCH = importlib.util.find_spec("torch") is not None


def _entries() -> dict[str, dict]:
    out = {}
    for path in sorted((REPO / "entries").glob("*.yaml")):
        if path.name in SPECIAL_FILES:
            continue
        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
        except yaml.YAMLError:
            continue
        if isinstance(data, dict) and isinstance(data.get("id"), str):
            out[data["id"]] = data
    return out


ENTRIES = _entries()
REPRODUCIBLE = sorted(i for i, e in ENTRIES.items() if isinstance(e.get("reproduce"), dict))


# -- real runs --------------------------------------------------------------------------------
@pytest.mark.repro
@pytest.mark.slow
@pytest.mark.skipif(not TORCH, reason="torch is not installed: `pip install torch` to run the "
                    "reproductions (the CPU build is enough)")
@pytest.mark.parametrize("entry_id", REPRODUCIBLE)
def test_reproduction(entry_id: str, monkeypatch: pytest.MonkeyPatch,
                      capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(REPO)
    code = cli.main(["reproduce", entry_id])
    report = capsys.readouterr().out
    if f"SKIP {entry_id}" in report:
        pytest.skip(report.split(f"SKIP {entry_id}: ", 1)[1].splitlines()[0])
    assert code == 0, report


# -- the reproductions and the entries agree --------------------------------------------------
def test_every_reproduce_block_names_an_existing_script() -> None:
    for entry_id in REPRODUCIBLE:
        block = ENTRIES[entry_id]["reproduce"]
        assert (REPO / block["script"]).is_file(), f"{entry_id}: {block['script']} is missing"
        assert block["script"] == f"reproductions/{entry_id}.py", entry_id


def test_every_script_belongs_to_an_entry_with_a_reproduce_block() -> None:
    scripts = sorted(p.stem for p in (REPO / "reproductions").glob("*.py"))
    orphans = [s for s in scripts if s not in REPRODUCIBLE]
    assert not orphans, f"scripts without a reproduce: block in their entry: {orphans}"


def test_marked_signatures_belong_to_reproducible_entries() -> None:
    for entry_id, e in ENTRIES.items():
        marked = [i for i, s in enumerate(e.get("signatures") or [])
                  if isinstance(s, dict) and s.get("reproduced") is True]
        if marked:
            assert entry_id in REPRODUCIBLE, f"{entry_id} marks signatures {marked} reproduced " \
                                             "but has no reproduce: block"


def test_verified_json_names_reproducible_entries() -> None:
    path = REPO / reproduce.VERIFIED_FILE
    if not path.is_file():
        pytest.skip("no reproductions/verified.json recorded yet")
    data = json.loads(path.read_text(encoding="utf-8"))
    assert list(data) == sorted(data)
    for entry_id, record in data.items():
        assert entry_id in ENTRIES, entry_id
        assert set(record) == {"torch", "platform", "date", "signatures"}, entry_id
        sigs = ENTRIES[entry_id]["signatures"]
        assert all(0 <= i < len(sigs) for i in record["signatures"]), entry_id


# -- the runner's checks on canned output (no torch needed) -----------------------------------
# Trimmed from a real run of reproductions/gloo-collective-timeout.py (torch 2.13.0, CPU).
CASCADE = """\
*****************************************
Setting OMP_NUM_THREADS environment variable for each process to be 1 in default, to avoid your system being overloaded, please further tune the variable for optimal performance in your application as needed.
*****************************************
[rank1]: Traceback (most recent call last):
[rank1]: RuntimeError: DataLoader worker (pid 32101) is killed by signal: Killed.
[rank1]: The above exception was the direct cause of the following exception:
[rank1]: Traceback (most recent call last):
[rank1]: RuntimeError: DataLoader worker (pid(s) 32101) exited unexpectedly
[rank0]: Traceback (most recent call last):
[rank0]:   File "/site-packages/torch/distributed/distributed_c10d.py", line 3247, in all_reduce
[rank0]:     work.wait()
[rank0]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] Connection closed by peer [127.0.0.1]:8065. This is typically caused by a remote worker crashing.
E1202 20:38:34.769000 31934 site-packages/torch/distributed/elastic/multiprocessing/api.py:1002] failed (exitcode: 1) local_rank: 0 (pid: 31994) of binary: /usr/bin/python
torch.distributed.elastic.multiprocessing.errors.ChildFailedError:
"""

DATALOADER = entry("dataloader-worker-exited", "root",
                   "DataLoader worker (pid {n}) is killed by signal: Killed.",
                   "DataLoader worker (pid {n}) is killed by signal: Segmentation fault.",
                   "DataLoader worker (pid(s) {text}) exited unexpectedly")
GLOO = entry("gloo-collective-timeout", "collateral",
             "Timed out waiting {n}ms for recv operation to complete",
             "gloo/transport/tcp/pair.cc:{n}] Connection closed by peer {token}")
CHILD = entry("elastic-child-failed", "wrapper",
              "torch.distributed.elastic.multiprocessing.errors.ChildFailedError:",
              "failed (exitcode: {n}) local_rank: {n} (pid: {n}) of")
ALLREDUCE_ROOT = entry("allreduce-root", "root", "Connection closed by peer {token}",
                       context={0: ["in all_reduce"]}, window=5)
BENIGN = [BenignTemplate("Setting OMP_NUM_THREADS environment variable for each process to be 1 "
                         "in default", source="test")]


def _check(e: Entry, text: str, others: list[Entry] | None = None):
    entries = [DATALOADER, GLOO, CHILD] + (others or [])
    if e not in entries:
        entries.append(e)
    eng = engine_mod.Engine(matcherdata.build(entries, BENIGN, ROLES))
    return reproduce.check_output(e, text, eng, BENIGN)


def _marked(e: Entry, *indexes: int) -> Entry:
    copy = dataclasses.replace(e, signatures=tuple(
        dataclasses.replace(s, reproduced=True) if i in indexes else s
        for i, s in enumerate(e.signatures)))
    return copy


def test_root_entry_named_first_passes_and_reports_matched_signatures() -> None:
    reasons, matched, verdict = _check(_marked(DATALOADER, 0, 2), CASCADE)
    assert reasons == []
    assert matched == [0, 2]
    assert [m["id"] for m in verdict["matches"]] == [
        "dataloader-worker-exited", "gloo-collective-timeout", "elastic-child-failed"]


def test_a_marked_signature_missing_from_the_output_fails() -> None:
    reasons, matched, _ = _check(_marked(DATALOADER, 1), CASCADE)
    assert matched == [0, 2]
    assert len(reasons) == 1 and "signature 1 is marked reproduced" in reasons[0]


def test_root_entry_not_named_first_fails() -> None:
    earlier = entry("earlier-root", "root", "Traceback (most recent call last):")
    reasons, _, _ = _check(DATALOADER, CASCADE, [earlier])
    assert len(reasons) == 1
    assert "did not name dataloader-worker-exited as the root cause" in reasons[0]
    assert "earlier-root (root)" in reasons[0]


def test_root_entry_absent_fails() -> None:
    reasons, matched, _ = _check(DATALOADER, "all good\n")
    assert matched == [] and "it found: nothing" in reasons[0]


def test_collateral_and_wrapper_pass_behind_a_root() -> None:
    for e in (_marked(GLOO, 1), _marked(CHILD, 0, 1)):
        reasons, matched, _ = _check(e, CASCADE)
        assert reasons == [], e.id
    assert _check(GLOO, CASCADE)[1] == [1]


def test_collateral_without_a_root_cause_fails() -> None:
    text = "\n".join(line for line in CASCADE.splitlines() if "DataLoader" not in line)
    reasons, matched, _ = _check(GLOO, text)
    assert matched == [1]
    assert len(reasons) == 1 and "no root cause ranked first" in reasons[0]
    reasons, _, _ = _check(GLOO, "nothing here\n")
    assert "did not find gloo-collective-timeout" in reasons[0]


def test_signature_matching_is_the_engines() -> None:
    # context windows and rank prefixes apply: the context is on rank 0, within 5 lines
    reasons, matched, _ = _check(_marked(ALLREDUCE_ROOT, 0), CASCADE)
    assert matched == [0] and reasons == []
    far = CASCADE.replace("in all_reduce", "in something_else")
    assert _check(_marked(ALLREDUCE_ROOT, 0), far)[1] == []
    # a benign line never counts as a match
    benign_only = entry("omp", "root", "Setting OMP_NUM_THREADS environment variable")
    assert reproduce.matched_signatures(benign_only, CASCADE, BENIGN) == []
    assert reproduce.matched_signatures(benign_only, CASCADE, []) == [0]


def test_command_and_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    block = Reproduction(script="reproductions/x.py", launcher="torchrun", nprocs=3, needs="cpu",
                         timeout=9, env={"TORCH_DISTRIBUTED_DEBUG": "DETAIL"})
    cmd = reproduce.command(block, 4242)
    assert cmd[1:] == ["-m", "torch.distributed.run", "--nproc-per-node", "3", "--master-addr",
                       "127.0.0.1", "--master-port", "4242", "reproductions/x.py"]
    assert reproduce.command(dataclasses.replace(block, launcher="python"), 1)[1:] == ["reproductions/x.py"]
    monkeypatch.setenv("RANK", "5")
    monkeypatch.setenv("MASTER_PORT", "1")
    monkeypatch.setenv("PET_NPROC_PER_NODE", "8")
    monkeypatch.setenv("TORCH_DISTRIBUTED_DEBUG", "OFF")
    env = reproduce.environment(block, 4242, "/tmp/x")
    assert "RANK" not in env and "PET_NPROC_PER_NODE" not in env
    assert env["MASTER_PORT"] == "4242" and env["TMPDIR"] == "/tmp/x"
    assert env["TORCH_DISTRIBUTED_DEBUG"] == "DETAIL"


def test_record_writes_logs_expect_and_verified_json(tmp_path: Path) -> None:
    torch = reproduce.Torch("2.13.0+cpu", False)
    block = Reproduction(script="reproductions/x.py", launcher="torchrun", nprocs=2, needs="cpu",
                         timeout=60)
    (tmp_path / "reproductions").mkdir()
    (tmp_path / reproduce.VERIFIED_FILE).write_text('{"zz-other": {"torch": "2.0.0"}}\n')
    for e in (DATALOADER, GLOO):
        reasons, matched, verdict = _check(e, CASCADE)
        outcome = reproduce.Outcome(e.id, "pass", reasons, matched, verdict, CASCADE)
        written = reproduce.record(tmp_path, dataclasses.replace(e, reproduce=block), outcome, torch, "2026-01-02")
        log = tmp_path / "tests" / "logs" / e.id / "reproduced-torch-2.13.0-cpu.log"
        assert written[0] == log and log.read_text() == CASCADE
    assert not (tmp_path / "tests/logs/dataloader-worker-exited/reproduced-torch-2.13.0-cpu.expect"
                ).exists()
    expect = tmp_path / "tests/logs/gloo-collective-timeout/reproduced-torch-2.13.0-cpu.expect"
    assert expect.read_text() == ("dataloader-worker-exited\ngloo-collective-timeout\n"
                                  "elastic-child-failed\n")
    data = json.loads((tmp_path / reproduce.VERIFIED_FILE).read_text())
    assert list(data) == ["dataloader-worker-exited", "gloo-collective-timeout", "zz-other"]
    assert data["gloo-collective-timeout"] == {"torch": "2.13.0", "platform": "CPU, gloo",
                                               "date": "2026-01-02", "signatures": [1]}


def test_usage_errors_need_no_torch(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reproduce, "probe_torch", lambda: pytest.fail("torch was probed"))
    with pytest.raises(reproduce.ReproduceError, match="no such entry: no-such-entry"):
        reproduce.prepare(REPO, ["no-such-entry"])
    plain = next(i for i, e in ENTRIES.items() if "reproduce" not in e)
    with pytest.raises(reproduce.ReproduceError, match="no reproduce: block"):
        reproduce.prepare(REPO, [plain])
