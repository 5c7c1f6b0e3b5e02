"""The arguments of `python -m generator provenance`, apart from the command's code so that
building the parser for any command does not import the fetch and matching machinery."""

from __future__ import annotations

import argparse
from pathlib import Path


def add_arguments(p: argparse.ArgumentParser) -> None:
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--from-cache", action="store_true",
                      help="never download; recompute the matrix from the cache")
    mode.add_argument("--fetch-only", action="store_true",
                      help="fetch and extract what the cache lacks; write nothing")
    mode.add_argument("--holes", action="store_true",
                      help="list, per entry, scanned releases where none of its signatures occurs")
    p.add_argument("--incremental", action="store_true",
                   help="measure only signatures with no record or a changed text; keep the "
                   "other records of the committed matrix")
    p.add_argument("--jobs", "-j", type=int, default=1, help="parallel downloads/extractions")
    p.add_argument("--cache", type=Path, default=None,
                   help="cache folder (default: $FAILURE_ENCYCLOPEDIA_PROVENANCE_CACHE or "
                   "~/.cache/failure-encyclopedia/provenance)")
    p.add_argument("--only", nargs="+", metavar="ID", default=None,
                   help="fetch only these artifact ids (with --fetch-only)")
