#include "parse_fuzz_body.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "engine/record/game_record.h"
#include "engine/rules/game.h"
#include "engine/rules/game_status.h"
#include "engine/rules/legal_move.h"
#include "engine/rules/movegen.h"
#include "engine/rules/notation.h"
#include "engine/rules/position.h"
#include "engine/rules/position_code.h"
#include "engine/rules/variant.h"

namespace foxgeese::fuzz {
namespace {

// Past this many legal moves a contrived position is only checked for
// consistency of the counts, not move by move, to keep each case fast.
constexpr std::size_t kMaxMovesChecked = 2000;

[[noreturn]] void fail(const char* what, std::string_view input) {
    std::fprintf(stderr, "parse fuzz invariant broken: %s\ninput (%zu bytes):", what, input.size());
    for (unsigned char c : input)
        std::fprintf(stderr, " %02x", c);
    std::fprintf(stderr, "\n");
    std::abort();
}

#define FUZZ_CHECK(condition)                      \
    do {                                           \
        if (!(condition)) fail(#condition, input); \
    } while (false)

bool same_path(const MovePath& a, const MovePath& b) {
    if (a.count != b.count || a.jump != b.jump) return false;
    for (int i = 0; i < a.count; ++i) {
        if (a.points[i] != b.points[i]) return false;
    }
    return true;
}

// A move found by find_legal_move must be one the generator lists, and a
// path it refuses must not be listed.
void check_against_generator(const Position& pos, const MovePath& path, std::string_view input) {
    Result<Move> found = find_legal_move(pos, path);
    const std::string written = format_path(pos.board(), path);
    bool listed = false;
    std::size_t moves = 0;
    for_each_legal_move(pos, [&](const Move& m) {
        ++moves;
        if (!listed && moves <= kMaxMovesChecked) listed = format_move(pos.board(), m) == written;
    });
    if (moves > kMaxMovesChecked) return;
    if (found.ok()) {
        FUZZ_CHECK(listed);
        FUZZ_CHECK(format_move(pos.board(), *found) == written);
        Position copy = pos;
        UndoInfo undo;
        copy.make(*found, undo);
        FUZZ_CHECK(copy.hash() == copy.compute_hash());
        FUZZ_CHECK((copy.foxes() & copy.geese()) == 0);
        FUZZ_CHECK(count(copy.foxes()) == pos.variant().fox_count());
        copy.unmake(*found, undo);
        FUZZ_CHECK(copy == pos);
        FUZZ_CHECK(copy.hash() == pos.hash());
    } else {
        FUZZ_CHECK(!listed);
        FUZZ_CHECK(found.error().code == ErrorCode::kIllegalMove ||
                   found.error().code == ErrorCode::kGameOver);
        FUZZ_CHECK(!found.error().message.empty());
    }
}

void check_position(const Variant& variant, std::string_view code, std::string_view input) {
    Result<Position> parsed = parse_position_code(variant, code);
    if (!parsed.ok()) {
        FUZZ_CHECK(parsed.error().code == ErrorCode::kInvalidPosition);
        FUZZ_CHECK(!parsed.error().message.empty());
        return;
    }
    const Position& pos = *parsed;
    FUZZ_CHECK(count(pos.foxes()) == variant.fox_count());
    FUZZ_CHECK(pos.geese_count() <= variant.start_geese_count());
    FUZZ_CHECK((pos.foxes() & pos.geese()) == 0);
    FUZZ_CHECK((pos.occupied() & ~pos.board().all_points()) == 0);
    FUZZ_CHECK(pos.quiet_plies() >= 0 && pos.quiet_plies() <= 100);
    FUZZ_CHECK(pos.ply() >= 0 && pos.ply() <= kMaxPly);
    FUZZ_CHECK(pos.hash() == pos.compute_hash());

    // format(parse(x)) parses again to the same position and formats the same.
    const std::string canonical = format_position_code(pos);
    Result<Position> again = parse_position_code(variant, canonical);
    FUZZ_CHECK(again.ok());
    FUZZ_CHECK(*again == pos);
    FUZZ_CHECK(format_position_code(*again) == canonical);

    const GameStatus status = evaluate_status(pos, 0);
    FUZZ_CHECK(evaluate_status(pos, 2).over());
    FUZZ_CHECK(has_legal_move(pos) == (count_legal_moves(pos) > 0));

    // Every generated move is accepted by find_legal_move as written.
    std::size_t moves = 0;
    for_each_legal_move(pos, [&](const Move& m) {
        if (++moves > kMaxMovesChecked) return;
        const std::string written = format_move(pos.board(), m);
        Result<MovePath> path = parse_move(pos.board(), written);
        FUZZ_CHECK(path.ok());
        Result<Move> found = find_legal_move(pos, *path);
        FUZZ_CHECK(found.ok());
        FUZZ_CHECK(*found == m);
        FUZZ_CHECK(found->captured == m.captured);
    });
    FUZZ_CHECK(moves == count_legal_moves(pos));
    if (status.reason == EndReason::kGeeseBelowThreshold || status.reason == EndReason::kPenFilled)
        FUZZ_CHECK(moves == 0);
}

void check_move(const Board& board, std::string_view text, std::string_view input) {
    Result<MovePath> parsed = parse_move(board, text);
    if (!parsed.ok()) {
        FUZZ_CHECK(parsed.error().code == ErrorCode::kInvalidNotation);
        FUZZ_CHECK(!parsed.error().message.empty());
        return;
    }
    const MovePath& path = *parsed;
    FUZZ_CHECK(path.count >= 2 && path.count <= kMaxJumps + 1);
    FUZZ_CHECK(path.jump || path.count == 2);
    for (int i = 0; i < path.count; ++i)
        FUZZ_CHECK(path.points[i] < board.point_count());

    // format(parse(x)) parses again to the same path.
    const std::string canonical = format_path(board, path);
    Result<MovePath> again = parse_move(board, canonical);
    FUZZ_CHECK(again.ok());
    FUZZ_CHECK(same_path(*again, path));
    FUZZ_CHECK(format_path(board, *again) == canonical);

    // Against the start position of every configuration on this board.
    for (const Variant* variant : Variant::all()) {
        if (&variant->board() != &board) continue;
        check_against_generator(Position(*variant), path, input);
    }
}

// A record is refused with its place and a message, or parses to one whose
// canonical text parses back to the same record, replayed alike.
void check_record(std::string_view input) {
    const auto parsed = parse_record(input);
    if (!parsed.ok()) {
        const RecordError& e = parsed.error();
        FUZZ_CHECK(e.line >= 1 && e.column >= 1);
        FUZZ_CHECK(!e.message.empty());
        FUZZ_CHECK(!record_problem_name(e.problem).empty());
        return;
    }
    FUZZ_CHECK(parsed->played.size() == parsed->record.moves.size());
    const std::string canonical = format_record(parsed->record);
    const auto again = parse_record(canonical);
    FUZZ_CHECK(again.ok());
    FUZZ_CHECK(again->record == parsed->record);
    FUZZ_CHECK(format_record(again->record) == canonical);
    FUZZ_CHECK(again->played.size() == parsed->played.size());
}

}  // namespace

void run_parse_fuzz_case(const std::uint8_t* data, std::size_t size) {
    const std::string_view input(reinterpret_cast<const char*>(data), size);

    for (const Variant* variant : Variant::all())
        check_position(*variant, input, input);
    check_move(Board::cross33(), input, input);
    check_move(Board::cross45(), input, input);
    check_record(input);

    // "<code>\n<move>": the move against the position, directly and in a Game.
    const std::size_t newline = input.find('\n');
    if (newline == std::string_view::npos) return;
    const std::string_view code = input.substr(0, newline);
    const std::string_view move = input.substr(newline + 1);
    for (const Variant* variant : Variant::all()) {
        Result<Position> pos = parse_position_code(*variant, code);
        if (!pos.ok()) continue;
        Result<MovePath> path = parse_move(variant->board(), move);
        if (path.ok()) check_against_generator(*pos, *path, input);

        // Game::play refuses a decided game and otherwise plays exactly what
        // find_legal_move accepts, changing nothing when it refuses.
        Game game(*pos);
        const std::string before = format_position_code(game.position());
        const GameStatus status_before = game.status();
        Result<Move> played = game.play(move);
        if (path.ok()) {
            FUZZ_CHECK(played.ok() == (!status_before.over() && find_legal_move(*pos, *path).ok()));
        } else {
            FUZZ_CHECK(!played.ok() && played.error().code == ErrorCode::kInvalidNotation);
        }
        if (played.ok()) {
            FUZZ_CHECK(game.position().ply() == pos->ply() + 1);
            FUZZ_CHECK(game.position().side_to_move() != pos->side_to_move());
        } else {
            FUZZ_CHECK(format_position_code(game.position()) == before);
            FUZZ_CHECK(game.status() == status_before);
            if (status_before.over()) {
                FUZZ_CHECK(played.error().code == ErrorCode::kGameOver ||
                           played.error().code == ErrorCode::kInvalidNotation);
            }
        }
    }
}

}  // namespace foxgeese::fuzz
