#include "engine/rules/position.h"

namespace foxgeese {

Position::Position(const Variant& variant)
    : Position(variant, variant.start_foxes(), variant.start_geese(), Side::kFox, 0, 0) {}

Position::Position(const Variant& variant, Bitboard foxes, Bitboard geese, Side side,
                   int quiet_plies, int ply)
    : variant_(&variant),
      foxes_(foxes),
      geese_(geese),
      side_(side),
      quiet_plies_(quiet_plies),
      ply_(ply),
      hash_(0) {
    hash_ = compute_hash();
    assert(is_consistent());
}

std::uint64_t Position::compute_hash() const {
    const auto& keys = zobrist::kKeys;
    std::uint64_t hash = side_ == Side::kGeese ? keys.geese_to_move : 0;
    for (Bitboard f = foxes_; f;)
        hash ^= keys.fox[pop_lowest(f)];
    for (Bitboard g = geese_; g;)
        hash ^= keys.goose[pop_lowest(g)];
    return hash;
}

bool Position::is_consistent() const {
    const Bitboard on_board = board().all_points();
    // A game starts with at most 100 quiet plies and each ply adds at most one.
    return (foxes_ & geese_) == 0 && (occupied() & ~on_board) == 0 &&
           count(foxes_) == variant_->fox_count() &&
           geese_count() <= variant_->start_geese_count() && hash_ == compute_hash() &&
           quiet_plies_ >= 0 && ply_ >= 0 && quiet_plies_ <= ply_ + kFiftyMoveQuietPlies;
}

}  // namespace foxgeese
