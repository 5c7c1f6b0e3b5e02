"""Python and JavaScript engines give identical verdicts.

docs/assets/diagnose-engine.js (the Diagnose page's engine) runs under Node on every test
log, on dirty generated logs and on the engine tests' lines, in both its fast path (needle
scan) and its plain path (every line), and the JSON must equal Python's exactly.
"""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path

import pytest
from diagnose_support import REPO, ROLES, entry, node, run_node, small_data
from test_diagnose_engine import EVENT, NCCL_ERR, OOM, PREFIXED, SOFT, WATCHDOG, WRAPPED, wrap
from test_logread import SAMPLES

from generator.matching import diagnose, matcherdata

pytestmark = pytest.mark.skipif(node() is None, reason="node is not installed: "
                                "the JavaScript engine cannot be compared with Python's")


def corpus() -> list[Path]:
    logs = sorted((REPO / "tests" / "logs").glob("**/*.log"))
    logs += sorted((REPO / "tests" / "fixtures" / "logs").glob("**/*.log"))
    return logs


@pytest.fixture(scope="module")
def real_data():
    data, _ = diagnose.load_data(REPO)
    return data


def python_each(data, files):
    return [diagnose.diagnose(data, [str(f)]) for f in files]


def assert_same(py, js, files):
    assert len(py) == len(js)
    bad = [str(f) for f, a, b in zip(files, py, js, strict=True) if a != b]
    assert not bad, f"Python and JavaScript differ on: {bad[:10]}"


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["each", "each-plain"])
def test_every_test_log(real_data, tmp_path, mode):
    files = corpus()
    if not files:
        pytest.skip("no logs under tests/logs yet")
    assert_same(python_each(real_data, files), run_node(real_data, files, tmp_path, mode), files)


@pytest.mark.slow
def test_all_test_logs_as_one_multi_file_run(real_data, tmp_path):
    files = corpus()
    if len(files) < 2:
        pytest.skip("needs at least two logs")
    py = diagnose.diagnose(real_data, [str(f) for f in files])
    assert run_node(real_data, files, tmp_path, "fast") == py


def dirty_files(tmp: Path) -> list[Path]:
    out = []
    for name, data in sorted(SAMPLES.items()):
        p = tmp / f"{name}.log"
        p.write_bytes(data)
        out.append(p)
    rng = random.Random(11)
    pieces = [b"[rank3]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2 GiB",
              (b"Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1, OpType=BROADCAST, "
               b"NumelIn=1, NumelOut=1, Timeout(ms)=1) ran for 2 milliseconds before timing out."),
              b"\xff\xfe", b"\x1b[31m", b"\r", "🤗 é ß".encode(), b"\x00" * 3, b"[default4]:",
              b"[Rank 12] ", b"  File \"x.py\", line 3, in _pre_forward_unshard"]
    for i in range(12):
        body = b"".join(rng.choice(pieces) + rng.choice([b"\n", b"", b" ", b"\r\n"])
                        for _ in range(rng.randrange(5, 200)))
        p = tmp / f"random-{i}.log"
        p.write_bytes(body)
        out.append(p)
    long_line = tmp / "long-line.log"  # the 1 MiB character cut, with astral characters
    long_line.write_bytes(("😀" * 600_000 + " torch.OutOfMemoryError: CUDA out of memory. "
                           "Tried to allocate 2 GiB\n" + "x" * 3_000_000).encode())
    out.append(long_line)
    evidence_cut = tmp / "evidence-cut.log"  # the 400-character evidence cut on an emoji
    evidence_cut.write_bytes(("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2 GiB "
                              + "😀" * 500 + "\n").encode())
    out.append(evidence_cut)
    gz = tmp / "gzipped.log.gz"
    gz.write_bytes(gzip.compress(SAMPLES["crlf"]))
    out.append(gz)
    return out


@pytest.mark.parametrize("mode", ["each", "each-plain"])
def test_dirty_logs(real_data, tmp_path, mode):
    files = dirty_files(tmp_path)
    assert_same(python_each(real_data, files), run_node(real_data, files, tmp_path, mode), files)


def test_engine_test_lines_with_small_data(tmp_path):
    data = small_data()
    files = []
    for i, (line, _) in enumerate(PREFIXED):
        p = tmp_path / f"prefixed-{i}.log"
        p.write_text(line + "\n", encoding="utf-8")
        files.append(p)
    ctx = tmp_path / "context.log"
    ctx.write_text('[rank2]:   File "a.py", line 1, in _unshard\n' + "noise\n" * 10 +
                   "[rank2]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1 GiB\n"
                   "[rank5]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1 GiB\n",
                   encoding="utf-8")
    files.append(ctx)
    assert_same(python_each(data, files), run_node(data, files, tmp_path, "each"), files)
    assert_same(python_each(data, files), run_node(data, files, tmp_path, "each-plain"), files)


def test_cut_line_with_astral_characters_in_the_signature(tmp_path):
    """The cut-message lead compares the first CUT_MIN code points of a signature's text in
    both engines (JavaScript strings count UTF-16 units)."""
    entries = [entry("emoji-err", "root", "😀😀😀 launcher error: worker {n} went away"),
               entry("other-err", "root", "😀😀😀 launcher halted: workers disagree")]
    data = matcherdata.build(entries, [], ROLES)
    files = []
    # "short" holds 17 code points of a text (20 UTF-16 units): not enough in either engine
    for name, line in (("unique", "ValueError: 😀😀😀 launcher halted: workers dis"),
                       ("short", "ValueError: 😀😀😀 launcher erro")):
        p = tmp_path / f"{name}.log"
        p.write_text(line + "\n", encoding="utf-8")
        files.append(p)
    py = python_each(data, files)
    assert_same(py, run_node(data, files, tmp_path, "each"), files)
    assert [[m["id"] for m in v["matches"]] for v in py] == [["other-err"], []]


def test_repeated_signature(tmp_path):
    """A `repeated` signature counts from a line's second copy in one file, in both engines."""
    from test_diagnose_engine import repeated_data

    data = repeated_data()
    line = "initializing ddp: GLOBAL_RANK: 1, MEMBER: 2/4\n"
    texts = {"once.log": line, "twice.log": line + "noise\n" + "[rank5]: " + line,
             "healthy.log": line + line.replace("1, MEMBER: 2", "0, MEMBER: 1"),
             "equal-width.log": "GPU available: True\n" + line * 2
             + line.replace("1, MEMBER: 2", "0, MEMBER: 1") * 2 + "```\n"}
    files = []
    for name, text in texts.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
        files.append(tmp_path / name)
    py = python_each(data, files)
    assert [bool(v["matches"]) for v in py] == [False, True, False, True]
    assert_same(py, run_node(data, files, tmp_path, "each"), files)
    assert_same(py, run_node(data, files, tmp_path, "each-plain"), files)
    # the same line once in each of two files is no evidence; twice in one file is
    pair = [files[0], files[0]]
    py_pair = diagnose.diagnose(data, [str(f) for f in pair])
    assert py_pair["matches"] == [] and run_node(data, pair, tmp_path, "fast") == py_pair
    pair = [files[0], files[1]]
    py_pair = diagnose.diagnose(data, [str(f) for f in pair])
    assert py_pair["matches"] and run_node(data, pair, tmp_path, "fast") == py_pair


def test_role_order_and_limits_come_from_the_data(tmp_path):
    """Both engines rank by the roles' order in matcher.json (entries/vocabulary.yaml) and
    cut by its limits: reverse the order and a wrapper becomes the named cause."""
    from diagnose_support import SMALL_BENIGN, SMALL_ENTRIES

    from generator.matching import engine

    log = tmp_path / "cascade.log"
    log.write_text(
        "[rank1]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n"
        "torch.distributed.elastic.multiprocessing.errors.ChildFailedError:\n", encoding="utf-8")
    for roles, cause in ((("root", "collateral", "wrapper"), "cuda-oom"),
                         (("wrapper", "collateral", "root"), "elastic-child-failed")):
        data = matcherdata.build(SMALL_ENTRIES, SMALL_BENIGN, roles)
        data["limits"] = dict(data["limits"], max_text=12)
        py = engine.diagnose_text(data, log.read_text(encoding="utf-8"))
        (tmp_path / "matcher.json").unlink(missing_ok=True)
        js = run_node(data, [log], tmp_path)
        assert py["root_cause"] == cause
        assert [m["id"] for m in js["matches"]] == [m["id"] for m in py["matches"]]
        assert js["root_cause"] == cause
        assert all(len(e["text"]) == 12 for m in js["matches"] for e in m["evidence"])


def shape_files(tmp: Path) -> list[Path]:
    """Logs in the shapes people paste: prefixes after other text, quotes, wrapped lines,
    UTF-16 with CRLF, torchelastic events, and a log with nothing known (suggestions)."""
    texts = {
        "embedded-prefix": (f"node-3 [stderr] [rank7]:[E909 12:00:00.1 ProcessGroupNCCL.cpp:632] "
                            f"[Rank 7] {WATCHDOG}\nhost-12: [rank2]: {OOM}\n"),
        "quoted": f"> [rank1]: {OOM}\n> `[rank4]: {NCCL_ERR}`\n```\n",
        "wrapped": "\n".join(WRAPPED) + "\n",
        "wrapped-astral": "\n".join(wrap("😀" * 10 + f" [rank2]: {OOM} " + "é" * 50, 45) * 3) + "\n",
        "event": "agent start\n" + EVENT + "\n[default0]:" + EVENT.replace(
            '"global_rank": 3', '"global_rank": 3.0') + "\n",
        "event-odd": ("{\"name\": \"torchelastic.worker.status.FAILED\", \"metadata\": {\"global_rank\": 1e400, "
                      f"\"raw_error\": {json.dumps(OOM)}}}}}\n"
                      "{\"name\": \"torchelastic.worker.status.FAILED\", \"metadata\": {\"global_rank\": NaN, "
                      f"\"raw_error\": {json.dumps(OOM)}}}}}\n"),
        "context-window": ("noise\n" * 300 + '[rank2]:   File "a.py", line 1, in _pre_forward_unshard\n'
                           + "[rank2]: noise\n" * 30 + f"[rank2]: {OOM}\n" + "tail\n" * 50
                           + f"[rank5]: {OOM}\n" + "x\n" * 20
                           + '[rank5]:   File "a.py", line 1, in _pre_forward_unshard\n' + "y\n" * 70
                           + f"[rank6]: {OOM}\n" + "z\n" * 41 + '[rank6]:   File "a.py", line 1, in _unshard\n'),
        "error-line-then-signature": ("[2026-06-30 12:00:30,229] INFO start\n" + "x\n" * 5
                                      + "ValueError: something\n" + f"[rank1]: {OOM}\n"),
        "wide-blanks": ("torch.OutOfMemoryError:   CUDA  out of\tmemory.  Tried \t to allocate 2 GiB\n"
                        "NCCL error in: x.cpp:1,  unhandled \tsystem error (run with NCCL_DEBUG=INFO "
                        "for details), NCCL version 2.21.5\n"),
        # soft wraps at a blank, far apart so that the fast path skips the lines between: a
        # pair joined, a rank-prefixed pair, a pair whose needle the wrap cuts (never joined),
        # a pair split by another rank, and a line-wide signature followed by a continuation
        "soft-wrapped": ("noise\n" * 60 + "\n".join(SOFT) + "\n" + "noise\n" * 60
                         + "\n".join(f"[rank4]: {line}" for line in SOFT) + "\n" + "noise\n" * 60
                         + SOFT[0].replace(" caught ", "\ncaught ", 1) + " " + SOFT[1] + "\n"
                         + "noise\n" * 60 + f"[rank1]: {SOFT[0]}\n[rank5]: {SOFT[1]}\n"
                         + "noise\n" * 60 + f"{OOM}\nmore were reserved\n" + "noise\n" * 30),
        # a paste cut inside a message: a unique start (a lead), an ambiguous one, one that
        # the log goes on after, and astral characters before the cut text
        "cut-at-end": ("[rank3]: Traceback (most recent call last):\n"
                       "[rank3]: RuntimeError: Watchdog caught collective operation tim\n```\n"),
        "cut-ambiguous": "[rank1]: torch.OutOfMemoryError: CUDA out of memory. Tri\n",
        "cut-no-gpus": "[rank0]: RuntimeError: ProcessGroupNCCL is only supp\n```",
        "cut-then-more": "RuntimeError: Watchdog caught collective operation tim\na\nb\nc\nd\n",
        "cut-astral": "😀é RuntimeError: Watchdog caught  collective\toperation timeout: Wor",
        "nothing-known": ("[rank0]: Traceback (most recent call last):\n[rank0]: torch.distributed."
                          "DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1970, unhandled cuda "
                          "error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5\n"
                          "ERROR: No matching distribution found for torch==9.9\n"),
    }
    out = []
    for name, text in texts.items():
        p = tmp / f"{name}.log"
        p.write_text(text, encoding="utf-8")
        out.append(p)
    for name, enc, bom in (("utf16le", "utf-16-le", b"\xff\xfe"), ("utf16be", "utf-16-be", b"\xfe\xff")):
        p = tmp / f"{name}.log"
        p.write_bytes(bom + (texts["quoted"] + texts["wrapped"]).replace("\n", "\r\n").encode(enc)
                      + b"\x00")  # an odd last byte: a cut code unit
        out.append(p)
    for name, data in (("ff-fe-not-utf16", b"\xff\xfe\xc3\x28 " + OOM.encode() + b"\n"),
                       ("utf16-cjk", "日本語のログ\n".encode("utf-16") + OOM.encode("utf-16-le")),
                       ("bom-only", b"\xff\xfe"), ("bom-odd", b"\xfe\xff\x00")):
        p = tmp / f"{name}.log"
        p.write_bytes(data)
        out.append(p)
    return out


@pytest.mark.parametrize("mode", ["each", "each-plain"])
def test_log_shapes_small_data(tmp_path, mode):
    data = small_data()
    files = shape_files(tmp_path)
    py = python_each(data, files)
    assert_same(py, run_node(data, files, tmp_path, mode), files)
    by_name = {f.name: v for f, v in zip(files, py, strict=True)}
    assert [(m["id"], m["cut"]) for m in by_name["cut-at-end.log"]["matches"]] == [
        ("nccl-watchdog-timeout", True)]
    assert by_name["cut-ambiguous.log"]["matches"] == by_name["cut-then-more.log"]["matches"] == []


def test_log_shapes_real_data(real_data, tmp_path):
    files = shape_files(tmp_path)
    py = python_each(real_data, files)
    assert_same(py, run_node(real_data, files, tmp_path, "each"), files)
    by_name = {f.name: v for f, v in zip(files, py, strict=True)}
    assert {m["rank"] for m in by_name["embedded-prefix.log"]["matches"]} == {2, 7}
    assert by_name["utf16le.log"]["matches"] and by_name["ff-fe-not-utf16.log"]["matches"]
    assert [(m["id"], m["cut"]) for m in by_name["cut-no-gpus.log"]["matches"]] == [("nccl-no-gpus", True)]
    nothing = by_name["nothing-known.log"]
    assert nothing["suggestions"] or nothing["matches"]
    several = diagnose.diagnose(real_data, [str(f) for f in files])
    assert run_node(real_data, files, tmp_path, "fast") == several


@pytest.mark.parametrize("mode", ["fast", "plain"])
def test_timestamps_across_files(tmp_path, real_data, mode):
    """Per-rank files with timestamps: both engines name the earliest failing rank."""
    from test_diagnose_engine import RANK0, RANK3

    files = []
    for name, text in (("rank0.log", RANK0), ("rank3.log", RANK3), ("rank5.log", "no time\n" + RANK0)):
        p = tmp_path / name
        p.write_text(text + "\n", encoding="utf-8")
        files.append(p)
    for data in (small_data(), real_data):
        (tmp_path / "matcher.json").unlink(missing_ok=True)
        py = diagnose.diagnose(data, [str(f) for f in files])
        assert py["matches"][0]["file"] == str(files[1]) and py["matches"][0]["rank"] == 3
        assert run_node(data, files, tmp_path, mode) == py


@pytest.mark.slow
@pytest.mark.parametrize("noisy", [False, True])
def test_benchmark_logs_every_path_agrees(real_data, tmp_path, noisy):
    """The benchmark's multi-rank log (and its noisy variant: a third of the lines benign
    warnings, NCCL INFO, torch/distributed lines): Python's prefilter and every-line paths and
    JavaScript's scan and every-line paths give one verdict."""
    import sys

    sys.path.insert(0, str(REPO / "bench"))
    from diagnose_throughput import generate

    from generator.matching import logread

    log = tmp_path / "bench.log"
    generate(log, 6 << 20, 1 << 20, REPO, noisy)
    py = diagnose.diagnose(real_data, [str(log)])
    assert py["matches"]
    assert diagnose.diagnose(real_data, [str(log)], logread.make_prefilter([], "none")) == py
    assert run_node(real_data, [log], tmp_path, "fast") == py
    assert run_node(real_data, [log], tmp_path, "plain") == py
