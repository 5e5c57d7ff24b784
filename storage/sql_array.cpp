#include "storage/sql_array.h"

namespace foxgeese::storage {

void SqlArray::separate() {
    elements_ += elements_.empty() ? '{' : ',';
}

SqlArray& SqlArray::add(const std::string& text) {
    // Quoted, so that nothing in it (a comma, a brace, a space, the word
    // NULL) reads as syntax; inside the quotes only " and \ are escaped.
    separate();
    elements_ += '"';
    for (const char c : text) {
        if (c == '"' || c == '\\') elements_ += '\\';
        elements_ += c;
    }
    elements_ += '"';
    return *this;
}

SqlArray& SqlArray::add(std::int64_t number) {
    separate();
    elements_ += std::to_string(number);
    return *this;
}

SqlArray& SqlArray::add(const std::optional<std::string>& text) {
    return text ? add(*text) : add_null();
}

SqlArray& SqlArray::add(const std::optional<std::int64_t>& number) {
    return number ? add(*number) : add_null();
}

SqlArray& SqlArray::add_null() {
    separate();
    elements_ += "NULL";
    return *this;
}

}  // namespace foxgeese::storage
