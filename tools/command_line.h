// The foxgeese program's command line, read by CLI11: one subcommand per
// command, each registered with its flags and the function that runs it.
// Errors in the words of the old parsers: one line "foxgeese: ..." and exit
// status kUsageError.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

namespace foxgeese::cli {

// Exit status for bad arguments, bad input and illegal moves.
constexpr int kUsageError = 2;

// Where a command reads and writes.
struct Io {
    std::istream& in;
    std::ostream& out;
    std::ostream& err;
    // Standard input is not a terminal (a script pipes the moves in).
    bool piped_input = false;
};

// Writes "foxgeese: <message>" to err and returns kUsageError.
int usage_error(std::ostream& err, const std::string& message);

class CommandLine {
  public:
    explicit CommandLine(Io io);

    // A command: `run` is called when it is the one chosen; its positional
    // arguments land in `positional` (the command checks their count).
    CLI::App& add(const std::string& name, std::vector<std::string>& positional,
                  std::function<int()> run);

    // Replaces what an added command runs.
    void replace_run(const std::string& name, std::function<int()> run);

    // Parses and runs the chosen command; prints `usage_text` for help or
    // for no command at all.
    int run(int argc, const char* const* argv, const std::string& usage_text);

    Io& io() { return io_; }

  private:
    Io io_;
    CLI::App app_;
    struct Command {
        CLI::App* app;
        std::function<int()> run;
    };
    std::vector<Command> commands_;
};

// "usage: foxgeese <usage>" as a usage error, when the count is not `wanted`.
bool wrong_count(const std::vector<std::string>& positional, std::size_t wanted,
                 const std::string& usage, std::ostream& err, int& status);

// The value of an option that was given, if it was.
template <class T>
const T* given(const CLI::Option* option, const T& value) {
    return option->count() > 0 ? &value : nullptr;
}

}  // namespace foxgeese::cli
