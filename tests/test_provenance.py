"""The provenance matrix, offline: extraction from synthetic artifacts, matching, the
matrix, version ranges, version claims, and the checker's use of the committed matrix."""

from __future__ import annotations

import io
import json
import shutil
import struct
import tarfile
import zipfile
from pathlib import Path

import pytest
from helpers import FIXTURES, REPO, make_project

from generator import pipeline
from generator.cli import main
from generator.entries import checks
from generator.entries.catalog import load_catalog
from generator.entries.model import Action, Entry, Fix, Signature
from generator.project import Project
from generator.provenance import artifacts, claims, ranges
from generator.provenance import matrix as mx
from generator.provenance.cache import Cache
from generator.provenance.extract import (
    CODE,
    NEWLINE,
    STRING,
    artifact_strings,
    binary_strings,
    c_strings,
    python_strings,
)
from generator.provenance.match import Index, Part, plan

# -- a tiny ELF file ------------------------------------------------------------------------

def make_elf(sections: dict[str, bytes]) -> bytes:
    """An ELF64 little-endian file with the given PROGBITS sections and a .shstrtab."""
    names = b"\0" + b"".join(n.encode() + b"\0" for n in sections) + b".shstrtab\0"
    body = b""
    offsets = []
    base = 64
    for data in sections.values():
        offsets.append(base + len(body))
        body += data
    shstr_off = base + len(body)
    body += names
    shoff = base + len(body)
    header = bytearray(64)
    header[:4] = b"\x7fELF"
    header[4], header[5], header[6] = 2, 1, 1  # 64-bit, little-endian, version 1
    shnum = len(sections) + 2
    struct.pack_into("<Q", header, 0x28, shoff)
    struct.pack_into("<HHH", header, 0x3A, 64, shnum, shnum - 1)
    table = bytes(64)  # the null section
    name_at = 1
    for (name, data), off in zip(sections.items(), offsets, strict=True):
        table += struct.pack("<IIQQQQIIQQ", name_at, 1, 0, 0, off, len(data), 0, 0, 1, 0)
        name_at += len(name) + 1
    table += struct.pack("<IIQQQQIIQQ", name_at, 3, 0, 0, shstr_off, len(names), 0, 0, 1, 0)
    return bytes(header) + body + table


ELF = make_elf({
    ".text": b"\x55\x48\x89\xe5 not a string section",
    ".rodata": b"CUDA error: \0Cuda failure %d '%s'\0\x01\x02multi\nline message\0out of memory\0",
    ".strtab": b"_ZN3c105ErrorC2Ev\0",
})


def test_binary_strings_reads_only_data_sections():
    found = set(binary_strings(ELF))
    assert {"CUDA error: ", "Cuda failure %d '%s'", "out of memory"} <= found
    assert "multi" + NEWLINE + "line message" in found  # a line break stays inside its string
    assert not any("not a string section" in s or "_ZN3c10" in s for s in found)


def test_binary_strings_of_a_file_that_is_not_elf():
    assert list(binary_strings(b"\0\0hello world\0\x01ok")) == ["hello world", "ok"]


PY_SOURCE = '''
class DistBackendError(RuntimeError):
    class Inner:
        pass

def f(rank, n):
    raise RuntimeError(
        "Expected to have finished reduction in the prior iteration "
        "before starting a new one."
    )
    msg = f"rank {rank} failed after {n:.2f} seconds"  # a comment
    raise _env_error("MASTER_ADDR")
'''


def test_python_strings_join_implicit_concatenation_and_keep_fstring_fields():
    got = list(python_strings(PY_SOURCE, "torch.distributed.c10d"))
    strings = {t for k, t in got if k == STRING}
    code = {t for k, t in got if k == CODE}
    assert ("Expected to have finished reduction in the prior iteration before starting a new "
            "one.") in strings
    assert "rank {} failed after {} seconds" in strings  # one format string, '{}' per field
    assert ".2f" not in strings  # a format spec is not printed text
    assert "torch.distributed.c10d.DistBackendError" in strings
    assert "torch.distributed.c10d.DistBackendError.Inner" in strings
    assert 'raise _env_error("MASTER_ADDR")' in code  # tracebacks print code lines
    assert not any(line.startswith("#") for line in code)


def test_python_file_that_does_not_parse_gives_raw_lines():
    got = list(python_strings('print "Python 2 message"\n', "old"))
    assert got == [(STRING, 'print "Python 2 message"')]


def _wheel(tmp_path: Path) -> Path:
    path = tmp_path / "demo-1.0-py3-none-manylinux1_x86_64.whl"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("demo/__init__.py", 'X = ("a " "b")\n')
        zf.writestr("demo/lib/libdemo.so", ELF)
        zf.writestr("demo/README.txt", "Watchdog caught collective operation timeout: " * 4)
        zf.writestr("demo-1.0.dist-info/METADATA", "Name: demo\nRequires-Dist: x==1.2 ; os\n")
    return path


def test_python_lone_surrogate_is_stored_as_replacement_character():
    # vLLM 0.34 has a literal '\ud800': it used to abort the whole artifact on the cache write
    found = list(python_strings('x = "bad \\ud800 text"\n'))
    assert (STRING, "bad \ufffd text") in found
    for _kind, text in found:
        text.encode("utf-8")  # what the cache does; raised UnicodeEncodeError before


def test_c_strings_join_adjacent_literals_across_macro_continuations():
    src = ('#define SHUT_DOWN_ERROR \\\n  "Horovod has been shut down. This was caused " \\\n'
           '  "by an exception."\nprintf("%d \\"x\\"\\n", n);\n')
    got = set(c_strings(src))
    assert (STRING, "Horovod has been shut down. This was caused by an exception.") in got
    assert (STRING, '%d "x"') in got


def test_sdist_c_sources_only_when_asked(tmp_path):
    sdist = tmp_path / "h-1.0.tar.gz"
    with tarfile.open(sdist, "w:gz") as tf:
        for name, data in [("h-1.0/h/common.h", b'#define E "c text"\n'),
                           ("h-1.0/h/a.py", b'M = "py text"\n')]:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
    plain = set(artifact_strings(sdist, str(tmp_path)))
    with_c = set(artifact_strings(sdist, str(tmp_path), c_sources=True))
    assert (STRING, "py text") in plain and (STRING, "c text") not in plain
    assert (STRING, "c text") in with_c


def test_wheel_and_sdist_extraction(tmp_path):
    got = set(artifact_strings(_wheel(tmp_path), str(tmp_path)))
    assert (STRING, "a b") in got and (STRING, "out of memory") in got
    assert not any("Watchdog" in t for _, t in got)  # text files other than .py are skipped
    sdist = tmp_path / "demo-1.0.tar.gz"
    with tarfile.open(sdist, "w:gz") as tf:
        data = b"raise ValueError(f'bad {x} here')\n"
        info = tarfile.TarInfo("demo-1.0/src/demo/mod.py")
        info.size = len(data)
        tf.addfile(info, io.BytesIO(data))
    got = set(artifact_strings(sdist, str(tmp_path)))
    assert (STRING, "bad {} here") in got


# -- matching -------------------------------------------------------------------------------

def test_plan_leaves_out_what_the_runtime_prints():
    p = plan("RuntimeError: Socket Timeout")
    assert p.parts == (Part("text", "Socket Timeout"),) and p.runtime == ("RuntimeError: ",)
    p = plan("torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate {size}")
    assert p.parts == (Part("class", "torch.cuda.OutOfMemoryError"),
                       Part("text", "CUDA out of memory. Tried to allocate"))
    assert plan("what():  CUDA error: out of memory").runtime == ("what():  ",)
    assert plan("NCCL WARN Error while creating shared memory segment {token} (size {n})").parts == (
        Part("text", "NCCL WARN Error while creating shared memory segment"),
        Part("text", "(size"), Part("text", ")"))
    assert plan("a literal {{brace}} stays").parts == (Part("text", "a literal {brace} stays"),)


def test_index_direct_joined_and_not_found():
    index = Index(
        ["Watchdog caught collective operation timeout: ", "WorkNCCL(", "SeqNum=",
         "%s:%d:%d [%d] %s:%d NCCL WARN ", "Error while creating shared memory segment %s (size %d)",
         "Cuda failure %d '%s'", "out of memory", "a string that mentions device and rank"],
        ['raise _env_error("MASTER_ADDR")'])
    assert index.find(Part("text", "Watchdog caught collective")) == "string"
    assert index.find(Part("text", "raise _env_error(")) == "code"
    assert index.find(Part("text", "Watchdog caught collective operation timeout: WorkNCCL(SeqNum=")) == [
        "Watchdog caught collective operation timeout: ", "WorkNCCL(", "SeqNum="]
    assert index.find(Part("text", "NCCL WARN Error while creating shared memory segment")) == [
        "NCCL WARN ", "Error while creating shared memory segment"]
    assert index.find(Part("text", "Cuda failure 'out of memory'")) is None  # '%d' sits between
    # a join never spells a text out of arbitrary fragments
    assert index.find(Part("text", "Watchdog caught collective operation timeout: WorkNCCL(OpType=")) is None
    assert index.find(Part("text", "device and rank failed")) is None
    assert index.find(Part("class", "torch.OutOfMemoryError")) is None
    assert index.find(Part("text", ") ran for")) is None  # no ') ran for' text at all


def test_index_join_never_starts_from_a_bare_name():
    # torch 2.x: the class name is a string (pybind), the message is Backend.hpp's
    # "Backend " + getBackendName() + " does not support scatter"
    index = Index(["ProcessGroupNCCL", "~ProcessGroupNCCL", " does not support scatter",
                   "Backend ", "c10d::ProcessGroupGloo", "while in ProcessGroupMPI"])
    assert index.find(Part("text", "ProcessGroupNCCL does not support scatter")) is None
    assert index.find(Part("text", "ProcessGroupGloo does not support scatter")) is None
    # a name a string of the release prints after a blank is text, and may start a join
    assert index.find(Part("text", "ProcessGroupMPI does not support scatter")) == [
        "ProcessGroupMPI", " does not support scatter"]
    # a name that fills a format's leading placeholder ('%s: ...' with __func__) is printed
    index = Index(["socketPollConnect", "%s: Connect to %s failed : %s", "{} does not support {}",
                   "ProcessGroupNCCL", "scatter", "socketStartConnect: Connect to %s failed : %s"])
    assert index.find(Part("text", "socketPollConnect: Connect to")) == [
        "socketPollConnect", ": Connect to"]
    # a name, a format's text and a second value could spell any sentence
    assert index.find(Part("text", "ProcessGroupNCCL does not support scatter")) is None
    # nor a name with the blank of a log prefix ('ProcessGroupNCCL ' + a value), joined
    # to the tail of another message (torch 2.14's strings)
    assert Index(["ProcessGroupNCCL ", "Backend ", " does not support scatter",
                  "Expected split_from to be ProcessGroupNCCL"]).find(
        Part("text", "ProcessGroupNCCL does not support scatter")) is None
    # a name is not joined to the tail of another function's message
    assert Index(["socketPollConnect", "socketStartConnect: Connect to %s failed : %s"]).find(
        Part("text", "socketPollConnect: Connect to")) is None
    # torch 1.x printed the whole message as one string
    assert Index(["ProcessGroupNCCL does not support scatter"]).find(
        Part("text", "ProcessGroupNCCL does not support scatter")) == "string"


def test_index_values_written_into_placeholders():
    index = Index(["failed (exitcode: {}) local_rank: {} (pid: {}) of binary: {}",
                   "Signal {} ({}) received by PID {}",
                   "DataLoader worker (pid %d) is killed by signal: %s. ", " ran for ", ")"])
    assert index.find(Part("text", "failed (exitcode: -9) local_rank:")) == [
        "failed (exitcode: ", "-9", ") local_rank:"]
    assert index.find(Part("text", "Signal 9 (SIGKILL) received by PID")) == [
        "Signal ", "9", " (", "SIGKILL", ") received by PID"]
    # strsignal's text comes from the C library, which no release contains
    assert index.find(Part("text", ") is killed by signal: Bus error.")) == [
        ") is killed by signal: ", "Bus error", "."]
    assert index.find(Part("text", ") ran for")) == [")", " ran for"]
    assert index.find(Part("text", "failed (exitcode: module) local_rank:")) is None
    assert index.find(Part("text", "Signal 9 (SIGKILL) sent by PID")) is None


# -- the matrix from a cache ----------------------------------------------------------------

ARTIFACTS = {
    "packages": {"torch": {"title": "torch", "repos": ["pytorch/pytorch"], "aliases": ["torch"]},
                 "nccl": {"title": "NCCL", "repos": ["NVIDIA/nccl"], "aliases": ["nccl"]}},
    "artifacts": [
        {"id": "torch-1.8.1", "package": "torch", "dist": "torch", "version": "1.8.1"},
        {"id": "torch-2.0.1", "package": "torch", "dist": "torch", "version": "2.0.1",
         "with": ["nvidia-nccl-cu11-2.14.3"]},
        {"id": "torch-2.1.2", "package": "torch", "dist": "torch", "version": "2.1.2"},
        {"id": "nvidia-nccl-cu11-2.14.3", "package": "nccl", "dist": "nvidia-nccl-cu11",
         "version": "2.14.3"},
    ],
}
TEXTS = {
    "torch-1.8.1": ["NCCL version 2.7.8+cuda10.2", "Old message here", "Error while creating shared memory segment %s (size %d)",
                    "%s:%d:%d [%d] %s:%d NCCL WARN "],
    "torch-2.0.1": ["New message text", "Old message here"],
    "torch-2.1.2": ["New message text"],
    "nvidia-nccl-cu11-2.14.3": ["%s:%d:%d [%d] %s:%d NCCL WARN ",
                                "Error while creating shared memory segment %s (size %d)"],
}


def _entry(entry_id: str, *signatures: Signature) -> Entry:
    """An entry with only what the matrix reads: its id and signatures."""
    return Entry(id=entry_id, title="", category="", component="", severity="", role="",
                 tags=(), signatures=signatures, summary="", mechanism="", observations=(),
                 symptoms=(), affects=(), confirm=(), fingerprint="", fix=Fix("", (), "", ""),
                 faq=(), related=(), references=(), action=Action("fix-code", ""))


ENTRIES = [_entry(
    "ddp-x",
    Signature("New message text", "pytorch/pytorch a.cpp (f)"),
    Signature("Old message here", "pytorch/pytorch a.cpp (f)"),
    Signature("NCCL WARN Error while creating shared memory segment {token} (size {n})",
              "NVIDIA/nccl src/misc/shmutils.cc (ncclShmOpen)"),
    Signature("Printed by nothing we scan", "python/cpython x.c [not scannable: CPython]"),
)]


def _cache(tmp_path: Path) -> tuple[artifacts.ArtifactList, Cache]:
    alist = artifacts.parse(ARTIFACTS)
    cache = Cache(tmp_path / "cache")
    for a in alist.artifacts:
        nccl = [s.split()[2].split("+")[0] for s in TEXTS[a.id] if s.startswith("NCCL version ")]
        cache.store(a.id, TEXTS[a.id], [], {"id": a.id, "file": f"{a.id}.whl", "sha256": a.id * 2,
                                           "nccl_version_strings": nccl})
    return alist, cache


def test_matrix_from_cache(tmp_path):
    alist, cache = _cache(tmp_path)
    data = mx.compute(alist, cache, ENTRIES).data
    sigs = data["signatures"]
    assert sigs["ddp-x/0"]["found"] == {"torch": ["2.0.1", "2.1.2"]}
    assert sigs["ddp-x/1"]["found"] == {"torch": ["1.8.1", "2.0.1"]}
    # NCCL text: in NCCL's wheel, in torch 2.0.1 through the NCCL installed with it, and in
    # torch 1.8.1 whose binary links NCCL 2.7.8 itself
    assert sigs["ddp-x/2"]["found"] == {"nccl": ["2.7.8", "2.14.3"], "torch": ["1.8.1", "2.0.1"]}
    assert sigs["ddp-x/2"]["joined"] == [["NCCL WARN ", "Error while creating shared memory segment"]]
    assert sigs["ddp-x/3"] == {"template": "Printed by nothing we scan", "found": {},
                               "unfound": ["Printed by nothing we scan"]}
    assert data["packages"]["nccl"]["scanned"] == ["2.7.8", "2.14.3"]
    assert [a["id"] for a in data["artifacts"]][:1] == ["nvidia-nccl-cu11-2.14.3"]
    assert next(a for a in data["artifacts"] if a["id"] == "torch-1.8.1")["bundles"] == {"nccl": "2.7.8"}
    # deterministic, and the second run comes from the match cache
    again = mx.compute(alist, cache, ENTRIES, jobs=2).data
    assert mx.dumps(again) == mx.dumps(data)


def test_matrix_leaves_out_artifacts_not_in_the_cache(tmp_path):
    alist, cache = _cache(tmp_path)
    (cache.folder / "text" / "torch-2.1.2.json").unlink()
    computed = mx.compute(alist, cache, ENTRIES)
    assert computed.missing_artifacts == ["torch-2.1.2"]
    assert computed.data["signatures"]["ddp-x/0"]["found"] == {"torch": ["2.0.1"]}


def test_artifact_list_errors_name_the_artifact():
    bad = json.loads(json.dumps(ARTIFACTS))
    bad["artifacts"][1]["with"] = ["nope"]
    with pytest.raises(artifacts.ArtifactListError, match="'torch-2.0.1' is installed with unknown"):
        artifacts.parse(bad)


def test_committed_artifact_list_loads():
    alist = artifacts.load(REPO)
    assert {a.package for a in alist.artifacts} >= {"torch", "nccl", "deepspeed"}


# -- ranges ---------------------------------------------------------------------------------

SCANNED = ["1.8.1", "1.9.1", "2.0.1", "2.13.0", "2.13.1", "2.14.1", "2.10.0"]


def test_ranges():
    assert ranges.sort_versions(SCANNED)[-3:] == ["2.13.0", "2.13.1", "2.14.1"]
    assert ranges.format_runs(SCANNED, ["2.0.1", "2.10.0", "2.13.0"]) == "2.0-2.13.0"
    assert ranges.format_runs(SCANNED, ["1.8.1", "2.13.1", "2.14.1"]) == "1.8, 2.13.1-2.14"
    assert ranges.format_runs(SCANNED, []) == ""
    assert ranges.human({"torch": ["1.9.1", "2.0.1"], "nccl": ["2.19.3"]},
                        {"torch": SCANNED, "nccl": ["2.18.1", "2.19.3"]},
                        {"torch": "torch", "nccl": "NCCL"}) == "torch 1.9-2.0; NCCL 2.19"


# -- claims ---------------------------------------------------------------------------------

def _resolve(name):
    return {"torch": "torch", "pytorch": "torch", "nccl": "nccl"}.get(name.lower()) if name else "torch"


@pytest.mark.parametrize("text, expected", [
    ("torch >= 2.1", [("torch", [((2, 1), None)], None)]),
    (">= 1.12", [("torch", [((1, 12), None)], None)]),
    ("torch 1.12 - 2.0", [("torch", [((1, 12), (2, 0))], None)]),
    ("torch <= 1.9 with NCCL_BLOCKING_WAIT=1", [("torch", [(None, (1, 9))], None)]),
    ("NCCL >= 2.19 (from the release notes)", [("nccl", [((2, 19), None)], None)]),
    ("torch 1.x and 2.x: RuntimeError up to 2.7", [("torch", [((1,), (1,)), ((2,), (2,))], None)]),
    ("PyTorch >= 1.13 with NCCL >= 2.12", [("torch", [((1, 13), None)], None)]),
    ("torch >= 0.4 (checked in 2.14.1)", [("torch", [((0, 4), None)], None), ("torch", [], "2.14.1")]),
    ("all versions", [("torch", [(None, None)], None)]),
    ("all torch releases (1.6.0 to 2.14.1 wheels); RuntimeError up to 2.1", [("torch", [(None, None)], None)]),
    ("all NCCL versions", [("nccl", [(None, None)], None)]),
    ("torch 1.10 \u2013 1.12", [("torch", [((1, 10), (1, 12))], None)]),
    ("all gloo versions bundled with torch", None),
    ("torch 2.x and late 1.x", None),
    ("torch 1.x (late) and 2.x", None),
    ("torch releases since mid-2021", None),
    ("Python 3.3+ when faulthandler is enabled", None),
])
def test_claims_parse(text, expected):
    got = claims.parse(text, _resolve)
    if expected is None:
        assert got is None
    else:
        assert [(c.package, [(s.low, s.high) for s in c.spans], c.exact) for c in got] == expected


def test_claims_contradictions():
    (claim,) = claims.parse("torch 1.12 - 2.0", _resolve)
    scanned = ["1.11.0", "1.12.1", "1.13.1", "2.0.1", "2.1.2"]
    assert claims.contradictions(claim, scanned, ["1.12.1", "1.13.1", "2.0.1"]) is None
    c = claims.contradictions(claim, scanned, ["1.13.1", "2.0.1", "2.1.2"])
    assert c.outside == ("2.1.2",) and c.missing == ("1.12.1",)
    (claim,) = claims.parse("torch <= 1.9", _resolve)
    assert claims.contradictions(claim, ["1.9.1", "1.10.2"], ["1.9.1"]) is None


# -- the checker and the committed matrix ----------------------------------------------------

def _project_with(tmp_path: Path, code: str) -> Path:
    root = tmp_path / "p"
    root.parent.mkdir(parents=True, exist_ok=True)
    shutil.copytree(FIXTURES / "project", root)
    shutil.copytree(FIXTURES / "bad" / code / "provenance", root / "provenance")
    shutil.copy(FIXTURES / "bad" / code / "ddp-prov-grad.yaml", root / "entries")
    return root


def test_a_contradiction_is_an_error(tmp_path, monkeypatch):
    """No list of accepted problems: E127 and E128 fail the check like any error."""
    monkeypatch.chdir(tmp_path)
    for code in ("E127", "E128"):
        root = _project_with(tmp_path / code, code)
        problems = checks.check_catalog(load_catalog(Project(root)))
        assert [(p.code, p.severity) for p in problems] == [(code, "error")]


def test_exempt_source_is_not_measured(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    root = _project_with(tmp_path, "E125")
    entry = root / "entries" / "ddp-prov-grad.yaml"
    source = "pytorch/pytorch torch/csrc/distributed/c10d/reducer.cpp (Reducer::ensure_prior_reduction_finished)"
    entry.write_text(entry.read_text().replace(source, f'"{source} [not scannable: demo]"', 1))
    assert [p for p in checks.check_catalog(load_catalog(Project(root)))] == []


def test_project_without_artifact_list_is_not_checked():
    assert checks.check_catalog(load_catalog(Project(FIXTURES / "project"))) == []


def test_committed_matrix_has_a_current_record_for_every_signature():
    """The repository's provenance/signatures.json matches today's entries (E125/E126)."""
    problems = checks.check_catalog(load_catalog(Project(REPO)))
    stale = [p.text() for p in problems if p.code in ("E125", "E126")]
    assert not stale, "\n".join(stale[:20])


def test_describe_for_pages_and_explain():
    matrix = mx.parse({"format": 1, "artifacts": [],
                       "packages": {"torch": {"title": "torch", "scanned": ["2.0.1", "2.1.2"]}},
                       "signatures": {"a-b/0": {"template": "T here", "found": {"torch": ["2.1.2"]}},
                                      "a-b/1": {"template": "U here", "found": {}}}})
    assert matrix.describe(Signature("T here", "x/y z"), "a-b", 0) == "printed by torch 2.1"
    assert matrix.describe(Signature("changed", "x/y z"), "a-b", 0).startswith("not measured yet")
    assert matrix.describe(Signature("U here", "x/y z"), "a-b", 1) == "found in no scanned release"
    assert matrix.describe(Signature("V", "x/y z [not scannable: Slurm]"), "a-b", 2) == (
        "printed by Slurm, whose releases are not scanned")


# -- incremental runs ---------------------------------------------------------------------

def test_incremental_keeps_unchanged_records_and_measures_the_rest(tmp_path):
    alist, cache = _cache(tmp_path)
    previous = json.loads(mx.dumps(mx.compute(alist, cache, ENTRIES).data))
    # a record the releases could not give: kept only because its text did not change
    previous["signatures"]["ddp-x/1"]["found"] = {"torch": ["2.1.2"]}
    (sigs,) = [e.signatures for e in ENTRIES]
    changed = [_entry("ddp-x", sigs[0], sigs[1], Signature("Old message", "pytorch/pytorch a.cpp (f)")),
               _entry("ddp-y", Signature("New message text", "pytorch/pytorch a.cpp (f)"))]
    data = mx.compute(alist, cache, changed, previous=previous).data
    assert mx.same_artifacts(data, previous)
    assert data["signatures"]["ddp-x/1"]["found"] == {"torch": ["2.1.2"]}  # kept
    assert data["signatures"]["ddp-x/2"] == {  # changed text: measured again
        "template": "Old message", "found": {"torch": ["1.8.1", "2.0.1"]}}
    assert data["signatures"]["ddp-y/0"]["found"] == {"torch": ["2.0.1", "2.1.2"]}  # new
    assert "ddp-x/3" not in data["signatures"]  # the signature is gone
    # a full run measures everything again
    full = mx.compute(alist, cache, changed).data
    assert full["signatures"]["ddp-x/1"]["found"] == {"torch": ["1.8.1", "2.0.1"]}


def test_index_without_word_prefilter_gives_the_same_answers():
    strings = ["Watchdog caught collective operation timeout: ", "WorkNCCL(", "SeqNum=",
               "Old message here"]
    parts = [Part("text", t) for t in ("Old message", "message here", "nothing like it",
                                       "Watchdog caught collective operation timeout: WorkNCCL(SeqNum=")]
    assert [Index(strings).find(p) for p in parts] == [
        Index(strings, prefilter=False).find(p) for p in parts]


# -- pages and explain show the measured range ---------------------------------------------

MEASURED = {"format": 1, "artifacts": [],
            "packages": {"torch": {"title": "torch", "order": 0,
                                   "scanned": ["1.9.1", "2.0.1", "2.1.2"]}},
            "signatures": {}}


def _measured_project(tmp_path: Path) -> Path:
    root = make_project(tmp_path)
    project = Project(root)
    entry = load_catalog(project).by_id["ddp-fixture-unused"]
    data = dict(MEASURED, signatures={
        f"ddp-fixture-unused/{i}": {"template": s.template, "found": {"torch": ["2.0.1", "2.1.2"]}}
        for i, s in enumerate(entry.signatures)})
    (root / "provenance").mkdir()
    (root / mx.MATRIX_FILE).write_text(mx.dumps(data), encoding="utf-8")
    return root


def test_entry_page_shows_the_measured_range(tmp_path, monkeypatch):
    root = _measured_project(tmp_path)
    monkeypatch.chdir(root)
    result = pipeline.check_and_render(Project(root))
    assert not result.errors
    page = (root / "docs" / "failures" / "ddp-fixture-unused.md").read_text(encoding="utf-8")
    assert '??? quote "Where it comes from · printed by torch 2.0-2.1"' in page
    # the entry's own versions text is still shown, inside the folded block
    versions = load_catalog(Project(root)).by_id["ddp-fixture-unused"].signatures[0].versions
    assert versions and f"- **Versions:** {' '.join(versions.split())}" in page


def test_explain_shows_the_measured_range(tmp_path, monkeypatch, capsys):
    root = _measured_project(tmp_path)
    monkeypatch.chdir(root)
    assert main(["explain", "ddp-fixture-unused"]) == 0
    assert "      measured: printed by torch 2.0-2.1\n" in capsys.readouterr().out


def test_holes_lists_releases_no_signature_covers(tmp_path, monkeypatch, capsys):
    root = _measured_project(tmp_path)
    monkeypatch.chdir(root)
    assert main(["provenance", "--holes"]) == 0
    assert capsys.readouterr().out == "ddp-fixture-unused: torch 1.9\n"


# -- data the release formats, and whole-line formats ----------------------------------------

def test_plan_reads_data_a_runtime_formatted():
    p = plan("'DeepSpeedCPUAdam' object has no attribute 'ds_opt_adam'")
    assert p.parts == (Part("word", "DeepSpeedCPUAdam"), Part("word", "ds_opt_adam"))
    assert plan("'status': 'NOT_AVAILABLE', 'numel': 0, 'ds_numel': {n}").parts == (
        Part("word", "status"), Part("word", "NOT_AVAILABLE"), Part("word", "numel"),
        Part("word", "ds_numel"))
    # values glued by short pieces: only the pieces' words are the release's
    assert plan("unable to write to file </torch_{token}>: No space left on device (28)").parts == (
        Part("text", "unable to write to file </torch_"), Part("glue", ""))
    assert plan("failed to bind to {token} (errno: 98 - Address").parts == (
        Part("text", "failed to bind to"), Part("glue", "errno"))
    # a template of values only is looked up as written (nothing of the release's own)
    assert plan("RuntimeError: Address already in use").parts == (
        Part("text", "Address already in use"),)
    assert plan("one part {n}").layout is None
    assert plan("a {n} b {n} c").layout == Part("arrangement", "a {n} b {n} c")


def test_index_words_quoted_values_and_tails():
    index = Index(["Unexpected key(s) in state_dict: {}. ", "class DeepSpeedCPUAdam",
                   "Terminating the process after attempting to dump debug info, due to ",
                   "monitor thread is disabled, but would have terminated the process",
                   "ProcessGroupNCCL watchdog hang", ".", "junk$tICollectiveFingerPrint(",
                   " is running collective: "],
                  ["self.ds_opt_adam = None"], prefilter=False)
    assert index.find(Part("word", "ds_opt_adam")) == "words"
    assert index.find(Part("word", "ds_opt")) is None  # whole words only
    assert index.find(Part("glue", "")) == "words"
    assert index.find(Part("text", 'Unexpected key(s) in state_dict: "module.')) == [
        "Unexpected key(s) in state_dict: ", '"module.']
    # a middle piece stored as the tail of a longer string (linker tail merging)
    assert index.find(Part("text", "would have terminated the processafter attempting to dump "
                                   "debug info, due to ProcessGroupNCCL watchdog hang.")) == [
        "would have terminated the process", "after attempting to dump debug info, due to ",
        "ProcessGroupNCCL watchdog hang", "."]
    # a last piece that ends a string whose start ran into other bytes
    assert index.find(Part("text", "is running collective: CollectiveFingerPrint(")) == [
        "is running collective: ", "CollectiveFingerPrint("]
    # ... also with the blank before the template's next hole
    assert Index(["unhandled cuda error", "$tI, NCCL version "]).find(
        Part("text", "unhandled cuda error, NCCL version")) == ["unhandled cuda error", ", NCCL version"]


def test_a_sibling_wording_does_not_count_where_the_line_is_one_format(tmp_path):
    """Both releases hold every literal part of the template; only 2.0.1 holds it as one
    format string, so only 2.0.1 counts (1.8.1 prints another arrangement)."""
    spec = {"packages": {"torch": {"title": "torch", "repos": ["pytorch/pytorch"]}},
            "artifacts": [{"id": "torch-1.8.1", "package": "torch", "dist": "torch", "version": "1.8.1"},
                          {"id": "torch-2.0.1", "package": "torch", "dist": "torch", "version": "2.0.1"}]}
    texts = {"torch-1.8.1": ["Failed to clone() tensor with name {}. This may mean trouble",
                             "x on rank y"],
             "torch-2.0.1": ["Failed to clone() tensor with name {} on rank {}. This may mean trouble"]}
    alist = artifacts.parse(spec)
    cache = Cache(tmp_path / "cache")
    for a in alist.artifacts:
        cache.store(a.id, texts[a.id], [], {"id": a.id, "file": "f", "sha256": "0"})
    entry = _entry("fsdp-x", Signature("Failed to clone() tensor with name {token} on rank {n}. "
                                       "This may mean", "pytorch/pytorch a.py (f)"),
                   Signature("Failed to clone() tensor with name {token}. This may mean",
                             "pytorch/pytorch a.py (f)"))
    sigs = mx.compute(alist, cache, [entry]).data["signatures"]
    assert sigs["fsdp-x/0"]["found"] == {"torch": ["2.0.1"]}
    assert sigs["fsdp-x/1"]["found"] == {"torch": ["1.8.1"]}


def test_a_line_composed_from_constants_keeps_the_part_by_part_answer():
    """Constants without placeholders (C++ streams) are no sibling format."""
    index = Index(["Expected all tensors to be on the same device, but found at least two devices, ",
                   " and ", "Tensors {} and {}: expected all tensors to be on the same device"])
    layout = plan("Expected all tensors to be on the same device, but found at least two devices, "
                  "{token} and {token}!").layout
    assert index.find(layout) is None
    assert Index(["Expected all tensors to be on the same device, but found at least two "
                  "devices, {} and {}!"]).find(layout) == "format"
    assert Index(["Expected all tensors to be on the same device, but found at least two "
                  "devices, {} or {}!"]).find(layout) == "sibling"


def test_holes_outside_the_affected_versions_are_not_holes(tmp_path, monkeypatch, capsys):
    """The page's `affects` says where the failure exists; a release outside it is no hole."""
    root = _measured_project(tmp_path)
    shutil.copytree(REPO / "provenance", root / "provenance", dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns("signatures.json"))
    entry = root / "entries" / "ddp-fixture-unused.yaml"
    entry.write_text(entry.read_text().replace('versions: ">= 1.0"', 'versions: ">= 2.0"', 1))
    monkeypatch.chdir(root)
    assert main(["provenance", "--holes"]) == 0
    assert capsys.readouterr().out == ""


def test_fragments_after_the_last_release_that_held_the_text_whole_do_not_count(tmp_path):
    spec = {"packages": {"torch": {"title": "torch", "repos": ["pytorch/pytorch"]}},
            "artifacts": [{"id": f"torch-{v}", "package": "torch", "dist": "torch", "version": v}
                          for v in ("1.8.1", "1.13.1", "2.1.2")]}
    texts = {"torch-1.8.1": ["`FlatParameter` does not support", " nesting at all"],  # 2 pieces
             "torch-1.13.1": ["`FlatParameter` does not support nesting"],
             "torch-2.1.2": ["Cannot flatten a `FlatParameter`", " does not support ", "nesting"]}
    alist = artifacts.parse(spec)
    cache = Cache(tmp_path / "cache")
    for a in alist.artifacts:
        cache.store(a.id, texts[a.id], [], {"id": a.id, "file": "f", "sha256": "0"})
    entry = _entry("fsdp-y", Signature("`FlatParameter` does not support nesting",
                                       "pytorch/pytorch a.py (f)"))
    found = mx.compute(alist, cache, [entry]).data["signatures"]["fsdp-y/0"]["found"]
    assert found == {"torch": ["1.8.1", "1.13.1"]}
