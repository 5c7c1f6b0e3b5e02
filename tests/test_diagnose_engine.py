"""The diagnose engine's behaviour: launcher prefixes and ranks, dirty lines, benign noise,
ranking (root > collateral > wrapper, context beats generic, earliest first)."""

from __future__ import annotations

import dataclasses

import pytest
from diagnose_support import ROLES, SMALL_BENIGN, SMALL_ENTRIES, entry, small_data

from generator.matching import diagnose, matcherdata
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
    lines = [f"[rank{r}]: {OOM.replace('2.00', str(r))}" for r in range(8)]
    v = diagnose_text(DATA, "\n".join(lines))
    m = v["matches"][0]
    assert m["count"] == 8 and m["line"] == 1 and m["rank"] == 0
    assert m["ranks"] == list(range(8))
    assert len(m["evidence"]) == MAX_EVIDENCE
    long_line = OOM + " " + "x" * 1000
    assert len(first(long_line)["evidence"][0]["text"]) == MAX_TEXT


def test_verdict_fields_are_stable():
    v = diagnose_text(DATA, OOM)
    assert list(v) == ["status", "root_cause", "lines", "matches", "suggestions"]
    assert list(v["matches"][0]) == ["id", "title", "role", "severity", "line", "rank", "time", "ranks",
                                     "specific", "weak", "generic", "cut", "count", "signature",
                                     "evidence", "url", "fix", "action", "action_why"]
    assert list(v["matches"][0]["evidence"][0]) == ["line", "rank", "ranks", "text"]
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


# -- shapes of pasted logs ----------------------------------------------------------------------
@pytest.mark.parametrize("line, rank", [
    (f"node-3 [stderr] [rank7]:[E909 12:00:00.123 ProcessGroupNCCL.cpp:632] [Rank 7] {WATCHDOG}", 7),
    (f"host-12: [rank2]: {OOM}", 2),
    (f"gpu-node-03: {OOM}", None),
    (f"> [rank1]: {OOM}", 1),
    (f">> > [rank6]: {OOM}", 6),
    (f"`[rank4]: {OOM}`", 4),
    (f"```[default5]:{OOM}", 5),
    (f"Jun 30 12:00:30 node-3 [stderr] [default2]:{OOM}", 2),
    (f"2026-06-30 12:00:30 node-3 [1,5]<stderr>:{OOM}", 5),
])
def test_text_before_a_known_prefix(line, rank):
    m = first(line)
    assert m["rank"] == rank
    assert m["evidence"][0]["text"].rstrip("`").endswith(("GiB", "timing out."))
    assert not m["evidence"][0]["text"].startswith(("node-", "host-", ">", "`", "[rank", "[default",
                                                   "[1,", "Jun"))


def test_a_quoted_prefix_inside_a_message_is_not_a_rank():
    # more than a launcher prefix's worth of text before it, or ": " before it: message text
    assert first(f"RuntimeError: see [rank3]: {OOM}")["rank"] is None
    assert first(f"{'x' * 90} [rank3]: {OOM}")["rank"] is None


def wrap(text: str, width: int) -> list[str]:
    """Lines cut every `width` characters, mid-word, as a terminal does."""
    return [text[i:i + width] for i in range(0, len(text), width)] or [""]


OOM_WRAPPED = wrap(f"[rank3]: {OOM} (GPU 3; 79.15 GiB total capacity; 75.71 GiB already allocated)", 60)
WRAPPED = (OOM_WRAPPED + ["[rank3]: Traceback (most recent call last):"]
           + wrap(f"[rank1]:[E1206 18:44:12.715298746 ProcessGroupNCCL.cpp:607] [Rank 1] {WATCHDOG}", 60)
           + ["short line", "[rank0]: done"])


# A message soft-wrapped at a blank inside prose (an issue text, an editor's wrap): no fixed
# width, so no wrap_width; the signature's key ('milliseconds') is on the second line, its
# needle ('Watchdog caught') on the first.
SOFT = ["The job hangs after the first epoch, then: Watchdog caught collective operation timeout: "
        "WorkNCCL(SeqNum=25211, OpType=ALLREDUCE,",
        "NumelIn=25690112, NumelOut=25690112, Timeout(ms)=600000) ran for 600043 milliseconds "
        "before timing out."]


def test_a_message_soft_wrapped_at_a_blank_is_matched_across_the_two_lines():
    v = diagnose_text(DATA, "\n".join(SOFT))
    assert [(m["id"], m["line"], m["count"]) for m in v["matches"]] == [("nccl-watchdog-timeout", 1, 1)]
    assert v["matches"][0]["evidence"][0]["text"] == (SOFT[0] + " " + SOFT[1])[:MAX_TEXT]
    for piece in SOFT:  # neither line matches alone
        assert diagnose_text(DATA, piece)["matches"] == []
    prefixed = "\n".join(f"[rank2]: {line}" for line in SOFT)
    assert [(m["id"], m["line"], m["rank"]) for m in diagnose_text(DATA, prefixed)["matches"]] == [
        ("nccl-watchdog-timeout", 1, 2)]


@pytest.mark.parametrize("first, second", [
    (SOFT[0] + "\n", SOFT[1]),  # a blank line between
    (f"[rank2]: {SOFT[0]}", f"[rank3]: {SOFT[1]}"),  # another rank's line
    (SOFT[0], f"[2026-06-30 12:00:30,229] {SOFT[1]}"),  # a line with its own timestamp
    (SOFT[0], f"  File \"train.py\", line 3, in main {SOFT[1]}"),  # a line that starts anew
])
def test_no_soft_join_across_a_break_another_rank_or_a_new_line(first, second):
    assert diagnose_text(DATA, f"{first}\n{second}")["matches"] == []


def test_no_soft_join_when_the_wrap_cuts_the_needle():
    """The signature's needle cut by the wrap: a reader that skips lines without a needle
    never sees this pair, so no engine joins it (the fast and the plain path agree)."""
    (needle,) = {s["needle"] for s in DATA["signatures"] if s["needle"] in SOFT[0]}
    first, last = needle.split(" ", 1)[0], needle.split(" ", 1)[1]
    head, tail = SOFT[0].split(f"{first} {last}", 1)
    head, second = f"{head}{first}", f"{last}{tail} {SOFT[1]}"
    assert diagnose_text(DATA, f"{head} {second}")["matches"]
    assert diagnose_text(DATA, f"{head}\n{second}")["matches"] == []


def test_a_signature_that_fits_one_line_is_not_matched_again_across_the_join():
    oom = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB"
    v = diagnose_text(DATA, f"{oom}\nGiB more were reserved by PyTorch")
    assert [(m["id"], m["count"]) for m in v["matches"] if m["id"] == "cuda-oom"] == [("cuda-oom", 1)]


def test_wrapped_lines_are_joined_so_a_signature_spans_the_wrap():
    text = "\n".join(WRAPPED)
    assert Engine(DATA).wrap_width(WRAPPED) == 60
    v = diagnose_text(DATA, text)
    assert [(m["id"], m["line"], m["rank"]) for m in v["matches"]] == [
        ("cuda-oom", 1, 3), ("nccl-watchdog-timeout", len(OOM_WRAPPED) + 2, 1)]
    assert v["matches"][0]["evidence"][0]["text"].startswith(OOM)
    # cut at the wrap, neither piece matches alone
    assert all(diagnose_text(DATA, line)["matches"] == [] for line in WRAPPED)


def test_a_line_that_starts_like_its_own_line_is_not_glued_on():
    # 60 characters exactly, then a rank-prefixed line: two lines, not one
    head = "[rank0]: epoch 3 step 120 loss 1.2345 lr 0.0001 tokens 4096!"
    assert len(head) == 60
    lines = WRAPPED + [head, f"[rank2]: {OOM}"[:60], head, "Traceback (most recent call last):",
                       head, "", *wrap(OOM, 60)]
    v = diagnose_text(DATA, "\n".join(lines))
    oom = v["matches"][0]
    assert oom["id"] == "cuda-oom"
    # the first OOM spans a wrap; the cut one after `head` is not completed by `head`; the
    # last one is completed by its own continuation, not by the blank line before it
    assert [(e["line"], e["rank"]) for e in oom["evidence"]] == [(1, 3), (len(lines) - 1, None)]


def test_a_log_is_not_taken_for_wrapped_by_a_few_long_lines():
    eng = Engine(DATA)
    # the longest line once, or long lines followed by prefixed lines: not wrapped
    assert eng.wrap_width([OOM + " and then some more text", "next line"]) == 0
    assert eng.wrap_width([f"[rank{r}]: {OOM}" for r in range(8)]) == 0
    assert eng.wrap_width(["x" * 30, "y" * 30, "z"]) == 0  # narrower than any terminal
    # the same longest line repeated (a progress bar), each followed by an ordinary line
    bar = "Loading checkpoint shards: 100%|##########| 3/3 [00:05<00:00,  1.71s/it]"
    assert eng.wrap_width([bar, "model loaded", bar, "model loaded", bar, "done"]) == 0


def test_wrapped_message_cut_mid_word_across_several_lines():
    long = f"[rank5]: {NCCL_ERR}"
    lines = wrap(long, 48)
    assert len(lines) == 4
    v = diagnose_text(DATA, "\n".join(["[rank0]: step 1", *lines, "[rank0]: step 2"] * 2))
    assert [(m["id"], m["rank"], m["line"]) for m in v["matches"]] == [
        ("nccl-unhandled-system-error", 5, 2)]


EVENT = ('{"name": "torchelastic.worker.status.FAILED", "source": "WORKER", "timestamp": 0, '
         '"metadata": {"run_id": "none", "global_rank": 3, "group_rank": 0, "worker_id": "48213", '
         '"role": "default", "hostname": "gpu-node-01", "state": "FAILED", "total_run_time": 95, '
         '"rdzv_backend": "static", "raw_error": "{\\"message\\": {\\"message\\": \\"OutOfMemoryError: '
         'CUDA out of memory. Tried to allocate 2.00 GiB.\\", \\"extraInfo\\": {\\"py_callstack\\": '
         '\\"Traceback (most recent call last):\\\\n  File \\\\\\"/w/train.py\\\\\\", line 13, in '
         '<module>\\\\n    forward()\\\\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate '
         '2.00 GiB.\\\\n\\", \\"timestamp\\": \\"1796306000\\"}}}", "metadata": "{\\"group_world_size\\": '
         '1, \\"entry_point\\": \\"python\\", \\"local_rank\\": [3], \\"exit_code\\": [1]}", '
         '"agent_restarts": 0, "duration_ms": null}}')


def test_torchelastic_event_lines_are_matched_by_their_raw_error():
    import json

    assert json.loads(EVENT)["metadata"]["global_rank"] == 3
    v = diagnose_text(DATA, f"some agent line\n{EVENT}\n")
    assert [(m["id"], m["line"], m["rank"], m["count"]) for m in v["matches"]] == [("cuda-oom", 2, 3, 1)]
    assert v["matches"][0]["evidence"][0]["text"] == "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB."
    # with a launcher prefix in front, a null rank, a plain-text raw_error (an agent's traceback)
    agent = EVENT.replace('"global_rank": 3', '"global_rank": null').replace(
        EVENT[EVENT.index('"raw_error": ') + 13:EVENT.index(', "metadata": "{')],
        json.dumps(f"Traceback (most recent call last):\n{NCCL_ERR}\n"))
    v = diagnose_text(DATA, f"[default1]:{agent}")
    assert [(m["id"], m["rank"]) for m in v["matches"]] == [("nccl-unhandled-system-error", 1)]
    # an event that is not valid JSON (cut off) is an ordinary line
    broken = diagnose_text(DATA, EVENT[:-2])["matches"]
    assert [(m["id"], m["rank"]) for m in broken] == [("cuda-oom", None)]
    assert broken[0]["evidence"][0]["text"].startswith('{"name": "torchelastic.worker.status.FAILED"')


def test_a_generic_signature_alone_names_no_root():
    generic = entry("fsdp-meta", "root", "Cannot copy out of meta tensor; no data!")
    generic = dataclasses.replace(generic, signatures=(dataclasses.replace(
        generic.signatures[0], generic=True, weak=True),))
    data = matcherdata.build([*SMALL_ENTRIES, generic], SMALL_BENIGN, ROLES)
    v = diagnose_text(data, "NotImplementedError: Cannot copy out of meta tensor; no data!")
    assert v["status"] == "only-consequences-found" and v["root_cause"] is None
    assert [(m["id"], m["generic"], m["weak"]) for m in v["matches"]] == [("fsdp-meta", True, True)]
    v = diagnose_text(data, f"NotImplementedError: Cannot copy out of meta tensor; no data!\n{OOM}")
    assert v["root_cause"] == "cuda-oom" and [m["id"] for m in v["matches"]] == ["cuda-oom", "fsdp-meta"]
    # with its context, a generic template is a specific root
    ctx = dataclasses.replace(generic, signatures=(dataclasses.replace(
        generic.signatures[0], generic=True, weak=False, context=("in fully_shard",)),))
    data = matcherdata.build([*SMALL_ENTRIES, ctx], SMALL_BENIGN, ROLES)
    alone = "NotImplementedError: Cannot copy out of meta tensor; no data!"
    v = diagnose_text(data, alone)  # without its context: listed as a lead, not the cause
    assert v["root_cause"] is None and [(m["id"], m["generic"]) for m in v["matches"]] == [("fsdp-meta", True)]
    v = diagnose_text(data, f'  File "train.py", line 3, in fully_shard\n{alone}')
    assert v["root_cause"] == "fsdp-meta" and v["matches"][0]["specific"]


REPEATED_START = "initializing ddp: GLOBAL_RANK: {n}, MEMBER: {n}/{n}"


def repeated_data():
    dup = entry("slurm-dup", "root", REPEATED_START)
    dup = dataclasses.replace(dup, signatures=(dataclasses.replace(dup.signatures[0], repeated=True),))
    return matcherdata.build([*SMALL_ENTRIES, dup], SMALL_BENIGN, ROLES)


def test_a_repeated_signature_needs_the_same_line_twice_in_one_file(tmp_path):
    data = repeated_data()
    healthy = "".join(f"initializing ddp: GLOBAL_RANK: {r}, MEMBER: {r + 1}/4\n" for r in range(4))
    assert diagnose_text(data, healthy)["matches"] == []
    # two processes took rank 1 (and rank 0): the second copy of a line is the evidence
    dup = ("initializing ddp: GLOBAL_RANK: 1, MEMBER: 2/4\nGPU available: True\n"
           "initializing ddp: GLOBAL_RANK: 0, MEMBER: 1/4\n"
           "[rank3]: initializing ddp: GLOBAL_RANK: 1, MEMBER: 2/4\n"
           "initializing ddp: GLOBAL_RANK: 0, MEMBER: 1/4\n")
    v = diagnose_text(data, dup)
    assert v["root_cause"] == "slurm-dup"
    m = v["matches"][0]
    assert (m["line"], m["rank"], m["count"]) == (4, 3, 2)
    # lines of one width read as a hard-wrapped file are joined: every match in the join counts
    equal = "".join(f"initializing ddp: GLOBAL_RANK: {r}, MEMBER: {r + 1}/4\n" for r in (1, 1, 0, 0))
    v = diagnose_text(data, "GPU available: True, used: True\n" + equal + "```\n")
    assert v["root_cause"] == "slurm-dup"
    # once in each of two files (two nodes, or two attempts) is no evidence
    a, b = tmp_path / "a.log", tmp_path / "b.log"
    a.write_text("initializing ddp: GLOBAL_RANK: 1, MEMBER: 2/4\n", encoding="utf-8")
    b.write_text("initializing ddp: GLOBAL_RANK: 1, MEMBER: 2/4\n", encoding="utf-8")
    assert diagnose.diagnose(data, [str(a), str(b)])["matches"] == []
    b.write_text("initializing ddp: GLOBAL_RANK: 1, MEMBER: 2/4\n" * 2, encoding="utf-8")
    assert [x["id"] for x in diagnose.diagnose(data, [str(a), str(b)])["matches"]] == ["slurm-dup"]


def test_suggestions_when_nothing_matches():
    log = ("[rank0]: Traceback (most recent call last):\n"
           "[rank0]: torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1970, "
           "unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5\n")
    v = diagnose_text(DATA, log)
    assert v["matches"] == [] and v["status"] == "no-known-failure"
    assert [s["id"] for s in v["suggestions"]][:1] == ["nccl-unhandled-system-error"]
    s = v["suggestions"][0]
    assert s["line"] == 2 and s["text"].startswith("torch.distributed.DistBackendError") and 30 <= s["score"] <= 100
    assert len(v["suggestions"]) <= 3
    # suggestions never appear next to matches, and healthy lines suggest nothing
    assert diagnose_text(DATA, log + OOM)["suggestions"] == []
    assert diagnose_text(DATA, "[rank0]: step 1 loss 2.0\n[rank0]: saved checkpoint")["suggestions"] == []


# -- many ranks -------------------------------------------------------------------------------
def test_identical_lines_of_several_ranks_are_one_evidence_line():
    log = "\n".join([f"[rank{r}]: {OOM}" for r in (4, 0, 1, 2, 3, 7)] + [f"[rank5]: {NCCL_ERR}"])
    v = diagnose_text(DATA, log)
    oom = v["matches"][0]
    assert oom["id"] == "cuda-oom" and oom["rank"] == 4 and oom["count"] == 6
    assert oom["ranks"] == [0, 1, 2, 3, 4, 7]
    assert [(e["line"], e["rank"], e["ranks"]) for e in oom["evidence"]] == [(1, 4, [0, 1, 2, 3, 4, 7])]


def several(files: list[str]) -> dict:
    """The verdict of several logs fed as diagnose_files feeds them."""
    from generator.matching import engine as engine_mod

    eng = Engine(DATA)
    start, placed = 0, []
    for text in files:
        lines = text.split("\n")
        eng.set_wrap(eng.wrap_width(lines))
        eng.feed_lines(lines, start + 1)
        placed.append({"name": f"f{len(placed)}", "start": start, "lines": len(lines)})
        start += len(lines) + engine_mod.file_gap(DATA)
    return engine_mod.attribute_files(eng.verdict(), placed)


RANK0 = ("[2026-06-30 12:00:40,100] INFO step 99\n"
         f"[rank0]: {NCCL_ERR}\n"
         "[2026-06-30 12:00:41,000] INFO shutting down")
RANK3 = ("[2026-06-30 12:00:29,900] INFO step 99\n"
         "[2026-06-30 12:00:30,229] INFO checkpoint\n"
         f"[rank3]: {OOM}")


def test_timestamps_name_the_earliest_failing_rank_across_files():
    v = several([RANK0, RANK3])
    assert [(m["id"], m["file"], m["rank"], m["time"]) for m in v["matches"]] == [
        ("cuda-oom", "f1", 3, "06-30 12:00:30.229000"),
        ("nccl-unhandled-system-error", "f0", 0, "06-30 12:00:40.100000")]
    assert v["root_cause"] == "cuda-oom"
    # glog headers are timestamps too (no year); the earliest rank's hit is named
    wd = [f"[rank{r}]:[E0630 12:00:{s} ProcessGroupNCCL.cpp:607] [Rank {r}] {WATCHDOG}" for r, s in ((1, 50), (2, 45))]
    v = several([wd[0], wd[1]])
    assert [(m["id"], m["rank"], m["file"]) for m in v["matches"]] == [("nccl-watchdog-timeout", 2, "f1")]
    assert v["matches"][0]["time"] == "06-30 12:00:45.000000"


def test_without_timestamps_or_in_one_file_the_order_of_lines_decides():
    plain = [RANK0.replace("[2026-06-30 12:00:40,100] ", ""), RANK3.replace("[2026-06-30 12:00:30,229] ", "")
             .replace("[2026-06-30 12:00:29,900] ", "")]
    assert several(plain)["root_cause"] == "nccl-unhandled-system-error"
    # one file: the earliest line, whatever the clock says
    assert diagnose_text(DATA, RANK0 + "\n" + RANK3)["root_cause"] == "nccl-unhandled-system-error"
    # a match with an untimed hit is not ordered by time
    assert several([RANK0, f"[rank5]: {OOM}\n" + RANK3])["root_cause"] == "nccl-unhandled-system-error"


# -- a log that ends inside a message ------------------------------------------------------
CUT_WATCHDOG = "[rank3]: RuntimeError: Watchdog caught collective operation tim"


def test_a_log_cut_inside_a_message_names_the_one_entry_it_starts_as_a_lead():
    for end in ("", "\n", "\n```\n", "\n```\n\n"):
        v = diagnose_text(DATA, "[rank3]: Traceback (most recent call last):\n" + CUT_WATCHDOG + end)
        assert [(m["id"], m["generic"], m["cut"], m["rank"], m["line"]) for m in v["matches"]] == [
            ("nccl-watchdog-timeout", True, True, 3, 2)], end
        assert v["root_cause"] is None and v["suggestions"] == []


def test_a_cut_line_names_nothing_when_it_is_not_the_end_ambiguous_short_or_mid_word():
    # more than CUT_SLACK lines after it: the log goes on, the line was printed that way
    assert diagnose_text(DATA, CUT_WATCHDOG + "\nnext\nnext\nnext\nnext")["matches"] == []
    # two entries start with the same text (cuda-oom, fsdp-unshard-oom)
    assert diagnose_text(DATA, "[rank1]: torch.OutOfMemoryError: CUDA out of memory. Tri\n")["matches"] == []
    # fewer than CUT_MIN characters of the message
    assert diagnose_text(DATA, "RuntimeError: Watchdog caught co\n")["matches"] == []
    # the text must start at a word boundary
    assert diagnose_text(DATA, "RuntimeError: xWatchdog caught collective operation tim\n")["matches"] == []
    # a line that goes on differently is not a cut copy of the message
    assert diagnose_text(DATA, "RuntimeError: Watchdog caught collective operation timer\n")["matches"] == []
    # an entry a whole line named already keeps that match (not marked cut)
    v = diagnose_text(DATA, WATCHDOG + "\n" + CUT_WATCHDOG)
    assert [(m["id"], m["generic"], m["cut"], m["count"]) for m in v["matches"]] == [
        ("nccl-watchdog-timeout", False, False, 1)]
