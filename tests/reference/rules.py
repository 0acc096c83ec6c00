"""Reference implementation of the Rosenkönig rules (see /work/shared/RULES.md).

Deliberately plain: a 9x9 list-of-lists board, Python lists for cards, a breadth-first
search for territories. Speed is not a goal; being obviously right is.

Board: ``grid[rank][file]`` with rank 0..8 = ranks 1..9 (south to north) and file 0..8 =
files a..i (west to east). Each square is ``"."`` (empty), ``"r"`` or ``"w"``.

Players: in the 2-player game index 0 = red, 1 = white. In the 4-player team variant (R13)
index 0 = r1, 1 = w1, 2 = r2, 3 = w2, which is also the turn order. Even index = red team.
"""
from __future__ import annotations

from collections import deque

# --- material (R1, R2) ------------------------------------------------------------------

FILES = "abcdefghi"

# (file delta, rank delta) per direction, in the canonical card order.
DIRECTIONS = [
    ("N", (0, 1)),
    ("NE", (1, 1)),
    ("E", (1, 0)),
    ("SE", (1, -1)),
    ("S", (0, -1)),
    ("SW", (-1, -1)),
    ("W", (-1, 0)),
    ("NW", (-1, 1)),
]

# The 24 power cards in canonical order: N1, N2, N3, NE1, ..., NW3.
CARDS = [name + str(dist) for name, _ in DIRECTIONS for dist in (1, 2, 3)]
CARD_INDEX = {card: i for i, card in enumerate(CARDS)}

CARD_VECTOR = {}
for _name, (_df, _dr) in DIRECTIONS:
    for _dist in (1, 2, 3):
        CARD_VECTOR[_name + str(_dist)] = (_df * _dist, _dr * _dist)

TOTAL_TOKENS = 52

SIDES_2 = ["r", "w"]
SIDES_4 = ["r1", "w1", "r2", "w2"]


def sort_cards(cards):
    """Cards in canonical order."""
    return sorted(cards, key=lambda c: CARD_INDEX[c])


def parse_card(text, field):
    card = text.upper()
    if card not in CARD_INDEX:
        raise ValueError(f"{field}: {text!r} is not a card")
    return card


def square_name(f, r):
    return FILES[f] + str(r + 1)


def parse_square(text, field):
    if len(text) != 2 or text[0] not in FILES or text[1] not in "123456789":
        raise ValueError(f"{field}: {text!r} is not a square")
    return FILES.index(text[0]), int(text[1]) - 1


def empty_grid():
    return [["." for _ in range(9)] for _ in range(9)]


# --- scoring (R10, R11) -----------------------------------------------------------------

def territories(grid):
    """All territories as a list of (colour, size): maximal orthogonally connected sets of
    same-colour tokens (R10). Simple breadth-first search."""
    seen = [[False] * 9 for _ in range(9)]
    result = []
    for r in range(9):
        for f in range(9):
            colour = grid[r][f]
            if colour == "." or seen[r][f]:
                continue
            size = 0
            queue = deque([(f, r)])
            seen[r][f] = True
            while queue:
                cf, cr = queue.popleft()
                size += 1
                for df, dr in ((0, 1), (1, 0), (0, -1), (-1, 0)):
                    nf, nr = cf + df, cr + dr
                    if 0 <= nf < 9 and 0 <= nr < 9 and not seen[nr][nf] and grid[nr][nf] == colour:
                        seen[nr][nf] = True
                        queue.append((nf, nr))
            result.append((colour, size))
    return result


def score_of(grid, colour):
    return sum(size * size for c, size in territories(grid) if c == colour)


# --- the state ----------------------------------------------------------------------------

class RefState:
    """One position. Immutable by convention: apply() returns a new state."""

    def __init__(self):
        self.players = 2
        self.reshuffle = "eager"
        self.grid = empty_grid()
        self.crown = (4, 4)
        self.side = 0
        self.hands = [[], []]
        self.heroes = [4, 4]
        self.discard = []
        self.pile = []           # top first when pile_known, else canonical order
        self.pile_known = True

    # ---- configuration helpers

    def hand_limit(self):
        return 5 if self.players == 2 else 3

    def max_heroes(self):
        return 4 if self.players == 2 else 2

    def colour_of(self, player):
        return "r" if player % 2 == 0 else "w"

    def copy(self):
        s = RefState()
        s.players = self.players
        s.reshuffle = self.reshuffle
        s.grid = [row[:] for row in self.grid]
        s.crown = self.crown
        s.side = self.side
        s.hands = [h[:] for h in self.hands]
        s.heroes = self.heroes[:]
        s.discard = self.discard[:]
        s.pile = self.pile[:]
        s.pile_known = self.pile_known
        return s

    # ---- parsing

    @classmethod
    def from_notation(cls, text, reshuffle="eager"):
        if reshuffle not in ("eager", "lazy"):
            raise ValueError(f"reshuffle must be 'eager' or 'lazy', not {reshuffle!r}")
        fields = text.split()
        if len(fields) == 9:
            players = 2
        elif len(fields) == 13:
            players = 4
        else:
            raise ValueError(f"position: expected 9 or 13 fields, got {len(fields)}")
        s = cls()
        s.players = players
        s.reshuffle = reshuffle
        n = players

        # <ranks>
        ranks = fields[0].split("/")
        if len(ranks) != 9:
            raise ValueError(f"ranks: expected 9 ranks, got {len(ranks)}")
        grid = empty_grid()
        for i, rank_text in enumerate(ranks):
            r = 8 - i  # ranks are listed 9 down to 1
            f = 0
            for ch in rank_text:
                if ch in "rw":
                    if f >= 9:
                        raise ValueError(f"ranks: rank {r + 1} has more than 9 squares")
                    grid[r][f] = ch
                    f += 1
                elif ch in "123456789":
                    f += int(ch)
                    if f > 9:
                        raise ValueError(f"ranks: rank {r + 1} has more than 9 squares")
                else:
                    raise ValueError(f"ranks: bad square character {ch!r} in rank {r + 1}")
            if f != 9:
                raise ValueError(f"ranks: rank {r + 1} has {f} squares, not 9")
        s.grid = grid
        token_count = sum(1 for row in grid for sq in row if sq != ".")
        if token_count > TOTAL_TOKENS:
            raise ValueError(f"ranks: {token_count} tokens on the board, at most {TOTAL_TOKENS}")

        # <crown>
        s.crown = parse_square(fields[1], "crown")
        cf, cr = s.crown
        if grid[cr][cf] == ".":
            if not (token_count == 0 and s.crown == (4, 4)):
                raise ValueError(f"crown: {fields[1]} holds no token "
                                 "(only allowed on e5 of an empty board)")

        # <side>
        sides = SIDES_2 if players == 2 else SIDES_4
        if fields[2] not in sides:
            raise ValueError(f"side: {fields[2]!r} is not one of {sides}")
        s.side = sides.index(fields[2])

        # hands
        seen = set()

        def card_list(field_text, field_name):
            if field_text == "-":
                return []
            cards = []
            for part in field_text.split(","):
                card = parse_card(part, field_name)
                if card in seen:
                    raise ValueError(f"{field_name}: card {card} appears twice")
                seen.add(card)
                cards.append(card)
            return cards

        hand_names = (["red hand", "white hand"] if players == 2
                      else ["r1 hand", "w1 hand", "r2 hand", "w2 hand"])
        s.hands = []
        for p in range(n):
            hand = card_list(fields[3 + p], hand_names[p])
            if len(hand) > s.hand_limit():
                raise ValueError(f"{hand_names[p]}: {len(hand)} cards, limit {s.hand_limit()}")
            s.hands.append(sort_cards(hand))

        # heroes
        hero_names = (["red heroes", "white heroes"] if players == 2
                      else ["r1 heroes", "w1 heroes", "r2 heroes", "w2 heroes"])
        s.heroes = []
        for p in range(n):
            t = fields[3 + n + p]
            if not t.isdigit() or not 0 <= int(t) <= s.max_heroes():
                raise ValueError(f"{hero_names[p]}: {t!r} is not a number 0..{s.max_heroes()}")
            s.heroes.append(int(t))

        # discard
        s.discard = sort_cards(card_list(fields[3 + 2 * n], "discard"))

        # draw pile
        pile_text = fields[4 + 2 * n]
        rest = [c for c in CARDS if c not in seen]
        if pile_text == "*":
            s.pile = rest
            s.pile_known = len(rest) == 0
        else:
            pile = card_list(pile_text, "draw pile")
            if sorted(pile, key=CARD_INDEX.get) != rest:
                raise ValueError("draw pile: not exactly the cards missing from hands and discard")
            s.pile = pile
            s.pile_known = True

        # R7: under "eager", an empty pile beside a non-empty discard is the moment of the
        # last draw; reshuffle now.
        if s.reshuffle == "eager" and not s.pile and s.discard:
            s.pile = s.discard
            s.pile_known = False
            s.discard = []
        return s

    # ---- printing

    def to_notation(self):
        rank_texts = []
        for r in range(8, -1, -1):
            out = ""
            run = 0
            for f in range(9):
                sq = self.grid[r][f]
                if sq == ".":
                    run += 1
                else:
                    if run:
                        out += str(run)
                        run = 0
                    out += sq
            if run:
                out += str(run)
            rank_texts.append(out)

        def cards_text(cards):
            return ",".join(sort_cards(cards)) if cards else "-"

        if not self.pile:
            pile_text = "-"
        elif self.pile_known:
            pile_text = ",".join(self.pile)
        else:
            pile_text = "*"
        sides = SIDES_2 if self.players == 2 else SIDES_4
        fields = ["/".join(rank_texts), square_name(*self.crown), sides[self.side]]
        fields += [cards_text(h) for h in self.hands]
        fields += [str(h) for h in self.heroes]
        fields += [cards_text(self.discard), pile_text]
        return " ".join(fields)

    def __repr__(self):
        return f"RefState({self.to_notation()!r}, reshuffle={self.reshuffle!r})"

    # ---- rules

    def tokens_on_board(self):
        return sum(1 for row in self.grid for sq in row if sq != ".")

    def target(self, card):
        """The crown's target square for this card, or None when it leaves the board."""
        df, dr = CARD_VECTOR[card]
        f, r = self.crown[0] + df, self.crown[1] + dr
        if 0 <= f < 9 and 0 <= r < 9:
            return f, r
        return None

    def can_draw(self, player):
        """R4b (+ R7 lazy): hand below the limit and a card to draw."""
        if len(self.hands[player]) >= self.hand_limit():
            return False
        if self.pile:
            return True
        return self.reshuffle == "lazy" and len(self.discard) > 0

    def actions(self, player):
        """Every action (play, hero, draw) the player could take now, ignoring whose turn
        it is and whether the game is over."""
        moves = set()
        own = self.colour_of(player)
        for card in self.hands[player]:
            t = self.target(card)
            if t is None:
                continue  # R5: never off the board
            sq = self.grid[t[1]][t[0]]
            if sq == ".":
                moves.add(card)                       # R4a
            elif sq != own and self.heroes[player] > 0:
                moves.add("H:" + card)                # R4c, R5
        if self.can_draw(player):
            moves.add("draw")                         # R4b
        return moves

    def is_terminal(self):
        if self.tokens_on_board() >= TOTAL_TOKENS:    # R8
            return True
        for p in range(self.players):                 # R9
            if self.actions(p):
                return False
        return True

    def legal_moves(self):
        if self.is_terminal():
            return set()
        moves = self.actions(self.side)
        if not moves:
            moves = {"pass"}                          # R6
        return moves

    def draw_outcomes(self):
        """Cards that a draw could yield now (from the pile's point of view; whether the
        player to move may draw is legal_moves()' business)."""
        if self.pile:
            if self.pile_known:
                return {self.pile[0]}
            return set(self.pile)
        if self.reshuffle == "lazy":
            return set(self.discard)
        return set()

    def apply(self, move):
        text = move.strip()
        low = text.lower()
        legal = self.legal_moves()
        s = self.copy()
        player = self.side
        if low == "pass":
            if "pass" not in legal:
                raise ValueError(f"illegal move {move!r}")
        elif low == "draw" or low.startswith("draw:"):
            if "draw" not in legal:
                raise ValueError(f"illegal move {move!r}")
            outcomes = self.draw_outcomes()
            if low == "draw":
                if len(outcomes) != 1:
                    raise ValueError("plain 'draw' needs a known pile order; give 'draw:<card>'")
                card = next(iter(outcomes))
            else:
                card = parse_card(text[5:], "move")
                if card not in outcomes:
                    raise ValueError(f"illegal move {move!r}: the pile cannot yield {card}")
            if not s.pile:
                # R7 lazy: the discard becomes the (unknown-order) pile before drawing.
                s.pile = sort_cards(s.discard)
                s.pile_known = False
                s.discard = []
            if s.pile_known:
                assert s.pile[0] == card
                s.pile = s.pile[1:]
            else:
                s.pile = [c for c in s.pile if c != card]
            s.hands[player] = sort_cards(s.hands[player] + [card])
            if not s.pile:
                s.pile_known = True
                if s.reshuffle == "eager" and s.discard:
                    # R7 eager: the last card was drawn; the discard becomes the pile.
                    s.pile = sort_cards(s.discard)
                    s.pile_known = False
                    s.discard = []
        else:
            hero = low.startswith("h:")
            card = parse_card(text[2:] if hero else text, "move")
            canonical = ("H:" + card) if hero else card
            if canonical not in legal:
                raise ValueError(f"illegal move {move!r}")
            f, r = s.target(card)
            if hero:
                s.grid[r][f] = self.colour_of(player)   # flip the opponent's token (R4c)
                s.heroes[player] -= 1
            else:
                s.grid[r][f] = self.colour_of(player)   # place a new token (R4a)
            s.crown = (f, r)
            s.hands[player] = [c for c in s.hands[player] if c != card]
            s.discard = sort_cards(s.discard + [card])
        s.side = (player + 1) % s.players
        return s

    # ---- scoring and result

    def scores(self):
        return score_of(self.grid, "r"), score_of(self.grid, "w")

    def largest(self):
        best = {"r": 0, "w": 0}
        for colour, size in territories(self.grid):
            best[colour] = max(best[colour], size)
        return best["r"], best["w"]

    def tokens(self):
        red = sum(1 for row in self.grid for sq in row if sq == "r")
        white = sum(1 for row in self.grid for sq in row if sq == "w")
        return red, white

    def winner(self):
        if not self.is_terminal():
            return None
        for red, white in (self.scores(), self.largest(), self.tokens()):   # R12
            if red > white:
                return "red"
            if white > red:
                return "white"
        return "draw"
