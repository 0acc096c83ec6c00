"""One compiled object used from several Python threads at once.

The compiled calls release the GIL, so two threads can be inside one object together. Objects
that keep a call's state in members (the classic searchers' counters and budget, the
environments' games between a step's checks and its moves) must run such calls one at a time:
each result must be what the same call gives alone, and no environment may break the rules.
"""
from __future__ import annotations

import threading

import numpy as np

import rosen
from rosen import _core
from rosen.env import VecEnv


def _together(*calls):
    """Run each call in its own thread, started at one barrier; their results in order."""
    barrier = threading.Barrier(len(calls))
    out = [None] * len(calls)

    def run(k, call):
        barrier.wait()
        out[k] = call()

    threads = [threading.Thread(target=run, args=(k, call)) for k, call in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return out


def _positions():
    a = rosen.Position.new(seed=3)
    return a, a.play(a.legal_moves()[0])  # Red to move, then White: their values differ in sign


def test_one_expectimax_searched_from_two_threads_gives_each_search_its_own_answer():
    a, b = _positions()
    # tt_mb=0: no table, so a search's answer does not depend on which ran first.
    alone = [_core._Expectimax(depth=6, tt_mb=0).search(p) for p in (a, b)]
    for _ in range(25):
        shared = _core._Expectimax(depth=6, tt_mb=0)
        both = _together(lambda: shared.search(a), lambda: shared.search(b))
        for got, want in zip(both, alone):
            assert (got.best_move, got.value, got.nodes) == (want.best_move, want.value, want.nodes)


def test_one_alphabeta_searched_from_two_threads_gives_each_search_its_own_answer():
    a, b = _positions()

    def key(r):
        return r.best_move, r.value, r.nodes

    def in_turn(first, second):  # a searcher's k-th search samples its draws from stream k
        s = _core._AlphaBeta(depth=11, seed=1)
        return key(s.search(first)), key(s.search(second))

    a_first, b_first = in_turn(a, b), in_turn(b, a)
    allowed = {a_first, b_first[::-1]}  # (a's answer, b's answer) for either order
    for _ in range(25):
        shared = _core._AlphaBeta(depth=11, seed=1)
        got = tuple(key(r) for r in _together(lambda: shared.search(a), lambda: shared.search(b)))
        assert got in allowed


def test_vec_env_step_and_reset_from_two_threads_leave_every_game_legal():
    # A reset landing between a step's checks and its moves once played the old actions in the
    # new deals: a card twice in the discard, positions that do not parse.
    n = 20000
    env = VecEnv(n, seed=1)
    current = env.reset()
    rng = np.random.default_rng(0)
    for trial in range(4):
        actions = np.array([rng.choice(np.flatnonzero(mask)) for mask in current.action_mask], np.int32)

        def step():
            try:
                env.step(actions)
            except rosen.RosenError:  # the reset came first: these actions may not be legal now
                pass

        _together(step, lambda: env.reset(seed=100 + trial))
        for i in range(n):
            rosen.Position(env.position(i).fen())  # raises InvalidPositionError on a broken game
        current = env.reset(seed=200 + trial)


def test_waiting_for_another_threads_step_lets_python_run():
    # position() waits for a step running in another thread; it must wait without the GIL, or every
    # Python thread (and Ctrl-C) stops for the whole step.
    import time

    env = VecEnv(128, opponent="mcts:iterations=3000", seed=1)
    current = env.reset()
    actions = np.array([np.flatnonzero(mask)[0] for mask in current.action_mask], np.int32)
    ticks, finished = [], threading.Event()

    def ticker():
        while not finished.is_set():
            ticks.append(time.monotonic())
            time.sleep(0.002)

    tick = threading.Thread(target=ticker)
    tick.start()
    stepper = threading.Thread(target=env.step, args=(actions,))
    stepper.start()
    time.sleep(0.02)  # the step is under way (128 searched replies: most of a second)
    start = time.monotonic()
    env.position(0)
    end = time.monotonic()
    stepper.join()
    finished.set()
    tick.join()
    assert end - start > 0.05  # position() did wait for the step
    assert sum(start < t < end for t in ticks) > 0  # and Python ran meanwhile


def test_expectimax_stop_ends_the_next_search_at_once_and_is_then_spent():
    # A stop that arrives before the search starts is not lost (Ctrl-C's worker may be that slow);
    # the search that honoured it clears it.
    pos = rosen.Position.new(seed=4)
    searcher = _core._Expectimax(depth=4, tt_mb=0)
    searcher.stop()
    stopped = searcher.search(pos)
    assert stopped.depth == 1  # the first iteration always completes: there is always a move
    assert rosen.Move(stopped.best_move) in pos.legal_moves()
    assert searcher.search(pos).depth == 4  # spent
    searcher.stop()
    searcher.clear_stop()  # withdrawn: the search runs to its depth
    assert searcher.search(pos).depth == 4
