"""Benchmark: from saving one entry under `python -m generator serve` to the served page
showing the change.

Makes a synthetic project of N entries (default 1,000; the entries of
bench/generator_scale.py), starts the serve command on a free 127.0.0.1 port, waits for the
first build, then --edits times: writes a new sentence into one entry's summary (or, with
--field title, its title) and requests that entry's page over HTTP until it holds the
sentence. Prints each edit's seconds and the builds it started, then the median and the
maximum. --before REF also measures the serve command of an earlier commit (git archive
of REF's generator/ and hooks/) on its own copy of the same project, for comparison.

    python bench/serve_reload.py                     # 1,000 entries, 5 edits
    python bench/serve_reload.py --entries 200 --edits 3 --field title
    python bench/serve_reload.py --before af917c8    # and the serve of that commit
"""

from __future__ import annotations

import argparse
import io
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
sys.path.insert(0, str(BENCH))

from generator_scale import make_project  # noqa: E402  (the synthetic entries)

TIMEOUT = 10
BUILD_LINE = "Building documentation"
SERVING = re.compile(r"Serving on (http://\S+)")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def get(url: str) -> str | None:
    try:
        with urllib.request.urlopen(url, timeout=TIMEOUT) as response:
            return str(response.read().decode("utf-8", "replace"))
    except (urllib.error.URLError, OSError):
        return None


class Server:
    """`python -m generator serve` in a subprocess, its output in a file."""

    def __init__(self, root: Path, code: Path) -> None:
        self.port = free_port()
        self.log = root.parent / f"serve-{root.name}.log"
        env = dict(os.environ, PYTHONPATH=str(code), NO_MKDOCS_2_WARNING="1")
        with self.log.open("w") as log:  # the child keeps its own copy open
            self.process = subprocess.Popen(
                [sys.executable, "-m", "generator", "serve", "--dev-addr", f"127.0.0.1:{self.port}"],
                cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True)

    def url(self, path: str) -> str | None:
        """The page's URL once the server is up (under site_url's path, as MkDocs serves it)."""
        m = SERVING.search(self.output())
        return m.group(1).rstrip("/") + "/" + path if m else None

    def output(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")

    def builds(self) -> int:
        return self.output().count(BUILD_LINE)

    def wait_for(self, path: str, text: str, timeout: float) -> float:
        """Seconds until the page at path holds text."""
        start = time.perf_counter()
        while time.perf_counter() - start < timeout:
            if self.process.poll() is not None:
                raise SystemExit(f"serve exited:\n{self.output()[-3000:]}")
            url = self.url(path)
            body = get(url) if url else None
            if body is not None and text in body:
                return time.perf_counter() - start
            time.sleep(0.02)
        raise SystemExit(f"'{text}' not served at /{path} after {timeout:.0f} s:\n{self.output()[-3000:]}")

    def idle(self, quiet: float = 1.5, timeout: float = 600) -> None:
        """Wait until no build has started for `quiet` seconds."""
        seen, since, start = self.builds(), time.perf_counter(), time.perf_counter()
        while time.perf_counter() - since < quiet and time.perf_counter() - start < timeout:
            time.sleep(0.1)
            if self.builds() != seen:
                seen, since = self.builds(), time.perf_counter()

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, 2)  # Ctrl-C for the whole group: serve and mkdocs
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, 9)
                self.process.wait()


def edited(text: str, field: str, sentence: str) -> str:
    if field == "title":  # shown on this page and on the pages of the entries that relate to it
        return re.sub(r"^title: .*$", f"title: {sentence}", text, count=1, flags=re.MULTILINE)
    return text.replace("summary: |\n", f"summary: |\n  {sentence}\n", 1)


def measure(label: str, root: Path, code: Path, edits: int, entry: int, field: str) -> list[float]:
    page = f"failures/nccl-synthetic-{entry:05d}/"
    source = root / "entries" / f"nccl-synthetic-{entry:05d}.yaml"
    server = Server(root, code)
    try:
        started = server.wait_for(page, "Synthetic failure", timeout=1800)
        server.idle()
        print(f"{label}: first build served after {started:.1f} s", flush=True)
        times = []
        for n in range(1, edits + 1):
            sentence = f"Edited sentence number {n} {time.time_ns()}"
            text = source.read_text(encoding="utf-8")
            before = server.builds()
            source.write_text(edited(text, field, sentence), encoding="utf-8")
            t = server.wait_for(page, sentence, timeout=600)
            server.idle()
            times.append(t)
            print(f"{label}: edit {n}: {t:.2f} s, {server.builds() - before} build(s)", flush=True)
        print(f"{label}: median {statistics.median(times):.2f} s, max {max(times):.2f} s "
              f"over {edits} edits", flush=True)
        return times
    finally:
        server.stop()


def archive(ref: str, into: Path) -> Path:
    """generator/ and hooks/ of commit `ref`, extracted into `into`."""
    data = subprocess.run(["git", "-C", str(REPO), "archive", ref, "generator", "hooks"],
                          capture_output=True, check=True).stdout
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(into, filter="data")
    return into


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--entries", type=int, default=1000)
    ap.add_argument("--edits", type=int, default=5)
    ap.add_argument("--entry", type=int, default=5, help="which synthetic entry to edit")
    ap.add_argument("--field", choices=("summary", "title"), default="summary", help="what to edit")
    ap.add_argument("--before", metavar="REF", help="also measure the serve command of this commit")
    args = ap.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # stop the servers on the way out
    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = Path(tmpdir)
        (tmp / "now").mkdir()
        root = make_project(tmp / "now", args.entries)
        measure("this tree", root, REPO, args.edits, args.entry, args.field)
        if args.before:
            (tmp / "before").mkdir()
            old_root = make_project(tmp / "before", args.entries)
            code = archive(args.before, tmp / "before-code")
            shutil.rmtree(old_root / "hooks")
            shutil.copytree(code / "hooks", old_root / "hooks")
            measure(f"before ({args.before})", old_root, code, args.edits, args.entry, args.field)


if __name__ == "__main__":
    main()
