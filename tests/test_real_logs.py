"""Real logs from public issue threads (tests/real_logs/, labels.tsv: file, expected_id,
also_acceptable, split, uncovered, source, rationale).

Only DEV logs are asserted here: a dev log whose expected id has an entry is diagnosed as
that failure (first match), and a dev negative gets no root cause. TEST logs are never
asserted in tests; `python bench/recall.py` measures them (tests/real_logs/README.md)."""

from __future__ import annotations

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
        "log shape: Ray's deduplicated frames only ('[repeated 7x across cluster]'), cut before "
        "the parallel_state assertion",
    "r043-particleflow-watchdog-frames-only.log":
        "log shape: only the watchdog's C++ frames (checkTimeout/ncclCommWatchdog), no message",
    "r044-torchtune-fsdp2-preforward-unshard-frames.log":
        "log shape: FSDP2 pre_forward/wait_for_unshard frames, cut before the OOM line",
    "r056-minigpt4-exitcode-minus6.log":
        "log shape: 'failed (exitcode: -6)' without the ChildFailedError context the "
        "signature requires (fragment ends at the launcher's first frames)",
    "r087-spconv-fork-cuda-second-half-only.log":
        "wording: only the second sentence 'To use CUDA with multiprocessing, you must use "
        "the 'spawn' start method'",
    "r100-lomo-local-rank-keyerror-ipython.log":
        "wording: KeyError: 'LOCAL_RANK' from os.environ in user code (no signature)",
    "r101-mmaction-rank-keyerror-init-dist.log":
        "wording: KeyError: 'RANK' from os.environ in a framework's init_dist (no signature)",
    "r102-chemformer-deepspeed-local-rank-keyerror.log":
        "wording: KeyError: 'LOCAL_RANK' in DeepSpeed's _configure_with_arguments",
    "r104-aisummer-rank-keyerror-repl.log":
        "wording: KeyError: 'RANK' from os.environ at a Python REPL",
    "r120-nccl-ibp-plugin-completion-one-line.log":
        "wording: a vendor plugin's 'NET/IBP:Got completion from peer' after prose",
    "r121-avhubert-rendezvous-timeout-json-error-handler.log":
        "log shape: torchelastic error_handler JSON ('\"message\": \"RendezvousTimeoutError: \"')",
    # second batch (r133-r171), measured at cf66be2
    "r134-pytorch-only-cuda-dense-old-wording.log":
        "wording: torch 1.0 'Only CUDA dense tensor is supported for NCCL collective operations'",
    "r135-trl-ppo-gather-stats-interleaved-frames.log":
        "log shape: several ranks' all_reduce frames interleaved, no error line",
    "r139-nccl-socket-creation-failed-no-ip-interface.log":
        "wording: NCCL 2.4 'WARN Socket creation failed : Address family not supported by protocol'",
    "r141-fastai-docker-bus-error-wrapped-quote.log":
        "log shape: the bus-error message hard-wrapped mid-sentence inside a quoted sentence",
    "r163-pytorch-powbackward1-nan-1st-output-backticks.log":
        "wording: 'returned nan values in its 1st output' (ordinal 1st, not Nth)",
    # third batch (r172-r208), measured at 3c99020
    "r179-dsb2018-missing-keys-two-gpus.log":
        "wording: 'Missing key(s) in state_dict' without a 'module.' key in the fragment",
    "r185-paimegatron-socket-timeout-line-numbers.log":
        "log shape: viewer line numbers between lines, cut before the DistStoreError",
    "r186-accelerate-fsdp-device-id-multinode-frames.log":
        "log shape: frames down to FSDP(model), cut before the ValueError",
    "r190-returnn-gpu-unknown-error-pcie-aer.log":
        "wording: nvidia-smi 'Unable to determine the device handle ... Unknown Error' and "
        "kernel PCIe AER lines",
    "r196-deepspeed-fused-adam-ipython-jupyter.log":
        "log shape: IPython-rendered CalledProcessError of the extension build, no "
        "'Error building extension' line",
    "r203-hllm-childfailed-no-summary.log":
        "wording: a bare 'ChildFailedError' line without the summary table",
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
        assert re.fullmatch(r"r\d{2,3}-[a-z0-9-]+\.log", row["file"]), row["file"]
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
