"""RL environment speed (docs/rl.md, docs/performance.md): environment steps per second of the
batched C++ VecEnv on one core and of a Python loop over the PettingZoo AEC env, each driven by a
uniformly random legal policy, and their ratio on the same work in the same run.

Run with `pytest bench/bench_env.py --benchmark-only -s`. Absolute speeds are reported
(extra_info, printed), not asserted: the machine is shared. The ratio is asserted (issue 14:
at least 20x), as both sides are measured in the same run.
"""
from __future__ import annotations

import time

import numpy as np

from rosen.env import VecEnv, aec_env

NUM_ENVS = 1024
VEC_STEPS = 200           # batch steps per round: 204 800 environment steps
SAME_WORK = 51_200        # environment steps of each side of the ratio


def random_actions(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal action per row (the policy both sides use)."""
    return (rng.random(mask.shape, dtype=np.float32) * mask).argmax(axis=1).astype(np.int32)


def vec_loop(env: VecEnv, steps: int, rng: np.random.Generator) -> tuple:
    """``steps`` batch steps with a random policy: (environment steps, games ended, rewards sum)."""
    out = env.reset()
    games = 0
    rewards = 0.0
    for _ in range(steps):
        out = env.step(random_actions(out.action_mask, rng))
        games += int(out.terminated.sum())
        rewards += float(out.reward.sum())
    return steps * env.num_envs, games, rewards


def aec_loop(env, steps: int, rng: np.random.Generator) -> tuple:
    """A Python loop over the AEC env for ``steps`` actions (games in a row): (steps, games ended)."""
    done = games = 0
    seed = 0
    while done < steps:
        env.reset(seed=seed)
        seed += 1
        for agent in env.agent_iter():
            obs, reward, termination, truncation, info = env.last()
            if termination or truncation:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            done += 1
        games += 1
    return done, games


def report(benchmark, name: str, steps: int) -> float:
    rate = steps / benchmark.stats.stats.min
    benchmark.extra_info["steps_per_second"] = rate
    print(f"\n{name}: {rate:,.0f} environment steps/s")
    return rate


def test_vec_env_flat_steps_per_second(benchmark):
    env = VecEnv(NUM_ENVS, layout="flat", seed=0, threads=1)
    steps, games, rewards = benchmark.pedantic(vec_loop, args=(env, VEC_STEPS, np.random.default_rng(0)),
                                               rounds=3, iterations=1)
    assert steps == NUM_ENVS * VEC_STEPS and games > 1000 and rewards == 0.0  # zero-sum, every game counted
    report(benchmark, f"VecEnv flat, {NUM_ENVS} envs, 1 thread, random policy in NumPy", steps)


def test_vec_env_flat_step_calls_alone(benchmark):
    """The same loop, timing only the ``step`` calls (the C++ environment without the policy)."""
    env = VecEnv(NUM_ENVS, layout="flat", seed=0, threads=1)
    rng = np.random.default_rng(0)

    def run():
        out = env.reset(seed=0)
        spent = 0.0
        for _ in range(VEC_STEPS):
            actions = random_actions(out.action_mask, rng)
            start = time.perf_counter()
            out = env.step(actions, out=out)
            spent += time.perf_counter() - start
        return spent

    spent = benchmark.pedantic(run, rounds=3, iterations=1)
    rate = NUM_ENVS * VEC_STEPS / spent
    benchmark.extra_info["steps_per_second"] = rate
    print(f"\nVecEnv flat, step calls alone into preallocated outputs: {rate:,.0f} environment steps/s")
    assert spent > 0


def test_vec_env_planes_steps_per_second(benchmark):
    env = VecEnv(NUM_ENVS, layout="planes", seed=0, threads=1)
    steps, games, _ = benchmark.pedantic(vec_loop, args=(env, VEC_STEPS, np.random.default_rng(0)),
                                         rounds=3, iterations=1)
    assert steps == NUM_ENVS * VEC_STEPS and games > 1000
    report(benchmark, f"VecEnv planes, {NUM_ENVS} envs, 1 thread", steps)


def test_aec_env_steps_per_second(benchmark):
    env = aec_env(layout="flat")
    steps, games = benchmark.pedantic(aec_loop, args=(env, SAME_WORK, np.random.default_rng(0)),
                                      rounds=3, iterations=1)
    assert steps >= SAME_WORK and games > SAME_WORK // 150
    report(benchmark, "PettingZoo AEC env, Python loop, flat", steps)


def test_vec_env_against_the_aec_loop_on_the_same_work(benchmark):
    """Both random-policy loops over SAME_WORK environment steps, timed in one run: the ratio."""
    def both():
        start = time.perf_counter()
        vec_steps, _, _ = vec_loop(VecEnv(256, layout="flat", seed=0), SAME_WORK // 256, np.random.default_rng(1))
        vec_seconds = time.perf_counter() - start
        start = time.perf_counter()
        aec_steps, _ = aec_loop(aec_env(layout="flat"), SAME_WORK, np.random.default_rng(1))
        aec_seconds = time.perf_counter() - start
        return (vec_steps / vec_seconds) / (aec_steps / aec_seconds)

    ratio = benchmark.pedantic(both, rounds=1, iterations=1)
    benchmark.extra_info["ratio"] = ratio
    print(f"\nVecEnv (256 envs) / AEC Python loop, same {SAME_WORK} random steps: {ratio:.0f}x")
    assert ratio >= 20
