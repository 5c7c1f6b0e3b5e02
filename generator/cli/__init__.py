"""Command line: argument parsing here; what each command does, prints and exits with in
``commands.py``; the text it prints in ``reports.py`` (templates/terminal/). The library
returns values and raises typed errors; only the command line prints or chooses an exit code.

Exit codes: 0 success, 1 problems found (or, for diagnose, nothing recognised), 2 usage or
read error.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path

# Commands whose start-up time matters live in their own module (the rest: commands.py)
COMMAND_MODULES = {"diagnose": "diagnose_command"}


def _root() -> Path:
    """The repository root: the nearest folder upwards holding mkdocs.yml and entries/; else
    the checkout this package is in (so `diagnose` works from a folder of logs)."""
    here = Path.cwd().resolve()
    for folder in (here, *here.parents):
        if (folder / "mkdocs.yml").is_file() and (folder / "entries").is_dir():
            return folder
    return Path(__file__).resolve().parents[2]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m generator",
        description="Failure encyclopedia for distributed ML training: check entries, "
        "render and build the site, diagnose logs.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("check", help="check entries and print located problems")
    p.add_argument("paths", nargs="*", type=Path, help="entry files to report on (default: all)")
    p.add_argument("--format", choices=("text", "github", "json"), default="text")
    p.add_argument("--list-codes", action="store_true", help="list every problem code and exit")

    p = sub.add_parser("render", help="check, then write the generated Markdown into docs/")
    p = sub.add_parser("build", help="check, render and run `mkdocs build --strict` into site/")
    p.add_argument("--site-dir", type=Path, default=None)
    p = sub.add_parser("serve", help="live preview: check, render and `mkdocs serve`")
    p.add_argument("--dev-addr", default="127.0.0.1:8000")

    p = sub.add_parser("diagnose", help="diagnose one or more log files ('-' reads stdin)")
    p.add_argument("files", nargs="+", help="log files (.gz read transparently) or '-'")
    p.add_argument("--json", action="store_true", help="print the verdict as JSON")

    p = sub.add_parser("reproduce", help="run entries' reproduction scripts and check their "
                       "output against the entries (needs torch)")
    p.add_argument("ids", nargs="*", metavar="ID", help="entry ids (default: every entry with "
                   "a reproduce: block)")
    p.add_argument("--record", action="store_true", help="write passing runs' output to "
                   "tests/logs/<id>/ and update reproductions/verified.json")

    p = sub.add_parser("explain", help="print an entry in the terminal")
    p.add_argument("id")

    p = sub.add_parser("schema", help="write schema/entry.schema.json, schema/verdict.schema.json "
                       "and docs/diagnose-json.md from their definitions in generator/")
    p.add_argument("--check", action="store_true", help="exit 1 if a committed file is stale")

    p = sub.add_parser("provenance", help="measure which releases print each signature "
                       "(writes provenance/signatures.json)")
    from .provenance_args import add_arguments as provenance_arguments

    provenance_arguments(p)

    p = sub.add_parser("new", help="scaffold a new entry file")
    p.add_argument("id")
    p.add_argument("--from", dest="from_id", default=None, help="copy the structure of an entry")
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help(sys.stderr)
        return 2
    root = _root()
    module = importlib.import_module("." + COMMAND_MODULES.get(args.command, "commands"),
                                     __package__)
    handler = getattr(module, "run_" + args.command)
    try:
        return int(handler(root, args))
    except KeyboardInterrupt:  # pragma: no cover - interactive
        return 130
    except BrokenPipeError:  # pragma: no cover - `| head`
        return 0
