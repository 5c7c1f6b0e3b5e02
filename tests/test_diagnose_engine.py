"""The diagnose engine's behaviour: launcher prefixes and ranks, dirty lines, benign noise,
ranking (root > collateral > wrapper, context beats generic, earliest first)."""

from __future__ import annotations

import dataclasses

import pytest
from diagnose_support import ROLES, SMALL_BENIGN, SMALL_ENTRIES, entry, small_data

from generator.matching import matcherdata
from generator.matching.engine import MAX_EVIDENCE, MAX_TEXT, Engine, diagnose_text

DATA = small_data()
OOM = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB"
WATCHDOG = ("Watchdog caught collective operation timeout: WorkNCCL(SeqNum=25211, OpType=ALLREDUCE, "
            "NumelIn=25690112, NumelOut=25690112, Timeout(ms)=600000) ran for 600043 milliseconds "
            "before timing out.")
NCCL_ERR = ("torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/"
            "NCCLUtils.hpp:275, unhandled system error (run with NCCL_DEBUG=INFO for details), "
            "NCCL version 2.21.5")


def first(text: str) -> dict:
    v = diagnose_text(DATA, text)
    assert v["matches"], f"no match for {text!r}"
    return v["matches"][0]


# Every launcher / logger line format of reference/signatures.md section 0 that carries a
# rank, with the rank the engine must report.
PREFIXED = [
    # 0.1 c10 glog lines, 2.4+ / 2.2-2.3 / <=2.1 (rank from the message) and PG prefixes
    (f"[rank0]:[E1206 18:44:12.715298746 ProcessGroupNCCL.cpp:607] [Rank 0] {WATCHDOG}", 0),
    (f"[rank2]:[E ProcessGroupNCCL.cpp:1275] [Rank 2] {WATCHDOG}", 2),
    (f"[E ProcessGroupNCCL.cpp:737] [Rank 5] {WATCHDOG}", 5),
    (f"[E1105 03:14:22.518 ProcessGroupNCCL.cpp:632] [PG ID 0 PG GUID 0(default_pg) Rank 6] {WATCHDOG}", 6),
    (f"[E ProcessGroupNCCL.cpp:475] [PG 0 Rank 7] {WATCHDOG}", 7),
    (f"[E ProcessGroupNCCL.cpp:475] [PG 0 (default_pg) Rank 4] {WATCHDOG}", 4),
    # 0.2 torch._logging lines inside a rank, 0.3 excepthook prefix, doubled prefixes
    (f"[rank3]:E0813 08:21:22.980000 1245483 torch/distributed/x.py:984] {OOM}", 3),
    (f"[rank3]: {OOM}", 3),
    (f"[rank2]: [rank2]: {OOM}", 2),
    # 0.5 torchrun --tee prefix, alone and in front of the excepthook prefix
    (f"[default5]:{OOM}", 5),
    (f"[default1]:[rank9]: {OOM}", 1),
    (f"[trainer12]:{OOM}", 12),
    # mpirun --tag-output, Slurm srun --label (padded), DeepSpeed's worker prefix
    (f"[1,3]<stderr>:{OOM}", 3),
    (f"[0,11]<stdout>: {OOM}", 11),
    (f"15: {OOM}", 15),
    (f"  3: {OOM}", 3),
    (f"worker-1: [rank6]: {OOM}", 6),
    # timestamps in front of a rank prefix
    (f"2026-06-30T12:00:30.229Z [rank4]: {OOM}", 4),
    (f"[2026-06-30 12:00:30,229] [default2]:{OOM}", 2),
]


@pytest.mark.parametrize("line, rank", PREFIXED)
def test_rank_prefixes(line, rank):
    m = first(line)
    assert m["rank"] == rank
    # the evidence is the message without the launcher prefix
    assert not m["evidence"][0]["text"].startswith(("[rank", "[default", "[1,", "worker"))


@pytest.mark.parametrize("line", [
    # 0.2 agent lines (no process group, no rank) and older Python logging formats
    ("E0813 08:21:22.980000 1245483 torch/distributed/elastic/multiprocessing/api.py:984] "
     "failed (exitcode: -6) local_rank: 6 (pid: 1246013) of binary: /usr/bin/python3"),
    ("[2026-06-30 12:00:30,229] torch.distributed.elastic.multiprocessing.api: [ERROR] failed "
     "(exitcode: 1) local_rank: 0 (pid: 24321) of binary: /usr/bin/python"),
    ("ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 0 "
     "(pid: 24321) of binary: /usr/bin/python"),
])
def test_agent_lines_have_no_rank(line):
    m = first(line)
    assert m["id"] == "elastic-child-failed" and m["rank"] is None


def test_nccl_line_formats():
    data = matcherdata.build([entry("nccl-shm", "root",
                                    "NCCL WARN Error while creating shared memory segment {token} (size {n})")], [], ROLES)
    for line, rank in [
        (("ubuntu:9621:9688 [3] misc/shmutils.cc:112 NCCL WARN Error while creating shared memory "
          "segment /dev/shm/nccl-KWfVyt (size 5967872)"), None),
        (("host:1:2 [0] misc/shmutils.cc:112 (ncclShmOpen) NCCL WARN Error while creating shared "
          "memory segment /dev/shm/nccl-x (size 1)"), None),
        (("[2026-06-30 12:00:30] host:1:2 [0] shmutils.cc:1 NCCL WARN Error while creating shared "
          "memory segment /dev/shm/nccl-x (size 1)"), None),
        (("[default7]:node-3:1:2 [7] shmutils.cc:1 NCCL WARN Error while creating shared memory "
          "segment /dev/shm/nccl-x (size 1)"), 7),
    ]:
        v = diagnose_text(data, line)
        assert [(m["id"], m["rank"]) for m in v["matches"]] == [("nccl-shm", rank)], line


def test_ansi_colour_codes_and_crlf_are_removed():
    m = first("\x1b[1;31m[rank1]:\x1b[0m torch.OutOf\x1b[33mMemoryError: CUDA out of memory. "
              "Tried to allocate 2.00 GiB\r")
    assert m["id"] == "cuda-oom" and m["rank"] == 1
    assert m["evidence"][0]["text"] == OOM


def test_blanks_in_logs_may_be_wider_than_in_templates():
    assert first("torch.OutOfMemoryError:   CUDA out of\tmemory.  Tried to allocate 2 GiB")["id"] == "cuda-oom"


def test_benign_lines_never_become_a_verdict():
    entries = SMALL_ENTRIES + [entry("fake-destroy", "root", "destroy_process_group() was not called before program exit")]
    data = matcherdata.build(entries, SMALL_BENIGN, ROLES)
    log = ("[rank0]:[W1105 03:14:22.5 ProcessGroupNCCL.cpp:1250] Warning: WARNING: "
           "destroy_process_group() was not called before program exit, which can leak resources.\n"
           "node:1:2 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC")
    v = diagnose_text(data, log)
    assert v["status"] == "no-known-failure" and v["matches"] == [] and v["root_cause"] is None


def test_ranking_root_then_collateral_then_wrapper():
    log = "\n".join([
        "torch.distributed.elastic.multiprocessing.errors.ChildFailedError:",  # wrapper, line 1
        f"[rank1]: {WATCHDOG}",  # collateral, line 2
        f"[rank3]: {OOM}",  # root, line 3
    ])
    v = diagnose_text(DATA, log)
    assert [(m["id"], m["role"], m["line"]) for m in v["matches"]] == [
        ("cuda-oom", "root", 3), ("nccl-watchdog-timeout", "collateral", 2),
        ("elastic-child-failed", "wrapper", 1)]
    assert v["status"] == "root-cause-found" and v["root_cause"] == "cuda-oom"


def test_only_consequences():
    v = diagnose_text(DATA, f"[rank1]: {WATCHDOG}\nChildFailedError\n"
                            "torch.distributed.elastic.multiprocessing.errors.ChildFailedError:")
    assert v["status"] == "only-consequences-found" and v["root_cause"] is None
    assert [m["id"] for m in v["matches"]] == ["nccl-watchdog-timeout", "elastic-child-failed"]


def test_earliest_root_wins():
    v = diagnose_text(DATA, f"[rank0]: {NCCL_ERR}\n[rank3]: {OOM}")
    assert [m["id"] for m in v["matches"]] == ["nccl-unhandled-system-error", "cuda-oom"]
    v = diagnose_text(DATA, f"[rank3]: {OOM}\n[rank0]: {NCCL_ERR}")
    assert [m["id"] for m in v["matches"]] == ["cuda-oom", "nccl-unhandled-system-error"]


def test_context_beats_generic():
    log = "\n".join([
        "[rank2]: Traceback (most recent call last):",
        '[rank2]:   File "torch/distributed/fsdp/_runtime_utils.py", line 800, in _pre_forward_unshard',
        f"[rank2]: {OOM}",
    ])
    v = diagnose_text(DATA, log)
    assert [(m["id"], m["specific"]) for m in v["matches"]] == [
        ("fsdp-unshard-oom", True), ("cuda-oom", False)]
    assert v["matches"][0]["rank"] == 2


def test_context_must_be_on_the_same_rank_and_near():
    other_rank = f'[rank5]:   File "x.py", line 1, in _unshard\n[rank2]: {OOM}'
    assert [m["id"] for m in diagnose_text(DATA, other_rank)["matches"]] == ["cuda-oom"]
    far = '  File "x.py", line 1, in _unshard\n' + "noise\n" * 60 + OOM
    assert [m["id"] for m in diagnose_text(DATA, far)["matches"]] == ["cuda-oom"]
    near = '  File "x.py", line 1, in _unshard\n' + "noise\n" * 30 + OOM
    assert diagnose_text(DATA, near)["matches"][0]["id"] == "fsdp-unshard-oom"
    after = OOM + "\n" + "noise\n" * 5 + '[rank0]:   File "x.py", line 1, in _unshard'  # no rank on OOM
    assert diagnose_text(DATA, after)["matches"][0]["id"] == "fsdp-unshard-oom"


def test_counts_evidence_and_cut_text():
    lines = [f"[rank{r}]: {OOM}" for r in range(8)]
    v = diagnose_text(DATA, "\n".join(lines))
    m = v["matches"][0]
    assert m["count"] == 8 and m["line"] == 1 and m["rank"] == 0
    assert len(m["evidence"]) == MAX_EVIDENCE
    long_line = OOM + " " + "x" * 1000
    assert len(first(long_line)["evidence"][0]["text"]) == MAX_TEXT


def test_verdict_fields_are_stable():
    v = diagnose_text(DATA, OOM)
    assert list(v) == ["status", "root_cause", "lines", "matches"]
    assert list(v["matches"][0]) == ["id", "title", "role", "severity", "line", "rank", "specific",
                                     "weak", "count", "signature", "evidence", "url", "fix", "action",
                                     "action_why"]
    assert list(v["matches"][0]["evidence"][0]) == ["line", "rank", "text"]
    assert v["matches"][0]["url"] == "failures/cuda-oom/"


def test_absurd_rank_numbers_are_ignored_not_rounded():
    m = first(f"[rank1234567890123456789]: {OOM}")
    assert m["rank"] is None
    assert first(f"[rank123456789012345]: {OOM}")["rank"] == 123456789012345


def test_engine_instances_do_not_share_state():
    a, b = Engine(DATA), Engine(DATA)
    a.feed(1, OOM)
    assert b.verdict()["matches"] == [] and a.verdict()["matches"]


def test_weak_signature_ranks_after_a_later_root():
    """An anomaly-mode warning printed first must not hide the real error printed after it."""
    nan = entry("nan-in-backward", "root",
                "Error detected in {word}. Traceback of forward call that caused the error:")
    nan = dataclasses.replace(nan, signatures=(dataclasses.replace(nan.signatures[0], weak=True),))
    data = matcherdata.build([nan, entry("cuda-oom", "root",
                                         "CUDA out of memory. Tried to allocate {size}")], [], ROLES)
    log = ("[rank0]: UserWarning: Error detected in MmBackward0. Traceback of forward call that "
           "caused the error:\n[rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to "
           "allocate 2.00 GiB")
    v = diagnose_text(data, log)
    assert [(m["id"], m["weak"]) for m in v["matches"]] == [("cuda-oom", False),
                                                            ("nan-in-backward", True)]
    alone = diagnose_text(data, log.split("\n")[0])
    assert alone["root_cause"] == "nan-in-backward"
