// foxgeese play GAME_ID: a game in the terminal for the holder of a seat
// token. It shows the board and the legal moves, reads a command from the
// input when the token's side is to move (a both-seats token plays both
// sides) and polls the server every second while the opponent thinks. Works
// with piped input, so a script can play a game line by line.
#pragma once

#include <iosfwd>
#include <span>
#include <string_view>

namespace foxgeese::cli {

// `echo_input` repeats each line read after its prompt, so a transcript of a
// session with piped input reads like one typed at a terminal.
int run_play(std::span<const std::string_view> args, std::istream& in, std::ostream& out,
             std::ostream& err, bool echo_input);

}  // namespace foxgeese::cli
