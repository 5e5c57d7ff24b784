// The engine commands of the foxgeese program: perft, moves, replay, analyze.
// They need no server. Output is for scripts: keep its format stable.
#pragma once

#include <iosfwd>
#include <span>
#include <string_view>

namespace foxgeese::cli {

// Exit status for bad arguments, bad input and illegal moves.
constexpr int kUsageError = 2;

int run_perft(std::span<const std::string_view> args, std::ostream& out, std::ostream& err);
int run_moves(std::span<const std::string_view> args, std::ostream& out, std::ostream& err);
int run_replay(std::span<const std::string_view> args, std::istream& in, std::ostream& out,
               std::ostream& err);
// The best moves by the engine's search: per line its rank, score, depth and
// principal variation. With --depth the output depends on the arguments alone.
int run_analyze(std::span<const std::string_view> args, std::ostream& out, std::ostream& err);

}  // namespace foxgeese::cli
