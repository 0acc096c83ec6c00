"""rosen.Evaluator: a network evaluating positions in C++ (cpp/learning/network.h).

>>> import rosen
>>> from rosen.learning import random_network
>>> ev = rosen.Evaluator(random_network(hidden=(16, 8)))
>>> out = ev.evaluate(rosen.Position.new(seed=1))      # one position: no batch axis
>>> round(float(out.policy.sum()), 5), out.wdl.shape
(1.0, (3,))
"""
from __future__ import annotations

import os
from functools import lru_cache
from typing import Any, NamedTuple, Tuple, Union

import numpy as np

from .. import _core
from .._core import Position
from ..errors import ArgumentTypeError, RosenError
from .network import BUILTIN_FILES, WEIGHTS, Network, builtin_network_path, load_network, resolve_builtin

__all__ = ["Evaluation", "Evaluator", "as_evaluator"]


class Evaluation(NamedTuple):
    """What a network says about positions, each from the view of its side to move."""

    policy: np.ndarray  #: float32 [N, 50]: softmax over the legal actions (Move bytes), 0 elsewhere
    wdl: np.ndarray     #: float32 [N, 3]: win, draw, loss of the mover's colour
    margin: np.ndarray  #: float32 [N]: expected final score margin, mover's colour minus the other (R11)
    value: np.ndarray   #: float32 [N]: win + draw / 2


class Evaluator:
    """A network ready to evaluate positions: ``Evaluator(path)`` (a network file,
    docs/learning.md, "Network format") or ``Evaluator(network)`` (a :class:`rosen.learning.Network`).

    ``evaluate(positions, threads=1)`` runs in C++ with the GIL released and allocates nothing per
    position. It reads public facts only (R14: the pile order never changes a result), and each
    position is evaluated alone, so the result is the same for any batch split or thread count.
    The same evaluator can guide searches: ``rosen.Searcher(evaluator=...)``. It pickles as its
    network's weights (e.g. into a worker process).
    """

    __slots__ = ("_network", "_core")

    def __init__(self, network: Union[str, "os.PathLike[str]", Network]) -> None:
        if isinstance(network, (str, os.PathLike)):
            try:
                network = load_network(network)
            except RosenError as exc:  # the file is this argument, not load_network's `path`
                raise exc.renamed("path", "network") from None
        if not isinstance(network, Network):
            raise ArgumentTypeError(f"network: expected a network file path or a rosen.learning.Network, got "
                                    f"{type(network).__name__}", "network")
        self._network = network
        self._core = _core._Network(**{name: getattr(network, name) for name in WEIGHTS})

    @property
    def network(self) -> Network:
        """The network evaluated (read-only: the C++ copy of its weights was made from it, and an
        evaluator is shared, e.g. by all the agents that name one file; another network is another
        ``Evaluator``)."""
        return self._network

    def __setattr__(self, name: str, value: Any) -> None:
        if hasattr(self, "_core"):  # set once, in __init__
            raise AttributeError(f"{type(self).__name__} is read-only: make another for other weights")
        object.__setattr__(self, name, value)

    @property
    def hidden(self) -> Tuple[int, int]:
        """The network's hidden layer sizes (H1, H2)."""
        return self.network.hidden

    def evaluate(self, positions: Any, *, threads: int = 1) -> Evaluation:
        """The network's outputs for a sequence of positions (arrays with a batch axis), or for
        one position (without it)."""
        single = isinstance(positions, Position)
        out = Evaluation(*self._core.evaluate([positions] if single else positions, threads=threads))
        return Evaluation(*(a[0] for a in out)) if single else out

    def __reduce__(self) -> Tuple[Any, ...]:
        return Evaluator, (self.network,)

    def __repr__(self) -> str:
        if self.network.source:
            source = os.path.abspath(self.network.source)
            shipped = next((name for name in BUILTIN_FILES if source == os.path.abspath(builtin_network_path(name))),
                           self.network.source)
            return f"Evaluator({shipped!r})"
        return f"Evaluator({self.network!r})"


@lru_cache(maxsize=16)
def _cached(path: str, mtime_ns: int, size: int) -> Evaluator:
    return Evaluator(path)


def as_evaluator(value: Any) -> Evaluator:
    """An :class:`Evaluator` from an evaluator, a network or a file path. Files are read once
    while unchanged (the agents of a match share one network instead of reading it per game)."""
    if isinstance(value, Evaluator):
        return value
    if isinstance(value, (str, os.PathLike)):
        path = os.fspath(value)
        path = resolve_builtin(path)
        try:
            try:
                stat = os.stat(path)
            except (OSError, ValueError):  # missing, unreadable, or no path at all (a NUL byte)
                return Evaluator(path)  # load_network names the path in its error
            return _cached(os.path.abspath(path), stat.st_mtime_ns, stat.st_size)
        except RosenError as exc:  # here the file is the `evaluator`
            raise exc.renamed("network", "evaluator") from None
    if isinstance(value, Network):
        return Evaluator(value)
    raise ArgumentTypeError(f"evaluator: expected a network file path, a rosen.learning.Network or a rosen.Evaluator, "
                            f"got {type(value).__name__}", "evaluator")
