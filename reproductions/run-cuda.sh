#!/usr/bin/env bash
# Run the GPU-only reproductions on a machine with a CUDA GPU and keep every output.
#
#   reproductions/run-cuda.sh [OUTDIR]      (default: $OUT if set, else /tmp/repro-cuda-out)
#
# 1. runs each script directly (the same launcher, process count and environment as its
#    entry's reproduce: block) and saves OUTDIR/<id>.log, OUTDIR/<id>.diagnose.txt and a
#    line per script in OUTDIR/summary.txt, whatever happens;
# 2. runs `python -m generator reproduce <ids> --record` (the checks of the CPU runs) and copies
#    what it recorded (tests/logs/<id>/reproduced-torch-*-cuda.log, reproductions/verified.json)
#    into OUTDIR/recorded/. Step 2 needs the entries' reproduce: blocks; without them it
#    reports a usage error and step 1's logs are still there.
# One H100 runs the whole script in about 5 minutes (each script imports torch and starts CUDA).
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:-${OUT:-/tmp/repro-cuda-out}}
mkdir -p "$out"
python - <<'PY' 2>&1 | tee "$out/device.txt"
import torch
print("torch", torch.__version__, "cuda", torch.version.cuda)
print("devices", torch.cuda.device_count(), [torch.cuda.get_device_name(i) for i in range(torch.cuda.device_count())])
PY
python -c "import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)" || {
    echo "no CUDA device: nothing to run" | tee -a "$out/summary.txt"; exit 2; }
nvidia-smi > "$out/nvidia-smi.txt" 2>&1 || true

port=29650
run() {  # id launcher nprocs timeout [VAR=value...]
    local id=$1 launcher=$2 n=$3 limit=$4; shift 4
    port=$((port + 1))
    local cmd
    if [ "$launcher" = torchrun ]; then
        cmd=(python -m torch.distributed.run --nproc-per-node "$n" --master-addr 127.0.0.1
             --master-port "$port" "reproductions/$id.py")
    else
        cmd=(python "reproductions/$id.py")
    fi
    local start=$SECONDS
    env "$@" MASTER_ADDR=127.0.0.1 MASTER_PORT="$port" PYTHONUNBUFFERED=1 \
        timeout -k 10 "$limit" "${cmd[@]}" > "$out/$id.log" 2>&1
    local code=$?
    echo "$id: exit $code in $((SECONDS - start)) s" | tee -a "$out/summary.txt"
    python -m generator diagnose "$out/$id.log" > "$out/$id.diagnose.txt" 2>&1
    head -n 4 "$out/$id.diagnose.txt" | sed 's/^/    /'
}

run cuda-device-side-assert python 1 120
run cuda-illegal-memory-access python 1 180
run nccl-duplicate-gpu torchrun 2 120
run nccl-watchdog-timeout torchrun 1 120 TORCH_NCCL_TRACE_BUFFER_SIZE=2000 TORCH_NCCL_DUMP_ON_TIMEOUT=1
run fsdp-unshard-oom-forward torchrun 1 180

ids=(cuda-device-side-assert cuda-illegal-memory-access nccl-duplicate-gpu nccl-watchdog-timeout
     fsdp-unshard-oom-forward)
python -m generator reproduce "${ids[@]}" --record 2>&1 | tee "$out/reproduce.txt"
mkdir -p "$out/recorded"
for id in "${ids[@]}"; do
    for f in tests/logs/"$id"/reproduced-torch-*-cuda.*; do
        [ -f "$f" ] && mkdir -p "$out/recorded/$(dirname "$f")" && cp "$f" "$out/recorded/$f"
    done
done
[ -f reproductions/verified.json ] && cp reproductions/verified.json "$out/recorded/"
exit 0
