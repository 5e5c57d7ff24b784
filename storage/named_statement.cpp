#include "storage/named_statement.h"

#include <algorithm>
#include <pqxx/prepared_statement>
#include <stdexcept>

namespace foxgeese::storage {
namespace {

bool name_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

// Calls `on_name(position, length)` for each :name in `sql` and `on_text`
// for the text between them, in order.
template <class OnText, class OnName>
void scan(std::string_view sql, OnText&& on_text, OnName&& on_name) {
    std::size_t from = 0;
    bool quoted = false;
    for (std::size_t i = 0; i < sql.size(); ++i) {
        const char c = sql[i];
        if (c == '\'') quoted = !quoted;
        if (quoted || c != ':') continue;
        if (i + 1 < sql.size() && sql[i + 1] == ':') {
            ++i;  // a cast
            continue;
        }
        std::size_t end = i + 1;
        while (end < sql.size() && name_char(sql[end]))
            ++end;
        if (end == i + 1) continue;
        on_text(sql.substr(from, i - from));
        on_name(sql.substr(i + 1, end - i - 1));
        from = end;
        i = end - 1;
    }
    on_text(sql.substr(from));
}

}  // namespace

NamedStatement::NamedStatement(std::string name, std::string_view sql,
                               std::initializer_list<std::string_view> binary)
    : name_(std::move(name)) {
    // The names in order of their first use, text ones numbered first.
    std::vector<std::string> seen;
    scan(
        sql, [](std::string_view) {},
        [&](std::string_view found) {
            if (std::find(seen.begin(), seen.end(), found) == seen.end()) seen.emplace_back(found);
        });
    auto is_binary = [&](const std::string& n) {
        return std::find(binary.begin(), binary.end(), n) != binary.end();
    };
    for (const std::string_view b : binary) {
        if (std::find(seen.begin(), seen.end(), b) == seen.end())
            throw std::invalid_argument(name_ + ": no parameter :" + std::string(b));
    }
    std::size_t binaries = 0;
    for (const bool want_binary : {false, true}) {
        for (const std::string& n : seen) {
            if (is_binary(n) != want_binary) continue;
            parameters_.push_back(
                Parameter{n, want_binary, want_binary ? binaries++ : text_count_++});
        }
    }
    scan(
        sql, [&](std::string_view text) { sql_ += text; },
        [&](std::string_view found) {
            const auto at = std::find_if(parameters_.begin(), parameters_.end(),
                                         [&](const Parameter& p) { return p.name == found; });
            sql_ += "$" + std::to_string(at - parameters_.begin() + 1);
        });
}

const NamedStatement::Parameter& NamedStatement::parameter(std::string_view name) const {
    for (const Parameter& p : parameters_) {
        if (p.name == name) return p;
    }
    throw std::logic_error(name_ + " has no parameter :" + std::string(name));
}

NamedStatement::Call::Call(const NamedStatement& statement)
    : statement_(statement),
      texts_(statement.text_count_),
      binaries_(statement.parameters_.size() - statement.text_count_),
      given_(statement.parameters_.size(), false) {}

std::optional<std::string>& NamedStatement::Call::text(std::string_view name) {
    const Parameter& p = statement_.parameter(name);
    if (p.binary) throw std::logic_error(statement_.name_ + ": :" + p.name + " is bytea");
    given_[p.slot] = true;
    return texts_[p.slot];
}

NamedStatement::Call& NamedStatement::Call::set(std::string_view name,
                                                const pqxx::binarystring& value) {
    const Parameter& p = statement_.parameter(name);
    if (!p.binary) throw std::logic_error(statement_.name_ + ": :" + p.name + " is not bytea");
    given_[statement_.text_count_ + p.slot] = true;
    binaries_[p.slot].emplace(value);
    return *this;
}

pqxx::result NamedStatement::Call::exec(pqxx::transaction_base& tx) const {
    for (std::size_t i = 0; i < given_.size(); ++i) {
        if (!given_[i]) {
            throw std::logic_error(statement_.name_ +
                                   ": no value for :" + statement_.parameters_[i].name);
        }
    }
    std::vector<pqxx::binarystring> binaries;
    binaries.reserve(binaries_.size());
    for (const auto& b : binaries_)
        binaries.push_back(*b);
    return tx.exec_prepared(statement_.name_, pqxx::prepare::make_dynamic_params(texts_),
                            pqxx::prepare::make_dynamic_params(binaries));
}

}  // namespace foxgeese::storage
