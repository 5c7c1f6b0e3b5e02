"""mp-spawn-pickling-error: mp.spawn must pickle its target and arguments for the child.

torch.multiprocessing.spawn starts fresh interpreters (start method "spawn"); the parent
pickles each process object (fn, i, args) with multiprocessing's ForkingPickler before the
child exists. Two common mistakes fail there, in the parent:
1. a lambda as fn: `_pickle.PicklingError: Can't pickle <function <lambda> at 0x...>:
   attribute lookup <lambda> on __main__ failed` (Python <= 3.13); the traceback is printed
   and the script goes on;
2. a function defined inside another function: `AttributeError: Can't pickle local object
   'main.<locals>.worker'` (Python <= 3.12; 3.13 says "Can't get local object", 3.14 raises
   PicklingError "Can't pickle local object <function ...>"), which ends the script.
No child is started and no process group is created.
Launch: python reproductions/mp-spawn-pickling-error.py
"""
import traceback

import torch.multiprocessing as mp


def main():
    def worker(rank, world_size):  # local: pickled by qualified name, which a child cannot import
        pass

    mp.spawn(worker, args=(2,), nprocs=2, join=True)


if __name__ == "__main__":
    try:
        mp.spawn(lambda rank, world_size: None, args=(2,), nprocs=2, join=True)
    except Exception:
        traceback.print_exc()
    main()
