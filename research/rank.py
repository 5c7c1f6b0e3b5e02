"""Rank failure kinds by how often they occur in the labelled sample.

Reads research/failure-sample.tsv (one row per sampled thread) and
research/sampling-queries.tsv (the queries, with the kinds each one names), and prints:

- the ranking (default): count, the count from queries that did not name the kind,
  whether an entry exists (entries/<kind>.yaml), and the first example threads;
- with --yaml: the `sample:` and `frequency:` blocks for entries/taxonomy.yaml.

Standard library only; run from the repository root:  python research/rank.py [--yaml]
"""

from __future__ import annotations

import argparse
import csv
import sys
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "research" / "failure-sample.tsv"
QUERIES = ROOT / "research" / "sampling-queries.tsv"
MAX_EXAMPLES = 3


def read_tsv(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f, dialect="excel-tab"))


def ranking(rows: list[dict[str, str]], queries: list[dict[str, str]]) -> list[dict]:
    named = {q["query"]: set(q["names_kinds"].split()) for q in queries}
    counts: Counter[str] = Counter(r["kind"] for r in rows)
    unprompted: Counter[str] = Counter(r["kind"] for r in rows
                                       if r["kind"] not in named.get(r["query"], set()))
    examples: dict[str, list[str]] = defaultdict(list)
    for r in rows:  # file order = sampling order, so the examples are the first ones found
        if len(examples[r["kind"]]) < MAX_EXAMPLES:
            examples[r["kind"]].append(r["url"])
    kinds = sorted(counts, key=lambda k: (-counts[k], k))
    return [{"id": k, "count": counts[k], "unprompted": unprompted[k], "examples": examples[k],
             "entry": (ROOT / "entries" / f"{k}.yaml").is_file()} for k in kinds]


def as_yaml(ranked: list[dict], total: int, date: str) -> str:
    out = ["sample:", f"  threads: {total}", f'  date: "{date}"',
           "  data: research/failure-sample.tsv", "  method: research/SAMPLING.md", "frequency:"]
    for k in ranked:
        out.append(f"  - id: {k['id']}")
        out.append(f"    count: {k['count']}")
        out.append("    examples:")
        out.extend(f"      - {url}" for url in k["examples"])
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--yaml", action="store_true", help="print the taxonomy.yaml blocks")
    parser.add_argument("--date", default="", help="sample date for --yaml (YYYY-MM-DD)")
    args = parser.parse_args(argv)
    rows, queries = read_tsv(SAMPLE), read_tsv(QUERIES)
    ranked = ranking(rows, queries)
    if args.yaml:
        sys.stdout.write(as_yaml(ranked, len(rows), args.date))
        return 0
    covered = sum(k["count"] for k in ranked if k["entry"])
    print(f"M = {len(rows)} threads, {len(ranked)} kinds; "
          f"threads whose kind has an entry: {covered} ({100 * covered / len(rows):.1f}%)")
    print("rank\tcount\tunprompted\tentry\tkind")
    for i, k in enumerate(ranked, 1):
        print(f"{i}\t{k['count']}\t{k['unprompted']}\t{'yes' if k['entry'] else 'no'}\t{k['id']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
