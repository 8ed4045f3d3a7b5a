"""Train with DistributedDataParallel on several processes, safely launched.

Each process, known by its :term:`process rank` (0 to the
:term:`world size` minus 1), runs :func:`train_rank`: it joins a process
group, wraps :class:`~tutorial_utils.models.NeuralNetwork` in
:class:`~torch.nn.parallel.DistributedDataParallel`, trains on its share of
the toy data chosen by a :class:`~torch.utils.data.distributed.DistributedSampler`,
and reports what it did as a :class:`RankReport`.

:func:`run_ddp` starts the processes from any Python program, a notebook or
a documentation build included. It does not start them from the calling
program itself: with the ``"spawn"`` start method every child re-imports the
parent's ``__main__``, and a script without an ``if __name__ == "__main__":``
guard would run again in every child. Instead it runs this module,
``python -m tutorial_utils.distributed``, in a subprocess, which starts the
training processes with the ``"spawn"`` start method, on ``127.0.0.1`` and a
free port. They save their reports to a temporary folder, which :func:`run_ddp`
reads back with ``torch.load(..., weights_only=True)``. A time limit ends
every process of a run that hangs.

The module is also a script (``python -m tutorial_utils.distributed --help``)
that runs unchanged under ``torchrun`` on several GPUs with ``nccl``::

    torchrun --standalone --nproc-per-node=2 -m tutorial_utils.distributed --backend nccl
"""

from __future__ import annotations

import argparse
import datetime
import gc
import os
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tutorial_utils._checks import check_choice, check_int, check_number
from tutorial_utils._processes import (
    LOOPBACK,
    find_free_port,
    run_spawned,
    run_stoppable,
)

if TYPE_CHECKING:
    import torch

# torch is imported inside the functions that use it: the launcher process,
# which only starts the training processes, then starts in a fraction of a
# second instead of the seconds that importing torch takes.

__all__ = ["RankReport", "main", "run_ddp", "train_rank"]

# The address the processes meet at when this module starts them, this
# machine's loopback interface. Under torchrun, MASTER_ADDR decides.
_LOOPBACK = LOOPBACK

_BACKENDS = ("gloo", "nccl")
_TIMED_OUT = 124  # the command line's exit status when it stopped the processes
_START_MARGIN = 10.0  # seconds the launcher process itself may take to start


@dataclass(frozen=True)
class RankReport:
    """What one process did during :func:`train_rank`.

    Attributes
    ----------
    rank, world_size : int
        This process's :term:`process rank` and the :term:`world size`, the
        number of processes.
    backend, device : str
        The process group backend (``"gloo"``, ``"nccl"``) and the device the
        process trained on (``"cpu"``, ``"cuda:1"``, ...).
    samples : list of list of int
        Per epoch, the indices of the training samples this process was
        given, in the order it used them.
    losses : list of float
        Per epoch, the loss on this process's own samples, computed before
        that epoch's optimiser step.
    initial_parameters, synced_parameters, parameters : torch.Tensor
        All parameters as one vector (on the CPU): as this process
        initialised them, right after wrapping in DistributedDataParallel
        (which copies those of process rank 0), and after training.
    """

    rank: int
    world_size: int
    backend: str
    device: str
    samples: list[list[int]]
    losses: list[float]
    initial_parameters: torch.Tensor
    synced_parameters: torch.Tensor
    parameters: torch.Tensor


def _flat(parameters: Any) -> torch.Tensor:
    import torch

    return torch.nn.utils.parameters_to_vector(parameters).detach().to("cpu").clone()


def train_rank(
    rank: int,
    world_size: int,
    *,
    port: int | None = None,
    epochs: int = 3,
    lr: float = 0.5,
    seed: int = 123,
    backend: str = "gloo",
    timeout: float = 60.0,
    output_dir: str | os.PathLike[str] | None = None,
) -> RankReport:
    """Train the toy model as one process of a DistributedDataParallel run.

    Every process seeds with ``seed + rank``, so the processes start from
    different random weights until DistributedDataParallel copies those of
    process rank 0 to all of them. Each epoch, a
    :class:`~torch.utils.data.distributed.DistributedSampler` (shuffled with
    `seed`, reshuffled per epoch by
    :meth:`~torch.utils.data.distributed.DistributedSampler.set_epoch`) gives
    each process an equal share of the five toy samples, padded by repeating
    samples; each process takes one SGD step on its whole share, and the
    gradients are averaged across processes during ``backward()``.

    Parameters
    ----------
    rank, world_size : int
        This process's :term:`process rank` (0 to ``world_size - 1``) and
        the :term:`world size`, the number of processes.
    port : int, optional
        Where process rank 0 listens on ``127.0.0.1``; it is written to the
        ``MASTER_ADDR`` and ``MASTER_PORT`` environment variables of this
        process. ``None`` uses those variables as they are, as set by
        ``torchrun``.
    epochs : int, default 3
        Passes over the data.
    lr : float, default 0.5
        The SGD learning rate.
    seed : int, default 123
        Seeds the weights (plus the process rank) and the sampler's
        shuffling.
    backend : {"gloo", "nccl"}, default "gloo"
        ``"gloo"`` trains on the CPU; ``"nccl"`` on the GPU numbered by the
        ``LOCAL_RANK`` environment variable, which ``torchrun`` sets, or by
        `rank` where it is not set.
    timeout : float, default 60
        Seconds the processes wait for each other before giving up.
    output_dir : str or os.PathLike, optional
        Save the report as ``rank<rank>.pt`` in this folder, which must
        exist.

    Returns
    -------
    RankReport
        What this process did.

    Raises
    ------
    ValueError
        If `world_size` is below 1, `rank` is outside ``0 .. world_size - 1``,
        or another argument is out of range.
    TypeError
        If an argument has the wrong type.
    FileNotFoundError
        If `output_dir` is not a folder.

    Examples
    --------
    A world of one process trains like a single process:

    >>> import torch
    >>> report = train_rank(0, 1, port=find_free_port(), epochs=2)
    >>> report.samples
    [[2, 0, 1, 3, 4], [4, 1, 3, 0, 2]]
    >>> torch.equal(report.initial_parameters, report.synced_parameters)
    True
    >>> train_rank(0, 0, port=1)
    Traceback (most recent call last):
    ...
    ValueError: world_size must be at least 1; got 0
    """
    check_int("world_size", world_size, minimum=1)
    check_int("rank", rank, minimum=0)
    if rank >= world_size:
        raise ValueError(f"rank must be below world_size {world_size}; got {rank}")
    check_int("epochs", epochs, minimum=1)
    check_int("seed", seed, minimum=0)
    lr = check_number("lr", lr, minimum=0, exclusive=True)
    timeout = check_number("timeout", timeout, minimum=0, exclusive=True)
    check_choice("backend", backend, _BACKENDS)
    if output_dir is not None and not Path(output_dir).is_dir():
        raise FileNotFoundError(f"output_dir {str(output_dir)!r} is not a folder")
    if port is not None:
        check_int("port", port, minimum=1)
        os.environ["MASTER_ADDR"] = _LOOPBACK
        os.environ["MASTER_PORT"] = str(port)

    import torch
    import torch.distributed as dist

    if backend == "nccl":
        device = torch.device("cuda", int(os.environ.get("LOCAL_RANK", rank)))
        torch.cuda.set_device(device)
    else:
        device = torch.device("cpu")
    dist.init_process_group(
        backend,
        rank=rank,
        world_size=world_size,
        timeout=datetime.timedelta(seconds=timeout),
    )
    try:
        report = _train(rank, world_size, device, epochs, lr, seed)
        # The model and its DistributedDataParallel wrapper are gone now. Had
        # they outlived the process group's registration, their release
        # would end the process group while holding Python's GIL, which
        # could deadlock with gloo's worker threads in some PyTorch versions.
        gc.collect()
    finally:
        dist.destroy_process_group()
    if output_dir is not None:
        torch.save(asdict(report), Path(output_dir) / f"rank{rank}.pt")
    return report


def _train(
    rank: int, world_size: int, device: torch.device, epochs: int, lr: float, seed: int
) -> RankReport:
    """The training part of :func:`train_rank`, in a process group."""
    import torch
    import torch.nn.functional as F
    from torch.nn.parallel import DistributedDataParallel
    from torch.utils.data import DataLoader
    from torch.utils.data.distributed import DistributedSampler

    from tutorial_utils.data import toy_datasets
    from tutorial_utils.models import NeuralNetwork

    torch.manual_seed(seed + rank)
    model = NeuralNetwork(2, 2).to(device)
    initial = _flat(model.parameters())
    ddp_model = DistributedDataParallel(
        model, device_ids=[device.index] if device.type == "cuda" else None
    )
    synced = _flat(ddp_model.parameters())
    train_ds, _ = toy_datasets()
    sampler: DistributedSampler[int] = DistributedSampler(
        train_ds, num_replicas=world_size, rank=rank, shuffle=True, seed=seed
    )
    loader = DataLoader(train_ds, batch_size=len(sampler), sampler=sampler)
    optimizer = torch.optim.SGD(ddp_model.parameters(), lr=lr)
    samples, losses = [], []
    for epoch in range(epochs):
        sampler.set_epoch(epoch)
        samples.append(list(sampler))
        for features, labels in loader:
            features, labels = features.to(device), labels.to(device)
            loss = F.cross_entropy(ddp_model(features), labels)
            optimizer.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call]
            optimizer.step()
        losses.append(loss.item())
    return RankReport(
        rank=rank,
        world_size=world_size,
        backend=str(torch.distributed.get_backend()),
        device=str(device),
        samples=samples,
        losses=losses,
        initial_parameters=initial,
        synced_parameters=synced,
        parameters=_flat(ddp_model.parameters()),
    )


def _spawned(rank: int, world_size: int, options: dict[str, Any]) -> None:
    """What each process started by :func:`_start` runs."""
    import torch

    torch.set_num_threads(1)  # the processes share the machine's cores
    report = train_rank(rank, world_size, **options)
    if options.get("output_dir") is None:
        _print_report(report)


def _print_report(report: RankReport) -> None:
    for epoch, (samples, loss) in enumerate(
        zip(report.samples, report.losses, strict=True), start=1
    ):
        print(
            f"[rank {report.rank}/{report.world_size} on {report.device}] "
            f"epoch {epoch}: samples {samples}, loss {loss:.4f}",
            flush=True,
        )


def _start(nprocs: int, options: dict[str, Any], timeout: float) -> None:
    """Start `nprocs` training processes with the spawn start method; stop them at `timeout`."""
    options = {**options, "port": find_free_port(), "timeout": timeout}
    run_spawned(_spawned, nprocs, options, timeout)


_EXAMPLES = """\
examples:
  python -m tutorial_utils.distributed
      two processes on the CPU (gloo), started with the 'spawn' method
  python -m tutorial_utils.distributed --nprocs=2 --backend=nccl
      the same on GPUs 0 and 1, one process per GPU
  torchrun --standalone --nproc-per-node=2 \\
      -m tutorial_utils.distributed --backend=nccl
      torchrun starts the processes and sets RANK, LOCAL_RANK, WORLD_SIZE,
      MASTER_ADDR and MASTER_PORT; each process runs train_rank as its RANK
  CUDA_VISIBLE_DEVICES=0,2 torchrun --standalone --nproc-per-node=2 \\
      -m tutorial_utils.distributed --backend=nccl
      only GPUs 0 and 2, which the processes see as cuda:0 and cuda:1
"""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m tutorial_utils.distributed",
        description=(
            "Train the toy NeuralNetwork with DistributedDataParallel on several\n"
            f"processes, which meet on {_LOOPBACK} at a free port (under torchrun,\n"
            "at MASTER_ADDR and MASTER_PORT)."
        ),
        epilog=_EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--nprocs", type=int, default=2, help="processes to start (default 2)"
    )
    parser.add_argument("--epochs", type=int, default=3, help="default 3")
    parser.add_argument("--lr", type=float, default=0.5, help="default 0.5")
    parser.add_argument("--seed", type=int, default=123, help="default 123")
    parser.add_argument(
        "--backend",
        choices=_BACKENDS,
        default="gloo",
        help="gloo: CPU; nccl: one GPU per process (default gloo)",
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=60.0,
        help="seconds before a run that hangs is stopped (default 60)",
    )
    parser.add_argument(
        "--output",
        metavar="DIR",
        help="save each process's report as DIR/rank<N>.pt instead of printing it",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line ``python -m tutorial_utils.distributed``.

    Parameters
    ----------
    argv : sequence of str, optional
        The arguments; ``sys.argv[1:]`` by default.

    Returns
    -------
    int
        The exit status: 0 on success, 124 if the processes were stopped
        at the time limit, 1 if one of them failed.

    Examples
    --------
    >>> main(["--nprocs", "0"])
    Traceback (most recent call last):
    ...
    ValueError: world_size must be at least 1; got 0
    """
    args = _parser().parse_args(argv)
    options: dict[str, Any] = {
        "epochs": args.epochs,
        "lr": args.lr,
        "seed": args.seed,
        "backend": args.backend,
        "output_dir": args.output,
    }
    if "RANK" in os.environ and "WORLD_SIZE" in os.environ:  # under torchrun
        report = train_rank(
            int(os.environ["RANK"]),
            int(os.environ["WORLD_SIZE"]),
            timeout=args.timeout,
            **options,
        )
        if args.output is None:
            _print_report(report)
        return 0
    check_int("world_size", args.nprocs, minimum=1)
    for name in ("epochs", "seed"):
        check_int(name, options[name], minimum=0 if name == "seed" else 1)
    check_number("lr", args.lr, minimum=0, exclusive=True)
    timeout = check_number("timeout", args.timeout, minimum=0, exclusive=True)
    if args.output is not None:
        Path(args.output).mkdir(parents=True, exist_ok=True)
    try:
        _start(args.nprocs, options, timeout)
    except TimeoutError as error:
        print(error, file=sys.stderr)
        return _TIMED_OUT
    except RuntimeError as error:
        print(error, file=sys.stderr)
        return 1
    return 0


def _load_report(path: Path) -> RankReport:
    import torch

    fields = torch.load(path, weights_only=True)
    return RankReport(**fields)


def run_ddp(
    world_size: int = 2,
    *,
    epochs: int = 3,
    lr: float = 0.5,
    seed: int = 123,
    timeout: float = 60.0,
) -> list[RankReport]:
    """Run :func:`train_rank` on `world_size` CPU processes and collect reports.

    Safe to call from a script without a ``__main__`` guard, a notebook or
    a documentation build: the processes are started by a separate Python
    process (``python -m tutorial_utils.distributed``), with the gloo backend,
    the ``"spawn"`` start method, ``127.0.0.1`` and a free port.

    Parameters
    ----------
    world_size : int, default 2
        Number of processes, at least 1.
    epochs, lr, seed
        As for :func:`train_rank`.
    timeout : float, default 60
        Seconds after which every process of the run is killed and
        :class:`TimeoutError` raised, so that a stuck process cannot hang the
        caller. Starting the launcher may take up to 10 s more.

    Returns
    -------
    list of RankReport
        One per rank, in rank order.

    Raises
    ------
    TypeError
        If an argument has the wrong type.
    ValueError
        If `world_size` or `epochs` is below 1, `seed` is negative, or
        `timeout` or `lr` is not positive.
    TimeoutError
        If the run took longer than `timeout`.
    RuntimeError
        If a process failed; the message ends with the last 3,000 characters
        that the processes wrote to standard error.

    Examples
    --------
    >>> run_ddp(world_size=0)
    Traceback (most recent call last):
    ...
    ValueError: world_size must be at least 1; got 0
    """
    check_int("world_size", world_size, minimum=1)
    check_int("epochs", epochs, minimum=1)
    check_int("seed", seed, minimum=0)
    check_number("lr", lr, minimum=0, exclusive=True)
    timeout = check_number("timeout", timeout, minimum=0, exclusive=True)
    env = dict(os.environ)
    # The child finds this package even when it was not installed.
    package_root = str(Path(__file__).resolve().parents[1])
    env["PYTHONPATH"] = os.pathsep.join(
        [package_root, *filter(None, [env.get("PYTHONPATH")])]
    )
    with tempfile.TemporaryDirectory() as tmp:
        command = [
            sys.executable,
            *(f"-W{option}" for option in sys.warnoptions),
            "-m",
            "tutorial_utils.distributed",
            f"--nprocs={world_size}",
            f"--epochs={epochs}",
            f"--lr={lr!r}",
            f"--seed={seed}",
            f"--timeout={timeout!r}",
            f"--output={tmp}",
        ]
        try:
            # The child enforces `timeout` itself; the margin covers start-up.
            returncode, stderr = run_stoppable(command, env, timeout + _START_MARGIN)
        except subprocess.TimeoutExpired:
            returncode = _TIMED_OUT
        if returncode == _TIMED_OUT:
            raise TimeoutError(
                f"distributed training with {world_size} processes did not "
                f"finish within {timeout:g} s; every process was stopped"
            ) from None
        if returncode != 0:
            raise RuntimeError(
                f"distributed training with {world_size} processes failed "
                f"(exit status {returncode}):\n{stderr[-3000:]}"
            )
        return [_load_report(Path(tmp, f"rank{rank}.pt")) for rank in range(world_size)]


if __name__ == "__main__":
    sys.exit(main())
