"""Benchmark: does a pasted error line put the right entry first in the header search?

Runs the header search's ranking (`searchLine` in docs/assets/diagnose-engine.js, the
function the site's search box calls) under Node on every line of
tests/search/pasted-lines.tsv (error lines as readers paste them: ranks, timestamps, paths,
addresses, often cut short with "...") and prints, per split (dev, test):

- right first: the first result is the line's expected entry;
- in top 3: the expected entry is among the first three results;
- the verdict alone: right first when only the diagnose verdict's matches are shown (what
  the search box showed before searchLine);
- nothing: no result at all (the search box then shows Material's own results alone);
- how the first results were found: signature (a signature matches in full), prefix (the
  line is a signature cut short), closest (text similarity, unconfirmed).

Dev lines are for tuning; test lines are measured here and nowhere else. The misses are
listed for the dev split only unless --misses test is given.

    python bench/search_lines.py
    python bench/search_lines.py --misses dev
    python bench/search_lines.py --json
"""

from __future__ import annotations

import argparse
import csv
import json
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from generator.matching import diagnose  # noqa: E402

CORPUS = REPO / "tests" / "search" / "pasted-lines.tsv"
CLI = REPO / "tests" / "js" / "search_cli.js"


def read_corpus(path: Path = CORPUS) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE))


def rank_lines(lines: list[str], data: dict[str, Any] | None = None) -> list[list[dict[str, Any]]]:
    """searchLine's results for each line, run under Node."""
    if data is None:
        data, _ = diagnose.load_data(REPO)
    node = shutil.which("node")
    if node is None:
        raise SystemExit("node is not installed")
    with tempfile.TemporaryDirectory() as tmp:
        matcher = Path(tmp) / "matcher.json"
        matcher.write_text(json.dumps(data), encoding="utf-8")
        given = Path(tmp) / "lines.json"
        given.write_text(json.dumps(lines), encoding="utf-8")
        out = subprocess.run([node, str(CLI), str(matcher), str(given)], capture_output=True,
                             text=True, check=True, timeout=600)
    result: list[list[dict[str, Any]]] = json.loads(out.stdout)
    return result


def measure(rows: list[dict[str, str]], results: list[list[dict[str, Any]]]) -> dict[str, Any]:
    report: dict[str, Any] = {}
    for split in ("dev", "test"):
        pairs = [(r, res) for r, res in zip(rows, results, strict=True) if r["split"] == split]
        first = [r for r, res in pairs if res and res[0]["id"] == r["expected_id"]]
        top3 = [r for r, res in pairs if r["expected_id"] in [x["id"] for x in res[:3]]]
        kinds = Counter(res[0]["kind"] for _, res in pairs if res)
        # before this search: the page showed the diagnose verdict's first match alone
        verdict_only = [r for r, res in pairs
                        if [x["id"] for x in res if x["kind"] == "signature"][:1] == [r["expected_id"]]]
        report[split] = {
            "lines": len(pairs),
            "right_first": len(first),
            "right_first_rate": round(len(first) / len(pairs), 3) if pairs else None,
            "in_top3": len(top3),
            "verdict_alone_right_first": len(verdict_only),
            "nothing": sum(1 for _, res in pairs if not res),
            "first_by": dict(sorted(kinds.items())),
            "misses": [{"line": r["line"], "expected": r["expected_id"], "source": r["source"],
                        "got": [f"{x['id']} ({x['kind']})" for x in res[:3]]}
                       for r, res in pairs if not res or res[0]["id"] != r["expected_id"]],
        }
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--misses", choices=["dev", "test", "none"], default="dev")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = read_corpus()
    report = measure(rows, rank_lines([r["line"] for r in rows]))
    if args.json:
        print(json.dumps({s: {k: v for k, v in r.items() if k != "misses"} for s, r in report.items()},
                         indent=1))
        return
    for split, r in report.items():
        print(f"{split}: right first {r['right_first']}/{r['lines']} ({100 * r['right_first_rate']:.1f}%), "
              f"in top 3 {r['in_top3']}/{r['lines']}, nothing {r['nothing']}; "
              f"the verdict alone {r['verdict_alone_right_first']}/{r['lines']}; "
              f"first result by {r['first_by']}")
    if args.misses != "none":
        print(f"\nmisses ({args.misses}):")
        for miss in report[args.misses]["misses"]:
            print(f"  {miss['expected']:32} got {', '.join(miss['got']) or '-'}\n"
                  f"      {miss['line'][:160]}\n      ({miss['source']})")


if __name__ == "__main__":
    main()
