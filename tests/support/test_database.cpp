#include "tests/support/test_database.h"

#include <unistd.h>

#include <atomic>
#include <cctype>
#include <fstream>
#include <pqxx/pqxx>
#include <random>
#include <stdexcept>

#ifndef FOXGEESE_TEST_PG_STATE
#error "FOXGEESE_TEST_PG_STATE must name the throwaway_pg state file"
#endif

namespace foxgeese::test {

namespace {

std::string read_url() {
    std::ifstream in(FOXGEESE_TEST_PG_STATE);
    std::string url;
    if (!in || !std::getline(in, url) || url.empty()) {
        throw std::runtime_error(
            "no test PostgreSQL: the state file " FOXGEESE_TEST_PG_STATE
            " is missing or empty. Run the tests through ctest (it starts the cluster with the "
            "throwaway_pg_start fixture), e.g. `cd build && ctest -L pg`; to run a test binary "
            "by hand, first run `tests/support/throwaway_pg start " FOXGEESE_TEST_PG_STATE
            "` and afterwards `... stop` with the same file.");
    }
    return url;
}

// postgresql:///foxgeese?host=... -> postgresql:///<database>?host=...
std::string with_database(const std::string& url, const std::string& database) {
    const std::size_t authority = url.find("://");
    const std::size_t path = url.find('/', authority + 3);
    const std::size_t query = url.find('?', path);
    if (authority == std::string::npos || path == std::string::npos) {
        throw std::runtime_error("unexpected test database URL: " + url);
    }
    return url.substr(0, path + 1) + database +
           (query == std::string::npos ? "" : url.substr(query));
}

// Lower-case letters, digits and '_', so the name needs no quoting in a URL.
std::string unique_name(const std::string& prefix) {
    static std::atomic<unsigned> counter{0};
    std::string name;
    for (const char c : prefix) {
        const auto byte = static_cast<unsigned char>(c);
        name += std::isalnum(byte) ? static_cast<char>(std::tolower(byte)) : '_';
    }
    if (name.empty() || std::isdigit(static_cast<unsigned char>(name.front()))) name = "db_" + name;
    name = name.substr(0, 40);
    std::random_device random;
    const std::string suffix = "_" + std::to_string(getpid()) + "_" + std::to_string(counter++) +
                               "_" + std::to_string(random() % 100000);
    return name + suffix;  // at most 63 bytes, PostgreSQL's limit
}

}  // namespace

std::string test_database_url() {
    static const std::string url = read_url();
    return url;
}

std::string create_scratch_database(const std::string& prefix) {
    const std::string name = unique_name(prefix);
    pqxx::connection connection(test_database_url());
    pqxx::nontransaction tx(connection);
    // template0: nothing a test added to template1 leaks in.
    tx.exec0("CREATE DATABASE " + tx.quote_name(name) + " TEMPLATE template0");
    return with_database(test_database_url(), name);
}

}  // namespace foxgeese::test
