"""Benchmark: the browser's JavaScript diagnose engine on a 50 MB log, under Node.

Generates the same kind of synthetic multi-rank log as diagnose_throughput.py (--size-mb,
default 50), writes the matcher data built from entries/, and runs bench/js_engine.js:
read, UTF-8 decode, and the Diagnose page's scan (plus, with --plain, every line through
the engine, checked to give the same verdict). Needs `node` on PATH.

    python bench/js_engine.py
    python bench/js_engine.py --size-mb 200 --plain
    python bench/js_engine.py --noisy
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from diagnose_throughput import generate

from generator.matching import diagnose


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--size-mb", type=int, default=50)
    ap.add_argument("--every-mb", type=int, default=8)
    ap.add_argument("--plain", action="store_true", help="also time every line through the engine")
    ap.add_argument("--noisy", action="store_true",
                    help="a third of the lines are benign warnings, NCCL INFO and torch/distributed lines")
    args = ap.parse_args()
    node = shutil.which("node")
    if not node:
        print("node not found on PATH", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="fe-bench-js-") as tmp:
        log = Path(tmp) / "train.log"
        generate(log, args.size_mb << 20, args.every_mb << 20, REPO, args.noisy)
        data, _ = diagnose.load_data(REPO)
        matcher = Path(tmp) / "matcher.json"
        matcher.write_text(json.dumps(data), encoding="utf-8")
        cmd = [node, str(REPO / "bench" / "js_engine.js"), str(matcher), str(log)]
        if args.plain:
            cmd.append("--plain")
        out = json.loads(subprocess.run(cmd, capture_output=True, text=True, check=True).stdout)
        py = diagnose.diagnose(data, [str(log)])
        print(f"{out['mb']:.0f} MiB log, {out['lines']} lines, {len(data['signatures'])} signatures")
        print(f"  read {out['read_ms']:.0f} ms, UTF-8 decode {out['decode_ms']:.0f} ms")
        print(f"  scan (Diagnose page path) {out['scan_ms']:.0f} ms "
              f"= {out['mb'] / out['scan_ms'] * 1000:.0f} MiB/s; heap {out['heap_mb']:.0f} MiB")
        if "plain_ms" in out:
            print(f"  every line through the engine {out['plain_ms']:.0f} ms; same verdict: {out['same']}")
        print(f"  root cause {out['root_cause']} ({out['matches']} matches); "
              f"Python agrees: {py['root_cause'] == out['root_cause'] and py['lines'] == out['lines']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
