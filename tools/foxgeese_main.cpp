// foxgeese: the command-line program. Engine commands work offline; client
// commands talk to a running foxgeese-server.
#include <unistd.h>

#include <iostream>
#include <string>
#include <string_view>

#include "command_line.h"
#include "engine_commands.h"
#include "tablebase_commands.h"
#ifdef FOXGEESE_CLIENT_COMMANDS
#include "client_commands.h"
#endif

namespace {

constexpr std::string_view kUsage = R"(usage: foxgeese COMMAND [options]

Engine commands (no server needed):
  perft  --variant V [--geese N] [--sideways] [--position CODE] [--divide] DEPTH
  moves  --variant V [--geese N] [--sideways] --position CODE
  replay --variant V [--geese N] [--sideways] [--position CODE] [FILE|-]
                                    (bare moves, one a line; stdin without FILE)
  replay [FILE|-]                   (a game record: docs/game-records.md)
  analyze --variant V [--geese N] [--sideways] --position CODE
          [--depth N | --time S] [--lines K]    (default: 1 s, one line)
  tablebase build --geese N --dir DIR   (standard, forward-only geese: exact
                                         values of every position, 4..N geese)
  tablebase stats --dir DIR
  tablebase probe --dir DIR --position CODE

Variants: standard (options --geese 13|15|17, --sideways), big_cross, two_foxes.
)"
#ifdef FOXGEESE_CLIENT_COMMANDS
                                    R"(
Client commands (talk to a foxgeese-server):
  create --variant V [--geese N] [--sideways] [--position CODE]
         [--seat fox|geese|random|both] [--public] [--bot LEVEL]
  join GAME_ID [--invite CODE]
  show GAME_ID
  moves GAME_ID                                 (the game replayed, ply by ply)
  move GAME_ID MOVE [--expected-ply N] [--request-id ID]
  resign GAME_ID
  offer-draw GAME_ID
  respond-draw GAME_ID accept|decline
  play GAME_ID                                  (an interactive game)
  export GAME_ID                                (the game as a record)
  import FILE|- [--public]                      (stores a record, prints the game)

  Every client command takes --server HOST:PORT (default $FOXGEESE_SERVER,
  else localhost:50051) and --token TOKEN (default $FOXGEESE_TOKEN), the seat
  token that create and join print; move, resign, the draw commands and play
  need it. Exit status: 1 when the server refuses (foxgeese: REASON: message)
  or cannot be reached, 2 for bad arguments.
)"
#endif
    ;

}  // namespace

int main(int argc, char** argv) {
    std::ios::sync_with_stdio(false);
    namespace cli = foxgeese::cli;
    cli::CommandLine line(cli::Io{std::cin, std::cout, std::cerr, isatty(STDIN_FILENO) == 0});
    cli::add_engine_commands(line);
    cli::add_tablebase_commands(line);
#ifdef FOXGEESE_CLIENT_COMMANDS
    cli::add_client_commands(line);
#endif
    return line.run(argc, argv, std::string(kUsage));
}
