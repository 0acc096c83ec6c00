"""``rosen train``: train the network of docs/learning.md, "Network format" on self-play runs (PyTorch, CPU).

    rosen train --data RUN [RUN ...] --out net.npz [--hidden 128,64] [--epochs N] [--init net.npz]
                [--curves curves.json] [--plot curves.png] [--seed S] [--json]

Needs the train extra: pip install "rosen[train]". docs/learning.md has the losses,
the augmentation, the split and the figures.
"""
from __future__ import annotations

import argparse
import os
import sys
from typing import Any, Dict, Tuple

from .. import _json
from ..errors import InvalidArgumentError
from .._files import write_text_whole
from ._paths import check_writable

INSTALL = 'pip install "rosen[train]"'


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Add the ``train`` subcommand to ``sub``."""
    p = sub.add_parser("train", help="train a network (policy, value, margin) on self-play runs (needs rosen[train])",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--data", nargs="+", metavar="DIR", help="self-play run directories (rosen selfplay --out)")
    p.add_argument("--out", help="the network file to write (.npz; format: docs/learning.md)")
    p.add_argument("--hidden", help="hidden layer sizes H1,H2 (default 128,64, or --init's)")
    p.add_argument("--epochs", type=int, default=10, help="passes over the training rows (default 10)")
    p.add_argument("--batch-size", type=int, default=256, help="rows per gradient step (default 256)")
    p.add_argument("--lr", type=float, default=1e-3, help="AdamW learning rate (default 1e-3)")
    p.add_argument("--weight-decay", type=float, default=1e-4, help="AdamW weight decay (default 1e-4)")
    p.add_argument("--val-fraction", type=float, default=0.1,
                   help="share of the games held out to measure generalisation (default 0.1; 0: none)")
    p.add_argument("--seed", type=int, default=0,
                   help="seed of the weights, the order and the symmetries (the held-out games depend on the games alone)")
    p.add_argument("--margin-scale", type=float, default=None,
                   help="the margin head predicts final_margin / scale (default 50, or --init's)")
    p.add_argument("--value-search-weight", type=float, default=0.0, metavar="W",
                   help="blend the search's win probability at each row into the value target with weight W "
                        "(0..1; default 0: the game's result alone)")
    p.add_argument("--no-augment", action="store_true", help="train without the 8 board symmetries")
    p.add_argument("--init", metavar="NET", help="a network file to start from (e.g. the current best)")
    p.add_argument("--threads", type=int, default=1,
                   help="PyTorch threads (default 1: the weights are then reproducible bit for bit)")
    p.add_argument("--curves", metavar="FILE", help="write the loss curves per epoch as JSON")
    p.add_argument("--plot", metavar="FILE", help="draw the loss curves as a PNG (matplotlib)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    p.set_defaults(run=run)


def _hidden(text: str) -> Tuple[int, int]:
    try:
        sizes = tuple(int(part) for part in text.split(","))
    except ValueError:
        sizes = ()
    if len(sizes) != 2 or min(sizes) < 1:
        raise InvalidArgumentError(f"hidden: expected two positive sizes H1,H2 (e.g. 128,64), got {text!r}", "hidden")
    return sizes[0], sizes[1]


def _missing(module: str, what: str) -> int:
    print(f"rosen train: error: {what} needs {module}, which is not installed; install it with: {INSTALL}",
          file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    """Train a network on the ``--data`` runs, write it to ``--out`` (and ``--curves``, ``--plot``) and
    print a summary; returns 0, or 2 when PyTorch (or, for ``--plot``, matplotlib) is missing."""
    try:  # torch is an optional dependency: never imported before here, and missing is said first
        from ..learning import train as training
        from ..learning.data import load_training_data
    except ImportError as exc:
        if (exc.name or "").split(".")[0] == "torch":
            return _missing("PyTorch", "rosen train")
        raise
    if not args.data:
        raise InvalidArgumentError("data: expected one or more self-play run directories (rosen selfplay --out)",
                                   "data")
    if not args.out:
        raise InvalidArgumentError("out: expected the network file to write (e.g. --out net.npz)", "out")
    seen: Dict[str, str] = {}
    for field in ("out", "curves", "plot"):
        if getattr(args, field):
            check_writable(getattr(args, field), field, image=field == "plot")
            same = seen.setdefault(os.path.realpath(getattr(args, field)), field)
            if same != field:  # the curves once replaced the network just written
                raise InvalidArgumentError(f"{field}: {getattr(args, field)!r} is the file of --{same} too; give each "
                                           "output a file of its own", field)
    if args.plot:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            return _missing("matplotlib", "--plot")

    init = training.read_network_arrays(args.init) if args.init else None
    hidden = _hidden(args.hidden) if args.hidden else (
        (int(init["hidden"][0]), int(init["hidden"][1])) if init is not None else (128, 64))  # two: load_network checks
    margin_scale = args.margin_scale if args.margin_scale is not None else (
        float(init["margin_scale"]) if init is not None else 50.0)
    low, high = training.MARGIN_SCALE_RANGE
    if args.margin_scale is None and init is not None and not low <= margin_scale <= high:
        # The network's own scale, not an option the user gave (the error once named --margin-scale).
        raise InvalidArgumentError(f"init: {args.init!r} has margin_scale {margin_scale:g}, outside what training "
                                   f"takes ({low:g}..{high:g}); give --margin-scale", "init")
    config = training.TrainConfig(hidden=hidden, epochs=args.epochs, batch_size=args.batch_size, lr=args.lr,
                                  weight_decay=args.weight_decay, val_fraction=args.val_fraction, seed=args.seed,
                                  margin_scale=margin_scale, augment=not args.no_augment, threads=args.threads,
                                  value_search_weight=args.value_search_weight).check()
    data = load_training_data(args.data)

    def show(epoch: int, curves: Dict[str, Any]) -> None:
        line = f"epoch {epoch:>3}/{config.epochs}  train " + _losses(curves["train"])
        if curves["heldout"]["total"]:
            line += "  held-out " + _losses(curves["heldout"])
        print(line + f"  {curves['seconds'][-1]:.1f} s", file=sys.stderr, flush=True)

    result = training.train(data, config, init=init, on_epoch=show)
    training.export_network(args.out, result.model, config.margin_scale)
    curves = {**result.curves, "config": {**vars(config), "hidden": list(config.hidden)},
              "data": [str(d) for d in args.data], "init": args.init}
    if args.curves:  # through a temporary file, as the network is: a full disk once left half a JSON file
        write_text_whole(args.curves, _json.dumps(curves, indent=1) + "\n", "curves")
    if args.plot:
        training.plot_curves(curves, args.plot)
    summary = {"out": args.out, "rows": len(data), "games": data.games, "train_rows": curves["train_rows"],
               "heldout_rows": curves["heldout_rows"], "heldout_games": curves["heldout_games"],
               "epochs": config.epochs, "seconds": round(result.seconds, 3),
               "train": {h: v[-1] for h, v in curves["train"].items()},
               "heldout": {h: v[-1] for h, v in curves["heldout"].items() if v}}
    if args.json:
        print(_json.dumps(summary))
    else:
        print(f"{args.out}: trained on {summary['train_rows']} rows ({len(data)} rows of {data.games} games, "
              f"{summary['heldout_games']} games held out) in {result.seconds:.1f} s; final loss "
              f"train {summary['train']['total']:.4f}"
              + (f", held-out {summary['heldout']['total']:.4f}" if summary["heldout"] else ""))
    return 0


def _losses(side: Dict[str, Any]) -> str:
    return f"{side['total'][-1]:.4f} (p {side['policy'][-1]:.3f} v {side['value'][-1]:.3f} m {side['margin'][-1]:.3f})"
