"""Benchmark: `python -m generator diagnose` on a big multi-rank log, next to grep.

Generates (in a temporary folder, never committed) a synthetic log of --size-mb MB: eight
ranks' torchrun output interleaved (`[defaultN]:` prefixes, loss lines, progress bars, NCCL
INFO chatter, Python logging), with a failure block (lines of the entries' fingerprints)
every --every-mb MB. Then, in the same run and on the same warm file:

- `LC_ALL=C grep -c -F -f <every literal part of every signature and context template>`,
  the speed of light for "find the lines holding an error string";
- `python -m generator diagnose FILE --json` once per prefilter (re2 if installed, re, and
  `none` = every line through the engine, only with --all since it is slow), reporting
  MB/s, the ratio to grep, and the child's peak RSS (os.wait4 rusage).

    python bench/diagnose_throughput.py                   # 1 GB
    python bench/diagnose_throughput.py --size-mb 200 --all
    python bench/diagnose_throughput.py --keep /tmp/big.log   # keep the log for reuse
    python bench/diagnose_throughput.py --size-mb 300 --noisy # a third of the lines noise
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from generator.entries.catalog import load_catalog
from generator.matching import engine as engine_mod
from generator.matching import logread
from generator.matching.diagnose import load_data
from generator.matching.templates import TemplateError, compile_template
from generator.project import Project

RANKS = 8


def healthy_block(rng: random.Random, lines: int) -> bytes:
    """Lines a healthy 8-rank run prints, varied numbers, torchrun --tee prefixes."""
    out = []
    step = rng.randrange(1000)
    for _ in range(lines):
        r = rng.randrange(RANKS)
        kind = rng.random()
        step += 1
        if kind < 0.35:
            out.append(f"[default{r}]:{{'loss': {rng.uniform(0.5, 2.5):.4f}, 'grad_norm': "
                       f"{rng.uniform(0.1, 3):.3f}, 'learning_rate': {rng.uniform(1, 9):.1f}e-05, "
                       f"'epoch': {step / 3000:.2f}}}")
        elif kind < 0.6:
            pct = step % 100
            out.append(f"[default{r}]: {pct:2d}%|{'#' * (pct // 10):<10}| {step}/30000 "
                       f"[2:11:{step % 60:02d}<3:01:12,  {rng.uniform(1, 9):.2f}s/it]")
        elif kind < 0.8:
            out.append(f"[default{r}]:2026-06-30 12:{step % 60:02d}:30,229 - INFO - train.py:210 - "
                       f"step {step} loss {rng.uniform(0.5, 2.5):.4f} lr 1.9e-05 tokens/s "
                       f"{rng.randrange(40000, 60000)} mem {rng.uniform(40, 70):.1f}GB")
        elif kind < 0.9:
            out.append(f"gpu-node-{r // 4:02d}:{4000 + r}:{4100 + r} [{r % 4}] NCCL INFO Channel "
                       f"{step % 32:02d}/0 : {r}[{r % 4}] -> {(r + 1) % RANKS}[{(r + 1) % 4}] "
                       "via P2P/CUMEM/read")
        elif kind < 0.95:
            out.append(f"[default{r}]:[rank{r}]:[W{1105 + r} 03:14:22.{rng.randrange(10**9):09d} "
                       f"Utils.hpp:{rng.randrange(100, 200)}] Warning: Environment variable "
                       "NCCL_ASYNC_ERROR_HANDLING is deprecated; use TORCH_NCCL_ASYNC_ERROR_HANDLING")
        else:
            out.append(f"[default{r}]:Saving model checkpoint to /checkpoints/run-17/"
                       f"checkpoint-{step} (shard {r} of {RANKS}, {rng.randrange(100, 999)} MB)")
    return ("\n".join(out) + "\n").encode("utf-8")


def noisy_line(rng: random.Random, r: int, step: int) -> str:
    """One line of the noise that healthy runs print a lot of: benign warnings (the texts of
    entries/benign.yaml), NCCL INFO lines, and log lines naming torch/distributed/... files.
    Texts as torch and NCCL print them (torch/distributed/elastic/agent/server/api.py,
    torch/distributed/run.py, torch/distributed/fsdp/_state_dict_utils.py, reducer.cpp,
    ProcessGroupNCCL.cpp, NCCL's init and transport logs)."""
    host = f"gpu-node-{r // 4:02d}:{4000 + r}:{4100 + r} [{r % 4}]"
    glog = f"[W{1105 + r % 3} 03:14:{step % 60:02d}.{rng.randrange(10**9):09d}"
    agent = f"I{1105 + r % 3} 03:14:{step % 60:02d}.{rng.randrange(10**6):06d} {1700 + r}"
    pick = rng.randrange(10)
    if pick == 0:
        return (f"[default{r}]:[rank{r}]:{glog} ProcessGroupNCCL.cpp:1250] Warning: WARNING: "
                "destroy_process_group() was not called before program exit, which can leak "
                "resources. For more info, please see https://pytorch.org/docs/stable/"
                "distributed.html#shutdown (function operator())")
    if pick == 1:
        return (f"[default{r}]:[rank{r}]:{glog} reducer.cpp:1400] Warning: find_unused_parameters=True "
                "was specified in DDP constructor, but did not find any unused parameters in the "
                "forward pass. This flag results in an extra traversal of the autograd graph every "
                "iteration,  which can adversely affect performance.")
    if pick == 2:
        return (f"[default{r}]:/opt/conda/lib/python3.11/site-packages/torch/autograd/graph.py:825: "
                "UserWarning: Grad strides do not match bucket view strides. This may indicate grad "
                "was not created according to the gradient layout contract, or that the param's "
                "strides changed since DDP was constructed.  This is not an error, but may impair "
                "performance.")
    if pick == 3:
        return f"{host} NCCL INFO Channel {step % 32:02d}/0 : {r}[{r % 4}] -> {(r + 1) % RANKS}[{(r + 1) % 4}] via P2P/CUMEM/read"
    if pick == 4:
        return f"{host} NCCL INFO Connected all rings"
    if pick == 5:
        return (f"{host} NCCL INFO comm 0x{rng.randrange(16**8):08x} rank {r} nranks {RANKS} cudaDev "
                f"{r % 4} nvmlDev {r % 4} busId {r % 4}a000 commId 0x{rng.randrange(16**8):08x} - Init COMPLETE")
    if pick == 6:
        return (f"W{1105 + r % 3} 03:14:{step % 60:02d}.613000 1720 torch/distributed/run.py:792] "
                "Setting OMP_NUM_THREADS environment variable for each process to be 1 in default, "
                "to avoid your system being overloaded, please further tune the variable for optimal "
                "performance in your application as needed.")
    if pick == 7:
        return f"{agent} torch/distributed/elastic/agent/server/api.py:715] [default] Starting worker group"
    if pick == 8:
        return (f"{agent} torch/distributed/elastic/agent/server/api.py:913] [default] starting "
                "workers for entrypoint: python")
    return (f"[default{r}]:/opt/conda/lib/python3.11/site-packages/torch/distributed/fsdp/"
            "_state_dict_utils.py:774: UserWarning: When using ``NO_SHARD`` for "
            "``ShardingStrategy``, full_state_dict will be returned.")


def noisy_block(rng: random.Random, lines: int) -> bytes:
    """A healthy block in which a third of the lines are noise (see noisy_line)."""
    healthy = healthy_block(rng, lines).decode("utf-8").split("\n")[:-1]
    step = rng.randrange(1000)
    for i in range(0, len(healthy), 3):
        step += 1
        healthy[i] = noisy_line(rng, rng.randrange(RANKS), step)
    return ("\n".join(healthy) + "\n").encode("utf-8")


def failure_blocks(root: Path) -> tuple[list[bytes], list[str]]:
    """Each entry's fingerprint (the failure material) and every literal for grep."""
    catalog = load_catalog(Project(root))
    blocks, literals = [], set()
    for e in catalog.entries:
        if e.fingerprint.strip():
            blocks.append(e.fingerprint.encode("utf-8"))
        for sig in e.signatures:
            for t in (sig.template, *sig.context):
                try:
                    literals.update(compile_template(t).literals)
                except TemplateError:
                    pass
    return blocks, sorted(literals)


def generate(path: Path, size: int, every: int, root: Path, noisy: bool = False) -> int:
    rng = random.Random(17)
    blocks, _ = failure_blocks(root)
    block = noisy_block if noisy else healthy_block
    healthy = [block(rng, 20000) for _ in range(8)]  # ~2 MB each, reused
    written = 0
    next_failure = every
    with path.open("wb") as fh:
        while written < size:
            chunk = healthy[rng.randrange(len(healthy))]
            fh.write(chunk)
            written += len(chunk)
            if written >= next_failure and blocks:
                b = blocks[rng.randrange(len(blocks))]
                fh.write(b if b.endswith(b"\n") else b + b"\n")
                written += len(b)
                next_failure += every
    return written


def timed(cmd: list[str], env: dict[str, str] | None = None) -> tuple[float, float, int, int, bytes]:
    """(wall seconds, CPU seconds (user + system), peak RSS in KiB, exit status, stdout) of one
    child process. On a shared machine the CPU time is the steadier figure: wall time grows
    with the other processes' load, CPU time hardly."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env,
                            cwd=REPO)
    out = proc.stdout.read() if proc.stdout else b""
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return (time.perf_counter() - t0, usage.ru_utime + usage.ru_stime, usage.ru_maxrss,
            proc.returncode, out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--size-mb", type=int, default=1024)
    ap.add_argument("--every-mb", type=int, default=64, help="one failure block per this many MB")
    ap.add_argument("--keep", type=Path, default=None, help="write the log here and keep it")
    ap.add_argument("--all", action="store_true", help="also time the no-prefilter path (slow)")
    ap.add_argument("--repeat", type=int, default=2, help="runs per method; the best is shown")
    ap.add_argument("--noisy", action="store_true",
                    help="a third of the lines are benign warnings, NCCL INFO lines and lines "
                    "naming torch/distributed/... files")
    args = ap.parse_args()

    with tempfile.TemporaryDirectory(prefix="fe-bench-") as tmp:
        log = args.keep or Path(tmp) / "train.log"
        if not (args.keep and log.exists() and log.stat().st_size >= args.size_mb << 20):
            t0 = time.perf_counter()
            size = generate(log, args.size_mb << 20, args.every_mb << 20, REPO, args.noisy)
            print(f"generated {size / 1e6:.0f} MB in {time.perf_counter() - t0:.1f} s: {log}")
        size = log.stat().st_size
        mb = size / (1 << 20)
        _, literals = failure_blocks(REPO)
        lit_file = Path(tmp) / "literals.txt"
        lit_file.write_text("\n".join(literals) + "\n", encoding="utf-8")
        # Literal parts of one or two characters (",", ")", ": ") occur on every line, so
        # grep stops at the first character of each line; the parts of at least MIN_ANCHOR
        # characters are what actually finds error lines. Both are shown.
        long_file = Path(tmp) / "literals-long.txt"
        long_file.write_text("\n".join(x for x in literals if len(x) >= 6) + "\n", encoding="utf-8")
        # the needles diagnose's own prefilter searches for (its spaces stand for runs of
        # blanks; grep reads them as one space): grep doing the selection diagnose does
        sets = logread.engine_needle_sets(engine_mod.Engine(load_data(REPO)[0]))
        needle_file = Path(tmp) / "needles.txt"
        needle_file.write_bytes(b"\n".join(sets.every) + b"\n")
        empty = Path(tmp) / "empty.log"
        empty.write_bytes(b"")
        subprocess.run(["cat", str(log)], stdout=subprocess.DEVNULL, check=True)  # warm cache

        def best(cmd: list[str],
                 env: dict[str, str] | None = None) -> tuple[float, float, int, int, bytes]:
            runs = [timed(cmd, env) for _ in range(args.repeat)]
            return min(runs, key=lambda r: r[0])

        env_c = dict(os.environ, LC_ALL="C")
        g_s, g_cpu, g_rss, _, g_out = best(["grep", "-c", "-F", "-f", str(lit_file), str(log)],
                                           env_c)
        l_s, l_cpu, l_rss, _, l_out = best(["grep", "-c", "-F", "-f", str(long_file), str(log)],
                                           env_c)
        n_s, n_cpu, n_rss, _, n_out = best(["grep", "-c", "-F", "-f", str(needle_file), str(log)],
                                           env_c)
        print(f"\nlog: {mb:.0f} MiB; {len(literals)} literal parts for grep, "
              f"{sum(1 for x in literals if len(x) >= 6)} of them >= 6 characters; the re2 "
              f"prefilter searches in {logread._usable_cpus()} thread(s)")
        print(f"{'method':<34} {'seconds':>8} {'MiB/s':>8} {'x grep time':>12} {'CPU s':>7} "
              f"{'x grep CPU':>11} {'peak RSS':>10}")
        print(f"{'grep -c -F -f <all literals>':<34} {g_s:8.2f} {mb / g_s:8.1f} {1:12.2f} "
              f"{g_cpu:7.2f} {1:11.2f} {g_rss / 1024:7.0f} MiB   "
              f"({g_out.decode().strip()} lines match)")
        print(f"{'grep -c -F -f <literals >= 6 ch>':<34} {l_s:8.2f} {mb / l_s:8.1f} {l_s / g_s:12.2f} "
              f"{l_cpu:7.2f} {l_cpu / g_cpu:11.2f} {l_rss / 1024:7.0f} MiB   "
              f"({l_out.decode().strip()} lines match)")
        print(f"{'grep -c -F -f <diagnose needles>':<34} {n_s:8.2f} {mb / n_s:8.1f} {n_s / g_s:12.2f} "
              f"{n_cpu:7.2f} {n_cpu / g_cpu:11.2f} {n_rss / 1024:7.0f} MiB   "
              f"({n_out.decode().strip()} lines match; {len(sets.every)} needles)")
        kinds = ["re2", "re"] + (["none"] if args.all else [])
        try:
            import re2  # type: ignore[import-not-found]  # noqa: F401
        except ImportError:
            kinds.remove("re2")
            print("(google-re2 not installed: re2 prefilter skipped)")
        e_s, e_cpu, _, _, _ = best([sys.executable, "-m", "generator", "diagnose", "--json",
                                    str(empty)])
        print(f"{'diagnose --json <empty log>':<34} {e_s:8.2f} {'':>8} {e_s / g_s:12.2f} "
              f"{e_cpu:7.2f} {e_cpu / g_cpu:11.2f} {'':>10}   (start-up: interpreter, imports, "
              "cached matcher, prefilter compile)")
        verdicts = {}
        for kind in kinds:
            env = dict(os.environ, FAILURE_ENCYCLOPEDIA_PREFILTER=kind)
            s, cpu, rss, code, out = best([sys.executable, "-m", "generator", "diagnose",
                                           "--json", str(log)], env)
            verdicts[kind] = out
            label = f"diagnose --json (prefilter {kind})"
            print(f"{label:<34} {s:8.2f} {mb / s:8.1f} {s / g_s:12.2f} {cpu:7.2f} "
                  f"{cpu / g_cpu:11.2f} {rss / 1024:7.0f} MiB   (exit {code}; {s / l_s:.2f}x the "
                  f"time, {cpu / l_cpu:.2f}x the CPU of grep >= 6 ch; {s / n_s:.2f}x the time "
                  f"of grep with its needles)")
        same = len(set(verdicts.values())) == 1
        print(f"\nverdicts identical across prefilters: {same}")
        return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
