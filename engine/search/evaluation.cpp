#include "engine/search/evaluation.h"

#include <algorithm>

#include "engine/rules/movegen.h"

namespace foxgeese {
namespace {

// The straight lines through each point: a fox on one end jumps a goose on the
// point to the other end. At most four per point (one per axis).
struct JumpAxes {
    struct Axis {
        std::uint8_t a;
        std::uint8_t b;
    };
    std::array<std::array<Axis, 4>, kMaxPoints> axes{};
    std::array<std::uint8_t, kMaxPoints> count{};
    // The points of ranks below each rank (points are numbered rank by rank
    // from the lowest, so these are the bits below the rank's first point).
    std::array<Bitboard, 16> below_rank{};

    explicit JumpAxes(const Board& board) {
        for (int rank = 0; rank <= board.ranks(); ++rank) {
            for (int p = 0; p < board.point_count(); ++p)
                below_rank[rank] |= board.rank_of(p) < rank ? bit(p) : 0;
        }
        for (int p = 0; p < board.point_count(); ++p) {
            for (Direction d : {kNorth, kNorthEast, kEast, kSouthEast}) {
                const int a = board.neighbour(p, d);
                const int b = board.neighbour(p, static_cast<Direction>(d + 4));
                if (a == kNoPoint || b == kNoPoint) continue;
                axes[p][count[p]++] =
                    Axis{static_cast<std::uint8_t>(a), static_cast<std::uint8_t>(b)};
            }
        }
    }
};

const JumpAxes& jump_axes(const Board& board) {
    static const JumpAxes cross33(Board::cross33());
    static const JumpAxes cross45(Board::cross45());
    return board.id() == BoardId::kCross33 ? cross33 : cross45;
}

// Goose steps from each point to the nearest pen point on an empty board
// (two_foxes; 0 everywhere for a variant without a pen).
struct PenDistances {
    std::array<std::uint8_t, kMaxPoints> steps{};

    PenDistances() = default;
    explicit PenDistances(const Variant& variant) {
        const Board& board = variant.board();
        Bitboard reached = variant.pen();
        // Breadth-first, backwards: a point is one step further than any point it steps to.
        for (std::uint8_t distance = 1; reached != board.all_points(); ++distance) {
            Bitboard next = 0;
            for (Bitboard open = board.all_points() & ~reached; open;) {
                const int p = pop_lowest(open);
                if (variant.goose_steps(p) & reached) next |= bit(p);
            }
            if (next == 0) break;  // the rest cannot reach the pen
            for (Bitboard n = next; n;)
                steps[pop_lowest(n)] = distance;
            reached |= next;
        }
    }
};

const PenDistances& pen_distances(const Variant& variant) {
    static const PenDistances none;
    if (variant.pen() == 0) return none;
    // two_foxes is the one variant with a pen.
    static const PenDistances two_foxes(variant);
    return two_foxes;
}

// Forward steps a goose on each point could still make on an empty board: the
// longest path of forward and diagonally forward steps (sideways ones do not
// count). In standard without sideways steps this is the geese's whole
// reserve of moves; geese out of moves lose.
struct GooseTempo {
    std::array<std::uint8_t, kMaxPoints> steps{};

    explicit GooseTempo(const Variant& variant) {
        const Board& board = variant.board();
        // Ranks from the top down: a point's successors are all done before it.
        for (int rank = board.ranks() - 1; rank >= 0; --rank) {
            for (int p = 0; p < board.point_count(); ++p) {
                if (board.rank_of(p) != rank) continue;
                for (Bitboard next = variant.goose_steps(p); next;) {
                    const int q = pop_lowest(next);
                    if (board.rank_of(q) > rank) {
                        steps[p] = std::max(steps[p], static_cast<std::uint8_t>(steps[q] + 1));
                    }
                }
            }
        }
    }
};

const GooseTempo& goose_tempo(const Variant& variant) {
    // Forward steps do not depend on the geese_sideways option: one table per board.
    static const GooseTempo cross33(*Variant::find("standard", {}).value());
    static const GooseTempo cross45(*Variant::find("big_cross", {}).value());
    return variant.board().id() == BoardId::kCross33 ? cross33 : cross45;
}

// Empty points the foxes reach by steps, flooding outwards from them; the
// foxes' own points are included.
Bitboard fox_room(const Position& pos) {
    const Board& board = pos.board();
    const Bitboard empty = pos.empty();
    Bitboard room = pos.foxes();
    for (Bitboard frontier = room; frontier;) {
        Bitboard next = 0;
        for (Bitboard f = frontier; f;)
            next |= board.links_from(pop_lowest(f));
        frontier = next & empty & ~room;
        room |= frontier;
    }
    return room;
}

constexpr std::string_view kFeatureNames[kEvalFeatureCount] = {
    "constant",         "geese_left",       "geese_spare_square", "fox_steps",   "fox_jumps",
    "fox_room",         "fox_cramped",      "exposed_geese",      "goose_links", "geese_advance",
    "geese_outflanked", "fox_behind_geese", "goose_tempo",        "goose_moves", "pen_geese",
    "pen_distance",     "foxes_in_pen",     "fox_to_move",
};

}  // namespace

std::string_view eval_feature_name(EvalFeature feature) {
    return kFeatureNames[feature];
}

EvalFeatures eval_features(const Position& pos) {
    const Variant& variant = pos.variant();
    const Board& board = pos.board();
    const Bitboard foxes = pos.foxes();
    const Bitboard geese = pos.geese();
    const Bitboard empty = pos.empty();
    EvalFeatures f{};

    const int spare = pos.geese_count() - variant.fox_side_wins_below();
    f[kConstant] = 1;
    f[kGeeseLeft] = pos.geese_count();
    f[kGeeseSpareSquare] = spare * spare;

    for (Bitboard fx = foxes; fx;) {
        const int fox = pop_lowest(fx);
        f[kFoxSteps] += count(board.links_from(fox) & empty);
        for (const JumpLine* j = board.jumps_begin(fox); j != board.jumps_end(fox); ++j) {
            f[kFoxJumps] += has(geese, j->over) && has(empty, j->land);
        }
    }

    const Bitboard room = fox_room(pos);
    const int room_size = count(room) - count(foxes);
    f[kFoxRoom] = room_size;
    const int cramp = std::max(0, 8 - room_size);
    f[kFoxCramped] = cramp * cramp;

    // Points are numbered rank by rank from the lowest: a set's lowest point
    // is on its lowest rank.
    const JumpAxes& axes = jump_axes(board);
    const int lowest_room_rank = board.rank_of(lowest(room));  // room holds the foxes
    const int lowest_goose_rank = geese ? board.rank_of(lowest(geese)) : board.ranks();
    f[kFoxBehindGeese] = count(room & axes.below_rank[lowest_goose_rank]);
    f[kGeeseOutflanked] = count(geese & ~axes.below_rank[lowest_room_rank + 1]);

    const PenDistances& pen = pen_distances(variant);
    const GooseTempo& tempo = goose_tempo(variant);
    for (Bitboard g = geese; g;) {
        const int goose = pop_lowest(g);
        bool exposed = false;
        for (int i = 0; i < axes.count[goose]; ++i) {
            const auto [a, b] = axes.axes[goose][i];
            exposed |= (has(room, a) && has(empty, b)) || (has(room, b) && has(empty, a));
        }
        f[kExposedGeese] += exposed;
        // Each link between two geese is seen from its upper end only.
        f[kGooseLinks] += count(board.links_from(goose) & geese & ~(bit(goose) - 1));
        f[kGeeseAdvance] += board.rank_of(goose);
        f[kGooseTempo] += tempo.steps[goose];
        f[kGooseMoves] += count(variant.goose_steps(goose) & empty);
        f[kPenDistance] += pen.steps[goose];
    }
    f[kPenGeese] = count(geese & variant.pen());
    f[kFoxesInPen] = count(foxes & variant.pen());
    f[kFoxToMove] = pos.side_to_move() == Side::kFox;
    return f;
}

Score evaluate(const Position& pos, const EvalWeights& weights) {
    const EvalFeatures f = eval_features(pos);
    Score fox_side = 0;
    for (int i = 0; i < kEvalFeatureCount; ++i)
        fox_side += f[i] * weights[i];
    fox_side = std::clamp(fox_side, -kMaxHeuristic, kMaxHeuristic);
    return pos.side_to_move() == Side::kFox ? fox_side : -fox_side;
}

// The weights were fitted by bench/tune_evaluation.cpp (its header describes
// the method: self-play from random openings, logistic regression of each
// quiet position's features on a target for the fox side, rounds that start
// from the last fit), from hand-set weights; the runs and how the fit played
// against those: bench/README.md, "Evaluation weights". In standard the fox
// side won every self-play game whatever the budgets, so the targets there
// are the deeper search's verdicts alone. fox_jumps is 0 in every quiet
// position, so it keeps its hand-set value.
const EvalWeights& default_eval_weights(VariantId variant) {
    static constexpr EvalWeights kStandard = {1404, -159, -4, 8,   30,  6, 5, 36, 2,
                                              34,   -12,  80, -18, -32, 0, 0, 0,  33};
    static constexpr EvalWeights kBigCross = {408, -43, 1,   0, 30, 5, -5, 11, -6,
                                              3,   10,  -15, 0, -5, 0, 0,  0,  -6};
    static constexpr EvalWeights kTwoFoxes = {577, -27, -2, 2,  25, 2,   1, 15, -4,
                                              2,   4,   5,  -1, -4, -51, 9, 24, 5};
    switch (variant) {
        case VariantId::kStandard:
            return kStandard;
        case VariantId::kBigCross:
            return kBigCross;
        case VariantId::kTwoFoxes:
            return kTwoFoxes;
    }
    return kStandard;
}

}  // namespace foxgeese
