#include "encoder.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <type_traits>

#include "rosenkoenig/notation.h"
#include "search/territories.h"
#include "symmetry.h"

namespace rosen::features {

namespace {

constexpr std::array<const char*, kSeats> kSeatNames = {"mover", "opponent", "partner", "opponent2"};
// The last planes and features of both layouts, from kSupply / kFlatSupply on.
constexpr std::array<const char*, 7> kScalarNames = {"supply",       "pile_size",   "draw_legal", "lazy_reshuffle",
                                                     "four_players", "mover_white", "team_seat"};
static_assert(kOwnTerritory - kSupply == 7 && kFlatScores - kFlatSupply == 7);

// The player index sitting at a seat, or -1 for the seats the 2-player game lacks.
int seat_player(const Position& pos, int seat) {
    const int players = pos.players();
    return seat < players ? (pos.to_move + seat) % players : -1;
}

// What both layouts read from the legal-move list and the territories (R10, R11), from the
// mover's view: index 0 of the pairs is the mover's colour, 1 the other colour. The territory
// values come from search::Territories (the search's own join and split code), built once.
struct Derived {
    Bitboard play_targets = 0, hero_targets = 0;
    bool draw = false;
    int score[2] = {0, 0}, largest[2] = {0, 0}, tokens[2] = {0, 0};
    int play_gain[kCards] = {}, hero_gain[kCards] = {}, threat[kCards] = {};  // 0 where not legal
};

void derive(const Position& pos, Derived& d, int8_t* own_territory = nullptr, int8_t* other_territory = nullptr) {
    const int colour = colour_of(pos.to_move);
    const search::Territories terr(pos);
    int8_t* const planes[2] = {own_territory, other_territory};
    for (int side = 0; side < 2; ++side) {
        const int c = colour ^ side;
        const Bitboard tokens = pos.tokens[c];
        d.tokens[side] = popcount(tokens);
        for (int half = 0; half < 2; ++half)
            for (uint64_t w = uint64_t(half ? tokens >> 64 : tokens); w; w &= w - 1) {
                const int sq = half * 64 + std::countr_zero(w), n = terr.size_at(c, sq);
                d.score[side] += n;  // a territory of n squares adds n, n times: n * n (R11)
                d.largest[side] = std::max(d.largest[side], n);
                if (planes[side]) planes[side][sq] = int8_t(n);
            }
    }
    for (Move m : legal_moves(pos)) {
        if (is_play(m)) {
            const int card = move_card(m), t = crown_target(pos.crown, card);
            d.play_targets |= bit(t);
            d.play_gain[card] = terr.join_gain(colour, t);
        } else if (is_hero(m)) {
            const int card = move_card(m), t = crown_target(pos.crown, card);
            d.hero_targets |= bit(t);
            d.hero_gain[card] = terr.join_gain(colour, t) + terr.split_loss(colour ^ 1, t);
        } else if (m == kDraw) {
            d.draw = true;
        }
    }
    // What the next player (the other colour) would gain with each card if the crown stayed.
    const Bitboard occupied = pos.occupied();
    for (CardMask h = pos.hand[seat_player(pos, 1)]; h; h &= h - 1) {
        const int card = std::countr_zero(h), t = crown_target(pos.crown, card);
        if (t != kNoSquare && !(occupied & bit(t))) d.threat[card] = terr.join_gain(colour ^ 1, t);
    }
}

template <typename T>
void set_squares(T* out, Bitboard squares) {
    for (uint64_t w = uint64_t(squares); w; w &= w - 1) out[std::countr_zero(w)] = T(1);
    for (uint64_t w = uint64_t(squares >> 64); w; w &= w - 1) out[64 + std::countr_zero(w)] = T(1);
}

void fill(int8_t* plane, int value) { std::memset(plane, value, kSquares); }

void encode_one(const Position& pos, int8_t* out) { encode_planes(pos, out); }
void encode_one(const Position& pos, float* out) { encode_flat(pos, out); }

template <typename T>
constexpr std::size_t kSize = std::is_same_v<T, int8_t> ? std::size_t(kPlanes) * kSquares : std::size_t(kFlatFeatures);

template <typename T>
void batch(const Position* positions, std::size_t n, T* out) {
    for (std::size_t i = 0; i < n; ++i) encode_one(positions[i], out + i * kSize<T>);
}

template <typename T>
void rows_batch(const RowsIn& rows, std::size_t n, T* out, bool check_first) {
    // With check_first every row is read once before the first is written, so that a bad row
    // leaves the caller's buffer as it was; it costs about 15% (a new array needs no such care).
    if (check_first)
        for (std::size_t i = 0; i < n; ++i) (void)read_row(rows, i);
    for (std::size_t i = 0; i < n; ++i) encode_one(read_row(rows, i), out + i * kSize<T>);
}

}  // namespace

void encode_planes(const Position& pos, int8_t* out) {
    std::memset(out, 0, std::size_t(kPlanes) * kSquares);
    const auto plane = [out](int index) { return out + index * kSquares; };
    const int colour = colour_of(pos.to_move);
    set_squares(plane(kOwnTokens), pos.tokens[colour]);
    set_squares(plane(kOpponentTokens), pos.tokens[colour ^ 1]);
    set_squares(plane(kEmpty), kFull & ~pos.occupied());
    plane(kCrown)[pos.crown] = 1;
    Derived options;
    derive(pos, options, plane(kOwnTerritory), plane(kOpponentTerritory));
    set_squares(plane(kPlayTargets), options.play_targets);
    set_squares(plane(kHeroTargets), options.hero_targets);
    for (int card = 0; card < kCards; ++card) {
        if (options.play_gain[card] || options.hero_gain[card]) {
            const int t = crown_target(pos.crown, card);
            plane(kPlayGain)[t] = int8_t(std::min(options.play_gain[card], 127));
            plane(kHeroGain)[t] = int8_t(std::min(options.hero_gain[card], 127));
        }
    }
    for (int seat = 0; seat < kSeats; ++seat) {
        const int p = seat_player(pos, seat);
        if (p < 0) continue;
        for (CardMask h = pos.hand[p]; h; h &= h - 1) {
            const int card = std::countr_zero(h);
            if (const int t = crown_target(pos.crown, card); t != kNoSquare) plane(kReach + seat)[t] = 1;
            plane(kHandCards + seat)[card_square(card)] = 1;
        }
        fill(plane(kHeroes + seat), pos.heroes[p]);
        fill(plane(kHandSize + seat), std::popcount(pos.hand[p]));
    }
    for (CardMask c = pos.discard; c; c &= c - 1) plane(kDiscardCards)[card_square(std::countr_zero(c))] = 1;
    for (CardMask c = pos.pile; c; c &= c - 1) plane(kPileCards)[card_square(std::countr_zero(c))] = 1;
    fill(plane(kSupply), pos.supply());
    fill(plane(kPileSize), pos.pile_size);
    fill(plane(kDrawLegal), options.draw);
    fill(plane(kLazyReshuffle), pos.rules.reshuffle == Reshuffle::Lazy);
    fill(plane(kFourPlayers), pos.players() == 4);
    fill(plane(kMoverWhite), colour == kWhite);
    fill(plane(kTeamSeat), pos.to_move / 2);
}

void encode_flat(const Position& pos, float* out) {
    std::memset(out, 0, sizeof(float) * kFlatFeatures);
    const int colour = colour_of(pos.to_move);
    const auto cards = [out](int base, CardMask mask) {
        for (CardMask c = mask; c; c &= c - 1) out[base + std::countr_zero(c)] = 1.0f;
    };
    for (int seat = 0; seat < kSeats; ++seat) {
        const int p = seat_player(pos, seat);
        if (p < 0) continue;
        cards(kFlatHands + seat * kCards, pos.hand[p]);
        out[kFlatHeroes + seat] = float(pos.heroes[p]) / 4.0f;
    }
    cards(kFlatDiscard, pos.discard);
    cards(kFlatPile, pos.pile);
    set_squares(out + kFlatOwnTokens, pos.tokens[colour]);
    set_squares(out + kFlatOpponentTokens, pos.tokens[colour ^ 1]);
    out[kFlatCrown + pos.crown] = 1.0f;
    out[kFlatSupply] = float(pos.supply()) / float(kTotalTokens);
    out[kFlatPileSize] = float(pos.pile_size) / float(kCards);
    Derived d;
    derive(pos, d);
    out[kFlatDrawLegal] = d.draw;
    out[kFlatLazyReshuffle] = pos.rules.reshuffle == Reshuffle::Lazy;
    out[kFlatFourPlayers] = pos.players() == 4;
    out[kFlatMoverWhite] = colour == kWhite;
    out[kFlatTeamSeat] = float(pos.to_move / 2);
    out[kFlatScores] = float(d.score[0]) / 100.0f;
    out[kFlatScores + 1] = float(d.score[1]) / 100.0f;
    out[kFlatScores + 2] = float(d.score[0] - d.score[1]) / 100.0f;
    for (int side = 0; side < 2; ++side) {
        out[kFlatLargest + side] = float(d.largest[side]) / 20.0f;
        out[kFlatTokens + side] = float(d.tokens[side]) / float(kTotalTokens);
    }
    for (int card = 0; card < kCards; ++card) {
        out[kFlatPlayGain + card] = float(d.play_gain[card]) / 50.0f;
        out[kFlatHeroGain + card] = float(d.hero_gain[card]) / 50.0f;
        out[kFlatThreat + card] = float(d.threat[card]) / 50.0f;
    }
}

void encode_batch(const Position* positions, std::size_t n, int8_t* out) { batch(positions, n, out); }
void encode_batch(const Position* positions, std::size_t n, float* out) { batch(positions, n, out); }
void encode_rows(const RowsIn& rows, std::size_t n, int8_t* out, bool check_first) {
    rows_batch(rows, n, out, check_first);
}
void encode_rows(const RowsIn& rows, std::size_t n, float* out, bool check_first) {
    rows_batch(rows, n, out, check_first);
}

std::vector<std::string> plane_names() {
    std::vector<std::string> names = {"own_tokens",   "opponent_tokens", "empty",
                                      "crown",        "play_targets",    "hero_targets"};
    for (const char* group : {"reach", "cards"})
        for (const char* seat : kSeatNames) names.push_back(std::string(group) + "." + seat);
    names.insert(names.end(), {"cards.discard", "cards.pile"});
    for (const char* group : {"heroes", "hand_size"})
        for (const char* seat : kSeatNames) names.push_back(std::string(group) + "." + seat);
    names.insert(names.end(), kScalarNames.begin(), kScalarNames.end());
    names.insert(names.end(), {"territory.own", "territory.other", "gain.play", "gain.hero"});
    return names;
}

std::vector<std::string> feature_names() {
    std::vector<std::string> names;
    const auto cards = [&names](const std::string& prefix) {
        for (int c = 0; c < kCards; ++c) names.push_back(prefix + "." + card_name(c));
    };
    const auto squares = [&names](const std::string& prefix) {
        for (int sq = 0; sq < kSquares; ++sq) names.push_back(prefix + "." + square_name(sq));
    };
    for (const char* seat : kSeatNames) cards(std::string("hand.") + seat);
    cards("discard");
    cards("pile");
    squares("own_token");
    squares("opponent_token");
    squares("crown");
    for (const char* seat : kSeatNames) names.push_back(std::string("heroes.") + seat);
    names.insert(names.end(), kScalarNames.begin(), kScalarNames.end());
    names.insert(names.end(), {"score.own", "score.other", "score.difference", "largest.own", "largest.other",
                               "tokens.own", "tokens.other"});
    cards("gain.play");
    cards("gain.hero");
    cards("threat.opponent");
    return names;
}

std::array<int, kFlatFeatures> flat_image(int k) {
    const Symmetry& s = symmetries()[k];
    std::array<int, kFlatFeatures> image;
    for (int f = 0; f < kFlatFeatures; ++f) image[f] = f;  // the scalars stay
    for (int base = kFlatHands; base < kFlatOwnTokens; base += kCards)
        for (int c = 0; c < kCards; ++c) image[base + c] = base + s.card[c];
    for (int base = kFlatOwnTokens; base < kFlatHeroes; base += kSquares)
        for (int sq = 0; sq < kSquares; ++sq) image[base + sq] = base + s.square[sq];
    for (int base = kFlatPlayGain; base < kFlatFeatures; base += kCards)
        for (int c = 0; c < kCards; ++c) image[base + c] = base + s.card[c];
    return image;
}

}  // namespace rosen::features
