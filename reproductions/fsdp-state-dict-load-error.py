"""fsdp-state-dict-load-error: a per-rank LOCAL_STATE_DICT checkpoint loaded as a full one.

Each rank saves its FSDP shard with `StateDictType.LOCAL_STATE_DICT` (flat `_flat_param`
tensors), and the resumed run calls `model.load_state_dict()` without the matching
`FSDP.state_dict_type(...)` context, so FSDP expects its default FULL_STATE_DICT (one key
per original parameter) and nn.Module reports the flat keys as unexpected. Runs on CPU (gloo).
Launch: torchrun --nproc-per-node 2 reproductions/fsdp-state-dict-load-error.py
"""
import io
from datetime import timedelta

import torch
import torch.distributed as dist
from torch import nn
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
from torch.distributed.fsdp import StateDictType
from torch.distributed.fsdp.wrap import ModuleWrapPolicy


def build():
    model = nn.Sequential(nn.Linear(8, 8), nn.Sequential(nn.Linear(8, 8)), nn.Linear(8, 2))
    return FSDP(model, auto_wrap_policy=ModuleWrapPolicy({nn.Sequential}), device_id=torch.device("cpu"))


def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    model = build()
    buf = io.BytesIO()
    with FSDP.state_dict_type(model, StateDictType.LOCAL_STATE_DICT):
        torch.save(model.state_dict(), buf)  # per-rank shard checkpoint
    buf.seek(0)
    resumed = build()
    checkpoint = torch.load(buf, weights_only=False)
    resumed.load_state_dict(checkpoint)  # no state_dict_type context: FULL_STATE_DICT is expected
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
