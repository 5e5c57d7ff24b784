// The JSON a REST body must be before protobuf's (lenient) parser reads it:
// RFC 8259 exactly (no single quotes, comments or trailing commas, UTF-8
// only), no key twice in one object, and no field given twice under its two
// names (lowerCamelCase and proto_name), so that what the server acts on is
// what any other reader of the same bytes sees. Kept beside protobuf's parser
// for that reason: two readers that disagree on one body let a request past
// a proxy's check (nlohmann/json does the reading here).
#pragma once

#include <google/protobuf/descriptor.h>

#include <optional>
#include <string>
#include <string_view>

namespace foxgeese::service {

// What is wrong with a body meant to be a `type` message, or nullopt.
std::optional<std::string> strict_json_problem(std::string_view body,
                                               const google::protobuf::Descriptor& type);

}  // namespace foxgeese::service
