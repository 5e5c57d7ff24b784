// A variant is data: its board, pieces, start position, goose directions and
// win conditions. The eight configurations (standard with 13/15/17 geese and
// sideways on or off, big_cross, two_foxes) exist once each, validated at
// lookup; everything else holds a pointer to one of them.
#pragma once

#include <array>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "engine/rules/bitboard.h"
#include "engine/rules/board.h"
#include "engine/rules/error.h"

namespace foxgeese {

enum class VariantId : std::uint8_t { kStandard, kBigCross, kTwoFoxes };

// Options as a caller gave them: an absent field takes the variant's default;
// a present field on a variant without options is an error.
struct VariantOptions {
    std::optional<int> geese;
    std::optional<bool> geese_sideways;
};

class Variant {
  public:
    // The variant of that name with those options, or kUnknownVariant / kInvalidOptions.
    static Result<const Variant*> find(std::string_view name, const VariantOptions& options);
    // Every configuration, defaults first within a variant.
    static std::span<const Variant* const> all();
    // The names of the variants, in display order.
    static std::span<const std::string_view> names();

    VariantId id() const { return id_; }
    std::string_view name() const { return name_; }
    const Board& board() const { return *board_; }

    int fox_count() const { return fox_count_; }
    int start_geese_count() const { return count(start_geese_); }
    Bitboard start_foxes() const { return start_foxes_; }
    Bitboard start_geese() const { return start_geese_; }

    // Option values in force (standard only varies them).
    int geese_option() const { return start_geese_count(); }
    bool geese_sideways() const { return geese_sideways_; }
    bool has_options() const { return id_ == VariantId::kStandard; }

    bool compulsory_capture() const { return id_ == VariantId::kTwoFoxes; }
    // The fox side wins when fewer geese than this remain.
    int fox_side_wins_below() const { return id_ == VariantId::kTwoFoxes ? 9 : 4; }
    // Points the geese must fill to win; empty when the variant has no pen.
    Bitboard pen() const { return pen_; }

    // Points a goose on `point` may step to on an empty board.
    Bitboard goose_steps(int point) const { return goose_steps_[point]; }

  private:
    Variant(VariantId id, int geese, bool sideways);

    VariantId id_;
    std::string_view name_;
    const Board* board_;
    int fox_count_;
    bool geese_sideways_;
    Bitboard start_foxes_ = 0;
    Bitboard start_geese_ = 0;
    Bitboard pen_ = 0;
    std::array<Bitboard, kMaxPoints> goose_steps_{};
};

}  // namespace foxgeese
