// foxgeese: the command-line program. Engine commands work offline.
#include <iostream>
#include <string_view>
#include <vector>

#include "engine_commands.h"

namespace {

constexpr std::string_view kUsage = R"(usage: foxgeese COMMAND [options]

Engine commands (no server needed):
  perft  --variant V [--geese N] [--sideways] [--position CODE] [--divide] DEPTH
  moves  --variant V [--geese N] [--sideways] --position CODE
  replay --variant V [--geese N] [--sideways] [--position CODE]   (moves on stdin)

Variants: standard (options --geese 13|15|17, --sideways), big_cross, two_foxes.
)";

}  // namespace

int main(int argc, char** argv) {
    std::ios::sync_with_stdio(false);
    const std::vector<std::string_view> args(argv + 1, argv + argc);
    if (args.empty() || args[0] == "help" || args[0] == "--help" || args[0] == "-h") {
        (args.empty() ? std::cerr : std::cout) << kUsage;
        return args.empty() ? foxgeese::cli::kUsageError : 0;
    }
    const std::span<const std::string_view> rest(args.begin() + 1, args.end());
    if (args[0] == "perft") return foxgeese::cli::run_perft(rest, std::cout, std::cerr);
    if (args[0] == "moves") return foxgeese::cli::run_moves(rest, std::cout, std::cerr);
    if (args[0] == "replay") return foxgeese::cli::run_replay(rest, std::cin, std::cout, std::cerr);
    std::cerr << "foxgeese: unknown command '" << args[0] << "'\n" << kUsage;
    return foxgeese::cli::kUsageError;
}
