#include "command_line.h"

#include <ostream>

namespace foxgeese::cli {

int usage_error(std::ostream& err, const std::string& message) {
    err << "foxgeese: " << message << "\n";
    return kUsageError;
}

bool wrong_count(const std::vector<std::string>& positional, std::size_t wanted,
                 const std::string& usage, std::ostream& err, int& status) {
    if (positional.size() == wanted) return false;
    status = usage_error(err, "usage: foxgeese " + usage);
    return true;
}

CommandLine::CommandLine(Io io) : io_(io), app_("foxgeese") {
    app_.set_help_flag();  // help is the usage text, printed by run()
    app_.allow_extras();
    app_.require_subcommand(0, 1);
}

CLI::App& CommandLine::add(const std::string& name, std::vector<std::string>& positional,
                           std::function<int()> run) {
    CLI::App* command = app_.add_subcommand(name);
    command->allow_extras();
    command->add_option("arguments", positional);
    commands_.push_back({command, std::move(run)});
    return *command;
}

void CommandLine::replace_run(const std::string& name, std::function<int()> run) {
    for (Command& command : commands_) {
        if (command.app->get_name() == name) command.run = std::move(run);
    }
}

int CommandLine::run(int argc, const char* const* argv, const std::string& usage_text) {
    const std::string first = argc > 1 ? argv[1] : "";
    if (argc < 2) {
        io_.err << usage_text;
        return kUsageError;
    }
    if (first == "help" || first == "--help" || first == "-h") {
        io_.out << usage_text;
        return 0;
    }
    try {
        app_.parse(argc, argv);
    } catch (const CLI::ArgumentMismatch& e) {
        // "--variant: 1 required TEXT missing": the flag is the prefix.
        const std::string what = e.what();
        return usage_error(io_.err, what.substr(0, what.find(':')) + " needs a value");
    } catch (const CLI::ParseError& e) {
        return usage_error(io_.err, e.what());
    }
    for (const Command& command : commands_) {
        if (!command.app->parsed()) continue;
        const std::vector<std::string> extras = command.app->remaining();
        if (!extras.empty()) {
            const std::string& extra = extras.front();
            return usage_error(io_.err, extra.rfind("-", 0) == 0
                                            ? "unknown option " + extra.substr(0, extra.find('='))
                                            : "unexpected argument '" + extra + "'");
        }
        return command.run();
    }
    io_.err << "foxgeese: unknown command '" << first << "'\n" << usage_text;
    return kUsageError;
}

}  // namespace foxgeese::cli
