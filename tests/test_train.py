"""rosen train (python/rosen/learning/train.py, data.py, cli/train.py): the losses fall, the file
is the spec's (docs/learning.md, "Network format"), a NumPy forward pass agrees with the model, the split keeps
games whole, a seed gives the same weights, symmetries keep targets legal, errors name --data."""
from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import tracemalloc
from pathlib import Path

import numpy as np
import pytest

import rosen
import rosen.selfplay as sp
from rosen.cli import main
from rosen.encoding import positions_from_rows, transform, transform_actions, transform_encoded
from rosen.learning.data import augment, from_rows, load_training_data, split_by_game

# The test extra installs rosen[train]: these tests always run (CI installs every extra).
import torch

torch.set_num_threads(1)  # the machine is shared, and one thread is what makes the weights reproducible

#: The spec's entries, in its order, with their dtypes and shapes for hidden sizes (16, 8).
SPEC = [("format", "<U9", ()), ("format_version", "int64", ()), ("encoder_version", "int64", ()),
        ("layout", "<U4", ()), ("architecture", "<U3", ()), ("hidden", "int64", (2,)),
        ("w1", "float32", (16, 477)), ("b1", "float32", (16,)), ("w2", "float32", (8, 16)), ("b2", "float32", (8,)),
        ("wp", "float32", (50, 8)), ("bp", "float32", (50,)), ("wv", "float32", (3, 8)), ("bv", "float32", (3,)),
        ("wm", "float32", (1, 8)), ("bm", "float32", (1,)), ("margin_scale", "float32", ())]


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    """Six searched games (a few hundred rows) in two shards."""
    path = tmp_path_factory.mktemp("train") / "run"
    sp.write_run(path, 6, shard_games=3, agent="mcts:iterations=50", seed=12, fsync=False)
    return path


@pytest.fixture(scope="module")
def data(run_dir):
    return load_training_data([run_dir])


def config(**changes):
    from rosen.learning.train import TrainConfig

    settings = dict(hidden=(16, 8), epochs=5, batch_size=64, lr=3e-3, val_fraction=0.34, seed=3, threads=1)
    return TrainConfig(**{**settings, **changes})


@pytest.fixture(scope="module")
def trained(data):
    from rosen.learning.train import train

    return train(data, config())


def numpy_forward(arrays, x, legal):
    """The spec's formula, written out: (policy, wdl, margin) for features x [N, 477]."""
    h1 = np.maximum(arrays["w1"] @ x.T + arrays["b1"][:, None], 0)
    h2 = np.maximum(arrays["w2"] @ h1 + arrays["b2"][:, None], 0)
    logits = np.where(legal, (arrays["wp"] @ h2 + arrays["bp"][:, None]).T, -np.inf)
    policy = np.exp(logits - logits.max(axis=1, keepdims=True))
    value = (arrays["wv"] @ h2 + arrays["bv"][:, None]).T
    wdl = np.exp(value - value.max(axis=1, keepdims=True))
    margin = arrays["margin_scale"] * (arrays["wm"] @ h2 + arrays["bm"][:, None])[0]
    return policy / policy.sum(axis=1, keepdims=True), wdl / wdl.sum(axis=1, keepdims=True), margin


def test_samples_are_the_rows_targets(run_dir, data):
    rows = sp.load_dir(run_dir).rows
    assert len(data) == len(rows["game"]) and 300 <= len(data) <= 1000
    assert data.features.dtype == np.float32 and data.features.shape == (len(data), 477)
    np.testing.assert_array_equal(data.features, rosen.encode(rows, layout="flat"))
    np.testing.assert_allclose(data.policy.sum(axis=1), 1, rtol=1e-6)
    assert not np.any(data.policy[~data.legal])
    np.testing.assert_array_equal(data.value, np.select([rows["result"] == 1, rows["result"] == 0.5], [0, 1], 2))
    np.testing.assert_array_equal(data.margin, rows["final_margin"])
    np.testing.assert_array_equal(data.searched_value, rows["root_value"])
    assert 0 < data.policy_entropy() < np.log(50)


def test_split_keeps_every_game_on_one_side_by_its_own_draw(data, run_dir):
    from rosen.learning.data import game_draw

    train_rows, held_rows = split_by_game(data, 0.34)
    assert not set(data.game[train_rows]) & set(data.game[held_rows])
    np.testing.assert_array_equal(np.sort(np.concatenate([train_rows, held_rows])), np.arange(len(data)))
    games = np.unique(data.game)
    drawn = set(games[game_draw(games) < 0.34].tolist()) or {int(games[np.argmin(game_draw(games))])}
    assert set(data.game[held_rows].tolist()) == drawn  # the games whose own draw is below the share
    # The key is the game's deal seed (the games' records name it), not its place in a list of runs.
    deals = {g["seed"] for g in sp.load_dir(run_dir).games}
    assert set(games.tolist()) == deals
    # The same games whatever the order of the rows.
    shuffled = data.take(np.random.default_rng(0).permutation(len(data)))
    assert set(shuffled.game[split_by_game(shuffled, 0.34)[1]]) == set(data.game[held_rows])
    assert len(split_by_game(data, 0.0)[1]) == 0
    assert len(set(data.game[split_by_game(data, 1e-9)[1]])) == 1  # at least one game above 0
    with pytest.raises(ValueError, match="val_fraction"):
        split_by_game(data.take(np.flatnonzero(data.game == data.game[0])), 0.5)


def test_a_game_keeps_its_side_in_another_window_of_runs(run_dir, tmp_path):
    # F70: keys were (place in the --data list, game index) and the split a shuffle seeded by
    # --seed, so in a chain of trainings (a sliding window of runs, --init the last network, as
    # tools/reinforce.py does) up to half of the held-out games were ones --init had trained on.
    other, third = tmp_path / "other", tmp_path / "third"
    sp.write_run(other, 40, agent="random", seed=5, fsync=False)
    sp.write_run(third, 40, agent="random", seed=6, fsync=False)
    first, second = load_training_data([run_dir, other]), load_training_data([other, third])

    def sides(data):
        train_rows, held_rows = split_by_game(data, 0.25)
        return set(data.game[train_rows].tolist()), set(data.game[held_rows].tolist())

    (trained_first, _), (_, held_second) = sides(first), sides(second)
    assert not trained_first & held_second
    shared = set(first.game.tolist()) & set(second.game.tolist())
    assert len(shared) == 40 and held_second & shared  # run `other` sits in both windows, at other places


def test_two_runs_never_share_a_game_key(run_dir, tmp_path):
    other = tmp_path / "other"
    sp.write_run(other, 2, agent="greedy", seed=5, fsync=False)
    both = load_training_data([run_dir, other])
    assert both.games == 8
    with pytest.raises(ValueError, match="^data: .* twice"):
        load_training_data([run_dir, run_dir])


def test_symmetries_turn_features_legal_actions_and_targets_together(data):
    rng = np.random.default_rng(5)
    rows = rng.choice(len(data), 40, replace=False)
    ks = rng.integers(0, 8, len(rows))
    x, legal, policy = augment(data.features[rows], data.legal[rows], data.policy[rows], ks)
    assert not np.any(policy[~legal]), "a turned visit fell on a turned illegal action"
    np.testing.assert_allclose(policy.sum(axis=1), 1, rtol=1e-6)
    for i, k in enumerate(ks):
        np.testing.assert_array_equal(x[i], transform_encoded(data.features[rows[i]], k, "flat"))
        np.testing.assert_array_equal(policy[i], transform_actions(data.policy[rows[i]], k))


def test_a_turned_legal_mask_is_the_turned_positions_legal_moves(run_dir):
    rows = sp.load_dir(run_dir).rows
    picked = {name: col[::37] for name, col in rows.items()}
    samples = from_rows(picked)
    names = rosen.encoding.action_names()
    for i, position in enumerate(positions_from_rows(picked)):
        for k in range(8):
            _, legal, _ = augment(samples.features[i:i + 1], samples.legal[i:i + 1], samples.policy[i:i + 1],
                                  np.array([k]))
            turned = transform(position, k)
            expected = {rosen.encoding.action_index(m) for m in turned.legal_moves()}
            assert {int(a) for a in np.flatnonzero(legal[0])} == expected, (i, k, [names[a] for a in expected])
            np.testing.assert_array_equal(samples.features[i] if k == 0 else transform_encoded(samples.features[i], k, "flat"),
                                          rosen.encode([turned], layout="flat")[0])


def test_training_lowers_the_loss(trained):
    curves = trained.curves
    assert curves["epochs"] == list(range(6))
    train_total = curves["train"]["total"]
    # Epoch 0 is the untrained model; every figure is the whole training set, unaugmented.
    assert train_total[-1] < train_total[1] < train_total[0]
    assert train_total[-1] < 0.9 * train_total[1]
    for side in ("train", "heldout"):
        for head in ("policy", "value", "margin"):
            assert len(curves[side][head]) == 6 and all(np.isfinite(curves[side][head]))
        np.testing.assert_allclose(curves[side]["total"], np.sum([curves[side][h] for h in ("policy", "value", "margin")],
                                                                 axis=0), rtol=1e-6)
    assert curves["policy_target_entropy"]["train"] <= min(curves["train"]["policy"]) + 1e-6
    assert curves["train_rows"] + curves["heldout_rows"] == trained.train_index.size + trained.heldout_index.size


def test_the_value_target_blends_the_result_with_the_searched_value():
    from rosen.learning.train import value_targets

    # Rows: a win searched at 0.8, a loss searched at 0.3, a draw searched at 0.5, a win without a search.
    batch = {"value": torch.tensor([0, 2, 1, 0]), "searched_value": torch.tensor([0.8, 0.3, 0.5, float("nan")])}
    np.testing.assert_allclose(value_targets(batch, 0.0).numpy(), np.eye(3)[[0, 2, 1, 0]])
    np.testing.assert_allclose(value_targets(batch, 0.5).numpy(),
                               [[0.9, 0, 0.1], [0.15, 0, 0.85], [0.25, 0.5, 0.25], [1, 0, 0]], rtol=1e-6)
    np.testing.assert_allclose(value_targets(batch, 1.0).numpy()[:3], [[0.8, 0, 0.2], [0.3, 0, 0.7], [0.5, 0, 0.5]],
                               rtol=1e-6)


def test_a_searched_value_target_trains_and_is_reported_against_the_result(data, trained):
    from rosen.learning.train import evaluate, losses, train, _tensors

    blended = train(data, config(epochs=1, value_search_weight=1.0))
    plain = train(data, config(epochs=1))
    assert not torch.equal(blended.model.value.weight, plain.model.value.weight)
    # The curves measure the value head against the game's result whatever the training target.
    t = _tensors(data)
    assert blended.curves["train"]["value"][0] == plain.curves["train"]["value"][0]
    with torch.no_grad():
        against_result = float(losses(blended.model, t, 50.0)["value"])
        against_search = float(losses(blended.model, t, 50.0, 1.0)["value"])
    assert against_result == pytest.approx(evaluate(blended.model, data, 50.0)["value"], rel=1e-5)
    assert against_search != pytest.approx(against_result, rel=1e-3)
    with pytest.raises(ValueError, match="value_search_weight"):
        config(value_search_weight=1.5).check()


def test_the_exported_file_is_exactly_the_spec(trained, tmp_path):
    from rosen.learning.train import export_network

    path = tmp_path / "net.bin"  # any name: written as given, not with ".npz" appended
    export_network(path, trained.model, 50.0)
    assert not list(tmp_path.glob("*.tmp"))
    with np.load(path, allow_pickle=False) as npz:
        assert list(npz.files) == [name for name, _, _ in SPEC]
        for name, dtype, shape in SPEC:
            assert (npz[name].dtype, npz[name].shape) == (np.dtype(dtype), shape), name
            if npz[name].dtype == np.float32:
                assert np.all(np.isfinite(npz[name])), name
        assert (str(npz["format"]), int(npz["format_version"]), int(npz["encoder_version"]), str(npz["layout"]),
                str(npz["architecture"]), npz["hidden"].tolist(), float(npz["margin_scale"])) == \
            ("rosen-net", 1, rosen.ENCODER_VERSION, "flat", "mlp", [16, 8], 50.0)


def test_a_numpy_forward_pass_of_the_file_matches_the_model(trained, data, tmp_path):
    from rosen.learning.train import export_network, read_network_arrays

    export_network(tmp_path / "net.npz", trained.model, 50.0)
    arrays = read_network_arrays(tmp_path / "net.npz")
    policy, wdl, margin = numpy_forward(arrays, data.features.astype(np.float64), data.legal)
    with torch.no_grad():
        logits, value, m = trained.model(torch.from_numpy(data.features))
        t_policy = torch.softmax(logits.masked_fill(~torch.from_numpy(data.legal), float("-inf")), dim=1).numpy()
        t_wdl, t_margin = torch.softmax(value, dim=1).numpy(), (m * 50.0).numpy()
    np.testing.assert_allclose(policy, t_policy, atol=1e-5)
    np.testing.assert_allclose(wdl, t_wdl, atol=1e-5)
    np.testing.assert_allclose(margin / 50.0, t_margin / 50.0, atol=1e-5)  # the head's output, before the scale
    assert np.all(policy[~data.legal] == 0)


def test_one_seed_gives_the_same_weights_bit_for_bit(data, trained):
    from rosen.learning.train import network_arrays, train

    again = network_arrays(train(data, config()).model, 50.0)
    first = network_arrays(trained.model, 50.0)
    assert all(again[name].tobytes() == first[name].tobytes() for name in first)
    other = network_arrays(train(data, config(seed=4)).model, 50.0)
    assert other["w1"].tobytes() != first["w1"].tobytes()


def test_a_training_that_diverges_in_its_last_epoch_is_refused(data):
    # The loss was checked only before each step: a model that diverged in the last epoch's steps
    # came back (and `rosen train` wrote it) with infinite outputs; here the seventh epoch's.
    from rosen.learning.train import train

    with pytest.raises(ValueError, match="^lr: the training loss became nan after epoch 7; lower the learning rate"):
        train(data, config(epochs=7, lr=10, weight_decay=10, batch_size=2**24))


def test_an_initial_network_with_infinite_outputs_is_named_not_the_learning_rate(data, tmp_path):
    from rosen.learning import Network, random_network, save_network
    from rosen.learning.train import read_network_arrays, train

    arrays = dict(random_network(hidden=(16, 8), seed=2).as_arrays())
    arrays["wm"] = np.full_like(arrays["wm"], 3e38)  # finite weights, an infinite margin
    save_network(tmp_path / "init.npz", Network.from_arrays(arrays))
    with pytest.raises(ValueError, match="^init: the initial network's training loss is inf: its outputs are not finite"):
        train(data, config(epochs=1), init=read_network_arrays(tmp_path / "init.npz"))


def test_training_leaves_the_callers_torch_threads_and_random_state_alone(data):
    # train() sets torch's thread count and seed, both process-wide; until 6 Dec 2026 it left them
    # set, so a caller's own torch work changed threads and random numbers after a training.
    from rosen.learning.train import train

    torch.set_num_threads(2)
    try:
        torch.manual_seed(123)
        expected = torch.rand(4)
        torch.manual_seed(123)
        train(data, config(epochs=1, threads=1))
        assert torch.get_num_threads() == 2
        assert torch.equal(torch.rand(4), expected)
        torch.manual_seed(123)

        def fail(epoch, curves):
            raise KeyboardInterrupt  # a training stopped after its first epoch's evaluation

        with pytest.raises(KeyboardInterrupt):  # a failed training restores them too
            train(data, config(epochs=2), on_epoch=fail)
        assert torch.get_num_threads() == 2
        assert torch.equal(torch.rand(4), expected)
    finally:
        torch.set_num_threads(1)


def test_training_from_a_network_starts_where_it_ended(data, trained, tmp_path):
    from rosen.learning.train import export_network, read_network_arrays, train

    export_network(tmp_path / "net.npz", trained.model, 50.0)
    resumed = train(data, config(epochs=1), init=read_network_arrays(tmp_path / "net.npz"))
    for side in ("train", "heldout"):  # the same seed, so the same split: epoch 0 is the first run's end
        np.testing.assert_allclose(resumed.curves[side]["total"][0], trained.curves[side]["total"][-1], rtol=1e-6)
    with pytest.raises(ValueError, match="^hidden: "):
        train(data, config(hidden=(8, 8)), init=read_network_arrays(tmp_path / "net.npz"))


def test_an_initial_network_of_another_margin_scale_keeps_its_margins(data, tmp_path):
    # F70: train(init=) kept the file's margin weights under the training's scale (50 by default),
    # so a network of scale 100 started with every margin halved, without a word.
    from rosen.learning import Evaluator, random_network, save_network
    from rosen.learning.train import export_network, read_network_arrays, train

    save_network(tmp_path / "init.npz", random_network(hidden=(16, 8), seed=1, margin_scale=100.0))
    start = train(data, config(epochs=1, lr=1e-12), init=read_network_arrays(tmp_path / "init.npz"))
    export_network(tmp_path / "start.npz", start.model, 50.0)
    position = rosen.Position.new(seed=3)
    before = Evaluator(str(tmp_path / "init.npz")).evaluate([position]).margin
    after = Evaluator(str(tmp_path / "start.npz")).evaluate([position]).margin
    np.testing.assert_allclose(after, before, rtol=1e-5)


def test_a_diverging_or_unwritable_network_is_refused(trained, tmp_path):
    from rosen.learning.train import Model, export_network, network_arrays

    broken = Model((16, 8))
    with torch.no_grad():
        broken.fc2.weight[0, 0] = float("nan")
    with pytest.raises(ValueError, match="^w2: 1 weight"):
        network_arrays(broken, 50.0)
    with pytest.raises(ValueError, match="^out: cannot write"):
        export_network(tmp_path / "missing" / "net.npz", trained.model, 50.0)


def test_the_cli_trains_and_writes_the_network_and_curves(run_dir, tmp_path, capsys):
    out, curves, plot = tmp_path / "net.npz", tmp_path / "curves.json", tmp_path / "curves.png"
    argv = ["train", "--data", str(run_dir), "--out", str(out), "--hidden", "16,8", "--epochs", "2", "--seed", "1",
            "--curves", str(curves), "--plot", str(plot), "--json"]
    assert main(argv) == 0
    captured = capsys.readouterr()
    summary = json.loads(captured.out)
    assert summary["out"] == str(out) and summary["epochs"] == 2 and summary["heldout_games"] == 1
    assert "epoch   2/2  train" in captured.err
    saved = json.loads(curves.read_text())
    assert saved["epochs"] == [0, 1, 2] and all(isinstance(v, float) for v in saved["heldout"]["value"])
    assert saved["config"]["hidden"] == [16, 8] and saved["train"]["total"][-1] == summary["train"]["total"]
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with np.load(out) as npz:
        first = npz["w1"].copy()
    # --init: the hidden sizes and margin scale come from the file.
    assert main(["train", "--data", str(run_dir), "--out", str(tmp_path / "next.npz"), "--init", str(out),
                 "--epochs", "1", "--json"]) == 0
    with np.load(tmp_path / "next.npz") as npz:
        assert npz["hidden"].tolist() == [16, 8] and npz["w1"].shape == first.shape
    capsys.readouterr()


def test_the_cli_takes_the_margin_scale_from_init_and_the_symmetries_as_told(run_dir, tmp_path, capsys):
    # docs/learning.md: --margin-scale "50 (or --init's)"; --no-augment "train without the symmetries".
    from rosen.learning import load_network, random_network, save_network

    save_network(tmp_path / "init.npz", random_network(hidden=(16, 8), seed=3, margin_scale=100.0))
    base = ["train", "--data", str(run_dir), "--epochs", "1", "--seed", "1", "--val-fraction", "0", "--json"]
    assert main(base + ["--init", str(tmp_path / "init.npz"), "--out", str(tmp_path / "a.npz")]) == 0
    assert load_network(tmp_path / "a.npz").margin_scale == 100.0
    assert main(base + ["--hidden", "16,8", "--out", str(tmp_path / "b.npz")]) == 0
    assert main(base + ["--hidden", "16,8", "--out", str(tmp_path / "c.npz"), "--no-augment"]) == 0
    assert load_network(tmp_path / "b.npz").margin_scale == 50.0
    assert not np.array_equal(load_network(tmp_path / "b.npz").w1, load_network(tmp_path / "c.npz").w1)
    capsys.readouterr()
    from rosen.cli import build_parser
    args = build_parser().parse_args(["train", "--data", "x", "--out", "y"])
    assert (args.epochs, args.no_augment) == (10, False)  # the documented defaults


def test_an_init_whose_margin_scale_training_refuses_is_named_not_margin_scale(run_dir, tmp_path, capsys):
    # The network's scale (loadable, usable everywhere else) was refused as "--margin-scale:
    # expected 0.001..1e+06", an option the user never gave.
    from rosen.learning import random_network, save_network

    save_network(tmp_path / "init.npz", random_network(hidden=(16, 8), seed=3, margin_scale=1e38))
    base = ["--data", str(run_dir), "--epochs", "1", "--init", str(tmp_path / "init.npz")]
    err = cli_error(base + ["--out", str(tmp_path / "a.npz")], capsys)
    assert err.startswith("rosen train: error: --init: ") and "margin_scale 1e+38" in err and "--margin-scale" in err
    # Given --margin-scale, this check is not made (the network's head is then rescaled to it).
    main(["train", *base, "--out", str(tmp_path / "b.npz"), "--margin-scale", "50"])
    assert "has margin_scale" not in capsys.readouterr().err


def cli_error(argv, capsys):
    assert main(["train", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("rosen train: error: ") and "Traceback" not in err
    return err


def test_cli_errors_name_the_option(run_dir, tmp_path, capsys):
    out = str(tmp_path / "net.npz")
    assert "--data: expected" in cli_error(["--out", out], capsys)
    assert "--out: expected" in cli_error(["--data", str(run_dir)], capsys)
    assert "--data: " in cli_error(["--data", str(tmp_path / "nowhere"), "--out", out], capsys)
    (tmp_path / "empty").mkdir()
    assert "--data: " in cli_error(["--data", str(tmp_path / "empty"), "--out", out], capsys)
    unfinished = tmp_path / "unfinished"
    unfinished.mkdir()
    (unfinished / "run.json").write_text("{}")
    assert "no finished shard" in cli_error(["--data", str(unfinished), "--out", out], capsys)
    # A shard of another records format version.
    future = tmp_path / "future"
    sp.write_run(future, 1, agent="greedy", fsync=False)
    shard = future / "shard-00000.npz"
    with np.load(shard) as npz:
        arrays = {name: npz[name] for name in npz.files}
    arrays["format_version"] = np.array(2, dtype=np.int64)
    np.savez(shard, **arrays)
    err = cli_error(["--data", str(future), "--out", out], capsys)
    assert "--data: " in err and "format_version" in err
    # A damaged row (the manifest's hash is not checked here: `rosen selfplay verify` does that):
    # the error names the run it is in, not only the column.
    damaged = tmp_path / "damaged"
    sp.write_run(damaged, 1, agent="greedy", fsync=False)
    shard = damaged / "shard-00000.npz"
    with np.load(shard) as npz:
        arrays = {name: npz[name] for name in npz.files}
    arrays["crown"][0] = 100
    np.savez(shard, **arrays)
    err = cli_error(["--data", str(damaged), "--out", out], capsys)
    assert f"--data: {str(damaged)!r}: crown: row 0: expected a square" in err
    assert "--hidden: expected two" in cli_error(["--data", str(run_dir), "--out", out, "--hidden", "16"], capsys)
    assert "--out: cannot write" in cli_error(["--data", str(run_dir), "--out", str(tmp_path / "no" / "n.npz")], capsys)
    assert "--out: cannot write" in cli_error(["--data", str(run_dir), "--out", str(tmp_path)], capsys)
    assert "--plot: expected an image file name" in cli_error(["--data", str(run_dir), "--out", out, "--plot",
                                                               str(tmp_path / "curves")], capsys)
    assert "--epochs: " in cli_error(["--data", str(run_dir), "--out", out, "--epochs", "0"], capsys)
    assert "--value-search-weight: " in cli_error(["--data", str(run_dir), "--out", out, "--value-search-weight", "-0.1"],
                                                  capsys)
    not_a_net = tmp_path / "net.txt"
    not_a_net.write_text("hello")
    assert "--init: " in cli_error(["--data", str(run_dir), "--out", out, "--init", str(not_a_net)], capsys)
    missing = cli_error(["--data", str(run_dir), "--out", out, "--init", str(tmp_path / "missing.npz")], capsys)
    assert "--init: cannot read network file" in missing and "path:" not in missing  # once "--init: '...': path: ..."


def test_without_torch_the_cli_says_how_to_get_it(run_dir, tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "torch", None)  # `import torch` now raises ImportError
    monkeypatch.delitem(sys.modules, "rosen.learning.train", raising=False)
    monkeypatch.delattr(sys.modules["rosen.learning"], "train", raising=False)
    err = cli_error(["--data", str(run_dir), "--out", str(tmp_path / "net.npz")], capsys)
    assert 'pip install "rosen[train]"' in err and "PyTorch" in err


def test_import_rosen_never_imports_torch():
    code = ("import sys, rosen, rosen.cli, rosen.selfplay, rosen.learning.data; "
            "assert 'torch' not in sys.modules and 'matplotlib' not in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True)


def reinforce():
    spec = importlib.util.spec_from_file_location("reinforce", Path(__file__).resolve().parents[1] / "tools" / "reinforce.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_reinforcement_loop_dry_run_prints_every_command_and_writes_nothing(tmp_path, capsys):
    loop = tmp_path / "loop"
    assert reinforce().main(["--dir", str(loop), "--generations", "3", "--games", "10", "--iterations", "20",
                             "--window", "2", "--dry-run"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert not loop.exists()
    commands = [line.split("$ ", 1)[1] for line in out if "$ rosen" in line]
    assert len(commands) == 9 and [c.split()[1] for c in commands[:3]] == ["selfplay", "train", "match"]
    gen0, gen1 = str(loop / "gen-000"), str(loop / "gen-001")
    assert "--agent mcts:iterations=20 " in commands[0] and "--init" not in commands[1]
    assert f"mcts:evaluator={gen0}/candidate.npz,iterations=20 mcts:iterations=20 " in commands[2]
    # Generation 1 plays with generation 0's network (a dry run assumes every gate promotes) ...
    assert f"--agent mcts:evaluator={gen0}/candidate.npz,iterations=20" in commands[3]
    assert f"--init {gen0}/candidate.npz" in commands[4]
    assert f"--data {gen0}/selfplay {gen1}/selfplay --out" in commands[4]
    # ... and generation 2 trains on the last two generations only.
    assert f"--data {gen1}/selfplay {loop}/gen-002/selfplay --out" in commands[7]
    assert out[-1] == "reinforce: dry run: 3 generation(s) listed above; nothing was run"


def test_the_reinforcement_loop_checks_every_setting_before_it_runs(tmp_path, capsys):
    # Each of these was once found only at the step using it, after the earlier steps had run,
    # and frozen in the log's settings so that no rerun could correct it.
    ran = []
    base = ["--dir", str(tmp_path / "loop"), "--games", "4", "--iterations", "10"]
    for extra, message in ((["--sprt", "abc"], "--sprt: expected 'elo0,elo1'"),
                           (["--sprt", "20,0"], "--sprt: expected elo0 < elo1"),
                           (["--gate-games", "3"], "--gate-games: expected an even number"),
                           # F104: generation g's gate starts at deal 10**6 * (g + 1) + seed, one deal a pair
                           (["--gate-games", "2000002"], "--gate-games: expected an even number from 2 to 2000000"),
                           (["--hidden", "abc"], "--hidden: expected two positive sizes"),
                           (["--selfplay-options", "'--bogus"], "--selfplay-options: No closing quotation"),
                           (["--epochs", "0"], "--epochs must be >= 1"),
                           (["--agent-options", "bogus=1"], "--agent-options: "),
                           (["--train-options=--lr abc"], "--train-options: argument --lr: invalid float value"),
                           (["--selfplay-options=--bogus"], "--selfplay-options: unrecognized arguments: --bogus")):
        with pytest.raises(SystemExit) as exit_:
            reinforce().main(base + extra, lambda a: ran.append(a) or (0, "{}"))
        assert exit_.value.code == 2 and message in capsys.readouterr().err
    (tmp_path / "file").write_text("")
    with pytest.raises(SystemExit):
        reinforce().main(["--dir", str(tmp_path / "file"), "--games", "4"], lambda a: ran.append(a) or (0, "{}"))
    assert "is a file, not a directory" in capsys.readouterr().err
    assert not ran and not (tmp_path / "loop").exists()


def test_the_reinforcement_loop_takes_new_settings_until_a_step_has_finished(tmp_path, capsys):
    loop = tmp_path / "loop"
    argv = ["--dir", str(loop), "--games", "4", "--iterations", "10"]
    assert reinforce().main(argv, lambda a: (1, "")) == 1  # the first step failed: nothing made
    ran = []

    def execute(a):
        ran.append(a)
        return 0, json.dumps({"sprt": None, "score": 0.5, "games": 2}) if a[0] == "match" else "{}"

    assert reinforce().main(argv[:-1] + ["20", "--generations", "1"], execute) == 0
    log = [json.loads(line) for line in (loop / "log.jsonl").read_text().splitlines()]
    assert log[0]["settings"]["iterations"] == 20 and [a[0] for a in ran] == ["selfplay", "train", "match"]
    assert reinforce().main(argv + ["--generations", "1"], execute) == 2  # now steps have finished


def test_the_reinforcement_gate_passes_a_negative_sprt_as_one_argument(tmp_path):
    args = reinforce().parse_args(["--dir", str(tmp_path), "--sprt=-800,-700"])
    gate = reinforce().commands(args, tmp_path, 0, None)["gate"]
    assert "--sprt=-800,-700" in gate  # "--sprt", "-800,-700" reads as an option to rosen match
    from rosen.cli import build_parser
    assert build_parser().parse_args(gate).sprt == "-800,-700"


def test_the_reinforcement_loop_logs_each_step_and_resumes_after_a_failure(tmp_path, capsys):
    loop = tmp_path / "loop"
    ran = []

    def execute(argv, fail_gate_of=None):
        ran.append(argv)
        if argv[0] == "train":
            Path(argv[argv.index("--out") + 1]).write_bytes(b"net " + str(len(ran)).encode())
        if argv[0] == "match":
            if fail_gate_of and fail_gate_of in argv[1]:
                return 1, ""
            return 0, json.dumps({"sprt": "H1" if "gen-000" in argv[1] else None, "score": 0.6, "games": 10})
        return 0, "{}"

    tool = reinforce()
    argv = ["--dir", str(loop), "--generations", "2", "--games", "4", "--iterations", "10"]
    assert tool.main(argv, lambda a: execute(a, fail_gate_of="gen-001")) == 1
    assert [a[0] for a in ran] == ["selfplay", "train", "match"] * 2
    log = [json.loads(line) for line in (loop / "log.jsonl").read_text().splitlines()]
    assert log[0]["settings"]["games"] == 4 and [(r["generation"], r["step"]) for r in log[1:]] == [
        (0, "selfplay"), (0, "train"), (0, "gate"), (1, "selfplay"), (1, "train")]
    assert log[3]["promoted"] and log[3]["best"] == str(loop / "gen-000" / "candidate.npz")
    assert log[1]["command"].startswith("rosen selfplay --games 4 ")
    assert (loop / "best.npz").read_bytes() == (loop / "gen-000" / "candidate.npz").read_bytes()
    ran.clear()
    assert tool.main(argv, execute) == 0  # only the failed gate runs again
    assert [a[0] for a in ran] == ["match"] and f"mcts:evaluator={loop}/gen-000/candidate.npz" in ran[0][2]
    log = [json.loads(line) for line in (loop / "log.jsonl").read_text().splitlines()]
    assert not log[-1]["promoted"] and log[-1]["best"] == str(loop / "gen-000" / "candidate.npz")
    assert "best network: " + str(loop / "gen-000" / "candidate.npz") in capsys.readouterr().out
    ran.clear()
    assert tool.main(argv[:-1] + ["20"], execute) == 2 and not ran  # other settings: refused


def test_the_policy_loss_is_weighted_by_the_rows_weights_in_evaluation_as_in_training():
    # evaluate(): "each head averaged over the rows as in training (the policy weighted by weight)".
    from rosen.learning.data import TrainingData
    from rosen.learning.train import Model, _tensors, evaluate, losses

    rng = np.random.default_rng(0)
    n = 40
    legal = rng.random((n, 50)) < 0.3
    legal[:, 0] = True
    policy = np.where(legal, rng.random((n, 50)), 0).astype(np.float32)
    policy /= policy.sum(1, keepdims=True)
    weight = np.where(np.arange(n) % 2 == 0, 1.0, 0.0).astype(np.float32)  # half the rows: no policy target
    d = TrainingData(features=rng.random((n, 477)).astype(np.float32), legal=legal, policy=policy,
                     policy_weight=weight, value=rng.integers(0, 3, n).astype(np.int64),
                     searched_value=np.full(n, np.nan, np.float32), margin=rng.normal(0, 30, n).astype(np.float32),
                     game=np.arange(n, dtype=np.uint64))
    torch.manual_seed(0)
    model = Model((8, 4))
    with torch.no_grad():
        assert evaluate(model, d, 50.0)["policy"] == pytest.approx(float(losses(model, _tensors(d), 50.0)["policy"]),
                                                                  rel=1e-5)


def test_a_row_without_visits_has_no_policy_target(run_dir):
    # data.py: policy_weight is the row's weight, "0 as well if a row has no visits".
    rows = {k: v.copy() for k, v in sp.load_dir(run_dir).rows.items()}
    assert rows["weight"][0] > 0 and rows["visits"][0].sum() > 0
    rows["visits"][0] = 0
    got = from_rows(rows)
    assert got.policy_weight[0] == 0 and got.policy_weight[1] == rows["weight"][1]


@pytest.mark.parametrize("first_game", [10**8, 2**32 + 7, 2**62 - 3])
def test_a_run_that_starts_at_a_large_game_index_is_training_data(tmp_path, first_game):
    # F104: self-play takes --first-game up to 2**62 - games (a run split across machines), but
    # training refused indices from 2**32 on and, below that, allocated a table as long as the
    # largest index: 9 bytes an index (10**8: 858 MB traced for three games; 4e9: 29.8 GiB).
    path = tmp_path / "run"
    sp.write_run(path, 3, first_game=first_game, agent="random", seed=5, fsync=False)
    games = sp.load_dir(path).games
    assert sorted(g["game"] for g in games) == [first_game, first_game + 1, first_game + 2]
    tracemalloc.start()
    try:
        d = load_training_data([path])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 64 * 2**20, peak
    by_index = {g["game"]: g["seed"] for g in games}
    rows = sp.load_dir(path).rows
    assert d.game.tolist() == [by_index[int(i)] for i in rows["game"]]  # each row keyed by its deal
    assert len(set(d.game.tolist())) == 3


def test_rows_of_a_game_missing_from_the_records_are_refused(run_dir):
    rows = sp.load_dir(run_dir).rows
    deals = {g["game"]: g["seed"] for g in sp.load_dir(run_dir).games}
    last = max(deals)
    with pytest.raises(rosen.InvalidArgumentError, match=f"row of game {last}: the game is not in the run's"):
        from_rows(rows, 0, {k: v for k, v in deals.items() if k != last})
    with pytest.raises(rosen.InvalidArgumentError, match="row of game 0: the game is not in the run's"):
        from_rows(rows, 0, {})
    # without deals the key is run * 2**32 + index: both must fit
    with pytest.raises(rosen.InvalidArgumentError, match="run: expected"):
        from_rows(rows, 2**32)
    big = dict(rows, game=rows["game"] + 2**32)
    with pytest.raises(rosen.InvalidArgumentError, match=r"game indices must be in 0..2\*\*32-1 without deals"):
        from_rows(big)
    assert from_rows(big, 0, {k + 2**32: v for k, v in deals.items()}).game.tolist() == \
        from_rows(rows, 0, deals).game.tolist()


def test_training_inputs_of_the_wrong_kind_are_named():
    # each once raised a bare TypeError, KeyError or IndexError
    with pytest.raises(rosen.ArgumentTypeError, match="data: expected run directory paths, got NoneType"):
        load_training_data([None])
    with pytest.raises(rosen.InvalidArgumentError, match="data: the rows lack the column"):
        from_rows({"game": np.zeros(2, np.int64)})
    with pytest.raises(rosen.ArgumentTypeError, match="data: expected a mapping"):
        from_rows([1, 2])
    f, legal, p = np.zeros((2, 477), np.float32), np.zeros((2, 50), bool), np.zeros((2, 50), np.float32)
    for ks, error in (([9, 0], rosen.InvalidArgumentError), ([8], rosen.InvalidArgumentError),
                      ([-1, 0], rosen.InvalidArgumentError),
                      ([0.5, 1.0], rosen.ArgumentTypeError)):
        with pytest.raises(error, match="ks: expected"):
            augment(f, legal, p, np.array(ks))
    assert augment(f, legal, p, np.array([0, 7]))[0].shape == (2, 477)


def test_outputs_that_would_overwrite_each_other_or_no_search_could_use_are_refused(run_dir, tmp_path, capsys):
    # --curves on --out's path replaced the network just written; --hidden above the C++
    # evaluator's 2048 trained to the end and then no search could load the network.
    out = str(tmp_path / "net.npz")
    err = cli_error(["--data", str(run_dir), "--out", out, "--curves", out], capsys)
    assert "--curves: " in err and "is the file of --out too" in err
    png = str(tmp_path / "curves.png")
    err = cli_error(["--data", str(run_dir), "--out", out, "--curves", png,
                     "--plot", str(tmp_path / "." / "curves.png")], capsys)
    assert "--plot: " in err and "is the file of --curves too" in err
    assert "--hidden: expected 1..2048, got 4096" in cli_error(["--data", str(run_dir), "--out", out,
                                                                "--hidden", "4096,4"], capsys)
    assert not (tmp_path / "net.npz").exists()


def test_the_curves_are_written_whole_or_not_at_all(run_dir, tmp_path, capsys, monkeypatch):
    # Written in place, a full disk left half a JSON file behind.
    import pathlib
    real = pathlib.Path.write_text

    def full_disk(self, text, *args, **kwargs):
        real(self, text[:100], *args, **kwargs)
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(pathlib.Path, "write_text", full_disk)
    curves = tmp_path / "curves.json"
    assert main(["train", "--data", str(run_dir), "--out", str(tmp_path / "net.npz"), "--epochs", "1",
                 "--hidden", "8,4", "--curves", str(curves)]) == 2
    err = capsys.readouterr().err  # the epochs' lines, then the error
    assert "rosen train: error: --curves: cannot write" in err and "No space left on device" in err
    assert not curves.exists() and not (tmp_path / "curves.json.partial").exists()


def test_one_runs_training_data_is_not_copied_at_the_end(tmp_path):
    # F106: the runs' samples were concatenated even when there was one run, a copy of it all at
    # the peak: traced peak 2.15x the data held (32 681 rows), now 1.54x (from_rows' temporaries).
    path = tmp_path / "run"
    sp.write_run(path, 120, shard_games=40, agent="random", seed=3, fsync=False)
    tracemalloc.start()
    try:
        d = load_training_data([path])
        held, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(d.value) > 5000 and peak < 1.8 * held, (held, peak)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="pipes by name are POSIX")
def test_a_network_written_to_a_pipe_leaves_the_pipe(tmp_path):
    # F107: `rosen train --out /dev/null` moved the new file onto the device (as root, /dev/null
    # became a regular file); a pipe shows it without touching /dev.
    from rosen.learning.train import Model, export_network
    from test_cli_streams import written_through_a_pipe

    fifo = tmp_path / "net.npz"
    assert written_through_a_pipe(fifo, lambda: export_network(fifo, Model((8, 4)), 50.0))[:2] == b"PK"
