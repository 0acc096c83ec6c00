"""Training samples from self-play runs: features, targets, the split by game, symmetry augmentation.

NumPy only (no torch), so that the data side can be tested and reused without a learning
framework. A row of a run (docs/selfplay.md) becomes one sample:

    features   float32 [477]  rosen.encode(rows, layout="flat"), the mover's view
    legal      bool [50]      the legal-action mask
    policy     float32 [50]   the search's visits normalised to sum 1 (the policy target)
    policy_weight float32     the row's ``weight`` (0 for recorded cheap searches: they teach
                              the value, not the policy), 0 as well if a row has no visits
    value      int64          0 win, 1 draw, 2 loss for the mover's colour (from ``result``)
    searched_value float32    the search's root value at the row, mover's view (``root_value``: a win
                              probability under the default reward; NaN without a search): a second,
                              less noisy value target
    margin     float32        the mover's colour's final margin (R11), in points
    game       uint64         the game's key: its deal seed (the same in every run loaded, in any
                              order: the split by game keys on it)

Errors name ``data`` (the command line's ``--data``).
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, Mapping, Sequence, Tuple

import numpy as np

from ..encoding import encode, symmetries
from ..errors import ArgumentTypeError, InvalidArgumentError, RosenError, check_int, check_real

__all__ = ["TrainingData", "load_training_data", "from_rows", "split_by_game", "symmetry_tables", "augment"]

#: Value classes, in the order of the network's value head (docs/learning.md, "Network format").
WIN, DRAW, LOSS = 0, 1, 2


@dataclass
class TrainingData:
    """Samples as parallel arrays (see the module's docstring); ``take(index)`` a subset."""

    features: np.ndarray
    legal: np.ndarray
    policy: np.ndarray
    policy_weight: np.ndarray
    value: np.ndarray
    searched_value: np.ndarray
    margin: np.ndarray
    game: np.ndarray

    def __len__(self) -> int:
        return len(self.value)

    def take(self, index: np.ndarray) -> "TrainingData":
        """The samples that ``index`` selects (indices or a boolean mask), every array indexed alike."""
        return TrainingData(**{name: getattr(self, name)[index] for name in self.__dataclass_fields__})

    @property
    def games(self) -> int:
        """How many distinct games the samples come from."""
        return len(np.unique(self.game))

    def policy_entropy(self) -> float:
        """The targets' mean entropy (weighted as the policy loss): the least the policy's
        cross-entropy can reach, since it is this plus the KL divergence to the targets."""
        p = self.policy.astype(np.float64)
        per_row = -np.sum(p * np.log(np.where(p > 0, p, 1.0)), axis=1)
        w = self.policy_weight.astype(np.float64)
        return float(np.sum(w * per_row) / np.sum(w)) if np.sum(w) > 0 else 0.0


def _data_error(message: str) -> InvalidArgumentError:
    return InvalidArgumentError(f"data: {message}", "data")


#: The columns the targets come from (the features' columns are checked by rosen.encoding.encode).
_TARGET_COLUMNS = ("game", "legal", "visits", "result", "weight", "root_value", "final_margin")


def from_rows(rows: Dict[str, np.ndarray], run: int = 0, deals: Any = None) -> TrainingData:
    """The samples of one run's rows (a dict of columns, as ``load_dir(...).rows``). ``deals``:
    the run's deal seeds by game index (``{g["game"]: g["seed"] for g in load_dir(...).games}``),
    the games' keys. Without them the key is ``run * 2**32 + i`` (game ``i`` of run number
    ``run``), which names a game only within one call's list of runs."""
    if not isinstance(rows, Mapping):
        raise ArgumentTypeError(f"data: expected a mapping of columns, got {type(rows).__name__}", "data")
    missing = [name for name in _TARGET_COLUMNS if name not in rows]
    if missing:
        raise _data_error(f"the rows lack the column(s) {', '.join(missing)} (self-play records have them)")
    legal = np.asarray(rows["legal"], dtype=bool)
    visits = np.asarray(rows["visits"], dtype=np.float64)
    if np.any(visits[~legal] > 0):
        bad = int(np.argwhere((visits > 0) & ~legal)[0, 0])
        raise _data_error(f"row {bad} has visits on an illegal action (damaged records? `rosen selfplay verify`)")
    total = visits.sum(axis=1)
    policy = np.divide(visits, total[:, None], out=np.zeros_like(visits), where=total[:, None] > 0)
    result = np.asarray(rows["result"])
    value = np.select([result == 1.0, result == 0.5, result == 0.0], [WIN, DRAW, LOSS], default=-1).astype(np.int64)
    if np.any(value < 0):
        raise _data_error(f"row {int(np.argmax(value < 0))}: result must be 1, 0.5 or 0")
    game = np.asarray(rows["game"], dtype=np.int64)
    if game.size and game.min() < 0:
        raise _data_error(f"row {int(np.argmax(game < 0))}: game indices must be 0 or more")
    if deals is None:
        # The key packs the run and the index into 64 bits, so each must fit in 32.
        run = check_int("run", run, 0, 2**32 - 1)
        if game.size and game.max() >= 2**32:
            raise _data_error("game indices must be in 0..2**32-1 without deals (the key is run * 2**32 + index)")
        key = game.astype(np.uint64) + np.uint64(run) * np.uint64(2**32)
    else:
        # Looked up in the sorted indices, not in a table as long as the largest index: a run
        # split across machines starts at any `--first-game` up to 2**62 (F104).
        index = np.fromiter(deals.keys(), dtype=np.int64, count=len(deals))
        seeds = np.fromiter((int(s) for s in deals.values()), dtype=np.uint64, count=len(deals))
        order = np.argsort(index, kind="stable")
        index, seeds = index[order], seeds[order]
        at = np.minimum(np.searchsorted(index, game), max(len(index) - 1, 0))
        known = index[at] == game if len(index) else np.zeros(game.shape, dtype=bool)
        if not known.all():
            raise _data_error(f"row of game {int(game[~known][0])}: the game is not in the run's game records")
        key = seeds[at]
    return TrainingData(
        features=encode(rows, layout="flat"),
        legal=legal,
        policy=policy.astype(np.float32),
        policy_weight=np.where(total > 0, np.asarray(rows["weight"], dtype=np.float32), 0).astype(np.float32),
        value=value,
        searched_value=np.asarray(rows["root_value"], dtype=np.float32),
        margin=np.asarray(rows["final_margin"], dtype=np.float32),
        game=key,
    )


def load_training_data(dirs: Sequence[Any]) -> TrainingData:
    """Every finished shard of the run directories ``dirs``, as samples. A missing or empty
    directory, one that is not a self-play run, another records format version, or a directory
    given twice raises an error naming ``data``."""
    if isinstance(dirs, (str, os.PathLike)) or not dirs:
        raise _data_error("expected one or more self-play run directories")
    from ..selfplay import load_dir  # the selfplay package is not imported by `import rosen`

    parts, seen = [], set()
    for run, d in enumerate(dirs):
        if not isinstance(d, (str, os.PathLike)):
            raise ArgumentTypeError(f"data: expected run directory paths, got {type(d).__name__}", "data")
        path = Path(d)
        if not path.is_dir():
            raise _data_error(f"{os.fspath(d)!r} is not a directory (expected a `rosen selfplay --out` run)")
        if path.resolve() in seen:
            raise _data_error(f"{os.fspath(d)!r} is given twice")
        seen.add(path.resolve())
        try:
            batch = load_dir(path)
        except RosenError as exc:
            raise _data_error(f"{os.fspath(d)!r}: {exc}") from None
        if batch.num_rows == 0:
            raise _data_error(f"{os.fspath(d)!r} holds no rows")
        try:
            parts.append(from_rows(batch.rows, run, {g["game"]: g["seed"] for g in batch.games}))
        except RosenError as exc:  # a damaged row: say which run it is in
            detail = str(exc)[len("data: "):] if exc.field == "data" else str(exc)
            raise _data_error(f"{os.fspath(d)!r}: {detail}") from None
    if len(parts) == 1:  # np.concatenate would copy it all: one run's memory twice at the peak (F106)
        return parts[0]
    return TrainingData(**{name: np.concatenate([getattr(p, name) for p in parts])
                           for name in TrainingData.__dataclass_fields__})


def game_draw(keys: np.ndarray) -> np.ndarray:
    """A fixed number in [0, 1) for each game key (SplitMix64's finaliser): the split's draw."""
    z = np.asarray(keys, dtype=np.uint64) + np.uint64(0x9E3779B97F4A7C15)
    with np.errstate(over="ignore"):
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z = z ^ (z >> np.uint64(31))
    return (z >> np.uint64(11)).astype(np.float64) / float(2**53)


def split_by_game(data: TrainingData, val_fraction: float) -> Tuple[np.ndarray, np.ndarray]:
    """Row indices (train, held-out): the games whose draw (:func:`game_draw` of the key, the
    deal seed) is below ``val_fraction`` are held out, every row of a game on the same side. The
    draw is the game's own, so a game is on the same side in every training with that share,
    whatever the runs, their order or the seed: a network trained on a game never meets it again
    as held-out data (a seeded shuffle of keys numbered by run position put up to half of
    ``--init``'s training games in the next held-out set). The one exception: when the share is
    above 0 and no game's draw is below it (small data: probability ``(1 - share) ** games``), the
    game with the smallest draw is held out, and its side then depends on the other games."""
    val_fraction = check_real("val_fraction", val_fraction, 0.0, 0.9)
    games = np.unique(data.game)
    draw = game_draw(games)
    held = draw < val_fraction
    if val_fraction > 0 and not held.any() and len(games):
        held[np.argmin(draw)] = True
    if held.all():
        raise InvalidArgumentError(f"val_fraction: {len(games)} game(s) cannot be split into training and held-out "
                                   "games; add data or use --val-fraction 0", "val_fraction")
    is_held = np.isin(data.game, games[held])
    return np.flatnonzero(~is_held), np.flatnonzero(is_held)


def symmetry_tables() -> Tuple[np.ndarray, np.ndarray]:
    """Gather tables (features [8, 477], actions [8, 50]): ``x[..., f[k]]`` is ``x`` turned by
    symmetry ``k`` (rosen.encoding.transform_encoded / transform_actions, for a batch whose rows
    each take their own ``k``)."""
    sym = symmetries()
    return sym.features[sym.inverse], sym.actions[sym.inverse]


def augment(features: np.ndarray, legal: np.ndarray, policy: np.ndarray, ks: np.ndarray
            ) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Row ``i`` of features [N, 477], legal [N, 50] and policy [N, 50] turned by symmetry
    ``ks[i]`` -- all three by the same symmetry, so a target stays on the turned legal actions.
    (The value and margin do not change under a symmetry.)"""
    ks = np.asarray(ks)
    if ks.dtype.kind not in "iu":
        raise ArgumentTypeError(f"ks: expected integer symmetry numbers 0..7, got dtype {ks.dtype}", "ks")
    if ks.size and (int(ks.min()) < 0 or int(ks.max()) > 7):  # a negative one would index from the end
        bad = int(ks.max()) if int(ks.max()) > 7 else int(ks.min())
        raise InvalidArgumentError(f"ks: expected symmetry numbers 0..7, got {bad}", "ks")
    f_table, a_table = symmetry_tables()
    actions = a_table[ks]
    return (np.take_along_axis(features, f_table[ks], axis=1), np.take_along_axis(legal, actions, axis=1),
            np.take_along_axis(policy, actions, axis=1))
