#include "service/runtime/config.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "service/runtime/embedded_postgres.h"

namespace foxgeese::service {
namespace {

using Env = std::map<std::string, std::string>;

// Every variable the server reads, so that a test sees only the ones it sets.
const std::vector<std::string>& server_variables() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> found;
        const std::string help = server_help_text();
        for (std::size_t at = help.find("env "); at != std::string::npos;
             at = help.find("env ", at + 4)) {
            const std::size_t end = help.find(',', at);
            found.push_back(help.substr(at + 4, end - at - 4));
        }
        return found;
    }();
    return names;
}

// The process environment holding exactly `env` of the server's variables
// while it lives; what was there before comes back after.
class ScopedEnvironment {
  public:
    explicit ScopedEnvironment(const Env& env) {
        for (const std::string& name : server_variables()) {
            if (const char* value = std::getenv(name.c_str())) saved_[name] = value;
            unsetenv(name.c_str());
        }
        for (const auto& [name, value] : env)
            setenv(name.c_str(), value.c_str(), 1);
    }
    ~ScopedEnvironment() {
        for (const std::string& name : server_variables())
            unsetenv(name.c_str());
        for (const auto& [name, value] : saved_)
            setenv(name.c_str(), value.c_str(), 1);
    }

  private:
    Env saved_;
};

ServerConfig parse(const std::vector<std::string>& args, const Env& env = {}) {
    ScopedEnvironment scoped(env);
    std::vector<const char*> argv = {"foxgeese-server"};
    for (const std::string& arg : args)
        argv.push_back(arg.c_str());
    return parse_server_config(static_cast<int>(argv.size()), argv.data());
}

std::string error_of(const std::vector<std::string>& args, const Env& env = {}) {
    try {
        parse(args, env);
    } catch (const ConfigError& e) {
        return e.what();
    }
    ADD_FAILURE() << "no ConfigError";
    return {};
}

TEST(ConfigTest, DefaultsWithNoFlagsAndNoEnvironment) {
    const ServerConfig config = parse({});
    EXPECT_EQ(config.command, ServerCommand::kServe);
    EXPECT_EQ(config.database_url, "");
    EXPECT_EQ(config.data_dir, EmbeddedPostgres::default_data_dir());
    EXPECT_EQ(config.grpc_port, 50051);
    EXPECT_EQ(config.http_port, 8080);
    EXPECT_EQ(config.listen_address, "0.0.0.0");
    EXPECT_EQ(config.db_pool_size, 8);
    EXPECT_EQ(config.log_level, "info");
    EXPECT_EQ(config.log_format, "text");
    EXPECT_EQ(config.drain_seconds, 20);
    EXPECT_TRUE(config.migrate_on_start);
    EXPECT_TRUE(config.web_client);  // a first run shows a page; --web-client=false: API only
    EXPECT_EQ(config.analysis_concurrency, 2);
    EXPECT_EQ(config.analyses_per_address, 1);
    EXPECT_EQ(config.move_cache_games, 10000);
    EXPECT_EQ(config.watch_walk_threads, 0);
    EXPECT_FALSE(config.show_help);
    EXPECT_FALSE(config.show_version);
}

// One row per flag: two valid values and how to read the field back.
struct FlagCase {
    std::string flag;
    std::string env;
    std::string value;
    std::string other;
    std::function<std::string(const ServerConfig&)> read;
};

std::vector<FlagCase> flag_cases() {
    return {
        {"--database-url", "DATABASE_URL", "postgresql://db/one", "host=two dbname=x",
         [](const ServerConfig& c) { return c.database_url; }},
        {"--data-dir", "FOXGEESE_DATA_DIR", "/srv/one", "/srv/two",
         [](const ServerConfig& c) { return c.data_dir; }},
        {"--grpc-port", "FOXGEESE_GRPC_PORT", "1", "65535",
         [](const ServerConfig& c) { return std::to_string(c.grpc_port); }},
        {"--http-port", "FOXGEESE_HTTP_PORT", "80", "9090",
         [](const ServerConfig& c) { return std::to_string(c.http_port); }},
        {"--listen-address", "FOXGEESE_LISTEN_ADDRESS", "127.0.0.1",
         "::", [](const ServerConfig& c) { return c.listen_address; }},
        {"--db-pool-size", "FOXGEESE_DB_POOL_SIZE", "1", "256",
         [](const ServerConfig& c) { return std::to_string(c.db_pool_size); }},
        {"--log-level", "FOXGEESE_LOG_LEVEL", "trace", "error",
         [](const ServerConfig& c) { return c.log_level; }},
        {"--log-format", "FOXGEESE_LOG_FORMAT", "json", "text",
         [](const ServerConfig& c) { return c.log_format; }},
        {"--drain-seconds", "FOXGEESE_DRAIN_SECONDS", "0", "600",
         [](const ServerConfig& c) { return std::to_string(c.drain_seconds); }},
        {"--migrate-on-start", "FOXGEESE_MIGRATE_ON_START", "false", "true",
         [](const ServerConfig& c) { return std::string(c.migrate_on_start ? "true" : "false"); }},
        {"--web-client", "FOXGEESE_WEB_CLIENT", "true", "false",
         [](const ServerConfig& c) { return std::string(c.web_client ? "true" : "false"); }},
        {"--analysis-concurrency", "FOXGEESE_ANALYSIS_CONCURRENCY", "1", "64",
         [](const ServerConfig& c) { return std::to_string(c.analysis_concurrency); }},
        {"--analyses-per-address", "FOXGEESE_ANALYSES_PER_ADDRESS", "0", "3",
         [](const ServerConfig& c) { return std::to_string(c.analyses_per_address); }},
        {"--move-cache-games", "FOXGEESE_MOVE_CACHE_GAMES", "0", "1000000",
         [](const ServerConfig& c) { return std::to_string(c.move_cache_games); }},
        {"--analysis-wait-ms", "FOXGEESE_ANALYSIS_WAIT_MS", "0", "60000",
         [](const ServerConfig& c) { return std::to_string(c.analysis_wait_ms); }},
        {"--bot-games-per-address", "FOXGEESE_BOT_GAMES_PER_ADDRESS", "0", "10000",
         [](const ServerConfig& c) { return std::to_string(c.bot_games_per_address); }},
        {"--watch-walk-threads", "FOXGEESE_WATCH_WALK_THREADS", "1", "64",
         [](const ServerConfig& c) { return std::to_string(c.watch_walk_threads); }},
        {"--previews-per-minute", "FOXGEESE_PREVIEWS_PER_MINUTE", "0", "100000",
         [](const ServerConfig& c) { return std::to_string(c.previews_per_minute); }},
        {"--animations-per-minute", "FOXGEESE_ANIMATIONS_PER_MINUTE", "0", "10000",
         [](const ServerConfig& c) { return std::to_string(c.animations_per_minute); }},
        {"--public-url", "FOXGEESE_PUBLIC_URL", "https://play.example", "http://[::1]:8080",
         [](const ServerConfig& c) { return c.public_url; }},
    };
}

TEST(ConfigTest, EveryFlagTakesEqualsAndSpaceForms) {
    for (const FlagCase& c : flag_cases()) {
        SCOPED_TRACE(c.flag);
        EXPECT_EQ(c.read(parse({c.flag + "=" + c.value})), c.value);
        EXPECT_EQ(c.read(parse({c.flag, c.other})), c.other);
    }
}

TEST(ConfigTest, EveryFlagFallsBackToItsEnvironmentVariable) {
    for (const FlagCase& c : flag_cases()) {
        SCOPED_TRACE(c.env);
        EXPECT_EQ(c.read(parse({}, {{c.env, c.value}})), c.value);
        EXPECT_EQ(c.read(parse({}, {{c.env, c.other}})), c.other);
    }
}

TEST(ConfigTest, FlagBeatsEnvironment) {
    for (const FlagCase& c : flag_cases()) {
        SCOPED_TRACE(c.flag);
        EXPECT_EQ(c.read(parse({c.flag + "=" + c.value}, {{c.env, c.other}})), c.value);
        EXPECT_EQ(c.read(parse({c.flag, c.other}, {{c.env, c.value}})), c.other);
    }
}

TEST(ConfigTest, EmptyEnvironmentVariableCountsAsUnset) {
    const ServerConfig config = parse({}, {{"FOXGEESE_GRPC_PORT", ""}, {"DATABASE_URL", ""}});
    EXPECT_EQ(config.grpc_port, 50051);
    EXPECT_EQ(config.database_url, "");
}

TEST(ConfigTest, EmptyDatabaseUrlFlagOverridesEnvironment) {
    EXPECT_EQ(parse({"--database-url="}, {{"DATABASE_URL", "postgresql://x/y"}}).database_url, "");
}

TEST(ConfigTest, LastOccurrenceOfAFlagWins) {
    EXPECT_EQ(parse({"--grpc-port=1000", "--grpc-port", "2000"}).grpc_port, 2000);
}

TEST(ConfigTest, ValuesAreCaseInsensitive) {
    EXPECT_EQ(parse({"--log-level=WARN"}).log_level, "warn");
    EXPECT_EQ(parse({"--log-format=JSON"}).log_format, "json");
    EXPECT_FALSE(parse({"--migrate-on-start=False"}).migrate_on_start);
    EXPECT_FALSE(parse({}, {{"FOXGEESE_MIGRATE_ON_START", "0"}}).migrate_on_start);
}

TEST(ConfigTest, ABooleanFlagAloneMeansTrue) {
    const Env off = {{"FOXGEESE_WEB_CLIENT", "false"},
                     {"FOXGEESE_ACCESS_LOG", "false"},
                     {"FOXGEESE_MIGRATE_ON_START", "false"}};
    const ServerConfig config = parse({"--web-client", "--access-log", "--migrate-on-start"}, off);
    EXPECT_TRUE(config.web_client);
    EXPECT_TRUE(config.access_log);
    EXPECT_TRUE(config.migrate_on_start);
    // A command after it is the command, not the flag's value.
    const ServerConfig migrate = parse({"--web-client", "migrate"}, off);
    EXPECT_TRUE(migrate.web_client);
    EXPECT_EQ(migrate.command, ServerCommand::kMigrate);
    EXPECT_FALSE(parse({"--web-client", "off"}).web_client);
}

// Numbers are decimal, whatever CLI11's own conversion would make of them.
TEST(ConfigTest, NumbersAreDecimal) {
    EXPECT_EQ(parse({"--http-port=010"}).http_port, 10);
    EXPECT_EQ(parse({"--db-pool-size", "08"}).db_pool_size, 8);
    EXPECT_NE(error_of({"--http-port=0x50"}).find("'0x50' is not a port number"),
              std::string::npos);
}

TEST(ConfigTest, Commands) {
    EXPECT_EQ(parse({"serve"}).command, ServerCommand::kServe);
    EXPECT_EQ(parse({"migrate"}).command, ServerCommand::kMigrate);
    EXPECT_EQ(parse({"--grpc-port", "7000", "migrate"}).command, ServerCommand::kMigrate);
    EXPECT_EQ(parse({"migrate", "--log-level=debug"}).log_level, "debug");
}

TEST(ConfigTest, HelpAndVersion) {
    EXPECT_TRUE(parse({"--help"}).show_help);
    EXPECT_TRUE(parse({"-h"}).show_help);
    EXPECT_TRUE(parse({"--version"}).show_version);
    // Asking for help never fails on the rest of the line.
    EXPECT_TRUE(parse({"--grpc-port=nope", "--help"}).show_help);
    EXPECT_NE(server_version_text().find("foxgeese-server "), std::string::npos);
}

TEST(ConfigTest, HelpListsEveryFlagItsVariableAndDefault) {
    const std::string help = server_help_text();
    for (const FlagCase& c : flag_cases()) {
        EXPECT_NE(help.find(c.flag), std::string::npos) << c.flag;
        EXPECT_NE(help.find("env " + c.env), std::string::npos) << c.env;
    }
    for (const char* fact : {"default 50051", "default 8080", "default 0.0.0.0", "default 8",
                             "default info", "default text", "default 20", "default true", "serve",
                             "migrate", "--help", "--version"}) {
        EXPECT_NE(help.find(fact), std::string::npos) << fact;
    }
    EXPECT_NE(help.find("default " + EmbeddedPostgres::default_data_dir()), std::string::npos);
}

struct BadValue {
    std::string flag;
    std::string env;
    std::string value;
    std::string expected;  // part of the message
};

TEST(ConfigTest, BadValuesNameTheFlagAndTheValue) {
    const std::vector<BadValue> cases = {
        {"--grpc-port", "FOXGEESE_GRPC_PORT", "0", "port number (1..65535)"},
        {"--grpc-port", "FOXGEESE_GRPC_PORT", "65536", "port number (1..65535)"},
        {"--grpc-port", "FOXGEESE_GRPC_PORT", "abc", "port number"},
        {"--grpc-port", "FOXGEESE_GRPC_PORT", "80x", "port number"},
        {"--grpc-port", "FOXGEESE_GRPC_PORT", "-1", "port number"},
        {"--http-port", "FOXGEESE_HTTP_PORT", "99999", "port number"},
        {"--http-port", "FOXGEESE_HTTP_PORT", "+80", "port number"},
        {"--db-pool-size", "FOXGEESE_DB_POOL_SIZE", "0", "(1..256)"},
        {"--db-pool-size", "FOXGEESE_DB_POOL_SIZE", "257", "(1..256)"},
        {"--drain-seconds", "FOXGEESE_DRAIN_SECONDS", "601", "(0..600)"},
        {"--drain-seconds", "FOXGEESE_DRAIN_SECONDS", "1.5", "(0..600)"},
        {"--log-level", "FOXGEESE_LOG_LEVEL", "verbose", "trace, debug, info, warn, error"},
        {"--log-format", "FOXGEESE_LOG_FORMAT", "xml", "text, json"},
        {"--migrate-on-start", "FOXGEESE_MIGRATE_ON_START", "maybe", "true or false"},
        {"--listen-address", "FOXGEESE_LISTEN_ADDRESS", "a b", "without spaces"},
        {"--analysis-concurrency", "FOXGEESE_ANALYSIS_CONCURRENCY", "0", "(1..64)"},
        {"--analyses-per-address", "FOXGEESE_ANALYSES_PER_ADDRESS", "65", "(0..64)"},
        {"--move-cache-games", "FOXGEESE_MOVE_CACHE_GAMES", "-1", "(0..1000000)"},
        {"--analysis-wait-ms", "FOXGEESE_ANALYSIS_WAIT_MS", "60001", "(0..60000)"},
        {"--bot-games-per-address", "FOXGEESE_BOT_GAMES_PER_ADDRESS", "-1", "(0..10000)"},
        {"--move-cache-games", "FOXGEESE_MOVE_CACHE_GAMES", "1000001", "(0..1000000)"},
        {"--watch-walk-threads", "FOXGEESE_WATCH_WALK_THREADS", "65", "(0..64)"},
        {"--previews-per-minute", "FOXGEESE_PREVIEWS_PER_MINUTE", "-1", "(0..100000)"},
        {"--animations-per-minute", "FOXGEESE_ANIMATIONS_PER_MINUTE", "10001", "(0..10000)"},
        {"--public-url", "FOXGEESE_PUBLIC_URL", "play.example", "https://host[:port]"},
        {"--public-url", "FOXGEESE_PUBLIC_URL", "https://play.example/g", "https://host[:port]"},
    };
    for (const BadValue& c : cases) {
        SCOPED_TRACE(c.flag + " " + c.value);
        const std::string from_flag = error_of({c.flag + "=" + c.value});
        EXPECT_NE(from_flag.find(c.flag), std::string::npos) << from_flag;
        EXPECT_NE(from_flag.find("'" + c.value + "'"), std::string::npos) << from_flag;
        EXPECT_NE(from_flag.find(c.expected), std::string::npos) << from_flag;
        const std::string from_env = error_of({}, {{c.env, c.value}});
        EXPECT_NE(from_env.find(c.env), std::string::npos) << from_env;
        EXPECT_NE(from_env.find("'" + c.value + "'"), std::string::npos) << from_env;
    }
}

TEST(ConfigTest, EmptyFlagValuesAreErrors) {
    EXPECT_NE(error_of({"--grpc-port="}).find("--grpc-port: ''"), std::string::npos);
    EXPECT_NE(error_of({"--data-dir="}).find("--data-dir: ''"), std::string::npos);
    EXPECT_NE(error_of({"--listen-address="}).find("--listen-address: ''"), std::string::npos);
}

TEST(ConfigTest, PublicUrlLosesItsTrailingSlash) {
    EXPECT_EQ(parse({"--public-url=https://play.example/"}).public_url, "https://play.example");
    EXPECT_EQ(parse({}).public_url, "");
}

TEST(ConfigTest, CommandLineMistakes) {
    EXPECT_NE(error_of({"--grpc-prot=1"}).find("unknown flag '--grpc-prot'"), std::string::npos);
    EXPECT_NE(error_of({"-x"}).find("unknown flag '-x'"), std::string::npos);
    EXPECT_NE(error_of({"--grpc-port"}).find("--grpc-port needs a value"), std::string::npos);
    EXPECT_NE(error_of({"--grpc-port", "--http-port=1"}).find("--grpc-port: '--http-port=1'"),
              std::string::npos);
    EXPECT_NE(error_of({"start"}).find("unknown command 'start'"), std::string::npos);
    EXPECT_NE(error_of({"serve", "now"}).find("unexpected argument 'now'"), std::string::npos);
}

TEST(ConfigTest, RedactsUrlPasswords) {
    EXPECT_EQ(redact_database_url("postgresql://fox:s3cret@db.example:5432/foxgeese"),
              "postgresql://fox:REDACTED@db.example:5432/foxgeese");
    EXPECT_EQ(redact_database_url("postgres://fox:p%40ss@db/foxgeese?sslmode=require"),
              "postgres://fox:REDACTED@db/foxgeese?sslmode=require");
    EXPECT_EQ(redact_database_url("POSTGRESQL://fox:x@db/y"), "POSTGRESQL://fox:REDACTED@db/y");
    // An unencoded '@', '/' or '?' in the password still ends at the last '@'.
    EXPECT_EQ(redact_database_url("postgresql://fox:a@b/c?d@db/foxgeese"),
              "postgresql://fox:REDACTED@db/foxgeese");
    EXPECT_EQ(redact_database_url("postgresql://db/foxgeese?user=fox&password=s3cret&x=1"),
              "postgresql://db/foxgeese?user=fox&password=REDACTED&x=1");
    EXPECT_EQ(redact_database_url("postgresql://db/x?sslpassword=k&pass%77ord=s"),
              "postgresql://db/x?sslpassword=REDACTED&pass%77ord=REDACTED");
    EXPECT_EQ(redact_database_url("postgresql://h1:5432,h2:5433/foxgeese?target_session_attrs=any"),
              "postgresql://h1:5432,h2:5433/foxgeese?target_session_attrs=any");
    // Nothing secret: unchanged.
    EXPECT_EQ(redact_database_url("postgresql://fox@db/foxgeese"), "postgresql://fox@db/foxgeese");
    EXPECT_EQ(redact_database_url("postgresql:///foxgeese?host=/tmp/x&port=5432&user=foxgeese"),
              "postgresql:///foxgeese?host=/tmp/x&port=5432&user=foxgeese");
    EXPECT_EQ(redact_database_url(""), "");
}

TEST(ConfigTest, RedactsKeywordPasswords) {
    EXPECT_EQ(redact_database_url("host=db password=s3cret dbname=foxgeese"),
              "host=db password=REDACTED dbname=foxgeese");
    EXPECT_EQ(redact_database_url("host=db password = 'it\\'s a secret' user=fox"),
              "host=db password = REDACTED user=fox");
    EXPECT_EQ(redact_database_url("password=s3cret"), "password=REDACTED");
    EXPECT_EQ(redact_database_url("  host=db\tPASSWORD=x  "), "  host=db\tPASSWORD=REDACTED  ");
    EXPECT_EQ(redact_database_url("host=db sslpassword=k dbname='a b'"),
              "host=db sslpassword=REDACTED dbname='a b'");
    // An unterminated quote cannot smuggle the rest out.
    EXPECT_EQ(redact_database_url("password='abc def"), "password=REDACTED");
    EXPECT_EQ(redact_database_url("host=db dbname=x"), "host=db dbname=x");
}

TEST(ConfigTest, DescriptionRedactsAndCoversTheSettings) {
    ServerConfig config = parse({"--database-url=postgresql://fox:s3cret@db/foxgeese",
                                 "--listen-address=::", "--grpc-port=7000"});
    const std::string text = describe_config(config);
    EXPECT_EQ(text.find("s3cret"), std::string::npos) << text;
    EXPECT_NE(text.find("postgresql://fox:REDACTED@db/foxgeese"), std::string::npos) << text;
    EXPECT_NE(text.find("grpc=[::]:7000"), std::string::npos) << text;
    EXPECT_NE(text.find("migrate_on_start=true"), std::string::npos) << text;

    config.database_url.clear();
    EXPECT_NE(describe_config(config).find("database=embedded data_dir="), std::string::npos);
}

}  // namespace
}  // namespace foxgeese::service
