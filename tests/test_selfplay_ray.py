"""The Ray backend (issue 11 part 6): one task per shard, output identical to the local backend,
on a local Ray instance and on a simulated two-node cluster. Ray comes with the test extra
(``rosen[ray]``), so these tests always run."""
import ray
import pytest
from ray.cluster_utils import Cluster

import rosen.selfplay as sp
from rosen.selfplay.backends import RayBackend

# Ray's shutdown gives its daemons a second to end, then drops their Popen objects if they have not:
# on a loaded machine a "still running" ResourceWarning of Ray's own processes would fail whichever
# test runs then under the suite's error filter (pyproject.toml), which is for leaks of rosen's.
pytestmark = pytest.mark.filterwarnings("default::ResourceWarning")

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
    # Passed on to RayBackend: TypeErrors that named no field ("argument after ** must be a mapping").
    with pytest.raises(TypeError, match="^backend_options: expected a dict of the backend's options, got list"):
        sp.write_run(tmp_path / "run", 2, agent="random", backend="ray", backend_options=[1, 2])
    for key in ("threads_per_task", "adress"):
        with pytest.raises(ValueError, match=f"^backend_options: the ray backend takes address, max_in_flight and "
                                             f"max_retries, got '{key}'"):
            sp.write_run(tmp_path / "run", 2, agent="random", backend="ray", backend_options={key: 2})
    assert not (tmp_path / "run").exists()


def test_a_ctrl_c_inside_ray_init_shuts_down_what_it_started(tmp_path, monkeypatch):
    # An interrupted ray.init once left Ray's helper processes running, or segfaulted at exit.
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    shut = []

    def interrupted(**kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(ray, "init", interrupted)
    monkeypatch.setattr(ray, "shutdown", lambda: shut.append(True))
    with pytest.raises(KeyboardInterrupt):
        RayBackend().connect()
    assert shut == [True]


def test_workers_play_the_drivers_network_whatever_their_directory(tmp_path, monkeypatch):
    # A relative evaluator= path is the driver's file: workers started in another directory that
    # holds another file of the same name play the driver's network (it is sent to them), so
    # the run is byte-for-byte the local one.
    from rosen.learning import random_network, save_network

    here, there = tmp_path / "driver", tmp_path / "workers"
    here.mkdir(), there.mkdir()
    save_network(here / "net.npz", random_network(hidden=(16, 8), seed=1))
    save_network(there / "net.npz", random_network(hidden=(16, 8), seed=2))
    settings = dict(SETTINGS, games=4, agent="mcts:iterations=30,evaluator=net.npz")
    monkeypatch.chdir(here)
    sp.write_run(here / "local", **settings)
    monkeypatch.chdir(there)  # the nodes' processes start here
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1})
    cluster.add_node(num_cpus=1)
    cluster.wait_for_nodes()
    try:
        monkeypatch.chdir(here)
        ray.init(address=cluster.address, include_dashboard=False, log_to_driver=False)
        sp.write_run(here / "ray", backend="ray", **settings)
        assert (here / "ray" / "manifest.jsonl").read_bytes() == (here / "local" / "manifest.jsonl").read_bytes()
    finally:
        ray.shutdown()
        cluster.shutdown()


def test_a_ray_instance_the_backend_starts_is_shut_down_after_the_run(tmp_path, monkeypatch):
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    assert not ray.is_initialized()
    sp.write_run(tmp_path / "run", backend="ray", **dict(SETTINGS, games=2))
    assert not ray.is_initialized()
    assert sp.verify_manifest(tmp_path / "run") == []


def test_ray_setup_errors_come_before_anything_is_written(tmp_path, monkeypatch):
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    # No cluster answers at that port: refused at once (ray.init would wait for ever).
    with pytest.raises(ValueError, match=r"^address: no Ray cluster answers at 127\.0\.0\.1:1 "):
        sp.write_run(tmp_path / "a", backend="ray", backend_options={"address": "127.0.0.1:1"}, **SETTINGS)
    for bad in ("nowhere", "127.0.0.1:99999999999999999999", "127.0.0.1:0"):
        with pytest.raises(ValueError, match=r"^address: expected 'auto', 'local', 'HOST:PORT'"):
            sp.write_run(tmp_path / "b", backend="ray", backend_options={"address": bad}, **SETTINGS)
    with pytest.raises(ValueError, match=r"^address: expected a Ray address"):
        sp.write_run(tmp_path / "b", backend="ray", backend_options={"address": ""}, **SETTINGS)
    # $RAY_ADDRESS is named as such, and "auto" is checked as the address Ray makes of it.
    monkeypatch.setenv("RAY_ADDRESS", "127.0.0.1:1")
    with pytest.raises(ValueError, match=r"^RAY_ADDRESS: no Ray cluster answers at 127\.0\.0\.1:1 "):
        sp.write_run(tmp_path / "b", backend="ray", **SETTINGS)
    with pytest.raises(ValueError, match=r"^address: no Ray cluster answers at .*:1 "):
        sp.write_run(tmp_path / "b", backend="ray", backend_options={"address": "auto"}, **SETTINGS)
    monkeypatch.delenv("RAY_ADDRESS")
    assert not ray.is_initialized()
    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    try:
        # An address beside a running instance would be ignored: refused.
        with pytest.raises(ValueError, match=r"^address: this process already runs Ray"):
            sp.write_run(tmp_path / "c", backend="ray", backend_options={"address": "auto"}, **SETTINGS)
        # A task that reserves more CPUs than any node has would wait for ever: refused.
        with pytest.raises(ValueError, match=r"^threads: a task reserves 2 CPUs, but the largest node .* has 1 "):
            sp.write_run(tmp_path / "d", backend="ray", threads=2, **SETTINGS)
        assert ray.is_initialized()  # the caller's instance stays
        # RayBackend.run alone beside the caller's instance makes the same checks.
        job = sp.backends.ShardJob(0, 0, 1, dict(seed=0, players=2, agent="random", reshuffle="eager"))
        with pytest.raises(ValueError, match=r"^address: this process already runs Ray"):
            list(RayBackend(address="auto").run([job]))
        with pytest.raises(ValueError, match=r"^threads: a task reserves 2 CPUs"):
            list(RayBackend(threads_per_task=2).run([job]))
        assert ray.is_initialized()
    finally:
        ray.shutdown()
    assert not any((tmp_path / name).exists() for name in "abcd")


def test_a_finished_run_resumes_without_ray(tmp_path, monkeypatch):
    # Nothing to play: no Ray is joined, so a finished run "resumes" even where none answers.
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    sp.write_run(tmp_path, **SETTINGS)
    entries = sp.write_run(tmp_path, backend="ray", backend_options={"address": "127.0.0.1:1"}, **SETTINGS)
    assert len(entries) == 5 and not ray.is_initialized()


def test_ray_news_on_stdout_goes_to_stderr_under_json(tmp_path, capsys, monkeypatch):
    # Ray's driver prints a worker's death to sys.stdout from a thread of its own; rosen selfplay
    # --json must still print one JSON object on stdout.
    import json

    import rosen.cli.selfplay as cli

    def noisy_write_run(*args, **kwargs):
        print("(raylet) A worker died or was killed while executing a task")
        return [{"games": 2, "rows": 10}]

    monkeypatch.setattr(cli, "write_run", noisy_write_run)
    from rosen.cli import main

    assert main(["selfplay", "--games", "2", "--agent", "random", "--backend", "ray", "--json",
                 "--out", str(tmp_path / "run")]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["games"] == 2 and "(raylet) A worker died" in err


def test_a_failed_task_is_one_line_of_rosens_errors(monkeypatch):
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    # The task's own error comes back as itself, without Ray's remote traceback.
    bad = sp.backends.ShardJob(0, 0, 2, dict(seed=0, players=2, agent="mcts:iterations=40", reshuffle="sideways"))
    with pytest.raises(ValueError, match=r"^reshuffle: ") as info:
        list(RayBackend(threads_per_task=1).run([bad]))
    assert "\n" not in str(info.value)
    assert not ray.is_initialized()  # run() alone started Ray and shut it down

    # A worker lost beyond its retries is a BackendError naming the shard.
    class LostWorker:
        exceptions = ray.exceptions

        @staticmethod
        def get(ref):
            raise ray.exceptions.WorkerCrashedError()

    with pytest.raises(sp.backends.BackendError, match=r"^shard 7: WorkerCrashedError: "):
        sp.backends._result(LostWorker, None, sp.backends.ShardJob(7, 0, 1, {}))


def test_cli_names_the_ray_address(tmp_path, capsys):
    from rosen.cli import main

    out = tmp_path / "run"
    assert main(["selfplay", "--games", "2", "--agent", "random", "--backend", "ray", "--ray-address", "127.0.0.1:1",
                 "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("rosen selfplay: error: --ray-address: no Ray cluster answers at 127.0.0.1:1 ")
    assert not out.exists()


def test_an_interrupted_run_cancels_tasks_only_on_a_cluster_it_joined(tmp_path, monkeypatch):
    # On an instance the backend started, shutting it down ends the tasks; cancelling them as well
    # raced tasks as they finished and crashed the driver inside Ray (5 of 16 Ctrl-Cs).
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    cancelled = []
    real_cancel = ray.cancel
    monkeypatch.setattr(ray, "cancel", lambda ref, **kw: (cancelled.append(ref), real_cancel(ref, **kw)))

    def interrupt(entry):
        raise KeyboardInterrupt

    settings = dict(SETTINGS, games=12, shard_games=1)
    with pytest.raises(KeyboardInterrupt):
        sp.write_run(tmp_path / "own", backend="ray", on_shard=interrupt, **settings)
    assert cancelled == [] and not ray.is_initialized()
    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    try:  # the caller's instance outlives the run: its tasks are cancelled
        with pytest.raises(KeyboardInterrupt):
            sp.write_run(tmp_path / "joined", backend="ray", on_shard=interrupt, **settings)
        assert cancelled and ray.is_initialized()
    finally:
        ray.shutdown()
