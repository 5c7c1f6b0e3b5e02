"""Real logs from public issue threads (tests/real_logs/, labels.tsv: file, expected_id,
also_acceptable, split, uncovered, source, rationale).

Only DEV logs are asserted here: a dev log whose expected id has an entry is diagnosed as
that failure (first match), and a dev negative gets no root cause. TEST logs are never
asserted in tests; `python bench/recall.py` measures them (tests/real_logs/README.md)."""

from __future__ import annotations

import argparse
import re
import sys

import pytest
from helpers import REPO

from generator.entries.catalog import load_catalog
from generator.matching.engine import Engine, diagnose_text
from generator.project import Project

sys.path.insert(0, str(REPO / "bench"))
from recall import (  # the benchmark's reader and split rule, one definition  # noqa: E402
    NEGATIVE,
    acceptable,
    cited_threads,
    log_range,
    read_labels,
    split_for,
    thread_url,
)

LOGS = REPO / "tests" / "real_logs"
ROWS = read_labels()
ENTRY_IDS = {p.stem for p in (REPO / "entries").glob("*.yaml")}

# Dev logs the engine does not yet diagnose as labelled, measured when the split was made
# (bench/recall.py at 821110b). Strict: when the engine learns one, its test fails as XPASS;
# delete the line then. Each says what the log needs.
KNOWN_DEV_MISSES = {
    "r115-roll-megatron-pp-group-ray-repeated.log":
        "no failure text: Ray's deduplicated frames only ('[repeated 7x across cluster]'), cut "
        "before the parallel_state assertion",
    "r044-torchtune-fsdp2-preforward-unshard-frames.log":
        "no failure text: FSDP2 pre_forward/wait_for_unshard frames, cut before the OOM line "
        "(the frames are those of any error in an FSDP2 forward; naming OOM would be a guess)",
    "r120-nccl-ibp-plugin-completion-one-line.log":
        "wording: a vendor plugin's 'NET/IBP:Got completion from peer' after prose; no public "
        "source prints 'NET/IBP' (NCCL's own net_ib prints 'NET/IB : Got completion ...')",
    # second batch (r133-r171), measured at cf66be2
    "r135-trl-ppo-gather-stats-interleaved-frames.log":
        "no failure text: several ranks' all_reduce frames interleaved, cut before the error "
        "line (the label comes from the issue title)",
    "r163-pytorch-powbackward1-nan-1st-output-backticks.log":
        "wording: 'returned nan values in its 1st output': no torch source prints '1st' "
        "(engine.cpp prints '<i>th output.' in the 1.0-era, 1.2-1.5-era and 1.6-2.15 sources)",
    # third batch (r172-r208), measured at 3c99020
    "r185-paimegatron-socket-timeout-line-numbers.log":
        "no failure text: viewer line numbers between lines, and cut inside the agent's frames "
        "before the DistStoreError (the label comes from the issue title)",
    "r186-accelerate-fsdp-device-id-multinode-frames.log":
        "no failure text: frames down to FSDP(model), cut before the ValueError (the label "
        "comes from the issue title)",
    "r190-returnn-gpu-unknown-error-pcie-aer.log":
        "wording: nvidia-smi 'Unable to determine the device handle ... Unknown Error' (closed "
        "source: no upstream file to cite) and corrected PCIe AER lines (not a fault alone)",
    # fourth batch (r209-r261), measured at 0be8a88
    "r209-nanogpt-nccl-async-error-ib-disable-fix.log":
        "generic line: only the old-format async-error-handling lines ('Some NCCL operations have "
        "failed or timed out', wrapped mid-word), which name no cause; the label (an unusable IB "
        "path between the nodes) comes from the NCCL_IB_DISABLE=1 fix in the thread",
    # fifth batch, first half (r262-r301), measured at 6e86d0d
    "r277-nccl-m40-allreduce-test-stall-quoted.log":
        "no failure text: an NCCL 1.x all_reduce test's device list and table header, then "
        "nothing (a hang); the label (PCIe ACS blocking peer-to-peer) comes from the thread's fix",
    "r287-lightning-ddp-boringmodel-hang-p2p-driver.log":
        "no failure text: Lightning's accelerator banner and a tensorboardX notice before a hang; "
        "the label (broken GPU peer-to-peer, fixed by NCCL_P2P_DISABLE=1) comes from the thread",
    "r295-horovod-roce-ibv-create-qp-failed-wrapped.log":
        "generic line: 'Call to ibv_create_qp failed' is read as an IB verbs resource failure "
        "(nccl-ib-memory-registration-failed ranks first); the labelled unhandled system error "
        "is only in the issue title, not in the excerpt",
    # sixth batch (r357-r398), measured at 1535db4
    "r367-vlmerging-lightning-spawn-address-in-use.log":
        "wrapper-only: Lightning ddp_spawn's 'Process 0 terminated' traceback stops in "
        "strategy.setup_environment; 'RuntimeError: Address already in use' is only in the issue "
        "title, so mp-spawn-process-failed (a wrapper) comes first",
    "r377-alpaca-interleaved-ranks-processgroupnccl-no-gpus.log":
        "log shape: several ranks' tracebacks interleaved mid-line ('RuntimeErrorbackend_class = "
        "ProcessGroupNCCL(...)backend_class'); the message 'ProcessGroupNCCL is only supported "
        "with GPUs, no GPUs found!' is cut off and only in the issue title",
    # seventh batch (r401-r437), measured at 597e6f1
    "r404-deepspeed-gptj-resume-optim-states-killing-subprocess.log":
        "no failure text: only the deepspeed launcher's 'Killing subprocess N' lines after the "
        "ZeRO checkpoint read; the 'exits with return code = -9' line is cut (the -9 is in the "
        "issue title); deepspeed-launcher-worker-failed (a wrapper) comes first and says the "
        "return-code line is missing",
    "r420-transformers-launch-frames-only-reducer-mark-variable-ready.log":
        "no failure text: C++ frames only (c10d::Reducer::mark_variable_ready from "
        "Reducer::autograd_hook); the 'Expected to mark a variable ready only once' message is "
        "above the excerpt",
    "r393-fluxgym-windows-info-prefixed-launcher-libuv.log":
        "log shape: every line carries the app's '[time] [INFO]' prefix and the excerpt stops in "
        "accelerate's multi_gpu_launcher frames; 'use_libuv was requested but PyTorch was build "
        "without libuv support' is only in the issue title",
    "r429-transformers-iterable-dispatch-batches-concatenate-rank1.log":
        "no failure text: cut at accelerate/data_loader.py's __iter__ frame, before the "
        "concatenate(...) line and the size error (the label comes from the issue title; its "
        "entry, accelerate-dispatch-batches-shape-mismatch, was written after the batch)",
    # eleventh batch (r532-r545), measured at f59a6eb
    "r532-nccltests-allreduce-openmpi-ib-completion-error12-then-illegal-address.log":
        "ranking: NCCL 2.4's 'Got completion with error 12' (the first failure, line 2) is a "
        "plain root, the later collateral \"Cuda failure 'an illegal memory access was "
        "encountered'\" is confirmed by its NCCL context and ranks first; both are in the top 3",
    # (r542: labelled new: until nccl-tests-built-without-mpi was written, blind to it)
    "r542-nccltests-mpirun-two-hosts-ran-separately-not-built-with-mpi.log":
        "ambiguous text: two footers ('# Avg bus bandwidth : 3.94145' and '3.94156') of two "
        "hosts that each ran all their GPUs; differing values and the same footer printed by two "
        "sequential runs cannot be told apart, so the entry's repeated signature (identical "
        "'Avg bus bandwidth : 0' lines of one-GPU processes) does not fire",
    # twelfth batch (r546-r563), measured at 5f4fe6e
    "r558-pyg-dataparallel-scatter-indexerror.log":
        "generic line: a bare 'IndexError: list index out of range' raised in PyG's own "
        "DataParallel.scatter (torch_geometric/nn/data_parallel.py), no torch or NCCL wording; "
        "no fix in the thread, the label rests on the frames",
    # batches r564-r583, r584-r603 (no new dev miss) and r604-r623, measured at ab3f010
    "r618-aml-kubernetes-cmaks-rank-env-empty-argparse-invalid-int.log":
        "generic line: the user script's own argparse error \"argument --rank: invalid int "
        "value: ''\" (the job template's rank variable was empty); argparse prints it for any "
        "int option, and launch-command-error owns only torchrun's and launch.py's options",
    # batch r644-r663, measured at f971cb5 (batch r624-r643 at 2deb0d2: no dev miss)
    "r652-nemo-asr-jupyterlab-ddp-stuck-initializing-member-1-of-2.log":
        "no failure text: the run hangs after Lightning's healthy 'initializing ddp: "
        "GLOBAL_RANK: 0, MEMBER: 1/2' banner (the script-relaunching ddp strategy started from "
        "JupyterLab); the zmq 'Address is already in use' the thread mentions is not in the log",
    # batch r664-r683, measured at 3b34e06 (batch r684-r703 at 8568672: no dev miss)
    "r669-megatron-deepspeed-moe-usage-dump-local-rank-error-cut.log":
        "no failure text: the middle of the script's argparse usage dump, cut before "
        "'error: unrecognized arguments: --local_rank=1' (only in the issue title)",
    "r670-flagai-aquila-pretrain-launch-futurewarning-usage-cut.log":
        "no failure text: torch.distributed.launch's healthy FutureWarning about --local-rank, "
        "then the first lines of the script's usage dump; the 'unrecognized arguments: "
        "--local-rank=1' line is cut (only in the issue title)",
    "r673-megatron-llama3-8k-seq-oom-interleaved-traceback-no-error-line.log":
        "no failure text: two ranks' Megatron tracebacks interleaved line by line, cut in "
        "tensor_parallel/layers.py before 'CUDA out of memory' (only in the commenter's prose)",
    # r706-r725: one dev miss
    "r719-myria3d-slurm-srun-step-cancelled-during-data-prep-blocking-wait.log":
        "no failure text: only Slurm's cancellation lines (the label rests on the reporter's fix, "
        "removing NCCL_BLOCKING_WAIT / NCCL_ASYNC_ERROR_HANDLING, and the timing)",
    # (r753-r754: labelled new: until oneccl-worker-thread-start-failed was written)
    "r754-xpu-triton-max1550-oneccl-failed-to-start-worker-after-all-reduce.log":
        "wording: 'oneCCL: failed to start worker #0' (no space after '#'); every oneCCL tag "
        "prints 'failed to start worker # <n>', so the entry lists it in also_quoted_as only",
    # (r752: labelled new: until c10d-tcpstore-unexpected-response was written)
    "r752-classkg-spawn-init-process-group-env-rendezvous-traceback-cut.log":
        "wrapper-only: spawn's 'Process 0 terminated' traceback cut at next(rendezvous_iterator), "
        "before the TCPStore frame and 'Stop_waiting response is expected' (only in the issue "
        "title), so mp-spawn-process-failed (a wrapper) comes first",
    # batch r757-r776, measured at 229b429 (174 entries)
    "r757-mmdetection-htc-lvis-dist-test-frames-then-multi-gpu-test-traceback-oom.log":
        "no failure text: C++ frames and a traceback cut mid-line in multi_gpu_test; 'simply "
        "caused by GPU OOM' is the maintainer's word, no 'out of memory' line is in the excerpt",
    "r765-lora-scripts-windows-2x4090-gui-info-then-launcher-traceback-cut-before-libuv.log":
        "no failure text: GUI INFO lines and the start of the launcher traceback; 'use_libuv "
        "was requested but PyTorch was build without libuv support' is only in the issue title",
    "r770-mmsegmentation-dgx-a100-dist-train-padded-info-lines-cut-before-nccl-internal-error.log":
        "no failure text: the launcher banner and mmseg INFO lines only; the NCCL internal "
        "error is in the issue's description, not in the log block",
    "r771-ultralytics-yolo11s-dual-gpu-epoch46-rank1-tal-traceback-cut-before-oom.log":
        "no failure text: rank 1's frames in utils/tal.py, cut before the OutOfMemoryError line "
        "(the label rests on the issue title)",
    # batch r817-r836, measured at 23e4335 (177 entries)
    "r825-lightning-ddp-jupyter-notebook-mp-spawn.log":
        "no failure text: a notebook traceback through Lightning 0.x's trainer.fit into "
        "mp.spawn's join(), cut before the exception line; Lightning 0.x had no interactive-"
        "environment check, so none of its later wordings can be there",
    "r826-mdsam-libuv-windows-launch-cut.log":
        "no failure text: the Windows redirects NOTE and the OMP_NUM_THREADS banner only; the "
        "use_libuv error is in the issue title",
    "r827-super-gradients-ddp-relaunch-from-notebook.log":
        "no failure text: launch_agent's source lines (a notebook traceback) cut before "
        "ChildFailedError's message; the children's own error is not in the excerpt",
    "r828-modded-nanogpt-invalid-device-ordinal-docker-4x4090.log":
        "log shape: cut mid-word ('RuntimeError: CUDA error: invalid de'); the completion "
        "(device ordinal, device function, ...) is not in the excerpt",
    # relabelled to c10d-backend-collective-unsupported when that entry was written
    "r660-dlrm-mpirun-nccl-alltoall-scatter-traceback-no-error-line.log":
        "no failure text: frames down to dist.scatter in distributed_c10d.py, cut before the "
        "raise and 'ProcessGroupNCCL does not support scatter' (the label rests on the issue "
        "title); the frames are those of any scatter error, so naming the entry would be a guess",
    # moved from test to dev (an entry author saw the thread), measured then
    "r270-maskrcnn-benchmark-thd-nccl-backend-not-available.log":
        "wording: torch 0.4's THD 'the distributed NCCL backend is not available; try to "
        "recompile the THD package ...' (General.cpp), compiled only into builds without NCCL: "
        "no scanned wheel holds it and its source line was not found",
    # r904-r1003, measured right after each merge (the 'measured before any tuning' commits)
    "r907-nemo-gpt-oss-expert-grid-not-divisible-slurm-prefix-cut.log":
        "no failure text: Lightning strategy frames, cut before the ValueError (the label "
        "comes from the issue title)",
    "r927-llamafactory-zero3-single-process-weight-2d-cut.log":
        "no failure text: Trainer INFO lines and the first frames, cut before the error",
    "r937-trl-grpo-vllm-diststore-wait-timeout-cut.log":
        "no failure text: GRPO _prepare_inputs frames, cut before 'DistStoreError: wait "
        "timeout' (the label comes from the issue title)",
    "r957-gpt-neox-zero3-pipeline-pdsh-prefixed-setup-cut.log":
        "no failure text: pdsh-prefixed set-up lines, cut before any exception",
    "r972-mmdet27-dist-train-calledprocesserror-exit-status-2-prose.log":
        "wrapper only: torch.distributed.launch's 'returned non-zero exit status 2.' (now "
        "elastic-child-failed's wrapper line); the worker's argparse or path error is not in "
        "the excerpt, and status 2 alone names no cause",
    "r977-fairseq-launch-two-nodes-tcp-init-connection-timeout-cut.log":
        "no failure text: fairseq's distributed_init frames, cut before the timeout",
    "r990-chat-univi-zero3-rank-disagreement-traceback-cut.log":
        "no failure text: Trainer and DeepSpeed backward frames, cut before the error",
}


def _dev_cases(negative: bool) -> list:
    cases = []
    for row in ROWS:
        if row["split"] != "dev" or (row["expected_id"] == NEGATIVE) != negative:
            continue
        if not negative and row["expected_id"] not in ENTRY_IDS:
            continue  # no entry yet: coverage, measured by bench/recall.py
        marks = ()
        if row["file"] in KNOWN_DEV_MISSES:
            marks = (pytest.mark.xfail(reason=KNOWN_DEV_MISSES[row["file"]], strict=True),)
        cases.append(pytest.param(row, id=row["file"], marks=marks))
    return cases


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine(load_catalog(Project(REPO)).matcher)


def _verdict(engine: Engine, row: dict[str, str]) -> dict:
    text = (LOGS / row["file"]).read_text(encoding="utf-8", errors="replace")
    return diagnose_text(engine, text)


@pytest.mark.parametrize("row", _dev_cases(negative=False))
def test_dev_log_is_diagnosed_as_labelled(engine, row):
    verdict = _verdict(engine, row)
    assert verdict["matches"], f"{row['file']}: nothing recognised"
    first = verdict["matches"][0]["id"]
    assert first in acceptable(row), f"{row['file']}: diagnosed {first}, labelled {row['expected_id']}"


@pytest.mark.parametrize("row", _dev_cases(negative=True))
def test_dev_negative_gets_no_root_cause(engine, row):
    verdict = _verdict(engine, row)
    assert verdict["root_cause"] is None, f"{row['file']}: root {verdict['root_cause']} on a negative"


def test_known_misses_are_dev_logs_with_an_entry():
    rows = {r["file"]: r for r in ROWS}
    for name in KNOWN_DEV_MISSES:
        assert name in rows, f"{name}: not in labels.tsv"
        assert rows[name]["split"] == "dev", f"{name}: a test log in the dev miss list"


def test_labels_are_well_formed():
    names = [r["file"] for r in ROWS]
    assert len(names) == len(set(names)), "a log is labelled twice"
    on_disk = {p.name for p in LOGS.glob("*.log")}
    assert set(names) == on_disk, f"unlabelled: {on_disk - set(names)}; missing: {set(names) - on_disk}"
    for row in ROWS:
        assert re.fullmatch(r"r\d{2,4}-[a-z0-9-]+\.log", row["file"]), row["file"]
        assert re.fullmatch(r"-none-|new:[a-z0-9-]+|[a-z0-9]+(-[a-z0-9]+)+", row["expected_id"]), row
        assert row["split"] in ("dev", "test"), row
        assert row["uncovered"] in ("uncovered", "-"), row
        thread_url(row["source"])  # raises without a thread URL
        assert row["rationale"].strip(), row["file"]


def test_split_follows_the_rule():
    """The split column is what the documented rule gives (tests/real_logs/README.md)."""
    broken = [f"{r['file']}: {r['split']} (rule: {split_for(r)})" for r in ROWS if r["split"] != split_for(r)]
    assert not broken, broken


def test_no_entry_cites_a_test_thread():
    """An entry citing a test log's thread means someone tuned on it: move that row to dev
    (and say so) or drop the citation."""
    cited = cited_threads(REPO)
    leaks = [f"{r['file']} ({thread_url(r['source'])}) cited by {cited[thread_url(r['source'])]}"
             for r in ROWS if r["split"] == "test" and thread_url(r["source"]) in cited]
    assert not leaks, leaks


def test_log_range_reads_one_batch_and_refuses_reversed_bounds():
    assert log_range("644-663") == (644, 663)
    assert log_range("r624-r643") == (624, 643)
    for bad in ("663-644", "644", "a-b"):
        with pytest.raises(argparse.ArgumentTypeError):
            log_range(bad)
