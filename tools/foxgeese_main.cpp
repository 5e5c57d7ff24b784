// foxgeese: the command-line program. Engine commands work offline; client
// commands talk to a running foxgeese-server.
#include <unistd.h>

#include <iostream>
#include <string_view>
#include <vector>

#include "engine_commands.h"
#ifdef FOXGEESE_CLIENT_COMMANDS
#include "client_commands.h"
#include "play_command.h"
#endif

namespace {

constexpr std::string_view kUsage = R"(usage: foxgeese COMMAND [options]

Engine commands (no server needed):
  perft  --variant V [--geese N] [--sideways] [--position CODE] [--divide] DEPTH
  moves  --variant V [--geese N] [--sideways] --position CODE
  replay --variant V [--geese N] [--sideways] [--position CODE]   (moves on stdin)
  analyze --variant V [--geese N] [--sideways] --position CODE
          [--depth N | --time S] [--lines K]    (default: 1 s, one line)

Variants: standard (options --geese 13|15|17, --sideways), big_cross, two_foxes.
)"
#ifdef FOXGEESE_CLIENT_COMMANDS
                                    R"(
Client commands (talk to a foxgeese-server):
  create --variant V [--geese N] [--sideways] [--position CODE]
         [--seat fox|geese|random|both] [--public]
  join GAME_ID [--invite CODE]
  show GAME_ID
  moves GAME_ID                                 (the game replayed, ply by ply)
  move GAME_ID MOVE [--expected-ply N] [--request-id ID]
  resign GAME_ID
  offer-draw GAME_ID
  respond-draw GAME_ID accept|decline
  play GAME_ID                                  (an interactive game)

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
    const std::vector<std::string_view> args(argv + 1, argv + argc);
    if (args.empty() || args[0] == "help" || args[0] == "--help" || args[0] == "-h") {
        (args.empty() ? std::cerr : std::cout) << kUsage;
        return args.empty() ? foxgeese::cli::kUsageError : 0;
    }
    const std::span<const std::string_view> rest(args.begin() + 1, args.end());
    namespace cli = foxgeese::cli;
#ifdef FOXGEESE_CLIENT_COMMANDS
    if (args[0] == "moves" && cli::is_client_moves(rest))
        return cli::run_game_moves(rest, std::cout, std::cerr);
#endif
    if (args[0] == "perft") return cli::run_perft(rest, std::cout, std::cerr);
    if (args[0] == "moves") return cli::run_moves(rest, std::cout, std::cerr);
    if (args[0] == "replay") return cli::run_replay(rest, std::cin, std::cout, std::cerr);
    if (args[0] == "analyze") return cli::run_analyze(rest, std::cout, std::cerr);
#ifdef FOXGEESE_CLIENT_COMMANDS
    if (args[0] == "create") return cli::run_create(rest, std::cout, std::cerr);
    if (args[0] == "join") return cli::run_join(rest, std::cout, std::cerr);
    if (args[0] == "show") return cli::run_show(rest, std::cout, std::cerr);
    if (args[0] == "move") return cli::run_move(rest, std::cout, std::cerr);
    if (args[0] == "resign") return cli::run_resign(rest, std::cout, std::cerr);
    if (args[0] == "offer-draw") return cli::run_offer_draw(rest, std::cout, std::cerr);
    if (args[0] == "respond-draw") return cli::run_respond_draw(rest, std::cout, std::cerr);
    if (args[0] == "play") {
        return cli::run_play(rest, std::cin, std::cout, std::cerr, isatty(STDIN_FILENO) == 0);
    }
#endif
    std::cerr << "foxgeese: unknown command '" << args[0] << "'\n" << kUsage;
    return cli::kUsageError;
}
