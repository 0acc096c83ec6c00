"""Plain Python references for rosen's classic searchers (cpp/classic/), built on the plain rules
reference (rules.py). Deliberately simple: full trees, no pruning, no tables, exact fractions.

- ``evaluate``: the leaf value from one colour, ``own points - opponent's points + hero_weight *
  (own heroes - opponent's heroes)`` (R11, heroes summed over the colour's players, R13); a
  finished game is +-1 000 000 or 0 (R12).
- ``minimax``: what the peer's alpha-beta must equal. A draw executes one card, the k-th card the
  pile can yield in card order with ``k = ((path >> 32) * count) >> 32``, where ``path`` is the
  root's stream mixed with each edge's move byte (``mix_seed``; cpp/classic/alphabeta.h).
- ``expectimax``: the exact value with every draw averaged over all cards the pile can yield;
  ``leaf(state, colour)``, when given, values every leaf instead of ``evaluate`` (a network's
  value, as the expectimax with an evaluator does).
"""
from __future__ import annotations

from fractions import Fraction

from .rules import CARD_INDEX, RefState

WIN = 1_000_000
MASK = (1 << 64) - 1


def splitmix64(state):
    """(new state, output) of one splitmix64 step (cpp/rosenkoenig/rng.h)."""
    state = (state + 0x9E3779B97F4A7C15) & MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, z ^ (z >> 31)


def mix_seed(a, b):
    """rng.h's mix_seed: a 64-bit mix of two values."""
    s = (a ^ (b * 0xD1B54A32D192ED03)) & MASK
    s, _ = splitmix64(s)
    _, z = splitmix64(s)
    return z


def move_byte(move):
    """The core's byte for a move (cpp/rosenkoenig/move.h): plays 0..23, heroes 24..47, pass 49,
    a draw of a known card 64 + card."""
    if move == "pass":
        return 49
    if move.startswith("draw:"):
        return 64 + CARD_INDEX[move[5:]]
    if move.startswith("H:"):
        return 24 + CARD_INDEX[move[2:]]
    return CARD_INDEX[move]


def ordered_moves(state):
    """Legal moves in the core's order: plays by card, heroes by card, draw, pass."""
    def key(move):
        if move.startswith("H:"):
            return (1, CARD_INDEX[move[2:]])
        if move in ("draw", "pass"):
            return (2 if move == "draw" else 3, 0)
        return (0, CARD_INDEX[move])
    return sorted(state.legal_moves(), key=key)


def colour_letter(state):
    return state.colour_of(state.side)


def evaluate(state, colour, hero_weight):
    """The leaf value from ``colour`` ('r' or 'w')."""
    if state.is_terminal():
        winner = state.winner()
        return 0 if winner == "draw" else (WIN if winner[0] == colour else -WIN)
    red, white = state.scores()
    points = red - white if colour == "r" else white - red
    heroes = sum(h if state.colour_of(p) == colour else -h for p, h in enumerate(state.heroes))
    return points + hero_weight * heroes


def sampled_draw(state, path):
    """The draw the peer's search executes at a node with this path: ``draw:<card>``."""
    cards = sorted(state.draw_outcomes(), key=CARD_INDEX.get)
    return "draw:" + cards[((path >> 32) * len(cards)) >> 32]


def minimax(state, depth, colour, hero_weight, path):
    if depth == 0 or state.is_terminal():
        return evaluate(state, colour, hero_weight)
    values = []
    for move in ordered_moves(state):
        if move == "draw":
            move = sampled_draw(state, path)
        values.append(minimax(state.apply(move), depth - 1, colour, hero_weight, mix_seed(path, move_byte(move))))
    return max(values) if colour_letter(state) == colour else min(values)


def minimax_root(state, depth, hero_weight, stream):
    """(value, move, {move: value}) of the peer's search at the root: the first best move."""
    colour = colour_letter(state)
    values = {}
    for move in ordered_moves(state):
        edge = sampled_draw(state, stream) if move == "draw" else move
        values[move] = minimax(state.apply(edge), depth - 1, colour, hero_weight, mix_seed(stream, move_byte(edge)))
    best = max(values.values())
    return best, next(m for m, v in values.items() if v == best), values


def expectimax(state, depth, colour, hero_weight, leaf=None):
    if depth == 0 or state.is_terminal():
        return leaf(state, colour) if leaf is not None else Fraction(evaluate(state, colour, hero_weight))
    values = []
    for move in ordered_moves(state):
        if move == "draw":
            cards = state.draw_outcomes()
            values.append(sum(expectimax(state.apply("draw:" + c), depth - 1, colour, hero_weight, leaf)
                              for c in cards) / len(cards))
        else:
            values.append(expectimax(state.apply(move), depth - 1, colour, hero_weight, leaf))
    return max(values) if colour_letter(state) == colour else min(values)


def expectimax_root(state, depth, hero_weight, leaf=None):
    """(value, {move: value}) of the exhaustive depth-limited expectimax at the root."""
    colour = colour_letter(state)
    values = {}
    for move in ordered_moves(state):
        if move == "draw":
            cards = state.draw_outcomes()
            values[move] = sum(expectimax(state.apply("draw:" + c), depth - 1, colour, hero_weight, leaf)
                               for c in cards) / len(cards)
        else:
            values[move] = expectimax(state.apply(move), depth - 1, colour, hero_weight, leaf)
    return max(values.values()), values


def from_position(position):
    """The reference state of a rosen Position as a player sees it (pile order hidden, R14)."""
    return RefState.from_notation(position.fen(hide_pile_order=True), reshuffle=position.reshuffle)
