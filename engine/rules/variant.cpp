#include "engine/rules/variant.h"

#include <initializer_list>

namespace foxgeese {
namespace {

Bitboard points(const Board& board, std::initializer_list<std::string_view> names) {
    Bitboard set = 0;
    for (std::string_view name : names)
        set |= bit(board.point_at(name[0] - 'a', name[1] - '1'));
    return set;
}

// Every existing point of a rank (1-based), between two files inclusive.
Bitboard rank_span(const Board& board, int rank, char first, char last) {
    Bitboard set = 0;
    for (char file = first; file <= last; ++file) {
        const int point = board.point_at(file - 'a', rank - 1);
        if (point != kNoPoint) set |= bit(point);
    }
    return set;
}

constexpr std::string_view kNames[] = {"standard", "big_cross", "two_foxes"};

}  // namespace

Variant::Variant(VariantId id, int geese, bool sideways)
    : id_(id),
      name_(kNames[static_cast<int>(id)]),
      board_(id == VariantId::kBigCross ? &Board::cross45() : &Board::cross33()),
      fox_count_(id == VariantId::kTwoFoxes ? 2 : 1),
      geese_sideways_(sideways) {
    const Board& b = *board_;
    switch (id) {
        case VariantId::kStandard:
            start_foxes_ = points(b, {"d4"});
            start_geese_ =
                points(b, {"c1", "d1", "e1", "c2", "d2", "e2"}) | rank_span(b, 3, 'a', 'g');
            if (geese >= 15) start_geese_ |= points(b, {"a4", "g4"});
            if (geese >= 17) start_geese_ |= points(b, {"a5", "g5"});
            break;
        case VariantId::kBigCross:
            start_foxes_ = points(b, {"e7"});
            start_geese_ = rank_span(b, 1, 'd', 'f') | rank_span(b, 2, 'd', 'f') |
                           rank_span(b, 3, 'd', 'f') | rank_span(b, 4, 'a', 'i');
            break;
        case VariantId::kTwoFoxes:
            start_foxes_ = points(b, {"c7", "e7"});
            start_geese_ = points(b, {"c1", "d1", "e1", "c2", "d2", "e2"}) |
                           rank_span(b, 3, 'a', 'g') | rank_span(b, 4, 'a', 'g');
            pen_ =
                rank_span(b, 5, 'c', 'e') | rank_span(b, 6, 'c', 'e') | rank_span(b, 7, 'c', 'e');
            break;
    }
    // Geese go forward and diagonally forward along links; sideways only where allowed.
    for (int point = 0; point < b.point_count(); ++point) {
        Bitboard steps = 0;
        for (Direction d : {kNorth, kNorthEast, kNorthWest}) {
            if (b.neighbour(point, d) != kNoPoint) steps |= bit(b.neighbour(point, d));
        }
        if (sideways) {
            for (Direction d : {kEast, kWest}) {
                if (b.neighbour(point, d) != kNoPoint) steps |= bit(b.neighbour(point, d));
            }
        }
        goose_steps_[point] = steps;
    }
}

std::span<const Variant* const> Variant::all() {
    static const Variant standard13(VariantId::kStandard, 13, false);
    static const Variant standard15(VariantId::kStandard, 15, false);
    static const Variant standard17(VariantId::kStandard, 17, false);
    static const Variant standard13s(VariantId::kStandard, 13, true);
    static const Variant standard15s(VariantId::kStandard, 15, true);
    static const Variant standard17s(VariantId::kStandard, 17, true);
    static const Variant big_cross(VariantId::kBigCross, 18, true);
    static const Variant two_foxes(VariantId::kTwoFoxes, 20, true);
    static const Variant* const table[] = {&standard13,  &standard15,  &standard17, &standard13s,
                                           &standard15s, &standard17s, &big_cross,  &two_foxes};
    return table;
}

std::span<const std::string_view> Variant::names() {
    return kNames;
}

Result<const Variant*> Variant::find(std::string_view name, const VariantOptions& options) {
    if (name == "standard") {
        const int geese = options.geese.value_or(13);
        if (geese != 13 && geese != 15 && geese != 17) {
            return make_error(ErrorCode::kInvalidOptions,
                              "option geese must be 13, 15 or 17, not " + std::to_string(geese));
        }
        const bool sideways = options.geese_sideways.value_or(false);
        const int index = (geese - 13) / 2 + (sideways ? 3 : 0);
        return all()[index];
    }
    for (VariantId id : {VariantId::kBigCross, VariantId::kTwoFoxes}) {
        if (name != kNames[static_cast<int>(id)]) continue;
        if (options.geese || options.geese_sideways) {
            return make_error(ErrorCode::kInvalidOptions,
                              "variant " + std::string(name) +
                                  " takes no options (geese and geese_sideways are for standard)");
        }
        return all()[id == VariantId::kBigCross ? 6 : 7];
    }
    std::string message =
        "unknown variant '" + std::string(name.substr(0, 40)) + "'; expected one of";
    for (std::string_view known : kNames)
        message += " " + std::string(known);
    return make_error(ErrorCode::kUnknownVariant, message);
}

}  // namespace foxgeese
