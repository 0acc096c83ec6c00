"""Batch territory scoring (R10-R12) against scipy.ndimage.label and the engine's own Position."""
from __future__ import annotations

import threading

import numpy as np
import pytest
from scipy import ndimage

import rosen


def random_boards(n: int, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return rng.choice(np.array([0, 1, 2], dtype=np.int8), size=(n, 9, 9), p=[0.4, 0.3, 0.3])


def scipy_stats(board: np.ndarray):
    out = []
    for colour in (1, 2):
        labels, _ = ndimage.label(board == colour)  # default structure: edges only (R10)
        sizes = np.bincount(labels.ravel())[1:]
        out.append((int((sizes ** 2).sum()), int(sizes.max(initial=0)), int(sizes.sum()), len(sizes)))
    return out


def test_R10_R11_batch_matches_scipy():
    boards = random_boards(500)
    res = rosen.score_boards(boards)
    for i, board in enumerate(boards):
        for c, (score, largest, tokens, count) in enumerate(scipy_stats(board)):
            assert (res.score[i, c], res.largest[i, c], res.tokens[i, c], res.count[i, c]) == (
                score, largest, tokens, count)


def test_batch_matches_positions_from_real_games():
    boards, expected = [], []
    for seed in range(50):
        pos = rosen.Position.new(seed=seed)
        while not pos.is_terminal:
            pos = pos.play(pos.legal_moves()[seed % len(pos.legal_moves())])
        boards.append(pos.board)
        expected.append((pos.scores, pos.largest, pos.token_counts, pos.winner))
    res = rosen.score_boards(np.stack(boards))
    winners = res.winners()
    for i, (scores, largest, tokens, winner) in enumerate(expected):
        assert tuple(res.score[i]) == scores and tuple(res.largest[i]) == largest and tuple(res.tokens[i]) == tokens
        assert {1: "red", 2: "white", 0: "draw"}[int(winners[i])] == winner


def test_R12_winners_tie_breaks():
    board = np.zeros((3, 9, 9), np.int8)
    board[0, 0, 0:3] = 1; board[0, 4, 0:2] = 2; board[0, 4, 3:5] = 2; board[0, 4, 6] = 2   # 9 v 9, largest 3 v 2
    board[1, 0, 0] = 1; board[1, 2, 0:2] = 1; board[1, 6, 0:2] = 2; board[1, 8, 7] = 2     # all equal -> draw
    board[2, 0, 0] = 2                                                                      # white 1 v 0
    assert list(rosen.score_boards(board).winners()) == [1, 0, 2]


def test_single_board_and_layout():
    board = np.zeros((9, 9), np.int8)
    board[0, :8] = 1  # rank 1, files a..h
    res = rosen.score_boards(board)
    assert res.score.shape == (2,) and tuple(res.score) == (64, 0) and tuple(res.count) == (1, 0)


def test_other_integer_dtypes_and_non_contiguous_input():
    boards = random_boards(20, seed=3)
    expected = rosen.score_boards(boards).score
    assert (rosen.score_boards(boards.astype(np.int64)).score == expected).all()
    wide = np.zeros((20, 9, 18), np.int8)
    wide[:, :, ::2] = boards
    assert (rosen.score_boards(wide[:, :, ::2]).score == expected).all()
    assert rosen.score_boards(np.zeros((0, 9, 9), np.int8)).score.shape == (0, 2)
    mask = boards == 2  # a bool array is one colour's mask, scored as red (as documented)
    assert (rosen.score_boards(mask).score[:, 0] == rosen.score_boards(boards).score[:, 1]).all()


@pytest.mark.parametrize("bad,error,match", [
    (np.zeros((4, 9, 8), np.int8), rosen.InvalidArgumentError, "boards: expected shape"),
    (np.zeros((9,), np.int8), rosen.InvalidArgumentError, "boards: expected shape"),
    (np.full((2, 9, 9), 3, np.int8), rosen.InvalidArgumentError, "board 0 holds a value other than 0, 1, 2"),
    (np.full((2, 9, 9), 257, np.int64), rosen.InvalidArgumentError, "values must be 0"),
    (np.full((2, 9, 9), -1, np.int8), rosen.InvalidArgumentError, "holds a value"),
    (np.zeros((2, 9, 9), np.float32), rosen.ArgumentTypeError, "integer array"),
    ([["x"] * 9] * 9, rosen.ArgumentTypeError, "integer array"),
    ([[1] * 9, [1]], rosen.ArgumentTypeError, "ragged"),
])
def test_bad_boards_raise(bad, error, match):
    # the README's promise: every error a caller can cause is a rosen.RosenError naming the field
    with pytest.raises(error, match=match) as info:
        rosen.score_boards(bad)
    assert info.value.field == "boards"


@pytest.mark.parametrize("value", [5, 3, -1, -128])
def test_bad_value_in_last_square_is_caught(value):
    # The last square is checked like every other: above 2 and below 0 alike.
    boards = np.zeros((3, 9, 9), np.int8)
    boards[2, 8, 8] = value
    with pytest.raises(ValueError, match="board 2 holds a value other than 0, 1, 2"):
        rosen.score_boards(boards)


def test_batch_releases_the_gil():
    boards = random_boards(200_000, seed=1)
    ticks = []
    worker = threading.Thread(target=rosen.score_boards, args=(boards,))
    worker.start()
    while worker.is_alive():
        ticks.append(1)
    worker.join()
    assert len(ticks) > 1  # this thread kept running while C++ scored
