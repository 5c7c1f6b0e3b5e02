"""``python -m generator reproduce [ID...] [--record]``: trigger failures for real and check
that the entries describe what PyTorch prints.

For each selected entry with a ``reproduce:`` block the script is launched (``torchrun``
through ``sys.executable -m torch.distributed.run``, or plain ``python``) in its own process
group, with the block's ``env``, a free ``MASTER_PORT`` and a private ``TMPDIR``; it is
killed after ``timeout`` seconds. Its stdout and stderr, captured together, must show:

a. every signature marked ``reproduced: true`` matching some line, with the engine's own
   matching (line cleaning, rank prefixes, benign lines, context windows);
b. the diagnose verdict on the output naming the entry as the root cause (first match)
   for a ``root`` entry; for a ``collateral`` or ``wrapper`` entry, the entry among the
   matches and a root cause ranked first.

``needs: cuda`` entries are skipped unless ``torch.cuda.is_available()``. With
``record=True`` a passing run's output is written to
``tests/logs/<id>/reproduced-torch-<version>-<cpu|cuda>.log`` (for a collateral or wrapper
entry with a ``.expect`` file: the ranked match ids, root cause first) and
``reproductions/verified.json`` is updated; entry YAML files are never written.

``prepare`` selects and checks (raising ReproduceError), ``Session.run`` yields one Outcome per
reproduction; the command line (``generator/cli``) prints them and chooses the exit status.
"""

from __future__ import annotations

import dataclasses
import datetime
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .entries.catalog import load_catalog
from .entries.model import BenignTemplate, Entry, Reproduction
from .matching import engine as engine_mod
from .matching import matcherdata
from .project import Project

VERIFIED_FILE = Path("reproductions") / "verified.json"
LOGS_DIR = Path("tests") / "logs"
KILL_GRACE = 5  # seconds between SIGTERM and SIGKILL when the timeout is reached
OUTPUT_SHOWN = 20  # lines of a failed reproduction's output kept for the report
ERROR_LINE = re.compile(r"Error|Exception|exitcode|Signal|Killed|Assertion")
# Variables a surrounding launcher may have set; a reproduction starts without them.
INHERITED_DIST_VARS = (
    "RANK", "WORLD_SIZE", "LOCAL_RANK", "LOCAL_WORLD_SIZE", "GROUP_RANK", "GROUP_WORLD_SIZE",
    "ROLE_RANK", "ROLE_WORLD_SIZE", "ROLE_NAME", "MASTER_ADDR", "MASTER_PORT",
    "TORCH_DISTRIBUTED_DEBUG", "TORCHELASTIC_RUN_ID", "TORCHELASTIC_RESTART_COUNT",
    "TORCHELASTIC_MAX_RESTARTS", "TORCHELASTIC_USE_AGENT_STORE", "TORCHELASTIC_ERROR_FILE",
)
PROBE = (
    "import json, torch\n"
    "cuda = torch.cuda.is_available()\n"
    "print(json.dumps({'version': torch.__version__, 'cuda': cuda,"
    " 'gpu': torch.cuda.get_device_name(0) if cuda else None}))\n"
)


@dataclass
class Torch:
    """What the torch installation the reproductions run with offers."""

    version: str
    cuda: bool
    gpu: str | None = None

    @property
    def release(self) -> str:
        """'2.13.0' for '2.13.0+cpu': the local build tag goes into the platform instead."""
        return self.version.split("+", 1)[0]


@dataclass
class Outcome:
    """The result of one reproduction: status is pass, fail or skip."""

    entry_id: str
    status: str
    reasons: list[str] = field(default_factory=list)
    matched: list[int] = field(default_factory=list)  # indexes of signatures that matched
    verdict: dict[str, Any] | None = None
    output: str = ""
    seconds: float = 0.0
    returncode: int | None = None
    timed_out: bool = False
    block: Reproduction | None = None  # the entry's reproduce: block
    written: list[Path] = field(default_factory=list)  # files recorded (with --record)

    def error_lines(self) -> list[str]:
        """Up to OUTPUT_SHOWN lines of the output that look like errors."""
        return [line for line in self._lines() if ERROR_LINE.search(line)][:OUTPUT_SHOWN]

    def last_lines(self) -> list[str]:
        return self._lines()[-OUTPUT_SHOWN:]

    def _lines(self) -> list[str]:
        return self.output.rstrip("\n").split("\n")


# -- checking (pure: no processes) ------------------------------------------------------------
def signature_engine(entry: Entry, benign: Sequence[BenignTemplate]) -> engine_mod.Engine:
    """An engine whose 'entries' are this entry's signatures, one each ('<id>#<index>'), so
    one pass over a log tells which of its signatures matched, exactly as diagnose would."""
    pseudo = [dataclasses.replace(entry, id=f"{entry.id}#{index}", role="root", title=str(index),
                                  severity="", signatures=(sig,))
              for index, sig in enumerate(entry.signatures)]
    return engine_mod.Engine(matcherdata.build(pseudo, benign, roles=("root",)))


def matched_signatures(entry: Entry, text: str, benign: Sequence[BenignTemplate]) -> list[int]:
    verdict = engine_mod.diagnose_text(signature_engine(entry, benign), text)
    return sorted(int(m["id"].rsplit("#", 1)[1]) for m in verdict["matches"])


def check_output(entry: Entry, text: str, engine: engine_mod.Engine,
                 benign: Sequence[BenignTemplate]) -> tuple[list[str], list[int], dict[str, Any]]:
    """(reasons it failed, empty when it passed; matched signature indexes; the verdict)."""
    entry_id = entry.id
    reasons: list[str] = []
    matched = matched_signatures(entry, text, benign)
    for index, sig in enumerate(entry.signatures):
        if sig.reproduced and index not in matched:
            reasons.append(f"signature {index} is marked reproduced but no line of the output "
                           f"matches it: {sig.template!r}")
    verdict = engine_mod.diagnose_text(engine, text)
    matches = verdict["matches"]
    ids = [m["id"] for m in matches]
    found = ", ".join(f"{m['id']} ({m['role']})" for m in matches) or "nothing"
    role = entry.role
    if role == "root":
        if not matches or ids[0] != entry_id:
            reasons.append(f"diagnose did not name {entry_id} as the root cause; it found: {found}")
    else:
        if entry_id not in ids:
            reasons.append(f"diagnose did not find {entry_id} in the output; it found: {found}")
        elif matches[0]["role"] != "root":
            reasons.append(f"diagnose found {entry_id} ({role}) but no root cause ranked first; "
                           f"it found: {found}")
    return reasons, matched, verdict


# -- running ----------------------------------------------------------------------------------
def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def probe_torch() -> Torch | None:
    """Ask the interpreter that will run the scripts about torch (None: not importable)."""
    try:
        proc = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True,
                              timeout=300, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if proc.returncode != 0:
        return None
    try:
        info = json.loads(proc.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return None
    return Torch(str(info["version"]), bool(info["cuda"]), info.get("gpu"))


def command(block: Reproduction, port: int) -> list[str]:
    script = block.script
    if block.launcher == "torchrun":
        return [sys.executable, "-m", "torch.distributed.run",
                "--nproc-per-node", str(block.nprocs),
                "--master-addr", "127.0.0.1", "--master-port", str(port), script]
    return [sys.executable, script]


def environment(block: Reproduction, port: int, tmp: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in INHERITED_DIST_VARS and not k.startswith("PET_")}
    env.update({str(k): str(v) for k, v in block.env.items()})
    env.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port), TMPDIR=tmp,
               PYTHONUNBUFFERED="1", PYTHONIOENCODING="utf-8")
    return env


def _kill_group(proc: subprocess.Popen[bytes], sig: int) -> None:
    try:
        os.killpg(proc.pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def launch(root: Path, block: Reproduction) -> tuple[str, int | None, bool, float]:
    """Run one reproduction: (output, exit status, killed at the timeout, seconds)."""
    timeout = float(block.timeout)
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="repro-") as tmp:
        start = time.monotonic()
        proc = subprocess.Popen(command(block, port), cwd=root, env=environment(block, port, tmp),
                                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, start_new_session=True)
        timed_out = False
        try:
            raw, _ = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            timed_out = proc.poll() is None
            _kill_group(proc, signal.SIGTERM)
            try:
                raw, _ = proc.communicate(timeout=KILL_GRACE)
            except subprocess.TimeoutExpired:
                _kill_group(proc, signal.SIGKILL)
                raw, _ = proc.communicate()
        seconds = time.monotonic() - start
        _kill_group(proc, signal.SIGKILL)  # stragglers: orphaned workers of the script
        text = raw.decode("utf-8", errors="replace")
        for path in {tmp, os.path.realpath(tmp)}:
            text = text.replace(path, "/tmp")  # the private TMPDIR reads as /tmp
    return text, proc.returncode, timed_out, seconds


def _block_problem(block: Reproduction | None, root: Path) -> str | None:
    """Why this block cannot run (the schema has checked its fields and launcher)."""
    if block is None:
        return "no reproduce: block"
    if not (root / block.script).is_file():
        return f"reproduce.script {block.script} does not exist"
    return None


def reproduce_one(root: Path, entry: Entry, engine: engine_mod.Engine,
                  benign: Sequence[BenignTemplate], torch: Torch) -> Outcome:
    entry_id = entry.id
    block = entry.reproduce
    assert block is not None  # prepare() selects entries with a reproduce: block
    if block.needs == "cuda" and not torch.cuda:
        return Outcome(entry_id, "skip", ["needs cuda; torch.cuda.is_available() is False"],
                       block=block)
    text, code, timed_out, seconds = launch(root, block)
    reasons, matched, verdict = check_output(entry, text, engine, benign)
    return Outcome(entry_id, "fail" if reasons else "pass", reasons, matched, verdict, text,
                   seconds, code, timed_out, block)


# -- recording --------------------------------------------------------------------------------
def platform(block: Reproduction, torch: Torch) -> str:
    if block.needs == "cuda":
        return f"CUDA, {torch.gpu}" if torch.gpu else "CUDA"
    return "CPU, gloo"


def log_path(root: Path, entry_id: str, block: Reproduction, torch: Torch) -> Path:
    kind = "cuda" if block.needs == "cuda" else "cpu"
    return root / LOGS_DIR / entry_id / f"reproduced-torch-{torch.release}-{kind}.log"


def _write_if_changed(path: Path, text: str) -> None:
    if path.is_file() and path.read_text(encoding="utf-8") == text:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def record(root: Path, entry: Entry, outcome: Outcome, torch: Torch,
           today: str) -> list[Path]:
    """Write a passing run's log, its .expect file and its verified.json record."""
    block = entry.reproduce
    assert block is not None
    log = log_path(root, entry.id, block, torch)
    text = outcome.output if outcome.output.endswith("\n") else outcome.output + "\n"
    _write_if_changed(log, text)
    written = [log]
    if entry.role != "root":  # tests/logs convention: the ranked ids, root cause first
        ranked = [m["id"] for m in (outcome.verdict or {}).get("matches", [])]
        expect = log.with_suffix(".expect")
        _write_if_changed(expect, "".join(i + "\n" for i in ranked))
        written.append(expect)
    verified_path = root / VERIFIED_FILE
    try:
        data = json.loads(verified_path.read_text(encoding="utf-8"))
        if not isinstance(data, dict):
            data = {}
    except (OSError, ValueError):
        data = {}
    data[entry.id] = {"torch": torch.release, "platform": platform(block, torch),
                         "date": today, "signatures": outcome.matched}
    _write_if_changed(verified_path,
                      json.dumps(dict(sorted(data.items())), indent=2, ensure_ascii=False) + "\n")
    return written


# -- running a selection -----------------------------------------------------------------------
class ReproduceError(Exception):
    """Why the reproductions cannot start: an unknown id, a missing or bad ``reproduce:``
    block, or no torch. The message is one line for the reader."""


@dataclass
class Session:
    """The reproductions selected, checked and ready to run with this torch."""

    root: Path
    torch: Torch
    selected: list[Entry]
    engine: engine_mod.Engine
    benign: Sequence[BenignTemplate]

    def run(self, record_logs: bool = False, today: str | None = None) -> Iterator[Outcome]:
        """Run each reproduction in turn; each outcome is yielded as soon as it is known.
        With ``record_logs``, a passing run is recorded (see ``record``) and the files
        written are in ``Outcome.written``."""
        today = today or datetime.date.today().isoformat()
        for e in self.selected:
            outcome = reproduce_one(self.root, e, self.engine, self.benign, self.torch)
            if record_logs and outcome.status == "pass":
                outcome.written = record(self.root, e, outcome, self.torch, today)
            yield outcome


def prepare(root: Path, ids: list[str] | None = None) -> Session:
    """Select the entries (default: every entry with a ``reproduce:`` block), check their
    blocks and find torch. Raises ReproduceError; runs nothing."""
    catalog = load_catalog(Project(root))
    entries = catalog.by_id
    if ids:
        unknown = [i for i in ids if i not in entries]
        if unknown:
            raise ReproduceError(f"no such entry: {', '.join(unknown)}")
        selected = [entries[i] for i in ids]
    else:
        selected = [e for e in catalog.entries if e.reproduce is not None]
        if not selected:
            raise ReproduceError("no entry has a reproduce: block")
    for e in selected:
        problem = _block_problem(e.reproduce, root)
        if problem:
            raise ReproduceError(f"{e.id}: {problem}")
    torch = probe_torch()
    if torch is None:
        raise ReproduceError(f"torch cannot be imported by {sys.executable}; install it to run "
                             "reproductions (`pip install torch`)")
    return Session(root, torch, selected, engine_mod.Engine(catalog.matcher), catalog.benign)
