"""Training the network of docs/learning.md, "Network format" on self-play samples, with PyTorch on the CPU.

Needs the ``train`` extra (``pip install "rosen[train]"``); nothing else in rosen imports this
module, so ``import rosen`` never imports torch. The model is the spec's MLP exactly::

    h1 = relu(fc1 x)   h2 = relu(fc2 h1)   policy(h2) -> 50 logits   value(h2) -> 3   margin(h2) -> 1

and :func:`network_arrays` maps it onto the file's entries (``fc1.weight`` is ``w1`` ...).

Losses, per row (docs/learning.md):

- policy: cross-entropy of the visit distribution against the softmax of the logits with the
  illegal actions masked out, weighted by the row's ``weight`` (a weighted mean over the rows);
- value: cross-entropy of (win, draw, loss) against the game's result for the mover -- or, with
  ``value_search_weight`` w > 0, against the blend (1 - w) * result + w * (q, 0, 1 - q) of the
  result and the search's win probability q at the row (``root_value``; rows without a search
  keep the result alone). One game's result labels some 90 correlated rows with one noisy bit;
  the search's q is a per-row estimate, so the blend trades a little bias for much less noise.
  The losses reported (the curves) are always against the result alone, so runs with different
  weights compare;
- margin: Huber loss (squared within 1, linear beyond: margin_scale points) of the output
  against ``final_margin / margin_scale``: final margins spread over hundreds of points, and a
  squared error would let a few lopsided games drown the other heads' gradients;
- total: their sum.

Each training sample is turned by one of the 8 board symmetries drawn at random (features,
legal mask and visits together). Every random choice -- the initial weights, the order of the
rows, the symmetries -- comes from ``seed``, so one thread gives the same weights, bit for bit,
every time (several threads may sum in another order).
"""
from __future__ import annotations

import math
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, Optional, Tuple

import numpy as np

from ..errors import require_extra

require_extra(__name__, "train", "torch")

import torch  # after the check, which names the extra
from torch import nn
from torch.nn import functional as F

from .. import _core
from .._files import is_special_file, write_whole
from ..encoding import ACTIONS, ENCODER_VERSION
from ..errors import InvalidArgumentError, RosenError, check_int, check_real
from .data import TrainingData, augment, split_by_game
from .network import INPUTS, Network, load_network, save_network

__all__ = ["Model", "TrainConfig", "TrainResult", "train", "evaluate", "losses", "network_arrays", "export_network",
           "read_network_arrays", "load_into", "plot_curves", "HEADS"]

#: Names of the losses in the curves, the total first.
HEADS = ("total", "policy", "value", "margin")
#: A logit for an illegal action: exp() of it is exactly 0 in float32, like -inf, but 0 * it is 0, not NaN.
_ILLEGAL = -1e9
#: The margin scales training takes (``TrainConfig.margin_scale``, ``rosen train --margin-scale``).
MARGIN_SCALE_RANGE = (1e-3, 1e6)
#: The model's layers and the file's (weight, bias) entries they become (docs/learning.md, "Network format").
_LAYERS = (("fc1", "w1", "b1"), ("fc2", "w2", "b2"), ("policy", "wp", "bp"), ("value", "wv", "bv"),
           ("margin", "wm", "bm"))


class Model(nn.Module):
    """The spec's MLP: forward(x) gives (policy logits [N, 50], value logits [N, 3], margin / margin_scale [N])."""

    def __init__(self, hidden: Tuple[int, int]) -> None:
        super().__init__()
        h1, h2 = hidden
        self.hidden = (h1, h2)
        self.fc1, self.fc2 = nn.Linear(INPUTS, h1), nn.Linear(h1, h2)
        self.policy, self.value, self.margin = nn.Linear(h2, ACTIONS), nn.Linear(h2, 3), nn.Linear(h2, 1)

    def forward(self, x: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        h = F.relu(self.fc2(F.relu(self.fc1(x))))
        return self.policy(h), self.value(h), self.margin(h).squeeze(-1)


@dataclass
class TrainConfig:
    """Everything a training run depends on besides its data and initial weights."""

    hidden: Tuple[int, int] = (128, 64)
    epochs: int = 10
    batch_size: int = 256
    lr: float = 1e-3
    weight_decay: float = 1e-4
    val_fraction: float = 0.1
    seed: int = 0
    margin_scale: float = 50.0
    augment: bool = True
    threads: int = 1
    value_search_weight: float = 0.0

    def check(self) -> "TrainConfig":
        """Check every numeric setting's type and range (an error names the first at fault) and return
        self, with ``hidden`` made a tuple of ints."""
        if not isinstance(self.hidden, (tuple, list)) or len(self.hidden) != 2:
            raise InvalidArgumentError(f"hidden: expected two layer sizes (H1, H2), got {self.hidden!r}", "hidden")
        # The C++ evaluator's limit: a wider network trained for hours and then no search could use it.
        h1, h2 = self.hidden
        self.hidden = (check_int("hidden", h1, 1, _core._max_hidden), check_int("hidden", h2, 1, _core._max_hidden))
        check_int("epochs", self.epochs, 1, 1_000_000)
        check_int("batch_size", self.batch_size, 1, 1 << 24)
        check_real("lr", self.lr, 1e-12, 10.0)
        check_real("weight_decay", self.weight_decay, 0.0, 10.0)
        check_real("val_fraction", self.val_fraction, 0.0, 0.9)
        check_int("seed", self.seed, 0, 2**63 - 1)
        check_real("margin_scale", self.margin_scale, *MARGIN_SCALE_RANGE)
        check_int("threads", self.threads, 1, 1024)
        check_real("value_search_weight", self.value_search_weight, 0.0, 1.0)
        return self


@dataclass
class TrainResult:
    """The trained model, the loss curves (see :func:`train`) and the split's row indices."""

    model: Model
    config: TrainConfig
    curves: Dict[str, Any]
    train_index: np.ndarray
    heldout_index: np.ndarray
    seconds: float = 0.0
    extra: Dict[str, Any] = field(default_factory=dict)


def _tensors(data: TrainingData) -> Dict[str, torch.Tensor]:
    return {"features": torch.from_numpy(np.ascontiguousarray(data.features)),
            "legal": torch.from_numpy(np.ascontiguousarray(data.legal)),
            "policy": torch.from_numpy(np.ascontiguousarray(data.policy)),
            "policy_weight": torch.from_numpy(np.ascontiguousarray(data.policy_weight)),
            "value": torch.from_numpy(np.ascontiguousarray(data.value)),
            "searched_value": torch.from_numpy(np.ascontiguousarray(data.searched_value)),
            "margin": torch.from_numpy(np.ascontiguousarray(data.margin))}


def value_targets(batch: Dict[str, torch.Tensor], value_search_weight: float) -> torch.Tensor:
    """The value head's target distributions [N, 3] (win, draw, loss): the result's one-hot
    blended with (q, 0, 1 - q) of the search where the row has one (see the module)."""
    target = F.one_hot(batch["value"], 3).to(torch.float32)
    if value_search_weight > 0:
        q = batch["searched_value"]
        searched = torch.isfinite(q)
        q = torch.where(searched, q, torch.zeros_like(q)).clamp(0.0, 1.0)
        blend = torch.stack([q, torch.zeros_like(q), 1.0 - q], dim=1)
        w = value_search_weight * searched.to(torch.float32).unsqueeze(1)
        target = (1.0 - w) * target + w * blend
    return target


def losses(model: Model, batch: Dict[str, torch.Tensor], margin_scale: float,
           value_search_weight: float = 0.0) -> Dict[str, torch.Tensor]:
    """The per-head losses (and their sum, ``total``) of a batch, as 0-d tensors (see the module);
    ``value_search_weight`` blends the search's value into the value target (0: the result alone)."""
    policy_logits, value_logits, margin = model(batch["features"])
    masked = policy_logits.masked_fill(~batch["legal"], _ILLEGAL)
    policy_ce = -(batch["policy"] * F.log_softmax(masked, dim=1)).sum(dim=1)
    w = batch["policy_weight"]
    policy = (w * policy_ce).sum() / w.sum().clamp_min(1e-12)
    if value_search_weight > 0:
        value = -(value_targets(batch, value_search_weight) * F.log_softmax(value_logits, dim=1)).sum(dim=1).mean()
    else:
        value = F.cross_entropy(value_logits, batch["value"])
    margin_loss = F.smooth_l1_loss(margin, batch["margin"] / margin_scale, beta=1.0)
    return {"total": policy + value + margin_loss, "policy": policy, "value": value, "margin": margin_loss}


@torch.no_grad()
def evaluate(model: Model, data: TrainingData, margin_scale: float, chunk: int = 8192) -> Dict[str, float]:
    """The losses over all of ``data`` as it is (no symmetry), each head averaged over the rows
    as in training (the policy weighted by ``weight``)."""
    if len(data) == 0:
        return {}
    t = _tensors(data)
    sums = {"policy": 0.0, "value": 0.0, "margin": 0.0}
    weight = float(t["policy_weight"].double().sum())
    for start in range(0, len(data), chunk):
        part = {name: v[start:start + chunk] for name, v in t.items()}
        rows, w = len(part["value"]), float(part["policy_weight"].double().sum())
        got = losses(model, part, margin_scale)
        sums["policy"] += float(got["policy"]) * w
        sums["value"] += float(got["value"]) * rows
        sums["margin"] += float(got["margin"]) * rows
    out = {"policy": sums["policy"] / weight if weight > 0 else 0.0,
           "value": sums["value"] / len(data), "margin": sums["margin"] / len(data)}
    return {"total": out["policy"] + out["value"] + out["margin"], **out}


def train(data: TrainingData, config: Optional[TrainConfig] = None, *, init: Optional[Dict[str, np.ndarray]] = None,
          on_epoch: Optional[Callable[[int, Dict[str, Any]], None]] = None) -> TrainResult:
    """Train a :class:`Model` on ``data``, split by game into training and held-out rows.

    ``init``: the entries of a network file to start from (:func:`read_network_arrays`; its
    hidden sizes must be ``config.hidden``). The curves hold, for epochs 0 (before training)
    to ``config.epochs``, the losses of the whole training set (unaugmented) and of the
    held-out set after that epoch: ``{"epochs": [...], "train": {head: [...]}, "heldout":
    {head: [...]}, "seconds": [...], "policy_target_entropy": {"train": H, "heldout": H}, ...}``
    (held-out lists are empty without a held-out set; the policy loss cannot go below the entropy).
    ``on_epoch(epoch, curves)`` is called after each of these evaluations. Torch's thread count
    and CPU random state are the caller's again afterwards, whether training ends or fails (the
    weights are seeded on the CPU generator alone; GPU generators are not touched).
    """
    config = (config or TrainConfig()).check()
    if len(data) == 0:
        raise InvalidArgumentError("data: no rows to train on", "data")
    # Both are process-wide: a library call must not leave the caller's torch changed.
    threads = torch.get_num_threads()
    torch.set_num_threads(config.threads)
    try:
        with torch.random.fork_rng(devices=[]):
            return _train(data, config, init, on_epoch)
    finally:
        torch.set_num_threads(threads)


def _train(data: TrainingData, config: TrainConfig, init: Optional[Dict[str, np.ndarray]],
           on_epoch: Optional[Callable[[int, Dict[str, Any]], None]]) -> TrainResult:
    train_index, heldout_index = split_by_game(data, config.val_fraction)
    train_data, heldout = data.take(train_index), data.take(heldout_index)
    # The CPU generator alone (the one the weights are drawn from): torch.manual_seed would also
    # seed the caller's CUDA generators, which fork_rng(devices=[]) does not restore.
    torch.random.default_generator.manual_seed(config.seed)
    model = Model(config.hidden)
    if init is not None:
        load_into(model, init, config.margin_scale)
    optimiser = torch.optim.AdamW(model.parameters(), lr=config.lr, weight_decay=config.weight_decay)
    rng = np.random.default_rng([config.seed, 0xA06])
    curves: Dict[str, Any] = {"epochs": [], "train": {h: [] for h in HEADS}, "heldout": {h: [] for h in HEADS},
                              "seconds": [], "train_rows": len(train_data), "heldout_rows": len(heldout),
                              "train_games": train_data.games, "heldout_games": heldout.games if len(heldout) else 0,
                              "policy_target_entropy": {"train": train_data.policy_entropy(),
                                                        "heldout": heldout.policy_entropy() if len(heldout) else None}}
    start = time.perf_counter()

    def record(epoch: int) -> None:
        model.eval()
        for name, part in (("train", train_data), ("heldout", heldout)):
            for head, value in evaluate(model, part, config.margin_scale).items():
                curves[name][head].append(value)
        model.train()
        # The last epoch's steps are checked here: a model that diverged in them (finite weights,
        # infinite outputs) would otherwise be returned and written.
        for name, shown in (("train", "training"), ("heldout", "held-out")):
            total = curves[name]["total"][-1] if curves[name]["total"] else 0.0
            if math.isfinite(total):
                continue
            if epoch == 0 and init is not None:  # before any step: the network trained from is at fault
                raise InvalidArgumentError(f"init: the initial network's {shown} loss is {total}: its outputs are not "
                                           "finite", "init")
            raise InvalidArgumentError(f"lr: the {shown} loss became {total} after epoch {epoch}; lower the "
                                       "learning rate", "lr")
        curves["epochs"].append(epoch)
        curves["seconds"].append(round(time.perf_counter() - start, 3))
        if on_epoch is not None:
            on_epoch(epoch, curves)

    record(0)
    n = len(train_data)
    for epoch in range(1, config.epochs + 1):
        order = rng.permutation(n)
        ks = rng.integers(0, 8, n) if config.augment else np.zeros(n, dtype=np.int64)
        for begin in range(0, n, config.batch_size):
            rows = order[begin:begin + config.batch_size]
            part = train_data.take(rows)
            if config.augment:
                part.features, part.legal, part.policy = augment(part.features, part.legal, part.policy,
                                                                 ks[begin:begin + config.batch_size])
            optimiser.zero_grad(set_to_none=True)
            loss = losses(model, _tensors(part), config.margin_scale, config.value_search_weight)["total"]
            if not torch.isfinite(loss):
                raise InvalidArgumentError(f"lr: the loss became {float(loss.detach())} in epoch {epoch}; lower the "
                                           "learning rate", "lr")
            loss.backward()
            optimiser.step()
        record(epoch)
    model.eval()
    return TrainResult(model=model, config=config, curves=curves, train_index=train_index,
                       heldout_index=heldout_index, seconds=time.perf_counter() - start)


def network_arrays(model: Model, margin_scale: float) -> Dict[str, np.ndarray]:
    """The entries of the network file (docs/learning.md, "Network format"), in its order, float32 weights
    checked finite (a non-finite one raises an error naming the entry)."""
    arrays: Dict[str, np.ndarray] = {
        "format": np.array("rosen-net"), "format_version": np.array(1, dtype=np.int64),
        "encoder_version": np.array(ENCODER_VERSION, dtype=np.int64), "layout": np.array("flat"),
        "architecture": np.array("mlp"), "hidden": np.array(model.hidden, dtype=np.int64)}
    for layer, w, b in _LAYERS:
        linear = getattr(model, layer)
        arrays[w] = linear.weight.detach().cpu().numpy().astype(np.float32, copy=True)
        arrays[b] = linear.bias.detach().cpu().numpy().astype(np.float32, copy=True)
    arrays["margin_scale"] = np.array(margin_scale, dtype=np.float32)
    for name, array in arrays.items():
        if array.dtype == np.float32 and not np.all(np.isfinite(array)):
            raise InvalidArgumentError(f"{name}: {int(np.sum(~np.isfinite(array)))} weight(s) are not finite "
                                       "(training diverged: lower the learning rate)", name)
    return arrays


def export_network(path: Any, model: Model, margin_scale: float) -> None:
    """Write the model as a network file at ``path``, exactly that name, through a temporary file
    (a failure never leaves half a network), checked as :func:`rosen.learning.load_network`
    checks a file. Errors name ``out``."""
    network = Network.from_arrays(network_arrays(model, margin_scale))
    target = Path(path)
    # A device or a pipe (--out /dev/null) is written into: a file moved onto it replaced it (F107).
    tmp = target if is_special_file(target) else target.with_name(target.name + ".tmp")
    try:
        save_network(tmp, network)  # an OSError there is save_network's `path` error
        if tmp != target:
            os.replace(tmp, target)
    except (OSError, InvalidArgumentError) as exc:
        if tmp != target:
            tmp.unlink(missing_ok=True)
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc).rsplit(": ", 1)[-1]
        raise InvalidArgumentError(f"out: cannot write {os.fspath(path)!r}: {reason}", "out") from None


def read_network_arrays(path: Any, field: str = "init") -> Dict[str, np.ndarray]:
    """The entries of a network file to start training from, checked by
    :func:`rosen.learning.load_network`; errors name ``field``."""
    try:
        return load_network(path).as_arrays()
    except RosenError as exc:
        renamed = exc.renamed("path", field)  # the file itself: its message names the path already
        if renamed is not exc:
            raise renamed from None
        raise InvalidArgumentError(f"{field}: {os.fspath(path)!r}: {exc}", field) from None  # an entry of it


def load_into(model: Model, arrays: Dict[str, np.ndarray], margin_scale: Optional[float] = None) -> None:
    """Copy a network file's weights (:func:`read_network_arrays`) into ``model``; the hidden sizes must agree.
    With ``margin_scale`` (the training's) other than the file's, the margin head is rescaled so
    that the network still predicts the same margins: the model's margin output is in units of
    the training's scale (it once kept the file's weights, and so halved or doubled every margin)."""
    if tuple(int(h) for h in arrays["hidden"]) != model.hidden:
        raise InvalidArgumentError(f"hidden: the initial network has hidden sizes {tuple(arrays['hidden'].tolist())}, "
                                   f"not {model.hidden}", "hidden")
    factor = 1.0 if margin_scale is None else float(arrays["margin_scale"]) / float(margin_scale)
    with torch.no_grad():
        for layer, w, b in _LAYERS:
            scale = factor if layer == "margin" else 1.0
            getattr(model, layer).weight.copy_(torch.from_numpy(arrays[w]) * scale)
            getattr(model, layer).bias.copy_(torch.from_numpy(arrays[b]) * scale)


def plot_curves(curves: Dict[str, Any], path: Any) -> None:
    """The curves as a PNG: one panel per loss, training and held-out lines (matplotlib, Agg)."""
    import matplotlib
    matplotlib.use("Agg")
    from matplotlib import pyplot as plt

    fig, axes = plt.subplots(1, len(HEADS), figsize=(4 * len(HEADS), 3.4), constrained_layout=True)
    for ax, head in zip(axes, HEADS):
        ax.plot(curves["epochs"], curves["train"][head], marker=".", label="training rows")
        if curves["heldout"][head]:
            ax.plot(curves["epochs"], curves["heldout"][head], marker=".", label="held-out games")
        ax.set_title(f"{head} loss")
        ax.set_xlabel("epoch")
        ax.grid(alpha=0.3)
    axes[0].legend()
    try:  # no half-written image
        write_whole(path, lambda partial: fig.savefig(partial, dpi=100), "plot", keep_suffix=True)
    finally:
        plt.close(fig)

