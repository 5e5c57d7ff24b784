// The body of the parser fuzz target, shared by the libFuzzer entry point and
// the corpus replay test: feeds bytes to every parser and checks invariants.
// A broken invariant prints what failed and aborts, which both libFuzzer and
// the test report as a crash.
#pragma once

#include <cstddef>
#include <cstdint>

namespace foxgeese::fuzz {

// Reads the bytes as a position code (for every variant configuration), as a
// move (on both boards), as a game record, and, split at the first newline,
// as a code and a move to check against it.
void run_parse_fuzz_case(const std::uint8_t* data, std::size_t size);

}  // namespace foxgeese::fuzz
