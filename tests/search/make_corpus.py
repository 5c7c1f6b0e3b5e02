"""Write tests/search/pasted-lines.tsv: error lines as readers paste them into the site search.

Run once from the repository root (``python tests/search/make_corpus.py``); the TSV it writes
is the reviewed corpus (commit it, do not regenerate it to make a test pass). Sources:

- dev real logs (tests/real_logs/labels.tsv rows with split=dev whose expected id is an
  entry): the raw line (launcher prefixes, timestamps, ranks, paths, addresses kept) on which
  `diagnose` finds the expected entry; for logs where it finds nothing, a line picked by hand
  (MANUAL), the one a reader would copy. Test-split real logs are never read.
- tests/logs/<id>/: up to two logs per entry, the line of the entry's own hit.

Lines whose hit needs context (an OOM line that is an FSDP failure only with its FSDP frame)
are left out: one line cannot say which entry it is. A hit whose line does not hold its signature's
anchor (a hard-wrapped log) is left out too. About half of the lines are cut the
way readers cut them: at a random point after the first words of the message (at least 40
characters and half of it), mid-word or at a blank, often ending in "...".

The split column is decided by the source before any ranking ran on these lines: dev when
the first hex digit of sha1(key) is even, where the key is the thread URL for a real log and
tests/logs/<id> for a corpus log (every line of one thread or one entry's logs on one side).
"""

from __future__ import annotations

import csv
import hashlib
import random
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from generator.matching import diagnose, engine  # noqa: E402

OUT = ROOT / "tests" / "search" / "pasted-lines.tsv"
PER_ENTRY = 2  # tests/logs files per entry
# Dev real logs on which diagnose finds nothing: (file, line number) of the line to paste.
MANUAL = {
    "r056-minigpt4-exitcode-minus6.log": 1,
    "r087-spconv-fork-cuda-second-half-only.log": 1,
    "r100-lomo-local-rank-keyerror-ipython.log": 13,
    "r101-mmaction-rank-keyerror-init-dist.log": 13,
    "r102-chemformer-deepspeed-local-rank-keyerror.log": 6,
    "r104-aisummer-rank-keyerror-repl.log": 11,
    "r134-pytorch-only-cuda-dense-old-wording.log": 1,
    "r139-nccl-socket-creation-failed-no-ip-interface.log": 1,
    "r141-fastai-docker-bus-error-wrapped-quote.log": 1,
    "r163-pytorch-powbackward1-nan-1st-output-backticks.log": 2,
    "r179-dsb2018-missing-keys-two-gpus.log": 11,
    "r190-returnn-gpu-unknown-error-pcie-aer.log": 2,
    "r203-hllm-childfailed-no-summary.log": 14,
}


def split_of(key: str) -> str:
    return "dev" if int(hashlib.sha1(key.lower().encode()).hexdigest()[0], 16) % 2 == 0 else "test"


def message_start(line: str) -> int:
    prefixes = [(re.compile(p), g) for p, g in engine.PREFIXES]
    _, text = engine.clean(line, prefixes, re.compile(engine.ANSI), re.compile(engine.RANK_IN_MESSAGE),
                           re.compile(engine.EMBEDDED))
    return len(line) - len(text)


def as_pasted(line: str, seed: str) -> str:
    line = line.replace("\t", " ").rstrip("\r\n")
    rng = random.Random(seed)
    start = message_start(line)
    length = len(line) - start
    if rng.random() < 0.5 or length < 50:
        return line.strip()
    low = start + max(40, int(length * 0.5))
    cut = rng.randrange(low, len(line))
    if rng.random() < 0.5:  # at a blank before the cut point, when there is one after low
        blank = line.rfind(" ", low, cut)
        cut = blank if blank > 0 else cut
    return (line[:cut].rstrip() + rng.choice(["...", "...", " ...", "…", ""])).strip()


def hit_line(data, path: Path, wanted: set[str]) -> int | None:
    """The line of the first hit of a wanted entry, when that line holds the signature's
    anchor (a hard-wrapped log's hit may start on a progress bar or a rich box border)."""
    verdict = diagnose.diagnose(data, [str(path)])
    lines = path.read_text(encoding="utf-8", errors="replace").split("\n")
    for m in verdict["matches"]:
        if m["id"] in wanted and not m["specific"]:
            anchor = next(s["anchor"] for s in data["signatures"]
                          if s["entry"] == m["id"] and s["index"] == m["signature"])
            return m["line"] if anchor in lines[m["line"] - 1] else None
    return None


def main() -> None:
    data, _ = diagnose.load_data(ROOT)
    ids = set(data["entries"])
    rows = []
    with (ROOT / "tests" / "real_logs" / "labels.tsv").open(encoding="utf-8") as f:
        labels = list(csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE))
    for r in labels:
        if r["split"] != "dev" or r["expected_id"] not in ids:
            continue  # test-split logs are never opened
        path = ROOT / "tests" / "real_logs" / r["file"]
        wanted = {r["expected_id"]} | set(r["also_acceptable"].split(",")) - {"-"}
        lineno = MANUAL.get(r["file"]) or hit_line(data, path, wanted)
        if lineno is None:
            continue
        raw = path.read_text(encoding="utf-8", errors="replace").split("\n")[lineno - 1]
        url = r["source"].split()[-1]
        source = f"tests/real_logs/{r['file']}:{lineno}"
        rows.append((as_pasted(raw, source), r["expected_id"], source, split_of(url)))
    for folder in sorted((ROOT / "tests" / "logs").iterdir()):
        if folder.name not in ids:
            continue
        taken = 0
        for path in sorted(folder.glob("*.log")):
            if taken == PER_ENTRY:
                break
            lineno = hit_line(data, path, {folder.name})
            if lineno is None:
                continue
            raw = path.read_text(encoding="utf-8", errors="replace").split("\n")[lineno - 1]
            source = f"tests/logs/{folder.name}/{path.name}:{lineno}"
            rows.append((as_pasted(raw, source), folder.name, source,
                         split_of(f"tests/logs/{folder.name}")))
            taken += 1
    rows = [r for r in rows if r[0]]
    with OUT.open("w", encoding="utf-8", newline="") as f:
        f.write("line\texpected_id\tsource\tsplit\n")
        for row in rows:
            f.write("\t".join(row) + "\n")
    dev = sum(1 for r in rows if r[3] == "dev")
    print(f"{len(rows)} lines ({dev} dev, {len(rows) - dev} test) -> {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
