// Statements with named parameters: numbered once, text values before bytea
// ones, casts and quoted text left alone, and a call that names what the
// statement lacks, or leaves a parameter out, refused (no database needed:
// what the database runs is the SQL checked here).
#include "storage/named_statement.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace foxgeese::storage {
namespace {

TEST(NamedStatement, NamesBecomeNumbersInTheOrderOfTheirFirstUse) {
    const NamedStatement s("s",
                           "UPDATE games SET ply = :ply WHERE game_id = :game_id::uuid"
                           " AND ply = :ply - 1");
    EXPECT_EQ(s.sql(), "UPDATE games SET ply = $1 WHERE game_id = $2::uuid AND ply = $1 - 1");
}

TEST(NamedStatement, ByteaParametersComeAfterTheTextOnes) {
    const NamedStatement s("s", "INSERT INTO t VALUES (:body::bytea, :id, :reply, :seq)",
                           {"body", "reply"});
    EXPECT_EQ(s.sql(), "INSERT INTO t VALUES ($3::bytea, $1, $4, $2)");
}

TEST(NamedStatement, CastsAndQuotedTextAreNotParameters) {
    const NamedStatement s(
        "s", "SELECT x::text::bigint, 'a:b', 'foxgeese.bot_client:' || :key, interval '1 day'");
    EXPECT_EQ(s.sql(),
              "SELECT x::text::bigint, 'a:b', 'foxgeese.bot_client:' || $1, interval '1 day'");
}

TEST(NamedStatement, ABinaryNameTheSqlLacksIsRefused) {
    EXPECT_THROW(NamedStatement("s", "SELECT :a", {"b"}), std::invalid_argument);
}

TEST(NamedStatement, ACallNamingWhatTheStatementLacksIsRefused) {
    const NamedStatement s("s", "SELECT :a, :b::bytea", {"b"});
    NamedStatement::Call call = s.call();
    EXPECT_THROW(call.set("c", 1), std::logic_error);
    EXPECT_THROW(call.set("b", 1), std::logic_error);  // bytea, not text
    EXPECT_THROW(call.set("a", pqxx::binarystring(std::string("x"))), std::logic_error);
    EXPECT_NO_THROW(
        call.set("a", std::optional<int>()).set("b", pqxx::binarystring(std::string("x"))));
}

}  // namespace
}  // namespace foxgeese::storage
