// One fuzz case for the REST request path: the bytes are an HTTP request as
// a client would send it. The libFuzzer target (rest_request_fuzzer.cpp)
// and the corpus test in the normal suite both run this body.
#pragma once

#include <cstddef>
#include <cstdint>

namespace foxgeese::fuzz {

// Parses the request as the server does (Beast, with the server's limits),
// then runs what comes before the game service: the header checks, route
// matching, path and query decoding, the media type, strict JSON and
// protobuf's JSON parser, and the JSON of any error. Aborts when an
// invariant breaks (an error body that is not JSON, a request of the wrong
// type); anything else an input does is fine.
void run_rest_request_case(const std::uint8_t* data, std::size_t size);

}  // namespace foxgeese::fuzz
