// The engine commands of the foxgeese program: perft, moves, replay, analyze.
// They need no server. Output is for scripts: keep its format stable.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>

#include "command_line.h"
#include "engine/rules/position.h"
#include "engine/rules/variant.h"

namespace foxgeese::cli {

// The variant flags of the engine commands (and of `create`), as given; they
// are checked when used, so that a bad one gets this program's message.
struct VariantFlags {
    std::string variant;
    std::string geese;
    bool sideways = false;
    std::string position;
    const CLI::Option* geese_given = nullptr;
    const CLI::Option* position_given = nullptr;
};

// --variant V [--geese N] [--sideways] [--position CODE]
void add_variant_flags(CLI::App& command, VariantFlags& flags);

// The variant's options from the flags, or what is wrong with them ("").
std::string variant_options(const VariantFlags& flags, VariantOptions& options);

// perft, moves (the engine's, or the client's with a GAME_ID), replay and
// analyze.
void add_engine_commands(CommandLine& line);

}  // namespace foxgeese::cli
