// foxgeese play GAME_ID: a game in the terminal for the holder of a seat
// token. It shows the board and the legal moves, reads a command from the
// input when the token's side is to move (a both-seats token plays both
// sides) and polls the server every second while the opponent thinks. Works
// with piped input, so a script can play a game line by line.
#pragma once

#include "command_line.h"

namespace foxgeese::cli {

// Registers `play GAME_ID`. With piped input each line read is repeated
// after its prompt, so a transcript reads like a session typed at a terminal.
void add_play_command(CommandLine& line);

}  // namespace foxgeese::cli
