// One layer of the tablebase: every position with a given number of geese,
// for each side to move, a byte per position (see retrograde_builder.h for
// what the byte means). Positions are stored by canonical goose set (see
// mirror_index.h), then by the fox's slot among the set's empty points.
#pragma once

#include <cstdint>
#include <memory>
#include <span>

#include "engine/rules/bitboard.h"
#include "engine/rules/position.h"
#include "engine/tablebase/goose_set_index.h"
#include "engine/tablebase/mirror_index.h"

namespace foxgeese::tablebase {

// The byte of a position not (yet) solved.
constexpr std::uint8_t kUnsolved = 255;

// A layer's values wherever they are held (vectors while building, a mapped
// file when served).
struct LayerView {
    int geese = 0;
    const MirrorIndex* index = nullptr;
    std::span<const std::uint8_t> fox_to_move;
    std::span<const std::uint8_t> geese_to_move;

    // Fox points per goose set: the row length.
    std::uint64_t width() const;
    std::span<const std::uint8_t> side(Side s) const {
        return s == Side::kFox ? fox_to_move : geese_to_move;
    }
    std::uint8_t at(const GooseSetIndex& sets, Side s, Bitboard geese_set, int fox) const {
        const LayerPlace place = layer_place(sets, *index, geese_set, fox);
        return side(s)[place.set * width() + static_cast<std::uint64_t>(place.fox_slot)];
    }
};

// Positions of one side to move that a layer of `geese` geese stores.
std::uint64_t layer_positions(const MirrorIndex& index);

}  // namespace foxgeese::tablebase
