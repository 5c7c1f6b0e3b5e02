"""Reading logs: chunk boundaries, over-long lines, dirty bytes, gzip, bounded memory, and
the prefilter fast path giving exactly the verdict of feeding every line."""

from __future__ import annotations

import dataclasses
import gzip
import io
import random
import tracemalloc
from pathlib import Path

import pytest
from diagnose_support import small_data

from generator.matching import engine as engine_mod
from generator.matching import logread

DATA = small_data()
OOM = "[rank3]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB"
WATCHDOG = ("[rank1]:[E1105 03:14:22.518273910 ProcessGroupNCCL.cpp:632] [Rank 1] Watchdog caught "
            "collective operation timeout: WorkNCCL(SeqNum=7, OpType=ALLREDUCE, NumelIn=1, "
            "NumelOut=1, Timeout(ms)=600000) ran for 600043 milliseconds before timing out.")
CHILD = "torch.distributed.elastic.multiprocessing.errors.ChildFailedError:"

PREFILTERS = ["none", "re", "re2"]


def prefilter(kind: str) -> logread.Prefilter:
    if kind == "re2":
        pytest.importorskip("re2", reason="google-re2 not installed (optional accelerator)")
    return logread.for_engine(engine_mod.Engine(DATA), kind)


def reference_lines(data: bytes, cap: int = logread.LINE_CAP_BYTES) -> list[str]:
    """The reading rules, spelled out naively: LF-split, final LF starts no line, bytes
    capped, UTF-8 with replacement, a BOM dropped from the first line."""
    pieces = data.split(b"\n")
    if pieces[-1] == b"":
        pieces.pop()
    lines = [p[:cap].decode("utf-8", "replace") for p in pieces]
    if lines and lines[0].startswith("\ufeff"):
        lines[0] = lines[0][1:]
    return lines


def read_all(data: bytes, kind: str = "none", chunk: int = logread.CHUNK,
             cap: int = logread.LINE_CAP_BYTES) -> tuple[list[tuple[int, str]], int]:
    fed: list[tuple[int, str]] = []
    n = logread.scan(io.BytesIO(data), lambda i, t: fed.append((i, t)), prefilter(kind),
                     chunk=chunk, line_cap=cap)
    return fed, n


def verdict_of(data: bytes, kind: str, chunk: int = logread.CHUNK,
               cap: int = logread.LINE_CAP_BYTES) -> dict:
    eng = engine_mod.Engine(DATA)
    n = logread.scan(io.BytesIO(data), eng.feed, prefilter(kind), chunk=chunk, line_cap=cap)
    eng.skip_to(n)
    return eng.verdict()


def reference_verdict(data: bytes, cap: int = logread.LINE_CAP_BYTES) -> dict:
    eng = engine_mod.Engine(DATA)
    eng.feed_lines(reference_lines(data, cap))
    return eng.verdict()


SAMPLES = {
    "empty": b"",
    "one-newline": b"\n",
    "no-final-newline": f"hello\n{OOM}".encode(),
    "crlf": f"start\r\n{OOM}\r\n{WATCHDOG}\r\n".encode(),
    "blank-lines": f"\n\n\n{OOM}\n\n".encode(),
    "bom": ("\ufeff" + OOM + "\nnext\n").encode(),
    "invalid-utf8": b"\xff\xfe\x80 junk \xc3\x28\n" + OOM.encode() + b"\xe2\x82\n\xf0\x9f\x98\n",
    "binary-noise": bytes(range(256)) * 40 + b"\n" + OOM.encode() + b"\n" + b"\x00" * 5000,
    "lone-cr-progress": (f"  1%|#   | 1/100\r  2%|#   | 2/100\r{OOM}\n").encode(),
    "ansi": f"\x1b[31m{OOM[:20]}\x1b[0m{OOM[20:]}\n".encode(),
    "emoji": ("🤗 " * 300 + OOM + "\n").encode(),
}


@pytest.mark.parametrize("name", sorted(SAMPLES))
@pytest.mark.parametrize("kind", PREFILTERS)
@pytest.mark.parametrize("chunk", [1, 7, 64, logread.CHUNK])
def test_every_path_reads_the_same(name, kind, chunk):
    data = SAMPLES[name]
    cap = 48 if chunk < 100 else logread.LINE_CAP_BYTES  # tiny caps go with tiny chunks
    expected = reference_verdict(data, cap)
    assert verdict_of(data, kind, chunk=chunk, cap=cap) == expected
    fed, n = read_all(data, "none", chunk=chunk, cap=cap)
    assert n == len(reference_lines(data, cap))
    assert [t for _, t in fed] == reference_lines(data, cap)
    assert [i for i, _ in fed] == list(range(1, n + 1))


def test_random_logs_fast_path_equals_feeding_every_line():
    rng = random.Random(5)
    pieces = [OOM, WATCHDOG, CHILD, "plain line", "", "\x1b[1m", "Watchdog", "\xff",
              "NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P", "x" * 300, "\r", "🤗",
              '  File "x.py", line 3, in _pre_forward_unshard', "noise\n" * 45,
              "[2026-06-30 12:00:30,229] INFO step", "[rank3]:[E0630 12:00:31.5 x.cpp:1] y",
              "noise\n" * 15]
    for _ in range(60):
        parts = [rng.choice(pieces) + rng.choice(["\n", "", " ", "\r\n"]) for _ in range(rng.randrange(1, 40))]
        data = "".join(parts).encode("utf-8", "surrogatepass")
        if rng.random() < 0.3:
            data += bytes(rng.randrange(256) for _ in range(rng.randrange(50)))
        chunk = rng.choice([1, 5, 33, 4096])
        cap = rng.choice([40, 1000])
        ref = reference_verdict(data, cap)
        for kind in ("re", "none"):
            assert verdict_of(data, kind, chunk=chunk, cap=cap) == ref


def test_threaded_re2_search_feeds_the_lines_one_search_feeds(monkeypatch):
    """A big buffer is searched in segments, in threads; the lines fed (with their windows)
    and the verdict are those of one sequential search. PARALLEL_MIN is lowered so that
    small logs and tiny chunks take the threaded path, segment cuts included."""
    pytest.importorskip("re2", reason="google-re2 not installed (optional accelerator)")
    monkeypatch.setattr(logread, "PARALLEL_MIN", 1)
    eng = engine_mod.Engine(DATA)
    one = logread.for_engine(eng, "re2")
    assert one.threads >= 1
    rng = random.Random(11)
    pieces = [OOM, WATCHDOG, CHILD, "plain line", "", "\x1b[1m", "Watchdog", "noise\n" * 45,
              '  File "x.py", line 3, in _pre_forward_unshard', "ERROR: y", "noise\n" * 15,
              "[2026-06-30 12:00:30,229] INFO step", "x" * 300, "noise\n" * 200, "noise\n" * 90]
    threaded_searches = 0
    for _ in range(40):
        parts = [rng.choice(pieces) + rng.choice(["\n", "", " "]) for _ in range(rng.randrange(1, 120))]
        data = "".join(parts).encode()
        chunk = rng.choice([64, 700, 4096, logread.CHUNK])
        cap = 48 if chunk < 100 else logread.LINE_CAP_BYTES
        fed: dict[int, list[tuple[int, str]]] = {}
        for threads in (1, 2, 3, 5):
            pre = dataclasses.replace(one, threads=threads)
            sink: list[tuple[int, str]] = []
            fed[threads] = sink
            n = logread.scan(io.BytesIO(data), lambda i, t, out=sink: out.append((i, t)),
                             pre, chunk=chunk, line_cap=cap)
            assert n == len(reference_lines(data, cap))
        assert fed[2] == fed[1] and fed[3] == fed[1] and fed[5] == fed[1]
        for threads in (1, 3):
            v = engine_mod.Engine(DATA)
            n = logread.scan(io.BytesIO(data), v.feed, dataclasses.replace(one, threads=threads),
                             chunk=chunk, line_cap=cap)
            v.skip_to(n)
            assert v.verdict() == reference_verdict(data, cap)
        threaded_searches += data.count(b"\n") > 3
    assert threaded_searches > 20


def test_threaded_search_is_used_for_big_buffers_only(monkeypatch):
    pytest.importorskip("re2", reason="google-re2 not installed (optional accelerator)")
    pre = dataclasses.replace(logread.for_engine(engine_mod.Engine(DATA), "re2"), threads=3)
    spans: list[tuple[int, int]] = []
    real = logread._needle_lines

    def spy(find, buf, start, end):
        spans.append((start, end))
        return real(find, buf, start, end)

    monkeypatch.setattr(logread, "_needle_lines", spy)
    small = (OOM + "\n") * 10
    logread.scan(io.BytesIO(small.encode()), lambda i, t: None, pre)
    assert spans == [(0, len(small))]  # one search over the whole buffer
    spans.clear()
    big = ("noise line\n" * 600000 + OOM + "\n").encode()  # 6.6 MB: over PARALLEL_MIN
    fed: list[tuple[int, str]] = []
    logread.scan(io.BytesIO(big), lambda i, t: fed.append((i, t)), pre)
    assert len(spans) == 3 and spans[0][0] == 0 and spans[-1][1] == len(big)  # three segments
    assert all(a[1] == b[0] for a, b in zip(spans, spans[1:], strict=False))
    assert (600001, OOM) in fed


def test_line_longer_than_the_buffer_is_skipped_through_and_its_head_kept():
    head = OOM.encode()
    data = b"first\n" + head + b"A" * 5000 + b"\nafter " + CHILD.encode() + b"\n" + b"B" * 3000
    for kind in PREFILTERS:
        v = verdict_of(data, kind, chunk=200, cap=100)
        ids = {m["id"]: m["line"] for m in v["matches"]}
        assert ids == {"cuda-oom": 2, "elastic-child-failed": 3}
        assert v["lines"] == 4
    fed, n = read_all(data, chunk=200, cap=100)
    assert n == 4 and fed[1][1] == (head + b"A" * 5000)[:100].decode()


def test_five_megabyte_single_line(tmp_path):
    line = ("x" * 500_000 + " " + OOM + " " + "y" * 4_500_000).encode()
    v = verdict_of(line, "re")
    assert v["lines"] == 1 and v["matches"][0]["id"] == "cuda-oom"
    assert len(v["matches"][0]["evidence"][0]["text"]) == engine_mod.MAX_TEXT


def test_match_beyond_the_first_mebibyte_of_a_line_is_ignored_in_every_path():
    line = ("x" * (engine_mod.MAX_LINE + 10) + OOM).encode()
    for kind in PREFILTERS:
        assert verdict_of(line, kind)["matches"] == []
    assert engine_mod.diagnose_text(DATA, line.decode())["matches"] == []


def test_the_byte_cap_never_changes_the_characters_the_engine_sees():
    # 4-byte characters up to the cap, then the signature: the byte cap keeps more than
    # MAX_LINE characters, so the cut is made by the engine in characters, as in JavaScript
    text = "😀" * (engine_mod.MAX_LINE - len(OOM) - 1) + " " + OOM
    assert len(text) == engine_mod.MAX_LINE
    v = verdict_of((text + "tail" * 10).encode(), "re")
    assert v["matches"] and v["matches"][0]["id"] == "cuda-oom"


def test_gzip_is_recognised_by_magic_bytes_not_name(tmp_path):
    body = ("noise\n" * 1000 + OOM + "\n").encode()
    plain = tmp_path / "train.log"
    plain.write_bytes(body)
    disguised = tmp_path / "train.txt"  # gzip without the .gz name
    disguised.write_bytes(gzip.compress(body))
    members = tmp_path / "two-members.gz"  # `cat a.gz b.gz`
    members.write_bytes(gzip.compress(body[:3000]) + gzip.compress(body[3000:]))
    results = []
    for path in (plain, disguised, members):
        eng = engine_mod.Engine(DATA)
        files = logread.diagnose_files([str(path)], eng)
        results.append((files[0].lines, eng.verdict()["matches"][0]["line"]))
    assert results == [(1001, 1001)] * 3


@pytest.mark.parametrize("data, message", [
    (b"\x1f\x8b" + b"\x00" * 30, "not a valid gzip file"),
    (gzip.compress(random.Random(1).randbytes(20000))[:5000],
     "truncated"),
    (gzip.compress(b"hello\n" * 100)[:-8] + b"\x00" * 8, "not a valid gzip file"),
])
def test_corrupt_gzip_is_a_one_line_error(tmp_path, data, message):
    path = tmp_path / "bad.log.gz"
    path.write_bytes(data)
    with pytest.raises(logread.LogError) as err:
        logread.diagnose_files([str(path)], engine_mod.Engine(DATA))
    assert message in str(err.value) and str(path) in str(err.value)
    assert "\n" not in str(err.value)


def test_open_errors_are_one_line(tmp_path):
    with pytest.raises(logread.LogError, match="no such file"):
        logread.open_log(str(tmp_path / "missing.log"))
    with pytest.raises(logread.LogError, match="is a directory"):
        logread.open_log(str(tmp_path))


class Recording(io.RawIOBase):
    """A huge stream that remembers the biggest read asked of it."""

    def __init__(self, size: int, line: bytes) -> None:
        self.left = size
        self.block = line * ((1 << 20) // len(line))  # ~1 MiB, copied piecewise
        self.at = 0
        self.biggest = 0

    def readable(self) -> bool:
        return True

    def readinto(self, b) -> int:  # type: ignore[override]
        self.biggest = max(self.biggest, len(b))
        n = min(len(b), self.left)
        view = memoryview(b)
        done = 0
        while done < n:
            k = min(n - done, len(self.block) - self.at)
            view[done:done + k] = self.block[self.at:self.at + k]
            self.at = (self.at + k) % len(self.block)
            done += k
        self.left -= n
        return n


def scan_traced(stream: Recording, prefilter: str) -> tuple[int, int]:
    """Scan the stream through a fresh engine; return (lines, peak traced bytes)."""
    eng = engine_mod.Engine(DATA)
    tracemalloc.start()
    try:
        n = logread.scan(stream, eng.feed, logread.for_engine(eng, prefilter))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return n, peak


@pytest.mark.slow  # scans a 96 MiB stream
def test_memory_is_bounded_by_the_buffer_not_the_file():
    size = 96 << 20
    stream = Recording(size, b"[default3]:{'loss': 0.81, 'epoch': 0.42} step 1260/3000 ok\n")
    n, peak = scan_traced(stream, "re")
    assert n > 1_000_000
    assert stream.biggest <= logread.CHUNK  # never "read everything"
    assert peak < logread.CHUNK + (8 << 20), f"peak {peak / 2**20:.1f} MiB for a {size >> 20} MiB log"


def test_memory_is_bounded_for_one_endless_line():
    stream = Recording(64 << 20, b"z" * 1000)  # 64 MiB without a newline
    n, peak = scan_traced(stream, "none")
    assert n == 1
    assert peak < logread.CHUNK + 4 * logread.LINE_CAP_BYTES + (4 << 20)


def test_several_files_keep_their_own_line_numbers(tmp_path):
    a = tmp_path / "rank0.log"
    b = tmp_path / "rank3.log"
    a.write_text("ok\n" * 5 + WATCHDOG + "\n", encoding="utf-8")
    b.write_text("ok\n" + OOM + "\n", encoding="utf-8")
    eng = engine_mod.Engine(DATA)
    files = logread.diagnose_files([str(a), str(b)], eng)
    v = engine_mod.attribute_files(eng.verdict(), [vars(f) for f in files])
    assert v["files"] == [{"name": str(a), "lines": 6}, {"name": str(b), "lines": 2}]
    assert v["lines"] == 8
    where = {m["id"]: (m["file"], m["line"], m["rank"]) for m in v["matches"]}
    assert where == {"cuda-oom": (str(b), 2, 3), "nccl-watchdog-timeout": (str(a), 6, 1)}
    assert v["matches"][0]["evidence"][0]["file"] == str(b)


def test_context_does_not_reach_into_the_next_file(tmp_path):
    a = tmp_path / "a.log"
    b = tmp_path / "b.log"
    a.write_text("x\n" * 3 + '  File "fsdp.py", line 3, in _unshard\n', encoding="utf-8")
    b.write_text("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2 GiB\n",
                 encoding="utf-8")
    eng = engine_mod.Engine(DATA)
    logread.diagnose_files([str(a), str(b)], eng)
    assert [m["id"] for m in eng.verdict()["matches"]] == ["cuda-oom"]
    eng = engine_mod.Engine(DATA)
    c = tmp_path / "c.log"
    c.write_bytes(a.read_bytes() + b.read_bytes())
    logread.diagnose_files([str(c)], eng)
    assert eng.verdict()["matches"][0]["id"] == "fsdp-unshard-oom"


def test_prefilter_needles_are_minimal_and_cover_every_signature():
    eng = engine_mod.Engine(DATA)
    needles = eng.needles()
    assert "\x1b" in needles
    assert {s["needle"] for s in DATA["signatures"]} <= set(needles)
    # context and benign templates have no needle: they are looked at around a hit
    assert not {c["anchor"] for s in DATA["signatures"] for c in s["context"]} & set(needles)
    assert eng.context_window() == 40 and eng.event_mark in needles
    kept = logread._minimal([n.encode() for n in needles])
    assert all(any(k in n.encode() for k in kept) for n in needles)


def test_minimal_needles_equal_the_pairwise_definition():
    """_minimal looks needles up by their substrings; it must keep exactly the needles that
    contain no other needle (the pairwise definition), whatever the overlaps."""
    def pairwise(needles: list[bytes]) -> list[bytes]:
        keep: list[bytes] = []
        for n in sorted(set(needles), key=lambda b: (len(b), b)):
            if n and not any(k in n for k in keep):
                keep.append(n)
        return sorted(keep)

    rng = random.Random(5)
    for _ in range(2000):
        needles = [bytes(rng.choice(b"ab c") for _ in range(rng.randrange(7)))
                   for _ in range(rng.randrange(12))]
        assert logread._minimal(needles) == pairwise(needles), needles
    real = [n.encode() for n in engine_mod.Engine(DATA).needles()]
    assert logread._minimal(real) == pairwise(real)


def test_needle_sets_union_equals_minimal_of_all_needles():
    """needle_sets reduces signature and line needles apart and then merges them; the merge
    must keep exactly what _minimal of every needle together keeps."""
    rng = random.Random(11)
    for _ in range(2000):
        sig = ["".join(rng.choice("ab c") for _ in range(rng.randrange(1, 7)))
               for _ in range(rng.randrange(8))]
        lines = ["".join(rng.choice("abc") for _ in range(rng.randrange(1, 4)))
                 for _ in range(rng.randrange(4))]
        sets = logread.needle_sets(sig, lines, window=3)
        assert list(sets.every) == logread._minimal([n.encode() for n in sig + lines]), (sig, lines)
        assert list(sets.signature) == (logread._minimal([n.encode() for n in sig]))
        assert sets.window == (3 if sets.signature else 0)
    eng = engine_mod.Engine(DATA)
    sets = logread.engine_needle_sets(eng)
    every = eng.needles() + eng.line_needles()
    assert list(sets.every) == logread._minimal([n.encode() for n in every])
    assert logread.needle_sets(["a\ufffdb"]).usable is False
    assert logread.prefilter_for(logread.needle_sets(["a\ufffdb"])).kind == "none"


@pytest.mark.parametrize("kind", PREFILTERS)
def test_context_far_from_any_needle_is_read_around_the_hit(kind):
    """The context of a signature holds no needle; the fast path reads the window around
    a signature's line (before it, across buffer refills, and after it)."""
    frame = '  File "fsdp/_runtime_utils.py", line 1, in _pre_forward_unshard'
    for before in (True, False):
        lines = ["noise line"] * 500 + ([frame] + ["noise"] * 39 + [OOM] if before
                                          else [OOM] + ["noise"] * 39 + [frame]) + ["tail"] * 100
        data = ("\n".join(lines) + "\n").encode()
        for chunk in (1, 64, 4096, logread.CHUNK):
            v = verdict_of(data, kind, chunk=chunk, cap=80)
            assert v == reference_verdict(data, 80)
            assert v["matches"][0]["id"] == "fsdp-unshard-oom", (before, chunk)
        # one line further is outside the window: generic OOM only
        far = [x for x in lines]
        far.insert(501 if before else 502, "noise")
        data = ("\n".join(far) + "\n").encode()
        assert verdict_of(data, kind, chunk=64, cap=80)["matches"][0]["id"] == "cuda-oom"


def test_stdin_dash_reads_plain_and_gzip(monkeypatch):
    for payload in (OOM.encode() + b"\n", gzip.compress(OOM.encode() + b"\n")):
        fake = io.TextIOWrapper(io.BufferedReader(io.BytesIO(payload)))
        monkeypatch.setattr("sys.stdin", fake)
        eng = engine_mod.Engine(DATA)
        files = logread.diagnose_files(["-"], eng)
        assert files[0].name == "<stdin>" and files[0].lines == 1
        assert eng.verdict()["root_cause"] == "cuda-oom"


def test_files_are_closed(tmp_path):
    import gc
    import warnings

    p = tmp_path / "x.log.gz"
    p.write_bytes(gzip.compress(b"hello\n"))
    with warnings.catch_warnings():
        warnings.simplefilter("error", ResourceWarning)
        logread.diagnose_files([str(p), str(p)], engine_mod.Engine(DATA))
        gc.collect()


def test_path_reads_every_byte_once(tmp_path: Path):
    data = b"".join(f"line {i} ".encode() + (OOM.encode() if i % 997 == 0 else b"") + b"\n"
                    for i in range(20000))
    for chunk in (64, 1000, logread.CHUNK):
        assert verdict_of(data, "re", chunk=chunk, cap=60) == reference_verdict(data, 60)


@pytest.mark.parametrize("kind", PREFILTERS)
def test_utf16_files_read_like_utf8(tmp_path, kind):
    """What Windows PowerShell's `>` writes: UTF-16 with a byte-order mark, CRLF; gzip too."""
    text = f"start\r\n{OOM}\r\nééé 🤗\r\n{WATCHDOG}\r\n"
    plain = tmp_path / "utf8.log"
    plain.write_bytes(text.encode())
    eng = engine_mod.Engine(DATA)
    expected = logread.diagnose_files([str(plain)], eng, prefilter(kind))
    want = eng.verdict()
    for name, data in (("le.log", text.encode("utf-16")), ("be.log", b"\xfe\xff" + text.encode("utf-16-be")),
                       ("le.log.gz", gzip.compress(text.encode("utf-16")))):
        p = tmp_path / name
        p.write_bytes(data)
        eng = engine_mod.Engine(DATA)
        got = logread.diagnose_files([str(p)], eng, prefilter(kind))
        assert [r.lines for r in got] == [r.lines for r in expected] == [4]
        assert eng.verdict() == want
    assert [m["id"] for m in want["matches"]] == ["cuda-oom", "nccl-watchdog-timeout"]


@pytest.mark.parametrize("kind", PREFILTERS)
def test_a_wrapped_file_is_fed_line_by_line(tmp_path, kind):
    """A wrap can cut a signature's anchor in two: no needle finds either half, so a file
    whose first lines show a wrap width goes through the engine line by line."""
    line = "2026-06-30T12:00:30.229Z " + OOM  # the anchor torch.OutOfMemoryError: spans 34-56
    body = [line[i:i + 45] for i in range(0, len(line), 45)] + ["x" * 45, "y" * 10] * 2
    assert not any("OutOfMemoryError" in b for b in body)
    p = tmp_path / "wrapped.log"
    p.write_text("\n".join(body) + "\n", encoding="utf-8")
    eng = engine_mod.Engine(DATA)
    logread.diagnose_files([str(p)], eng, prefilter(kind))
    assert eng.wrap == 45
    v = eng.verdict()
    assert [(m["id"], m["line"], m["rank"]) for m in v["matches"]] == [("cuda-oom", 1, 3)]


@pytest.mark.parametrize("kind", PREFILTERS)
def test_a_line_fed_alone_does_not_hide_the_window_before_it(kind):
    """An error line (a line needle, fed alone) just before a signature's line: the window
    before the signature's line is still read (its timestamp, its context)."""
    data = ("[2026-06-30 12:00:30,229] INFO start\n" + "x\n" * 5 + "ValueError: something\n"
            + OOM + "\n").encode()
    for chunk in (1, 16, logread.CHUNK):
        v = verdict_of(data, kind, chunk=chunk, cap=200)
        assert v == reference_verdict(data, 200)
        assert v["matches"][0]["time"] == "06-30 12:00:30.229000"


def test_a_byte_order_mark_alone_does_not_make_utf16():
    """Invalid UTF-8 that starts with FF FE stays UTF-8 (its code units are not mostly ASCII);
    UTF-16 text, empty or one character long, is UTF-16."""
    assert not logread.is_utf16(b"\xff\xfe\xc3\x28 [rank3]: torch.OutOfMemoryError")
    assert logread.is_utf16("[rank3]: OOM".encode("utf-16"))
    assert logread.is_utf16(b"\xfe\xff" + "é ok".encode("utf-16-be"))
    assert logread.is_utf16(b"\xff\xfe") and logread.is_utf16(b"\xff\xfeA\x00")
    assert not logread.is_utf16(b"plain text") and not logread.is_utf16(b"")
