// The client commands of the foxgeese program: create, join, show, move,
// moves, resign, offer-draw, respond-draw, export and import talk to a running
// foxgeese-server over gRPC. Exit status: 0, kServerError (1) when the server
// refuses the call or cannot be reached (one line "foxgeese: REASON: message"
// on stderr), kUsageError (2) for bad arguments.
#pragma once

#include <iosfwd>
#include <string>
#include <string_view>

#include "client_connection.h"
#include "command_line.h"
#include "engine/rules/variant.h"
#include "foxgeese/v1/game.pb.h"
#include "foxgeese/v1/seat.pb.h"

namespace foxgeese::cli {

// Registers create, join, show, move, resign, offer-draw, respond-draw,
// play, export and import.
void add_client_commands(CommandLine& line);

// `moves GAME_ID`: the game replayed, ply by ply.
int run_game_moves(const std::string& game_id, const ServerFlags& server, Io& io);

// The engine's variant for a game (to draw its positions, to know its
// board); nullptr for a variant this client does not know.
const Variant* variant_of(const v1::Game& game);

// Names as the commands print them: "fox", "geese", "both"; "active";
// "geese_win"; "resignation" (the engine's names, and the proto enums' in
// lower case).
std::string side_name(v1::Side side);
std::string seat_name(v1::Seat seat);
std::string state_name(v1::GameState state);
std::string result_name(v1::GameResult result);
std::string end_reason_name(v1::EndReason reason);

// The outcome in words, e.g. "the geese win (resignation)".
std::string outcome_text(const v1::Game& game);

// A game as the commands show it: the board, then "key: value" lines for the
// variant, state, side to move, ply, last move, result and legal moves.
void write_game(const v1::Game& game, std::ostream& out);

}  // namespace foxgeese::cli
