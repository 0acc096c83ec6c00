"""The network file (docs/learning.md, "Network format") and its evaluation: every loading check names its field,
the C++ evaluator agrees with the NumPy reference forward pass, and evaluation reads public facts
only (R14) and does not depend on batching or threads."""
from __future__ import annotations

import os
import random
import warnings
import zipfile

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rosen
from rosen import _core
from rosen.encoding import action_index
from rosen.learning import Evaluator, Network, forward_numpy, load_network, random_network, save_network
from rosen.learning.network import ENTRIES
from search_positions import pile_variants

TOLERANCE = 1e-5


def game_positions(seed: int, players: int) -> list:
    """Every position of a random game (the finished one too), from a seeded deal."""
    rng = random.Random(seed)
    pos = rosen.Position.new(seed=seed, players=players, reshuffle=("eager", "lazy")[seed % 2])
    out = [pos]
    while not pos.is_terminal:
        pos = pos.play(rng.choice(pos.legal_moves()))
        out.append(pos)
    return out


def many_positions(count: int) -> list:
    positions, seed = [], 0
    while len(positions) < count:
        positions += game_positions(seed, (2, 4)[seed % 3 == 0])
        seed += 1
    return positions[:count]


def legal_mask(positions) -> np.ndarray:
    mask = np.zeros((len(positions), 50), dtype=bool)
    for i, pos in enumerate(positions):
        for move in pos.legal_moves():
            mask[i, action_index(move)] = True
    return mask


def assert_agrees(net: Network, positions, threads: int = 1) -> None:
    got = Evaluator(net).evaluate(positions, threads=threads)
    policy, wdl, margin = forward_numpy(net, rosen.encode(positions, layout="flat"), legal_mask(positions))
    np.testing.assert_allclose(got.policy, policy, rtol=0, atol=TOLERANCE)
    np.testing.assert_allclose(got.wdl, wdl, rtol=0, atol=TOLERANCE)
    # The margin is margin_scale times an unbounded head output: the same tolerance on that output,
    # relative to the batch's largest one (float32 carries 7 digits, and a small output can be the
    # difference of large terms).
    head, expected = got.margin / net.margin_scale, margin / net.margin_scale
    scale = max(1.0, float(np.abs(expected).max(initial=0.0)))
    np.testing.assert_allclose(head, expected, rtol=0, atol=TOLERANCE * scale)
    np.testing.assert_allclose(got.value, wdl[:, 0] + 0.5 * wdl[:, 1], rtol=0, atol=TOLERANCE)


@pytest.fixture(scope="module")
def positions():
    return many_positions(10_000)


@pytest.fixture(scope="module")
def net_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("net") / "net.npz"
    save_network(path, random_network(seed=7))
    return path


# --- evaluation ------------------------------------------------------------------------------

@pytest.mark.parametrize("hidden, seed, scale", [((128, 64), 0, 1.0), ((32, 16), 1, 3.0)])
def test_cpp_agrees_with_the_numpy_reference_on_10000_positions(positions, hidden, seed, scale):
    assert sum(p.players == 4 for p in positions) > 1000 and sum(p.is_terminal for p in positions) > 50
    assert_agrees(random_network(hidden=hidden, seed=seed, scale=scale), positions, threads=2)


def test_outputs_are_distributions_over_legal_actions(positions):
    sample = positions[::50]
    out = Evaluator(random_network(seed=2)).evaluate(sample)
    mask = legal_mask(sample)
    assert out.policy.dtype == np.float32 and out.policy.shape == (len(sample), 50)
    assert np.all(out.policy[~mask] == 0) and np.all(out.policy >= 0)
    live = mask.any(axis=1)  # a finished game has no legal action and an all-zero policy
    np.testing.assert_allclose(out.policy[live].sum(axis=1), 1, atol=1e-5)
    np.testing.assert_allclose(out.wdl.sum(axis=1), 1, atol=1e-5)
    assert out.margin.shape == out.value.shape == (len(sample),)


@pytest.mark.parametrize("players, plies", [(2, 0), (2, 15), (2, 40), (4, 10)])
def test_R14_evaluation_ignores_the_pile_order(players, plies):
    from search_positions import midgame

    variants = pile_variants(midgame(seed=9, plies=plies, players=players))
    out = Evaluator(random_network(seed=3)).evaluate(variants)
    for k in range(1, len(variants)):
        for a in out:
            assert np.array_equal(a[k], a[0])


def test_batch_split_and_threads_do_not_change_a_bit(positions):
    ev = Evaluator(random_network(seed=4))
    sample = positions[:997]
    whole = ev.evaluate(sample)
    for threads in (2, 3, 8):
        assert all(np.array_equal(a, b) for a, b in zip(ev.evaluate(sample, threads=threads), whole))
    pieces = [ev.evaluate(sample[i:i + 100]) for i in range(0, len(sample), 100)]
    for k, a in enumerate(whole):
        assert np.array_equal(np.concatenate([p[k] for p in pieces]), a)
    one = ev.evaluate(sample[5])
    assert all(np.array_equal(a[5], b) for a, b in zip(whole, one))
    assert ev.evaluate([]).policy.shape == (0, 50)


# A hypothesis test over random small networks: every size, weights from small to large, every
# kind of position. (Much larger weights give logits in the hundreds, where float32's seventh
# digit alone exceeds 1e-5 of a probability.)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(h1=st.integers(1, 24), h2=st.integers(1, 12), seed=st.integers(0, 2**32 - 1),
       scale=st.floats(0.05, 1.5), game=st.integers(0, 10_000), players=st.sampled_from([2, 4]))
def test_random_small_networks_agree_with_the_reference(h1, h2, seed, scale, game, players):
    net = random_network(hidden=(h1, h2), seed=seed, scale=scale, margin_scale=float(1 + seed % 100))
    assert_agrees(net, game_positions(game, players)[::3])


def test_evaluator_from_a_file_and_its_repr(net_file):
    ev = Evaluator(net_file)
    assert repr(ev) == f"Evaluator({str(net_file)!r})" and ev.hidden == (128, 64)
    assert isinstance(rosen.Evaluator, type) and rosen.Evaluator is Evaluator
    assert "random" not in repr(Evaluator(random_network(hidden=(4, 3))))
    with pytest.raises(TypeError, match="network: expected"):
        Evaluator(3)
    with pytest.raises(TypeError, match=r"positions\[1\]: expected a rosen.Position"):
        ev.evaluate([rosen.Position.new(), "x"])
    with pytest.raises(ValueError, match="threads: expected 1..256"):
        ev.evaluate([rosen.Position.new()], threads=0)


def test_cpp_network_checks_its_arrays():
    arrays = {k: getattr(random_network(hidden=(8, 4)), k) for k in ("w1", "b1", "w2", "b2", "wp", "bp", "wv", "bv",
                                                                        "wm", "bm")}
    with pytest.raises(TypeError, match="w2: expected a numpy float32 array, got dtype float64") as info:
        _core._Network(**{**arrays, "w2": arrays["w2"].astype(np.float64)}, margin_scale=1.0)
    assert info.value.field == "w2"
    with pytest.raises(ValueError, match=r"bv: expected shape \(3,\), got \(4,\)"):
        _core._Network(**{**arrays, "bv": np.zeros(4, np.float32)}, margin_scale=1.0)
    bad = arrays["wp"].copy()
    bad[3, 2] = np.inf
    with pytest.raises(ValueError, match="wp: non-finite"):
        _core._Network(**{**arrays, "wp": bad}, margin_scale=1.0)
    for scale in (0.0, -50.0, -0.0):  # as load_network refuses it: a Network built field by field reached the search
        with pytest.raises(ValueError, match="margin_scale: expected a scale > 0") as info:
            _core._Network(**arrays, margin_scale=scale)
        assert info.value.field == "margin_scale"
    with pytest.raises(ValueError, match="hidden: C[+][+] evaluation takes 1..2048"):
        big = random_network(hidden=(2049, 1))
        _core._Network(**{k: getattr(big, k) for k in arrays}, margin_scale=1.0)


@pytest.mark.parametrize("call, exc, field", [
    (lambda: random_network(hidden="ab"), rosen.ArgumentTypeError, "hidden"),
    (lambda: random_network(hidden=5), rosen.ArgumentTypeError, "hidden"),
    (lambda: random_network(hidden=(1, 2, 3)), rosen.ArgumentTypeError, "hidden"),
    (lambda: random_network(hidden=(1.5, 2)), rosen.ArgumentTypeError, "hidden"),  # once truncated to 1
    (lambda: random_network(hidden=(2**40, 1)), rosen.InvalidArgumentError, "hidden"),  # once a MemoryError
    (lambda: random_network(seed=None), rosen.ArgumentTypeError, "seed"),  # once a fresh network each call
    (lambda: random_network(seed=-1), rosen.InvalidArgumentError, "seed"),
    (lambda: random_network(scale=-1), rosen.InvalidArgumentError, "scale"),
    (lambda: random_network(margin_scale="x"), rosen.ArgumentTypeError, "margin_scale"),
    (lambda: random_network(margin_scale=1e300), rosen.InvalidArgumentError, "margin_scale"),
    (lambda: save_network(None, random_network(hidden=(4, 4))), rosen.ArgumentTypeError, "path"),
    (lambda: save_network(".", random_network(hidden=(4, 4))), rosen.InvalidArgumentError, "path"),
    (lambda: forward_numpy(None, np.zeros(477), np.ones(50, bool)), rosen.ArgumentTypeError, "net"),
    (lambda: forward_numpy(random_network(hidden=(4, 4)), [[1], [1, 2]], np.ones((2, 50), bool)),
     rosen.ArgumentTypeError, "features"),
    # Once NaN outputs, silently or with a RuntimeWarning from the matrix products.
    (lambda: forward_numpy(random_network(hidden=(4, 4)), np.full(477, np.inf), np.ones(50, bool)),
     rosen.InvalidArgumentError, "features"),
    (lambda: forward_numpy(random_network(hidden=(4, 4)), np.full((2, 477), np.nan), np.ones((2, 50), bool)),
     rosen.InvalidArgumentError, "features"),
    (lambda: forward_numpy(random_network(hidden=(4, 4)), np.full(477, 1e300), np.ones(50, bool)),
     rosen.InvalidArgumentError, "features"),
])
def test_bad_arguments_of_the_network_helpers_are_named(call, exc, field):
    with pytest.raises(exc) as info:
        call()
    assert info.value.field == field and str(info.value).startswith(f"{field}: "), str(info.value)


# --- the file --------------------------------------------------------------------------------

def test_save_and_load_round_trip(tmp_path):
    net = random_network(hidden=(16, 8), seed=5, margin_scale=40.0)
    path = tmp_path / "net.npz"
    save_network(path, net)
    with zipfile.ZipFile(path) as z:  # uncompressed, exactly the spec's entries
        assert sorted(i.filename for i in z.infolist()) == sorted(f"{e}.npy" for e in ENTRIES)
        assert all(i.compress_type == zipfile.ZIP_STORED for i in z.infolist())
    with np.load(path) as data:
        assert str(data["format"]) == "rosen-net" and data["format_version"].dtype == np.int64
        assert data["hidden"].tolist() == [16, 8] and data["margin_scale"].dtype == np.float32
    loaded = load_network(path)
    assert loaded.hidden == (16, 8) and loaded.margin_scale == 40.0 and loaded.source == str(path)
    for name in ("w1", "b1", "w2", "b2", "wp", "bp", "wv", "bv", "wm", "bm"):
        assert np.array_equal(getattr(loaded, name), getattr(net, name))
        assert not getattr(loaded, name).flags.writeable


def test_save_takes_a_mapping_of_weights_and_fills_the_metadata(tmp_path):
    net = random_network(hidden=(6, 5), seed=1)
    weights = {k: v.astype(np.float64) for k, v in net.as_arrays().items() if k.startswith(("w", "b"))}
    save_network(tmp_path / "a.npz", {**weights, "margin_scale": 50.0})
    assert np.array_equal(load_network(tmp_path / "a.npz").w1, net.w1)
    with pytest.raises(ValueError, match="hidden: expected int64") as info:
        save_network(tmp_path / "b.npz", {**weights, "margin_scale": 50.0, "hidden": np.array([6, 5, 1])})
    assert info.value.field == "hidden"
    with pytest.raises(ValueError, match="wm: missing entry"):
        save_network(tmp_path / "c.npz", {k: v for k, v in weights.items() if k != "wm"} | {"margin_scale": 1.0})
    with pytest.raises(ValueError, match="b2: expected dtype float32, got int64"):
        save_network(tmp_path / "d.npz", {**weights, "b2": np.zeros(5, np.int64), "margin_scale": 1.0})
    with pytest.raises(TypeError, match="network: expected"):
        save_network(tmp_path / "e.npz", [1, 2])
    # Finite in float64, infinite in the file's float32: saved, the file was one load_network refuses.
    for name, value in (("w2", {**weights, "w2": np.full_like(weights["w2"], 1e39)}), ("margin_scale", 1e39)):
        entries = value if name == "w2" else {**weights, "margin_scale": np.float64(value)}
        if name == "w2":
            entries = {**entries, "margin_scale": 50.0}
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # nor a RuntimeWarning from the cast inside rosen
            with pytest.raises(ValueError, match=f"^{name}: weight beyond float32's range"):
                save_network(tmp_path / "f.npz", entries)
        assert not (tmp_path / "f.npz").exists()


def corrupted(tmp_path, change) -> str:
    arrays = random_network(hidden=(8, 4), seed=2).as_arrays()
    change(arrays)
    path = tmp_path / "bad.npz"
    with open(path, "wb") as f:
        np.savez(f, **arrays)
    return str(path)


def delete(name):
    return lambda a: a.pop(name)


def put(name, value):
    return lambda a: a.__setitem__(name, value)


def poke(name, index, value):
    def change(a):
        a[name] = a[name].copy()
        a[name][index] = value
    return change


@pytest.mark.parametrize("change, field, message", [
    (delete("w1"), "w1", "missing entry"),
    (delete("margin_scale"), "margin_scale", "missing entry"),
    (delete("format"), "format", "missing entry"),
    (delete("hidden"), "hidden", "missing entry"),
    (put("extra", np.zeros(2)), "extra", "unknown entry"),
    (put("w1", np.zeros((8, 476), np.float32)), "w1", r"expected shape \(8, 477\), got \(8, 476\)"),
    (put("w2", np.zeros((4, 9), np.float32)), "w2", r"expected shape \(4, 8\)"),
    (put("bp", np.zeros(49, np.float32)), "bp", r"expected shape \(50,\)"),
    (put("wm", np.zeros(4, np.float32)), "wm", r"expected shape \(1, 4\), got \(4,\)"),
    (put("margin_scale", np.ones(1, np.float32)), "margin_scale", r"expected shape \(\)"),
    (put("hidden", np.array([8, 5])), "w2", r"expected shape \(5, 8\)"),
    (put("hidden", np.array([8, 4], np.int32)), "hidden", "expected int64"),
    (put("hidden", np.array([0, 4])), "hidden", "expected sizes of at least 1"),
    (put("b1", np.zeros(8, np.float64)), "b1", "expected dtype float32, got float64"),
    (put("wv", np.zeros((3, 4), np.float16)), "wv", "expected dtype float32, got float16"),
    (put("margin_scale", np.array(50.0)), "margin_scale", "expected dtype float32, got float64"),
    (poke("w1", (3, 100), np.nan), "w1", "non-finite weight"),
    (poke("bm", 0, np.inf), "bm", "non-finite weight"),
    (put("margin_scale", np.array(np.nan, np.float32)), "margin_scale", "non-finite"),
    # a sign-flipped or zero margin head (F70): no trainer writes one, and the search would read it
    (put("margin_scale", np.array(-50, np.float32)), "margin_scale", "expected a scale > 0, got -50"),
    (put("margin_scale", np.array(0, np.float32)), "margin_scale", "expected a scale > 0, got 0"),
    (put("format", np.array("rosen-network")), "format", "expected 'rosen-net', got 'rosen-network'"),
    (put("format", np.array(1)), "format", "expected a str"),
    (put("format_version", np.array(2)), "format_version", "expected 1 .*, got 2"),
    (put("format_version", np.array(1.0)), "format_version", "expected an int64 scalar"),
    # and what to do: it said only what was wrong
    (put("encoder_version", np.array(1)), "encoder_version",
     "expected this rosen.s ENCODER_VERSION 2, got 1 .in .*; train it anew on its self-play runs"),
    (put("layout", np.array("planes")), "layout", "expected 'flat', got 'planes'"),
    (put("architecture", np.array("resnet")), "architecture", "expected 'mlp', got 'resnet'"),
])
def test_a_bad_file_raises_an_error_naming_the_field(tmp_path, change, field, message):
    path = corrupted(tmp_path, change)
    with pytest.raises(ValueError, match=f"^{field}: {message}") as info:
        load_network(path)
    assert info.value.field == field and path in str(info.value)
    with pytest.raises(ValueError, match=f"^{field}: "):
        Evaluator(path)


def test_an_unreadable_file_names_the_path(tmp_path):
    missing = tmp_path / "missing.npz"
    with pytest.raises(ValueError, match="^path: cannot read network file") as info:
        load_network(missing)
    assert info.value.field == "path"
    # Not an archive at all: said so, without NumPy's advice to load it as a pickle.
    text = tmp_path / "text.npz"
    text.write_bytes(b"not a zip")
    with pytest.raises(ValueError, match="^path: .* is not a network file") as info:
        load_network(text)
    assert info.value.field == "path" and "pickle" not in str(info.value)
    with pytest.raises(TypeError, match="^path: expected a file path"):
        load_network(3)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are a POSIX feature")
def test_only_a_regular_file_is_opened(tmp_path):
    # Opening a named pipe waited for a writer for ever (the engine's input thread with it), and a
    # device such as /dev/stdin was read from: both are refused before anything is read.
    fifo = tmp_path / "net.npz"
    os.mkfifo(fifo)
    with pytest.raises(ValueError, match="^path: .* is not a regular file") as info:
        load_network(fifo)
    assert info.value.field == "path"
    with pytest.raises(ValueError, match="^path: .* is a folder"):
        load_network(tmp_path)
    with pytest.raises(ValueError, match="^path: .* is not a regular file"):
        load_network(os.devnull)


def test_a_margin_beyond_float_stays_a_number_in_the_search_and_the_engines_score():
    # Finite weights can still overflow float32 in the margin head: the network's margin reads inf
    # (its own output, reported as it is), and the search's score (the engine's `score`, self-play's
    # root margin) read nan. The search holds it to what a game can end with, 52^2 points.
    arrays = dict(random_network(hidden=(8, 4), seed=1).as_arrays())
    for sign in (1, -1):
        arrays["wm"] = np.full_like(arrays["wm"], sign * 3e38)
        network = rosen.learning.Network.from_arrays(arrays)
        assert not np.all(np.isfinite(rosen.Evaluator(network).evaluate([rosen.Position.new(seed=1)]).margin))
        with warnings.catch_warnings():  # the reference says inf too, without a RuntimeWarning from its cast
            warnings.simplefilter("error")
            position = rosen.Position.new(seed=1)
            mask = rosen.Evaluator(network).evaluate([position]).policy > 0
            assert np.isinf(rosen.learning.forward_numpy(network, rosen.encode([position], layout="flat"), mask)[2]).all()
        for players in (2, 4):
            result = rosen.search(rosen.Position.new(seed=1, players=players), iterations=50, evaluator=network, seed=1)
            scores = [result.score] + [m.score for m in result.moves]
            assert np.all(np.isfinite(scores)) and np.all(np.abs(scores) <= 52 * 52)


@pytest.mark.parametrize("entry", ["wv", "wp", "wv-nan"])
def test_overflowing_logits_still_give_distributions_and_finite_win_rates(entry):
    # exp(inf - inf) in the softmax made every win rate (wv) or prior (wp) NaN -- the engine's
    # `winrate nan`, self-play rows read as unsearched. +inf logits now share the mass; NaN logits
    # (wv-nan: each value logit +inf + -inf) leave it uniform.
    arrays = dict(random_network(hidden=(8, 4), seed=1).as_arrays())
    name = entry[:2]
    arrays[name] = np.full_like(arrays[name], 3e38)
    arrays[name].flat[0] = -3e38  # both signs: inf - inf somewhere
    if entry == "wv-nan":
        arrays["b2"] = np.full_like(arrays["b2"], 10.0)  # every unit of the last layer active and large
        arrays["wv"][:, 2:] = -3e38                        # so each value logit is +inf plus -inf
    network = rosen.learning.Network.from_arrays(arrays)
    positions = [rosen.Position.new(seed=k, players=2 + 2 * (k % 2)) for k in range(6)]
    out = rosen.Evaluator(network).evaluate(positions)
    assert np.all(np.isfinite(out.policy)) and np.all(np.isfinite(out.wdl)) and np.all(np.isfinite(out.value))
    np.testing.assert_allclose(out.wdl.sum(axis=1), 1.0, rtol=1e-6)
    np.testing.assert_allclose(out.policy.sum(axis=1), 1.0, rtol=1e-6)
    if entry == "wv-nan":
        assert np.all(out.wdl == np.float32(1 / 3)) and np.all(out.value == np.float32(0.5))
    for position in positions[:2]:
        result = rosen.search(position, iterations=100, evaluator=network, seed=1)
        assert 0.0 <= result.winrate <= 1.0 and all(0.0 <= m.winrate <= 1.0 and 0.0 <= m.prior <= 1.0 for m in result.moves)
        assert position.is_legal(result.best_move)


def test_an_evaluator_is_read_only_so_its_copies_evaluate_as_it_does():
    # `ev.network = other` once left the C++ weights behind: evaluate() used the old network while
    # repr, hidden and a pickle (a worker's copy) used the new one -- and evaluators are shared.
    import copy
    import pickle

    ev = rosen.Evaluator(random_network(hidden=(16, 8), seed=1))
    pos = rosen.Position.new(seed=1)
    for name in ("network", "_core", "_network", "anything"):
        with pytest.raises(AttributeError, match="read-only"):
            setattr(ev, name, random_network(hidden=(16, 8), seed=3))
    want = ev.evaluate(pos).value
    for twin in (pickle.loads(pickle.dumps(ev)), copy.deepcopy(ev), copy.copy(ev)):
        assert twin.evaluate(pos).value == want and twin.hidden == (16, 8)
