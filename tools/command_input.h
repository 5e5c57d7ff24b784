// Where a command reads its text: the file named on its command line, or
// standard input for "-".
#pragma once

#include <cstddef>
#include <fstream>
#include <istream>
#include <string>

namespace foxgeese::cli {

class CommandInput {
  public:
    // Opens `path`; "-" reads `standard_input` instead.
    CommandInput(const std::string& path, std::istream& standard_input);

    // Empty when the input can be read; else why not, for the user.
    const std::string& error() const { return error_; }
    std::istream& stream() { return file_.is_open() ? file_ : standard_input_; }

  private:
    std::istream& standard_input_;
    std::ifstream file_;
    std::string error_;
};

// Appends the rest of `in` to `text`, but at most `limit` bytes in all;
// false when there was more (what was read stays in `text`).
bool read_at_most(std::istream& in, std::size_t limit, std::string& text);

}  // namespace foxgeese::cli
