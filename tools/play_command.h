// foxgeese play [GAME_ID]: a game in the terminal for the holder of a seat
// token. It asks the server which game and seat the token holds (GetSeat),
// follows the game with WatchGame (resuming with from_ply when the stream
// breaks) and shows the opponent's moves, draw offers and comings and goings
// as they happen; it reads a command from the input when the token's side is
// to move (a both-seats token plays both sides). Works with piped input: a
// move read early waits for its turn, so a script can pipe a whole game in.
#pragma once

#include "command_line.h"

namespace foxgeese::cli {

// Registers `play [GAME_ID]` (the game, if given, must be the token's). With piped input each line
// read is repeated after its prompt, so a transcript reads like a session typed at a terminal.
void add_play_command(CommandLine& line);

}  // namespace foxgeese::cli
