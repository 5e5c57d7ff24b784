// libFuzzer entry point for the REST request path. Built only with
// -DFOXGEESE_FUZZ=ON and clang; see tests/service/rest/CMakeLists.txt.
#include <cstddef>
#include <cstdint>

#include "rest_request_fuzz_body.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    foxgeese::fuzz::run_rest_request_case(data, size);
    return 0;
}
