"""Territory scoring speed: the C++ batch scorer against scipy.ndimage.label + numpy.bincount
on the same 10 000 boards, measured side by side in one run.

Run: pytest bench --benchmark-only
"""
from __future__ import annotations

import time

import numpy as np
from scipy import ndimage

import rosen


def scipy_scores(boards: np.ndarray) -> np.ndarray:
    """The plain NumPy/SciPy way: label each board and colour, square the component sizes."""
    out = np.zeros((len(boards), 2), np.int64)
    for i, board in enumerate(boards):
        for c, colour in enumerate((1, 2)):
            labels, _ = ndimage.label(board == colour)
            sizes = np.bincount(labels.ravel())[1:]
            out[i, c] = (sizes * sizes).sum()
    return out


def test_batch_scoring_10k_boards(benchmark, final_boards):
    result = benchmark(rosen.score_boards, final_boards)
    scorings = 2 * len(final_boards)  # one per board and colour
    benchmark.extra_info["single_colour_scorings_per_second"] = scorings / benchmark.stats.stats.mean
    assert result.score.shape == (len(final_boards), 2)
    assert (result.score[:2000] == result.score[2000:4000]).all() and result.score.sum() > 0


def test_scipy_baseline_10k_boards(benchmark, final_boards):
    expected = rosen.score_boards(final_boards).score
    result = benchmark.pedantic(scipy_scores, args=(final_boards,), rounds=1, iterations=1)
    assert (result == expected).all()


def test_batch_is_100x_faster_than_scipy(benchmark, final_boards):
    # Both timed here, back to back, so the ratio holds on a noisy shared machine.
    t0 = time.perf_counter()
    expected = scipy_scores(final_boards)
    scipy_seconds = time.perf_counter() - t0
    result = benchmark(rosen.score_boards, final_boards)
    ratio = scipy_seconds / benchmark.stats.stats.min
    benchmark.extra_info["speedup_vs_scipy"] = ratio
    assert (result.score == expected).all()
    assert ratio >= 100, f"batch scorer only {ratio:.0f}x faster than scipy"


def test_single_position_scores(benchmark):
    pos = rosen.Position.new(seed=1)
    while not pos.is_terminal:
        pos = pos.play(pos.legal_moves()[-1])
    scores = benchmark(lambda: pos.scores)
    assert scores == pos.scores and sum(scores) > 0
