// The REST mapping of FoxGeeseService, read at start-up from the
// google.api.http option of every RPC, so REST can never drift from the
// proto: a route table of (HTTP method, path template), matching of request
// paths, and building request messages from path, query and body. Each route
// is served by its entry in the RPC table (rpc_table.h).
#pragma once

#include <google/protobuf/descriptor.h>
#include <google/protobuf/message.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "service/core/rpc_table.h"
#include "service/core/service_error.h"
#include "service/runtime/text_encoding.h"

namespace foxgeese::service {

// One HTTP binding of an RPC.
struct RestRoute {
    // One piece of the path between slashes: a literal, or a variable bound
    // to a (dotted) request field path.
    struct Segment {
        std::string literal;
        std::vector<const google::protobuf::FieldDescriptor*> field;  // empty for a literal
    };

    std::string http_method;  // "GET", "POST", ...
    std::string pattern;      // the template as written in the proto
    std::vector<Segment> segments;
    std::string verb;                // the custom verb after ':' ("join"), or empty
    bool has_body = false;           // body "*": the whole request is the JSON body
    std::size_t max_body_bytes = 0;  // a larger body than the server's limit allows; 0: none
    const google::protobuf::MethodDescriptor* method = nullptr;
    const RpcMethod* rpc = nullptr;  // what serves it
};

// A request path matched to a route, with its decoded path variables.
struct RouteMatch {
    const RestRoute* route = nullptr;
    std::vector<std::pair<const RestRoute::Segment*, std::string>> variables;
};

class RestRoutes {
  public:
    // Reads the google.api.http rule of every RPC in the RPC table. Throws
    // std::logic_error for an RPC without one or with a rule this server
    // cannot serve (variables other than single segments, a body other than
    // "*"): a start-up failure, never a runtime surprise.
    RestRoutes();

    // The route for a method and a raw (still percent-encoded) path without
    // its query. Errors: NOT_FOUND / ROUTE_NOT_FOUND for an unknown path;
    // UNIMPLEMENTED / METHOD_NOT_ALLOWED (metadata "allow") for a known path
    // and another method; INVALID_ARGUMENT for bad percent-encoding.
    ServiceResult<RouteMatch> match(std::string_view http_method, std::string_view path) const;

    // The methods served at a raw path ("GET", "POST"); empty when unknown.
    std::vector<std::string> methods_at(std::string_view path) const;

    // The most body bytes a request may send: `server_limit`, or more for a
    // route whose message needs more (ImportGame's record).
    std::size_t body_limit(std::string_view http_method, std::string_view target,
                           std::size_t server_limit) const;
    // The largest of them over every route.
    std::size_t largest_body_limit(std::size_t server_limit) const;

    // The request message: JSON body fields (body "*"; empty counts as {}),
    // then query parameters (routes without a body), then path variables,
    // which win. Errors are INVALID_ARGUMENT naming the problem.
    ServiceResult<std::unique_ptr<google::protobuf::Message>> build_request(
        const RouteMatch& match, std::string_view query, std::string_view body) const;

    const std::vector<RestRoute>& routes() const { return routes_; }

  private:
    std::vector<RestRoute> routes_;
};

// A request target split at its first '?': the raw path and the raw query.
struct RequestTarget {
    std::string path;
    std::string query;
};
RequestTarget split_target(std::string_view target);

// NOT_FOUND / ROUTE_NOT_FOUND for a path no route serves.
ServiceError route_not_found(std::string_view path);

}  // namespace foxgeese::service
