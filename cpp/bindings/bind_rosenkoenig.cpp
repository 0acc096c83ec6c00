// Python face of the Rosenkönig core: Position (immutable: play() returns a new position), Move,
// batch territory scoring and random-game statistics. Errors are C++ exceptions (bind_errors.cpp).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "rosenkoenig/display.h"
#include "rosenkoenig/notation.h"
#include "rosenkoenig/playout.h"
#include "rosenkoenig/position.h"
#include "rosenkoenig/territory.h"
#include "args.h"
#include "uninitialised.h"

namespace py = pybind11;
using namespace rosen;

namespace {

using bindings::int_arg;
using bindings::text_arg;
using bindings::uint_arg;

constexpr uint64_t kMaxU64 = ~uint64_t(0);

Reshuffle parse_reshuffle(const py::handle& obj) {
    const std::string name = text_arg(obj, "reshuffle");
    if (name == "eager") return Reshuffle::Eager;
    if (name == "lazy") return Reshuffle::Lazy;
    throw ArgumentError("reshuffle", "reshuffle: expected 'eager' or 'lazy', got '" + bindings::utf8_prefix(name, 20) + "'");
}

const char* reshuffle_name(Reshuffle r) { return r == Reshuffle::Eager ? "eager" : "lazy"; }

Rules rules_of(const py::handle& players, const py::handle& reshuffle) {
    Rules rules;
    int n = 0;  // not a player count
    try {
        n = int_arg(players, "players", 2, 4);
    } catch (const ArgumentTypeError&) {
        throw;
    } catch (const ArgumentError&) {  // out of range: said below as the one rule, not as 2..4
    }
    if (n != 2 && n != 4)
        throw ArgumentError("players", "players: expected 2 or 4, got " + bindings::shown_number(players));
    rules.players = uint8_t(n);
    rules.reshuffle = parse_reshuffle(reshuffle);
    return rules;
}

struct PyMove {
    Move m;
};

Move to_move(const py::handle& obj) {
    if (py::isinstance<PyMove>(obj)) return obj.cast<PyMove>().m;
    if (!py::isinstance<py::str>(obj))
        throw ArgumentTypeError("move", "move: expected a str like 'N2' or a rosen.Move, got " + bindings::type_name(obj));
    return parse_move(text_arg(obj, "move"));
}

Position play(const Position& pos, const py::handle& move_obj) {
    const Move m = to_move(move_obj);
    Position next = pos;
    try {
        apply_checked(next, m);
    } catch (const IllegalMoveError&) {
        throw IllegalMoveError("move", illegal_move_message(pos, m));
    }
    return next;
}

std::vector<std::string> card_list(CardMask cards) {
    std::vector<std::string> out;
    for (CardMask c = cards; c; c &= c - 1) out.push_back(card_name(std::countr_zero(c)));
    return out;
}

Bitboard colour_bits(const Position& pos, const py::handle& obj) {
    const std::string colour = text_arg(obj, "colour");
    if (colour == "red" || colour == "r") return pos.tokens[kRed];
    if (colour == "white" || colour == "w") return pos.tokens[kWhite];
    throw ArgumentError("colour", "colour: expected 'red' or 'white', got '" + bindings::utf8_prefix(colour, 20) + "'");
}

py::object winner_of(const Position& pos) {
    switch (outcome(pos)) {
        case Outcome::RedWins: return py::str("red");
        case Outcome::WhiteWins: return py::str("white");
        case Outcome::Draw: return py::str("draw");
        default: return py::none();
    }
}

std::string repr(const Position& pos) {
    std::string out = "Position('" + format_position(pos) + "'";
    if (pos.rules.reshuffle == Reshuffle::Lazy) out += ", reshuffle='lazy'";
    return out + ")";
}

Position from_text(const py::handle& text, const py::handle& reshuffle, const py::handle& seed) {
    const Reshuffle r = parse_reshuffle(reshuffle);
    const uint64_t s = uint_arg(seed, "seed", 0, kMaxU64);
    return parse_position(text_arg(text, "text"), r, s);
}

// Pickled state: (position line, reshuffle rule, generator state). Checked like any input.
Position from_state(const py::handle& state) {
    if (!py::isinstance<py::tuple>(state) || py::len(state) != 3)
        throw ArgumentTypeError("state", "state: expected a tuple (position line, reshuffle, generator state), got " +
                                             bindings::type_name(state));
    const py::tuple t = py::reinterpret_borrow<py::tuple>(state);
    Position pos = from_text(t[0], t[1], py::int_(0));
    pos.rng_state = uint_arg(t[2], "state", 0, kMaxU64);
    return pos;
}

}  // namespace

Rules bindings::rules_arg(const py::handle& players, const py::handle& reshuffle) { return rules_of(players, reshuffle); }

void bind_rosenkoenig(py::module_& m) {
    py::class_<PyMove>(m, "Move", "A move in RULES.md notation: 'N2', 'H:N2', 'draw', 'draw:NE3' or 'pass'.")
        .def(py::init([](const py::handle& text) {
                 if (!py::isinstance<py::str>(text))
                     throw ArgumentTypeError("move", "move: expected a str like 'N2', got " + bindings::type_name(text));
                 return PyMove{to_move(text)};
             }),
             py::arg("text"))
        .def("__str__", [](const PyMove& mv) { return format_move(mv.m); })
        .def("__repr__", [](const PyMove& mv) { return "Move('" + format_move(mv.m) + "')"; })
        .def("__eq__", [](const PyMove& a, const py::object& b) -> py::object {
            if (py::isinstance<PyMove>(b)) return py::bool_(a.m == b.cast<PyMove>().m);
            return py::reinterpret_borrow<py::object>(Py_NotImplemented);
        }, py::arg("other"))
        .def("__hash__", [](const PyMove& mv) { return py::hash(py::str(format_move(mv.m))); })
        .def_property_readonly("kind", [](const PyMove& mv) {
            return is_play(mv.m) ? "play" : is_hero(mv.m) ? "hero" : mv.m == kPass ? "pass" : "draw";
        }, "'play', 'hero', 'draw' or 'pass'.")
        .def_property_readonly("card", [](const PyMove& mv) -> py::object {
            if (mv.m == kDraw || mv.m == kPass) return py::none();
            return py::str(card_name(move_card(mv.m)));
        }, "The power card the move uses (or the drawn card of 'draw:X'), else None.")
        // __getstate__ returns py::object, the type __setstate__ takes: pybind11 before 3.0.2 (the
        // declared minimum is 2.12) refuses a pair whose types differ, even py::tuple and py::object.
        .def(py::pickle([](const PyMove& mv) -> py::object { return py::make_tuple(format_move(mv.m)); },
                        [](const py::object& state) {
                            if (!py::isinstance<py::tuple>(state) || py::len(state) != 1)
                                throw ArgumentTypeError("state", "state: expected a tuple (move text,), got " +
                                                                     bindings::type_name(state));
                            return PyMove{to_move(py::reinterpret_borrow<py::tuple>(state)[0])};
                        }));

    py::class_<Position>(m, "Position",
                         "A Rosenkönig position. Immutable from Python: play() returns a new Position.\n\n"
                         "Position(text, *, reshuffle='eager', seed=0) parses a RULES.md position line (9 fields for 2 "
                         "players, 13 for the 4-player variant); seed drives plain draws from a pile of unknown order.")
        .def(py::init(&from_text), py::arg("text"), py::kw_only(), py::arg("reshuffle") = "eager",
             py::arg("seed") = py::int_(0))
        .def_static("new", [](const py::handle& seed, const py::handle& players, const py::handle& reshuffle) {
            const Rules rules = rules_of(players, reshuffle);
            return new_game(rules, uint_arg(seed, "seed", 0, kMaxU64));
        }, py::arg("seed") = py::int_(0), py::kw_only(), py::arg("players") = 2, py::arg("reshuffle") = "eager",
           "A fresh seeded deal (R3): the same seed always deals the same hands and pile.")
        .def("fen", [](const Position& p, const py::handle& hide) {
                 return format_position(p, bindings::bool_arg(hide, "hide_pile_order"));
             },
             py::kw_only(), py::arg("hide_pile_order") = false,
             "The position line. hide_pile_order prints the draw pile as '*' (what a player may know, R14).")
        .def("legal_moves", [](const Position& p) {
            std::vector<PyMove> out;
            for (Move mv : legal_moves(p)) out.push_back(PyMove{mv});
            return out;
        }, "Legal moves in canonical order (plays, heroes, draw, or just pass); empty when the game is over.")
        .def("is_legal", [](const Position& p, const py::handle& mv) { return is_legal(p, to_move(mv)); },
             py::arg("move"), "Whether the move (str or Move) is legal here; a malformed one raises InvalidMoveError.")
        .def("play", &play, py::arg("move"),
             "The position after the move (str or Move). A plain 'draw' deals the top card of a known pile, or a "
             "card chosen by the position's seeded generator; 'draw:NE3' draws that card. Raises IllegalMoveError.")
        .def("draw_outcomes", [](const Position& p) {
            std::vector<std::pair<std::string, double>> out;
            if (!is_legal(p, kDraw)) return out;
            const CardMask cards = drawable_cards(p);
            const double prob = 1.0 / std::popcount(cards);
            for (CardMask c = cards; c; c &= c - 1) out.emplace_back(card_name(std::countr_zero(c)), prob);
            return out;
        }, "The cards a draw can yield now with their probabilities (empty if draw is not legal).")
        // The public view, not only the flag: the order array and the draw generator (seeded from the
        // deal seed by Position.new, and pickled) would let whoever holds the copy recover the pile.
        .def("hide_pile_order", [](const Position& p) { return public_view(p); },
             "The same position as a player sees it (R14): the draw pile's order unknown ('*'), and nothing "
             "kept of the order or of the position's draw generator -- as Position(fen(hide_pile_order=True)) "
             "with seed 0.")
        .def("perft", [](const Position& p, const py::handle& depth_obj) {
            const int depth = int_arg(depth_obj, "depth", 0, 12);
            py::gil_scoped_release release;
            return perft(p, depth);
        }, py::arg("depth"), "Number of move sequences of that length, each drawable card a separate branch.")
        .def("territories", [](const Position& p, const py::handle& colour) {
            int sizes[kSquares];
            const int n = territory_sizes(colour_bits(p, colour), sizes);
            return std::vector<int>(sizes, sizes + n);
        }, py::arg("colour"), "Sizes of the colour's territories, largest first (R10).")
        .def("territory_squares", [](const Position& p, const py::handle& colour) {
            Bitboard regions[kSquares];
            const int n = territory_regions(colour_bits(p, colour), regions);
            std::vector<std::vector<std::string>> out(n);
            for (int i = 0; i < n; ++i)
                for (Bitboard b = regions[i]; b; b &= b - 1) out[i].push_back(square_name(lowest_square(b)));
            return out;
        }, py::arg("colour"),
             "The squares of each of the colour's territories, largest first, as in territories() (R10).")
        .def_property_readonly("players", [](const Position& p) { return int(p.rules.players); },
                               "2, or 4 for the team variant (R13).")
        .def_property_readonly("reshuffle", [](const Position& p) { return reshuffle_name(p.rules.reshuffle); },
                               "The reshuffle rule (R7): 'eager' or 'lazy'.")
        .def_property_readonly("turn", [](const Position& p) { return player_name(p.rules, p.to_move); },
                               "The player to move: 'r' or 'w' (2 players); 'r1', 'w1', 'r2' or 'w2' (4 players).")
        .def_property_readonly("colour_to_move", [](const Position& p) {
            return colour_of(p.to_move) == kRed ? "red" : "white";
        }, "The colour of the player (or team, R13) to move: 'red' or 'white'.")
        .def_property_readonly("crown", [](const Position& p) { return square_name(p.crown); },
                               "The crown's square, e.g. 'e5' (where the next card moves from).")
        .def_property_readonly("hands", [](const Position& p) {
            std::vector<std::vector<std::string>> out;
            for (int i = 0; i < p.rules.players; ++i) out.push_back(card_list(p.hand[i]));
            return out;
        }, "Each player's hand in turn order, cards in canonical order.")
        .def_property_readonly("heroes", [](const Position& p) {
            return std::vector<int>(p.heroes, p.heroes + p.rules.players);
        }, "Each player's hero cards left, in turn order (4 each in the 2-player game, 2 each with 4, R13).")
        .def_property_readonly("discard", [](const Position& p) { return card_list(p.discard); },
                               "The cards in the discard pile, in canonical order (public, R14).")
        .def_property_readonly("draw_pile", [](const Position& p) -> py::object {
            if (p.pile_size && !p.pile_ordered) return py::none();
            std::vector<std::string> out;
            for (int i = p.pile_size - 1; i >= 0; --i) out.push_back(card_name(p.order[i]));
            return py::cast(out);
        }, "The draw pile top first, or None when its order is unknown.")
        .def_property_readonly("pile_cards", [](const Position& p) { return card_list(p.pile); },
                               "The cards in the draw pile, in canonical order (public, R14).")
        .def_property_readonly("pile_size", [](const Position& p) { return int(p.pile_size); },
                               "How many cards the draw pile holds (public, R14).")
        .def_property_readonly("supply", [](const Position& p) { return p.supply(); },
                               "Tokens not yet on the board, of the 52 (R8: the game ends when none is left).")
        .def_property_readonly("is_terminal", [](const Position& p) { return p.over; },
                               "Whether the game is over (R8, R9); then winner says how it ended.")
        .def_property_readonly("winner", &winner_of, "'red', 'white', 'draw', or None while the game goes on (R12).")
        .def_property_readonly("scores", [](const Position& p) {
            return py::make_tuple(score(p.tokens[kRed]), score(p.tokens[kWhite]));
        }, "(red, white) scores: the sum of n*n over territories (R11).")
        .def_property_readonly("largest", [](const Position& p) {
            return py::make_tuple(analyse_territories(p.tokens[kRed]).largest,
                                  analyse_territories(p.tokens[kWhite]).largest);
        }, "(red, white) sizes of each colour's largest territory: R12's first tie-break.")
        .def_property_readonly("token_counts", [](const Position& p) {
            return py::make_tuple(popcount(p.tokens[kRed]), popcount(p.tokens[kWhite]));
        }, "(red, white) tokens on the board: R12's second tie-break.")
        .def_property_readonly("board", [](const Position& p) {
            py::array_t<int8_t> a({kRanks, kFiles});
            auto v = a.mutable_unchecked<2>();
            for (int sq = 0; sq < kSquares; ++sq)
                v(rank_of(sq), file_of(sq)) = int8_t((p.tokens[kRed] & bit(sq)) ? 1 : (p.tokens[kWhite] & bit(sq)) ? 2 : 0);
            return a;
        }, "(9, 9) int8 array: board[rank - 1, file] with file a = 0; 0 empty, 1 red, 2 white.")
        .def("copy", [](const Position& p) { return p; }, "The same position (positions are immutable).")
        .def("__copy__", [](const Position& p) { return p; })
        .def("__deepcopy__", [](const Position& p, py::dict) { return p; }, py::arg("memo"))
        .def("__str__", &draw_position)
        .def("__repr__", &repr)
        .def("__eq__", [](const Position& a, const py::object& b) -> py::object {
            if (!py::isinstance<Position>(b)) return py::reinterpret_borrow<py::object>(Py_NotImplemented);
            const Position& o = b.cast<const Position&>();
            return py::bool_(a.rules == o.rules && format_position(a) == format_position(o));
        }, py::arg("other"))
        .def("__hash__", [](const Position& p) {
            return py::hash(py::make_tuple(format_position(p), int(p.rules.reshuffle)));
        })
        .def(py::pickle(
            [](const Position& p) -> py::object {  // py::object: as Move's, for pybind11 2.12
                return py::make_tuple(format_position(p), reshuffle_name(p.rules.reshuffle), py::int_(p.rng_state));
            },
            [](const py::object& state) { return from_state(state); }));

    m.def("_score_boards", [](py::array_t<int8_t, py::array::c_style> boards) {
        if (boards.ndim() != 3 || boards.shape(1) != kRanks || boards.shape(2) != kFiles)
            throw ArgumentError("boards", "boards: expected an array of shape (N, 9, 9)");
        const py::ssize_t n = boards.shape(0);
        py::array_t<int32_t> score({n, py::ssize_t(2)}), largest({n, py::ssize_t(2)}), tokens({n, py::ssize_t(2)}),
            count({n, py::ssize_t(2)});
        long long bad;
        {
            py::gil_scoped_release release;
            bad = score_boards(boards.data(), n, score.mutable_data(), largest.mutable_data(), tokens.mutable_data(),
                               count.mutable_data());
        }
        if (bad >= 0)
            throw ArgumentError("boards", "boards: board " + std::to_string(bad) + " holds a value other than 0, 1, 2");
        return py::make_tuple(score, largest, tokens, count);
    }, py::arg("boards"), "Low-level batch scorer over a C-contiguous (N, 9, 9) int8 array; see rosen.score_boards.");

    m.def("_random_play", [](const py::handle& games, const py::handle& seed, const py::handle& players,
                             const py::handle& reshuffle, const py::handle& threads_obj) {
        const Rules rules = rules_of(players, reshuffle);
        const uint64_t n = uint_arg(games, "games", 1, kMaxU64), s = uint_arg(seed, "seed", 0, kMaxU64);
        const int threads = int_arg(threads_obj, "threads", 1, 256);
        RandomPlayStats st;
        {
            py::gil_scoped_release release;
            st = random_play(rules, n, s, threads);
        }
        py::dict d;
        d["games"] = st.games;
        d["red_wins"] = st.red_wins;
        d["white_wins"] = st.white_wins;
        d["draws"] = st.draws;
        d["plies"] = st.plies;
        d["blockades"] = st.blockades;
        d["seconds"] = st.seconds;
        return d;
    }, py::arg("games"), py::arg("seed"), py::arg("players"), py::arg("reshuffle"), py::arg("threads"));
    rosen::bindings::refuse_uninitialised<PyMove>();
    rosen::bindings::refuse_uninitialised<Position>();
}
