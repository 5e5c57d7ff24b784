// A PostgreSQL array literal ({"a","b",NULL}) built one element at a time,
// for statements that take one array per column to write many rows at
// once (unnest). Written here because libpqxx 6.4 (Debian 12) parses
// arrays but cannot write them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace foxgeese::storage {

class SqlArray {
  public:
    SqlArray& add(const std::string& text);
    SqlArray& add(std::int64_t number);
    SqlArray& add(const std::optional<std::string>& text);
    SqlArray& add(const std::optional<std::int64_t>& number);
    SqlArray& add_null();

    // The literal: "{}" when nothing was added.
    std::string text() const { return elements_.empty() ? "{}" : elements_ + "}"; }

  private:
    void separate();
    std::string elements_;  // "{" and the elements so far, comma separated
};

}  // namespace foxgeese::storage
