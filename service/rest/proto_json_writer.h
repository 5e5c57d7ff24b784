// The proto3 JSON mapping of a response, written straight into a string by
// reflection: the same bytes protobuf's own printer gives with
// always_print_primitive_fields (lowerCamelCase names, 64-bit integers as
// strings, enums by name, Timestamp and Duration as text, empty repeated
// fields as []), at a small fraction of its cost. Written here because
// protobuf 3.21's printer, asked for default values, first builds a tree of
// the whole message, for every REST reply (what that cost a move:
// bench/history/2026-11-29-to-12-05-makemove.md, "JSON by reflection");
// tests compare the two byte for byte.
//
// It covers what the API's messages use: scalars, enums, strings, nested
// and repeated messages, oneofs, proto3 optional, Timestamp and Duration.
// A message with anything else (maps, bytes, floating point, Any, Struct,
// wrappers) or a string that is not UTF-8 is not written: the caller falls
// back to protobuf's printer.
#pragma once

#include <google/protobuf/message.h>

#include <string>

namespace foxgeese::service {

// Appends the JSON of `message` to `out` and returns true, or returns false
// (leaving `out` as it was) when the message holds something not covered.
bool write_proto_json(const google::protobuf::Message& message, std::string& out);

}  // namespace foxgeese::service
