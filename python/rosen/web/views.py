"""JSON views of positions, moves and searches: what the web page is sent.

Every fact comes from the rosen API (legal moves, targets, scores, territories); the page only
draws them. A view is built from the *public* position (RULES.md R14): the draw pile appears as
its size and as the set of cards in it (public, R14) in a fixed card order, never in its order,
and ``fen`` writes the pile as ``*``.

>>> import rosen
>>> view = position_view(rosen.Position.new(seed=1))
>>> view["fen"].endswith(" *"), view["pile_size"], "draw_pile" in view
(True, 14, False)
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional

from .._core import Position
from ..engine.search import SearchSnapshot

#: The 24 power cards in the order the page lists an unordered set of them (R1).
CARD_ORDER = [f"{d}{n}" for n in (1, 2, 3) for d in ("N", "NE", "E", "SE", "S", "SW", "W", "NW")]
_RANK = {card: i for i, card in enumerate(CARD_ORDER)}


def card_set(cards: List[str]) -> List[str]:
    """Cards in :data:`CARD_ORDER`, whatever order they came in (an unordered set on the wire)."""
    return sorted(cards, key=lambda c: _RANK.get(c, len(_RANK)))


def seats(players: int) -> List[str]:
    """The players' names in turn order: ``['r', 'w']`` or ``['r1', 'w1', 'r2', 'w2']`` (R13)."""
    return ["r", "w"] if players == 2 else ["r1", "w1", "r2", "w2"]


def legal_move_views(pos: Position) -> List[Dict[str, Any]]:
    """Every legal move with what it does: the square the crown goes to, from the position the
    move leads to (so the page never computes a target itself). Draws need no target."""
    out = []
    hidden = pos.hide_pile_order()
    for move in hidden.legal_moves():
        text = str(move)
        view: Dict[str, Any] = {"move": text}
        if text not in ("draw", "pass"):
            view["hero"] = text.upper().startswith("H:")
            view["card"] = text.split(":")[-1]
            view["target"] = hidden.play(move).crown
        out.append(view)
    return out


def territory_view(pos: Position) -> Dict[str, Any]:
    """Each colour's territories (squares, largest first), their sizes and the score (R10, R11)."""
    out: Dict[str, Any] = {}
    for i, colour in enumerate(("red", "white")):
        regions = pos.territory_squares(colour)
        out[colour] = {"territories": regions, "sizes": [len(r) for r in regions], "score": pos.scores[i],
                       "largest": pos.largest[i], "tokens": pos.token_counts[i]}
    return out


def position_view(pos: Position) -> Dict[str, Any]:
    """The public view of a position (R14): everything the page draws, nothing hidden."""
    public = pos.hide_pile_order()
    board = public.board
    names = seats(public.players)
    return {
        "fen": public.fen(),
        "players": public.players,
        "reshuffle": public.reshuffle,
        # Rank 9 first, each rank files a..i: "." empty, "r" red, "w" white.
        "board": ["".join(".rw"[int(board[rank, f])] for f in range(9)) for rank in range(8, -1, -1)],
        "crown": public.crown,
        "turn": public.turn,
        "colour_to_move": public.colour_to_move,
        "seats": names,
        "hands": {name: card_set(hand) for name, hand in zip(names, public.hands)},
        "heroes": dict(zip(names, public.heroes)),
        "discard": card_set(public.discard),
        "pile_size": public.pile_size,
        "pile_cards": card_set(public.pile_cards),
        "supply": public.supply,
        "scores": {"red": public.scores[0], "white": public.scores[1]},
        "is_terminal": public.is_terminal,
        "winner": public.winner,
        "legal_moves": legal_move_views(public),
        "territories": territory_view(public),
    }


def red_winrate(winrate: float, colour_to_move: str) -> float:
    """A search's win rate (from the mover's view) from Red's view, for one graph over a game."""
    return winrate if colour_to_move == "red" else 1.0 - winrate


def line_squares(pos: Position, line: List[str]) -> List[Dict[str, Any]]:
    """Where the crown goes along a line of moves (for drawing a principal variation): each
    move, the square it ends on (None for a draw or pass) and the mover's colour. Stops at the
    first draw, whose card is chance."""
    out: List[Dict[str, Any]] = []
    pos = pos.hide_pile_order()
    for move in line:
        if pos.is_terminal or not pos.is_legal(move):
            break
        colour = pos.colour_to_move
        if move.lower().startswith("draw"):
            out.append({"move": move, "square": None, "colour": colour})
            break
        pos = pos.play(move)
        out.append({"move": move, "square": None if move == "pass" else pos.crown, "colour": colour})
    return out


def search_view(snapshot: SearchSnapshot, position: Position, *, done: bool = False) -> Dict[str, Any]:
    """A search's progress as the engine protocol's ``info`` lines report it, as JSON, with the
    principal variation's squares for the board."""
    root = snapshot.root
    colour_to_move = position.colour_to_move
    return {
        "done": done,
        "best_move": snapshot.best_move,
        "winrate": root.winrate,
        "red_winrate": round(red_winrate(root.winrate, colour_to_move), 4),
        "score": root.score,
        "iterations": root.iterations,
        "nps": root.nps,
        "time_ms": root.time_ms,
        "depth": root.depth,
        "seldepth": root.seldepth,
        "tree_size": root.tree_size,
        "pv": list(root.pv),
        "pv_squares": line_squares(position, list(root.pv)),
        "moves": [{"move": c.move, "visits": c.visits, "winrate": c.winrate, "score": c.score, "prior": c.prior,
                   "pv": list(c.pv)} for c in snapshot.candidates[:8]],
    }


def history_view(fens: List[str], moves: List[str], red_winrates: List[Optional[float]]) -> List[Dict[str, Any]]:
    """One entry per ply: the public position before it, the move played (None after the last)
    and the engine's win rate for Red there if a search ran."""
    return [{"fen": fen, "move": moves[i] if i < len(moves) else None, "red_winrate": red_winrates[i]}
            for i, fen in enumerate(fens)]
