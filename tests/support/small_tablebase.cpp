#include "tests/support/small_tablebase.h"

#include <unistd.h>

#include <filesystem>
#include <mutex>

#include "engine/tablebase/tablebase_build.h"

namespace foxgeese::test {

std::shared_ptr<const tablebase::MappedTablebase> small_tablebase() {
    static std::once_flag once;
    static std::shared_ptr<const tablebase::MappedTablebase> table;
    std::call_once(once, [] {
        namespace fs = std::filesystem;
        const fs::path dir =
            fs::temp_directory_path() / ("foxgeese-test-tablebase-" + std::to_string(getpid()));
        fs::remove_all(dir);
        tablebase::build_tablebase(dir, kSmallTablebaseGeese);
        table = tablebase::MappedTablebase::open(dir);
        fs::remove_all(dir);
    });
    return table;
}

}  // namespace foxgeese::test
