// libFuzzer entry point for the position-code and notation parsers. Built only
// with -DFOXGEESE_FUZZ=ON and clang; see tests/engine/CMakeLists.txt.
#include <cstddef>
#include <cstdint>

#include "parse_fuzz_body.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    foxgeese::fuzz::run_parse_fuzz_case(data, size);
    return 0;
}
