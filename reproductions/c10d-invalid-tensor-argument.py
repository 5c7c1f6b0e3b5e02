"""c10d-invalid-tensor-argument: a collective is given a Python number instead of a tensor.

The evaluation loop accumulates the loss with `loss.item()`, so `total_loss` is a Python float,
and then all-reduces it across ranks. torch.distributed checks the argument's type before
calling the backend and raises on every rank:
`TypeError: Invalid function argument. Expected parameter `tensor` of type torch.Tensor
             but got <class 'float'> instead.`
Launch: torchrun --nproc-per-node 2 reproductions/c10d-invalid-tensor-argument.py
"""
import torch
import torch.distributed as dist


def main():
    dist.init_process_group("gloo")
    total_loss = 0.0
    for _step in range(3):
        loss = torch.rand(())
        total_loss += loss.item()  # a Python float from here on
    # fix: total_loss = torch.tensor(total_loss); dist.all_reduce(total_loss)
    dist.all_reduce(total_loss, op=dist.ReduceOp.SUM)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
