"""The network file (docs/learning.md, "Network format"): loading and checking it, writing it, and a plain NumPy
forward pass that is the reference the C++ evaluator (cpp/learning/network.h) is tested against.

A network is an uncompressed ``.npz`` holding exactly the entries of :data:`ENTRIES`: metadata
(``format``, ``format_version``, ``encoder_version``, ``layout``, ``architecture``, ``hidden``)
and the weights of an MLP over the flat encoding (``rosen.encode(..., layout="flat")``)::

    h1 = relu(w1 @ x + b1)            w1 [H1, 477]
    h2 = relu(w2 @ h1 + b2)           w2 [H2, H1]
    policy = masked softmax(wp @ h2 + bp)        50 actions, illegal ones 0
    wdl = softmax(wv @ h2 + bv)                  (win, draw, loss) of the mover's colour
    margin = margin_scale * (wm @ h2 + bm)       mover's colour's score minus the other's (R11)

Every check raises :class:`rosen.InvalidArgumentError` (a ``ValueError``) whose ``field`` is the
entry at fault and whose message starts with it, e.g. ``w1: expected shape (128, 477), got (128,
476)``.

>>> import tempfile, os, numpy as np
>>> net = random_network(hidden=(16, 8), seed=1)
>>> path = os.path.join(tempfile.mkdtemp(), "net.npz")
>>> save_network(path, net)
>>> load_network(path).hidden
(16, 8)
"""
from __future__ import annotations

import math
import os
from dataclasses import dataclass, fields
from typing import Any, Dict, Mapping, Tuple, Union

import numpy as np

from .._core import _encoder_version, _feature_names
from .._files import open_regular
from ..errors import ArgumentTypeError, InvalidArgumentError, as_array, check_int, check_real, is_collection

__all__ = ["ACTIONS", "BUILTIN", "BUILTIN_FILES", "BUILTIN_TEAM", "ENTRIES", "FORMAT", "FORMAT_VERSION", "INPUTS",
           "Network", "builtin_for", "builtin_network_path", "forward_numpy", "load_network", "random_network",
           "resolve_builtin", "save_network"]

FORMAT = "rosen-net"
FORMAT_VERSION = 1
LAYOUT = "flat"
ARCHITECTURE = "mlp"
#: Inputs (the flat encoding's features) and outputs (actions) of every network.
INPUTS = len(_feature_names())
ACTIONS = 50
#: The metadata entries and their exact values (encoder_version: the encoder this rosen has).
METADATA: Dict[str, Any] = {"format": FORMAT, "format_version": FORMAT_VERSION, "encoder_version": _encoder_version,
                            "layout": LAYOUT, "architecture": ARCHITECTURE}
#: The weight entries: name -> shape, with "H1" and "H2" standing for the hidden sizes.
WEIGHTS: Dict[str, Tuple[Any, ...]] = {
    "w1": ("H1", INPUTS), "b1": ("H1",), "w2": ("H2", "H1"), "b2": ("H2",),
    "wp": (ACTIONS, "H2"), "bp": (ACTIONS,), "wv": (3, "H2"), "bv": (3,), "wm": (1, "H2"), "bm": (1,),
    "margin_scale": (),
}
#: Every entry of a network file, in the spec's order.
ENTRIES: Tuple[str, ...] = tuple(METADATA) + ("hidden",) + tuple(WEIGHTS)

PathLike = Union[str, "os.PathLike[str]"]


@dataclass(frozen=True, eq=False)
class Network:
    """A checked network: its weights (float32 arrays, read-only) and metadata.

    Build one with :func:`load_network`, :func:`random_network` or ``Network.from_arrays``;
    ``as_arrays()`` gives the entries of the file.
    """

    def __setstate__(self, state: Dict[str, Any]) -> None:
        # Pickle and deepcopy restore the weights as new, writable arrays: read-only again, so that a
        # copy cannot drift from the C++ network an Evaluator made of it.
        for name, value in state.items():
            if isinstance(value, np.ndarray):
                value.flags.writeable = False
            object.__setattr__(self, name, value)

    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: np.ndarray
    wp: np.ndarray
    bp: np.ndarray
    wv: np.ndarray
    bv: np.ndarray
    wm: np.ndarray
    bm: np.ndarray
    margin_scale: float
    encoder_version: int = _encoder_version
    source: str = ""  #: the file it was loaded from ("" if none)

    @property
    def hidden(self) -> Tuple[int, int]:
        """The hidden layer sizes (H1, H2), from the shapes of ``w1`` and ``w2``."""
        return (int(self.w1.shape[0]), int(self.w2.shape[0]))

    @classmethod
    def from_arrays(cls, arrays: Mapping[str, Any], source: str = "") -> "Network":
        """A network from the entries of a file (a mapping, e.g. what ``np.load`` gives), each
        checked as :func:`load_network` checks a file."""
        if not (hasattr(arrays, "keys") and hasattr(arrays, "__getitem__")):
            raise ArgumentTypeError(f"arrays: expected a mapping of entry names to arrays, got {type(arrays).__name__}",
                                    "arrays")
        return _check(arrays, source, strict=True)

    def as_arrays(self) -> Dict[str, np.ndarray]:
        """Every entry of the file, with the spec's dtypes and shapes."""
        out: Dict[str, np.ndarray] = {"format": np.array(FORMAT), "format_version": np.array(FORMAT_VERSION, np.int64),
                                      "encoder_version": np.array(self.encoder_version, np.int64),
                                      "layout": np.array(LAYOUT), "architecture": np.array(ARCHITECTURE),
                                      "hidden": np.array(self.hidden, np.int64)}
        for name in WEIGHTS:
            out[name] = np.array(getattr(self, name), np.float32)
        return out

    def __repr__(self) -> str:
        where = f", source={self.source!r}" if self.source else ""
        return f"Network(hidden={self.hidden}, margin_scale={self.margin_scale:g}{where})"


def _where(source: str) -> str:
    return f" (in {source})" if source else ""


def _error(field: str, message: str, source: str) -> InvalidArgumentError:
    return InvalidArgumentError(f"{field}: {message}{_where(source)}", field)


def _shape_text(shape: Tuple[int, ...]) -> str:
    return "(" + ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"


def _text_entry(arrays: Mapping[str, Any], name: str, source: str) -> str:
    value = np.asarray(arrays[name])
    if value.dtype.kind != "U" or value.shape != ():
        raise _error(name, f"expected a str, got {value.dtype} {_shape_text(value.shape)}", source)
    return str(value)


def _int_entry(arrays: Mapping[str, Any], name: str, source: str, strict: bool) -> int:
    value = np.asarray(arrays[name])
    if (value.dtype != np.int64 if strict else value.dtype.kind not in "iu") or value.shape != ():
        raise _error(name, f"expected an int64 scalar, got {value.dtype} {_shape_text(value.shape)}", source)
    return int(value)


def _check(arrays: Mapping[str, Any], source: str, strict: bool) -> Network:
    """The network in ``arrays``, every entry checked. ``strict`` (loading) asks for the spec's
    exact dtypes; otherwise (saving) a float weight of another precision is converted to float32
    and metadata entries may be left out (they take the spec's values)."""
    names = list(arrays.keys())
    for name in names:
        if name not in ENTRIES:
            raise _error(name, f"unknown entry; a network file holds exactly {', '.join(ENTRIES)}", source)
    for name in ENTRIES:
        if name not in names and (strict or name in WEIGHTS):
            raise _error(name, "missing entry", source)
    for name, expected in METADATA.items():
        if name not in names:
            continue
        got: Any = (_int_entry(arrays, name, source, strict) if isinstance(expected, int)
                    else _text_entry(arrays, name, source))
        if got != expected:
            what = {"encoder_version": f"this rosen's ENCODER_VERSION {expected}",
                    "format_version": f"{expected} (this rosen reads version {expected} only)"}.get(name, repr(expected))
            # What to do about it: a network reads one encoding of positions only.
            remedy = ("; train it anew on its self-play runs (rosen train re-encodes their rows), or use the rosen "
                      "it was trained with" if name == "encoder_version" else "")
            raise InvalidArgumentError(f"{name}: expected {what}, got {got!r}{_where(source)}{remedy}", name)
    weights: Dict[str, np.ndarray] = {}
    for name in WEIGHTS:
        value = arrays[name]
        if not isinstance(value, np.ndarray) and not (not strict and np.isscalar(value)):
            raise ArgumentTypeError(f"{name}: expected a numpy array, got {type(value).__name__}{_where(source)}", name)
        value = np.asarray(value)
        if (strict and value.dtype != np.float32) or value.dtype.kind != "f":
            raise _error(name, f"expected dtype float32, got {value.dtype}", source)
        weights[name] = value
    hidden = (weights["w1"].shape[0] if weights["w1"].ndim == 2 else -1,
              weights["w2"].shape[0] if weights["w2"].ndim == 2 else -1)
    if "hidden" in names:
        declared = np.asarray(arrays["hidden"])
        if (declared.dtype != np.int64 if strict else declared.dtype.kind not in "iu") or declared.shape != (2,):
            raise _error("hidden", f"expected int64 (2,), got {declared.dtype} {_shape_text(declared.shape)}", source)
        if declared.min() < 1:
            raise _error("hidden", f"expected sizes of at least 1, got {tuple(int(h) for h in declared)}", source)
        hidden = (int(declared[0]), int(declared[1]))
    sizes = {"H1": hidden[0], "H2": hidden[1]}
    for name, pattern in WEIGHTS.items():
        shape: Tuple[int, ...] = tuple(sizes[d] if isinstance(d, str) else int(d) for d in pattern)
        if weights[name].shape != shape or min(shape, default=1) < 1:
            raise _error(name, f"expected shape {_shape_text(shape)}, got {_shape_text(weights[name].shape)}", source)
        if not np.all(np.isfinite(weights[name])):
            raise _error(name, "non-finite weight (NaN or infinity)", source)
        with np.errstate(over="ignore"):  # a float64 weight past float32's range: infinite once stored
            beyond = not np.all(np.isfinite(weights[name].astype(np.float32)))
        if beyond:
            raise _error(name, f"weight beyond float32's range (up to {float(np.finfo(np.float32).max):.4g}), largest "
                               f"magnitude {float(np.max(np.abs(weights[name]))):.4g}", source)
    if not float(np.float32(weights["margin_scale"])) > 0:  # a sign-flipped or zero margin head: none is written
        raise _error("margin_scale", f"expected a scale > 0, got {float(weights['margin_scale']):g}", source)
    frozen = {}
    for name in WEIGHTS:
        if name == "margin_scale":
            continue
        array = np.array(weights[name], dtype=np.float32, order="C")  # a private, read-only copy
        array.flags.writeable = False
        frozen[name] = array
    return Network(**frozen, margin_scale=float(np.float32(weights["margin_scale"])),
                   encoder_version=int(METADATA["encoder_version"]), source=source)


#: The name that stands for the network shipped with the package for the 2-player game, wherever a
#: network file is asked for (``rosen.Evaluator("builtin")``, ``mcts:evaluator=builtin``, ``EvalFile``).
BUILTIN = "builtin"
#: The name of the network shipped for the 4-player team game (trained on team games only).
BUILTIN_TEAM = "builtin-team"
#: Each shipped network's name and file (in ``rosen/data/networks``; docs/learning.md, "The shipped network").
BUILTIN_FILES: Dict[str, str] = {BUILTIN: "rosen-v2-gen3.npz", BUILTIN_TEAM: "rosen-v2-team-gen1.npz"}


def builtin_network_path(name: str = BUILTIN) -> str:
    """The path of a network shipped with the package: ``"builtin"`` (the 2-player game's, the
    default) or ``"builtin-team"`` (the 4-player team game's); docs/learning.md, "The shipped network"."""
    if not isinstance(name, str):
        raise ArgumentTypeError(f"name: expected a string, one of {', '.join(BUILTIN_FILES)}, got {type(name).__name__}",
                                "name")
    if name not in BUILTIN_FILES:
        raise InvalidArgumentError(f"name: expected one of {', '.join(BUILTIN_FILES)}, got {name!r}", "name")
    return os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "networks",
                        BUILTIN_FILES[name])


def resolve_builtin(path: str) -> str:
    """``path`` itself, or the file of the shipped network it names (``"builtin"``, ``"builtin-team"``)."""
    return builtin_network_path(path) if path in BUILTIN_FILES else path


def builtin_for(players: int) -> str:
    """The name of the shipped network trained for a ``players``-player game."""
    return BUILTIN if players == 2 else BUILTIN_TEAM


def load_network(path: PathLike) -> Network:
    """Read and check the network file at ``path`` (docs/learning.md, "Network format"); the names
    ``"builtin"`` and ``"builtin-team"`` read the networks shipped with the package. A file that
    cannot be read as an ``.npz`` raises an error naming ``path``; a bad entry one naming the entry."""
    source = os.fspath(path) if isinstance(path, (str, os.PathLike)) else None
    if not isinstance(source, str):
        raise ArgumentTypeError(f"path: expected a file path, got {type(path).__name__}", "path")
    source = resolve_builtin(source)
    try:
        arrays = _read_npz(source)
    except InvalidArgumentError:
        raise
    except Exception as exc:  # a damaged archive fails in many ways (zlib, lzma, encryption, header syntax)
        raise InvalidArgumentError(f"path: cannot read network file {source!r}: {type(exc).__name__}: {exc}",
                                   "path") from None
    return _check(arrays, source, strict=True)


#: A network's largest entry is a few MB; an entry whose header declares more is refused before
#: NumPy allocates it (a 200-byte file can declare 364 TiB).
MAX_ENTRY_BYTES = 1 << 30


def _read_npz(source: str) -> Dict[str, Any]:
    """Every entry of the ``.npz`` at ``source``, each ``.npy`` header checked first: it may not
    declare more data than its member holds, nor more than :data:`MAX_ENTRY_BYTES`."""
    with open_regular(source, "a network's .npz file") as f:  # checked first: np.load would open anything
        magic = f.read(6)
    if not magic.startswith((b"PK\x03\x04", b"PK\x05\x06", b"\x93NUMPY")):
        # NumPy would try it as a pickle and suggest allow_pickle=True: a network file never is one.
        raise InvalidArgumentError(f"path: {source!r} is not a network file (an .npz archive); it starts with "
                                   f"{magic!r}", "path")
    data = np.load(source, allow_pickle=False)
    if not isinstance(data, np.lib.npyio.NpzFile):
        raise InvalidArgumentError(f"path: {source!r} is a single array, not a network's .npz archive", "path")
    with data:
        archive = data.zip
        assert archive is not None  # None only once the NpzFile is closed
        arrays = {}
        for name in data.files:
            member = name + ".npy" if name + ".npy" in archive.namelist() else name
            info = archive.getinfo(member)
            if member.endswith(".npy"):
                with archive.open(info) as f:
                    version = np.lib.format.read_magic(f)
                    read_header = {(1, 0): np.lib.format.read_array_header_1_0,
                                   (2, 0): np.lib.format.read_array_header_2_0}.get(version)
                    if read_header is not None:
                        shape, _, dtype = read_header(f)
                        declared = math.prod(shape) * dtype.itemsize
                        if declared > min(info.file_size, MAX_ENTRY_BYTES):
                            raise InvalidArgumentError(
                                f"{name}: the entry declares shape {shape} of {dtype} ({declared} bytes), more than "
                                f"the {info.file_size} bytes it holds or the limit of {MAX_ENTRY_BYTES}", name)
            arrays[name] = data[name]
    return arrays


def save_network(path: PathLike, network: Union[Network, Mapping[str, Any]]) -> None:
    """Write ``network`` (a :class:`Network` or a mapping of the file's entries) to ``path`` as
    the spec's uncompressed ``.npz``, after checking it as :func:`load_network` would. In a
    mapping, float weights of another precision are converted to float32 and left-out metadata
    takes the spec's values (``hidden`` from the weights' shapes); given metadata must be right.
    NumPy's ``savez`` adds ``.npz`` to a path without it; this function does not: the file is
    written at ``path`` exactly."""
    if isinstance(network, Network):
        net = network
    elif isinstance(network, Mapping):
        net = _check(network, "", strict=False)
    else:
        raise ArgumentTypeError(f"network: expected a rosen.learning.Network or a mapping of its entries, got "
                                f"{type(network).__name__}", "network")
    if not isinstance(path, (str, os.PathLike)):
        raise ArgumentTypeError(f"path: expected a file path, got {type(path).__name__}", "path")
    try:
        with open(os.fspath(path), "wb") as f:
            # mypy matches the ** entries against savez's allow_pickle too; no entry has that name.
            np.savez(f, **net.as_arrays())  # type: ignore[arg-type]
    except OSError as exc:  # a directory, a folder that does not exist, no permission
        raise InvalidArgumentError(f"path: cannot write {os.fspath(path)!r}: {exc.strerror or exc}", "path") from None


#: The largest layer :func:`random_network` makes (its first layer has 477 inputs per unit).
MAX_RANDOM_HIDDEN = 4096


def random_network(hidden: Tuple[int, int] = (128, 64), seed: int = 0, scale: float = 1.0,
                   margin_scale: float = 50.0) -> Network:
    """A network of small random weights (tests and benchmarks): He-like initialisation times
    ``scale``, biases small and non-zero so that every term of the forward pass matters."""
    if not is_collection(hidden) or not hasattr(hidden, "__len__") or len(hidden) != 2:
        sized = is_collection(hidden) and hasattr(hidden, "__len__")
        raise ArgumentTypeError(f"hidden: expected two layer sizes (H1, H2), got {type(hidden).__name__}"
                                f"{f' of length {len(hidden)}' if sized else ''}", "hidden")
    h1, h2 = (check_int("hidden", h, 1, MAX_RANDOM_HIDDEN) for h in hidden)
    # None would draw fresh entropy: a "random" network must still be the same for the same call.
    seed = check_int("seed", seed, 0, 2**64 - 1)
    # + 0.0: -0.0 is 0 (NumPy's normal() refuses a negative zero); from about 1e37 on the weights
    # can leave float32's range, an error that would name w1 rather than scale.
    scale = check_real("scale", scale, 0, 1e30) + 0.0
    margin_scale = check_real("margin_scale", margin_scale, 0, float(np.finfo(np.float32).max))
    rng = np.random.default_rng(seed)

    def layer(rows: int, cols: int, fan_in: int) -> Tuple[np.ndarray, np.ndarray]:
        w = rng.normal(0.0, scale * np.sqrt(2.0 / fan_in), size=(rows, cols))
        b = rng.normal(0.0, 0.1 * scale, size=rows)
        return w.astype(np.float32), b.astype(np.float32)

    # The flat encoding has about 60 active binary inputs (and some 40 derived fractions), not 477: scale the first layer for those.
    w1, b1 = layer(h1, INPUTS, 60)
    w2, b2 = layer(h2, h1, h1)
    wp, bp = layer(ACTIONS, h2, h2)
    wv, bv = layer(3, h2, h2)
    wm, bm = layer(1, h2, h2 * 4)
    return Network.from_arrays({**METADATA, "hidden": np.array((h1, h2), np.int64), "w1": w1, "b1": b1, "w2": w2,
                                "b2": b2, "wp": wp, "bp": bp, "wv": wv, "bv": bv, "wm": wm, "bm": bm,
                                "margin_scale": np.array(margin_scale, np.float32)})


def forward_numpy(net: Network, features: Any, legal_mask: Any) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The reference forward pass, in float64: ``features`` float [N, 477] (or [477]) from
    ``rosen.encode(positions, layout="flat")``, ``legal_mask`` bool [N, 50] (or [50]). Returns
    (policy float32 [N, 50], 0 on illegal actions; wdl float32 [N, 3]; margin float32 [N]), without
    the batch axis for one position. A row with no legal action (a finished game) has policy 0."""
    if not isinstance(net, Network):
        raise ArgumentTypeError(f"net: expected a rosen.learning.Network, got {type(net).__name__}", "net")
    try:
        x = np.asarray(features, dtype=np.float64)
    except (TypeError, ValueError):  # ragged, or not numbers
        raise ArgumentTypeError(f"features: expected a float array (N, {INPUTS}), got a {type(features).__name__} "
                                "NumPy cannot read as one", "features") from None
    mask = as_array(legal_mask, "legal_mask", f"a bool array (N, {ACTIONS})")
    single = x.ndim == 1
    x, mask = np.atleast_2d(x), np.atleast_2d(mask)
    if x.ndim != 2 or x.shape[1] != INPUTS:
        raise InvalidArgumentError(f"features: expected shape (N, {INPUTS}), got {_shape_text(x.shape)}", "features")
    if mask.dtype != np.bool_ or mask.shape != (x.shape[0], ACTIONS):
        raise InvalidArgumentError(f"legal_mask: expected bool ({x.shape[0]}, {ACTIONS}), got {mask.dtype} "
                                   f"{_shape_text(mask.shape)}", "legal_mask")
    # The network reads float32 inputs: inf or NaN (or a value float32 cannot hold) made NaN outputs
    # without a word, or a RuntimeWarning from inside the matrix products.
    bad = ~(np.abs(x) <= np.finfo(np.float32).max)
    if bad.any():
        row, col = (int(i) for i in np.argwhere(bad)[0])
        raise InvalidArgumentError(f"features: expected finite float32 values, got {float(x[row, col])!r} "
                                   f"at row {row}, column {col}", "features")
    f64 = {f.name: np.asarray(getattr(net, f.name), np.float64) for f in fields(net)
           if f.name in WEIGHTS and f.name != "margin_scale"}
    h1 = np.maximum(x @ f64["w1"].T + f64["b1"], 0.0)
    h2 = np.maximum(h1 @ f64["w2"].T + f64["b2"], 0.0)
    logits = np.where(mask, h2 @ f64["wp"].T + f64["bp"], -np.inf)
    top = logits.max(axis=1, keepdims=True)
    exp = np.exp(logits - np.where(np.isfinite(top), top, 0.0))
    total = exp.sum(axis=1, keepdims=True)
    policy = np.divide(exp, total, out=np.zeros_like(exp), where=total > 0)
    v = h2 @ f64["wv"].T + f64["bv"]
    wdl = np.exp(v - v.max(axis=1, keepdims=True))
    wdl /= wdl.sum(axis=1, keepdims=True)
    margin = float(net.margin_scale) * (h2 @ f64["wm"].T + f64["bm"])[:, 0]
    with np.errstate(over="ignore"):  # a margin past float32's range is infinite, as the C++ evaluator's
        out = (policy.astype(np.float32), wdl.astype(np.float32), margin.astype(np.float32))
    return tuple(a[0] for a in out) if single else out  # type: ignore[return-value]
