// A prepared statement whose parameters have names. libpqxx 6.4 (Debian 12)
// binds parameters by position only, so the SQL names them (:game_id) and
// they are numbered once, when the statement is defined; each call then
// binds its values by name, and a value left out is an error, not a shifted
// column.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <optional>
#include <pqxx/binarystring>
#include <pqxx/connection>
#include <pqxx/result>
#include <pqxx/strconv>
#include <pqxx/transaction_base>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace foxgeese::storage {

class NamedStatement {
  public:
    // `sql` names each parameter :name (lowercase letters, digits and _; a
    // `::` cast and quoted text are left alone). The names in `binary` are
    // bytea values, sent as they are rather than at twice their size as
    // text. Throws std::invalid_argument for a binary name the SQL lacks.
    NamedStatement(std::string name, std::string_view sql,
                   std::initializer_list<std::string_view> binary = {});

    const std::string& name() const { return name_; }
    // The SQL as PostgreSQL gets it: $1, $2, ... (text values first).
    const std::string& sql() const { return sql_; }
    void prepare(pqxx::connection& conn) const { conn.prepare(name_, sql_); }

    // The values of one execution, set by name.
    class Call {
      public:
        explicit Call(const NamedStatement& statement);

        // A text value: NULL for an empty optional; an enum as its number.
        template <class T>
        Call& set(std::string_view name, const T& value) {
            text(name) = as_text(value);
            return *this;
        }
        // A bytea value.
        Call& set(std::string_view name, const pqxx::binarystring& value);

        // Runs the statement; std::logic_error if a parameter has no value.
        pqxx::result exec(pqxx::transaction_base& tx) const;

      private:
        template <class T>
        static std::optional<std::string> as_text(const T& value) {
            if constexpr (std::is_enum_v<T>) {
                return std::to_string(static_cast<std::underlying_type_t<T>>(value));
            } else if constexpr (is_optional<T>::value) {
                if (!value) return std::nullopt;
                return as_text(*value);
            } else {
                return pqxx::to_string(value);
            }
        }
        template <class T>
        struct is_optional : std::false_type {};
        template <class T>
        struct is_optional<std::optional<T>> : std::true_type {};

        std::optional<std::string>& text(std::string_view name);

        const NamedStatement& statement_;
        std::vector<std::optional<std::string>> texts_;
        std::vector<std::optional<pqxx::binarystring>> binaries_;
        std::vector<bool> given_;  // by parameter, texts first
    };
    Call call() const { return Call(*this); }

  private:
    struct Parameter {
        std::string name;
        bool binary = false;
        std::size_t slot = 0;  // among the text values, or among the binary ones
    };
    const Parameter& parameter(std::string_view name) const;

    std::string name_;
    std::string sql_;
    std::vector<Parameter> parameters_;  // in the order of their numbers
    std::size_t text_count_ = 0;
};

}  // namespace foxgeese::storage
