"""The Ray backend (issue 11 part 6): one task per shard, output identical to the local backend,
on a local Ray instance and on a simulated two-node cluster. Ray comes with the test extra
(``rosen[ray]``), so these tests always run."""
import ray
import pytest
from ray.cluster_utils import Cluster

import rosen.selfplay as sp
from rosen.selfplay.backends import RayBackend

SETTINGS = dict(games=9, shard_games=2, seed=5, agent="mcts:iterations=40", players=2, fsync=False)


@pytest.fixture(scope="module")
def local_manifest(tmp_path_factory):
    d = tmp_path_factory.mktemp("local")
    sp.write_run(d, **SETTINGS)
    return (d / "manifest.jsonl").read_bytes()


def test_local_ray_instance_gives_the_local_backends_bytes(tmp_path, local_manifest):
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        sp.write_run(tmp_path, backend="ray", backend_options={"max_in_flight": 2}, **SETTINGS)
        assert (tmp_path / "manifest.jsonl").read_bytes() == local_manifest
        assert sp.verify_manifest(tmp_path) == []
        # Resuming through Ray after losing a shard plays only that shard.
        (tmp_path / "shard-00003.npz").unlink()
        done = []
        sp.write_run(tmp_path, backend="ray", on_shard=done.append, **SETTINGS)
        assert [e["index"] for e in done] == [3]
        assert (tmp_path / "manifest.jsonl").read_bytes() == local_manifest
    finally:
        ray.shutdown()


def test_two_node_cluster_gives_the_local_backends_bytes(tmp_path, local_manifest):
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1})
    cluster.add_node(num_cpus=1)
    cluster.wait_for_nodes()
    try:
        ray.init(address=cluster.address, include_dashboard=False, log_to_driver=False)
        assert len([n for n in ray.nodes() if n["Alive"]]) == 2
        sp.write_run(tmp_path, backend="ray", **SETTINGS)
        assert (tmp_path / "manifest.jsonl").read_bytes() == local_manifest
    finally:
        ray.shutdown()
        cluster.shutdown()


def test_ray_backend_options_are_checked(tmp_path):
    with pytest.raises(ValueError, match="max_in_flight"):
        RayBackend(max_in_flight=-1)
    with pytest.raises(ValueError, match="address"):
        RayBackend(address=5)
    with pytest.raises(ValueError, match="backend"):
        sp.write_run(tmp_path / "run", 2, agent="random", backend="spark")
    assert not (tmp_path / "run").exists()
