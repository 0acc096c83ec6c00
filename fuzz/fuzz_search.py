"""Fuzz target: search parameters (rosen.SearchParams, rosen.search, rosen.Searcher).

Input layout: byte 0 picks the deal (seed), byte 1 flags (bit 0: four players, bits 1-4: legal
plies played first, bit 5: a persistent Searcher searched twice, bit 6: params= instead of
keywords, bit 7: stop() first), then for each field of FIELDS one byte (a multiple of 3: the
field is left out) followed by its value.

Oracle: SearchParams(**kwargs) and search(...) return or raise ValueError/TypeError; a result's
best move is legal in the searched position, its visits are a non-negative int; SearchParams
pickles, compares and hashes consistently. Budgets are kept small *for the search call only*:
iterations <= 200, time_ms <= 30, threads <= 2, max_tree_size <= 20 000 when they are valid ints --
SearchParams itself sees the raw values.
"""
from __future__ import annotations

import numbers
import os
import pickle
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
if __name__ == "__main__":  # fuzzing: atheris instruments rosen before this module imports it
    from _atheris_main import fuzz_main
    sys.exit(fuzz_main(__file__))
from _common import Input, attempt, check, value  # noqa: E402

import rosen  # noqa: E402

FLOAT_FIELDS = ("exploration", "prior_weight", "margin_weight", "temperature", "hero_cost", "draw_value",
                "block_weight", "eval_scale", "minimax_weight", "puct_c", "network_value_weight", "solve_share")
INT_FIELDS = ("rollout_cutoff", "threads", "seed", "max_tree_size", "iterations", "time_ms")
STR_FIELDS = {"rollout": ["heuristic", "random", "HEURISTIC", ""], "reward": ["win", "margin", "Win", "draw"],
              "minimax_values": ["auto", "static", "network", "Network", "rollout"]}
FIELDS = ("exploration", "prior_weight", "rollout", "rollout_cutoff", "reward", "margin_weight", "threads", "seed",
          "max_tree_size", "temperature", "hero_cost", "draw_value", "block_weight", "eval_scale", "iterations",
          "time_ms", "minimax_weight", "minimax_values", "puct_c", "network_value_weight", "solve_share")
#: Budget caps for the search call (not for SearchParams).
CAPS = {"iterations": 200, "time_ms": 30, "threads": 2, "max_tree_size": 20_000}


def _field_value(inp: Input, name: str):
    kind = inp.byte() % 8
    if kind == 0:
        return value(inp, STR_FIELDS.get(name, ()))
    if name in STR_FIELDS:
        return inp.choice(STR_FIELDS[name]) if kind < 6 else inp.text(12)
    if name in FLOAT_FIELDS:
        return inp.float() if kind < 6 else inp.int_in(-3, 100)
    # int fields: mostly small, sometimes anything
    if kind < 4:
        return inp.int_in(0, 300)
    return inp.integer()


def _is_int(x) -> bool:
    # NumPy integers too: the search takes them (np.int64 iterations once ran a search for 50 s).
    return isinstance(x, numbers.Integral) and not isinstance(x, bool)


def _budget(kwargs: dict) -> dict:
    out = dict(kwargs)
    for name, cap in CAPS.items():
        if name in out and _is_int(out[name]) and out[name] > cap:
            out[name] = cap
    # The defaults are iterations=1000 and max_tree_size=1_000_000: keep them small too.
    out.setdefault("iterations", CAPS["iterations"])
    out.setdefault("max_tree_size", CAPS["max_tree_size"])
    return out


def _check_result(result, position) -> None:
    legal = position.legal_moves()
    check(result.best_move in legal, f"best move {result.best_move} is not legal in {position.fen()!r}")
    check(_is_int(result.visits) and result.visits >= 0, f"visits {result.visits!r}")
    for info in result.moves:
        check(info.move in legal, f"root move {info.move} is not legal")


def one_input(data: bytes) -> None:
    inp = Input(data)
    seed, flags = inp.byte(), inp.byte()
    position = rosen.Position.new(seed=seed, players=4 if flags & 1 else 2)
    for ply in range((flags >> 1) & 15):
        if position.is_terminal:
            break
        legal = position.legal_moves()
        position = position.play(legal[(seed + ply) % len(legal)])
    kwargs = {}
    for name in FIELDS:
        if inp.byte() % 3:
            kwargs[name] = _field_value(inp, name)

    ok, params = attempt(rosen.SearchParams, **kwargs)
    if ok:
        again = pickle.loads(pickle.dumps(params))
        check(again == params and hash(again) == hash(params), f"SearchParams pickle round trip: {params!r}")
        check(params.replace() == params, "replace() with no change differs")

    run = _budget(kwargs)
    if position.is_terminal:
        return
    if flags & 32:
        ok, searcher = attempt(rosen.Searcher, **run)
        if not ok:
            return
        if flags & 128:
            searcher.stop()
        for _ in range(2):
            ok, result = attempt(searcher.search, position)
            if ok:
                _check_result(result, position)
        searcher.reset()
        return
    if flags & 64:
        okp, p = attempt(rosen.SearchParams, **run)
        if okp:
            ok, result = attempt(rosen.search, position, params=p)
            if ok:
                _check_result(result, position)
        return
    ok, result = attempt(rosen.search, position, **run)
    if ok:
        _check_result(result, position)
