// The OpenAPI 3.1 description of the REST API. It is built from the route
// table the server serves (rest_routes.h), the compiled-in message and enum
// descriptors, and the proto comments (embedded at build time), so the
// document cannot disagree with the server: same routes, same JSON mapping.
//
// What it holds: every route with its path and query parameters, request and
// response schemas in the proto3 JSON mapping (lowerCamelCase names, enums as
// their names, 64-bit integers as strings, Timestamps as RFC 3339 strings),
// the google.rpc.Status error body with every ErrorInfo reason, the bearer
// seat-token scheme, and WatchGame's NDJSON stream.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "service/rest/rest_routes.h"

namespace foxgeese::service {

// The document for `routes`. Throws std::logic_error when the embedded proto
// comments cannot be read or a field has a type the mapping does not know:
// start-up failures, never runtime surprises.
nlohmann::ordered_json openapi_document(const RestRoutes& routes);

// openapi_document() of the server's own routes, printed with a two-space
// indent and a final newline; built once per process.
const std::string& openapi_json();

}  // namespace foxgeese::service
