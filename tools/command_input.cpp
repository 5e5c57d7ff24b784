#include "command_input.h"

#include <cerrno>
#include <cstring>

namespace foxgeese::cli {

CommandInput::CommandInput(const std::string& path, std::istream& standard_input)
    : standard_input_(standard_input) {
    if (path == "-") return;
    file_.open(path, std::ios::binary);
    if (!file_.is_open()) error_ = "cannot read " + path + ": " + std::strerror(errno);
}

bool read_at_most(std::istream& in, std::size_t limit, std::string& text) {
    char buffer[4096];
    while (text.size() <= limit && in.read(buffer, sizeof buffer).gcount() > 0)
        text.append(buffer, static_cast<std::size_t>(in.gcount()));
    if (text.size() <= limit) return true;
    text.resize(limit);
    return false;
}

}  // namespace foxgeese::cli
