// Moves of standard as the store keeps them (notation and the position after
// each), for the tests of AnalyzeGame's work without a database.
#pragma once

#include <string>
#include <vector>

#include "engine/rules/legal_move.h"
#include "engine/rules/notation.h"
#include "engine/rules/position_code.h"
#include "engine/rules/variant.h"
#include "storage/game_records.h"

namespace foxgeese::test {

// A legal move of `pos` written as `notation` (the test's own, known legal).
inline Move legal_move_of(const Position& pos, const std::string& notation) {
    return find_legal_move(pos, parse_move(pos.board(), notation).value()).value();
}

// `played` from the standard position `start`, as stored moves.
inline std::vector<storage::MoveRow> moves_from(const std::string& start,
                                                const std::vector<std::string>& played) {
    std::vector<storage::MoveRow> rows;
    Position pos = parse_position_code(*Variant::find("standard", {}).value(), start).value();
    for (const std::string& notation : played) {
        UndoInfo undo;
        pos.make(legal_move_of(pos, notation), undo);
        storage::MoveRow row;
        row.ply = pos.ply();
        row.notation = notation;
        row.position = format_position_code(pos);
        rows.push_back(row);
    }
    return rows;
}

}  // namespace foxgeese::test
