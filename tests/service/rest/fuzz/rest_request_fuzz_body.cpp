#include "rest_request_fuzz_body.h"

#include <boost/asio/buffer.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/string_body.hpp>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string_view>

#include "service/rest/request_checks.h"
#include "service/rest/rest_json.h"
#include "service/rest/rest_routes.h"

namespace foxgeese::fuzz {
namespace {

namespace http = boost::beast::http;

// What HttpServerOptions sets by default.
constexpr std::uint32_t kHeaderLimit = 8 * 1024;
constexpr std::uint64_t kBodyLimit = 64 * 1024;

const service::RestRoutes& routes() {
    static const service::RestRoutes table;
    return table;
}

void require(bool holds) {
    if (!holds) std::abort();
}

// Every error the REST side can answer must print as one JSON object.
void check_error(const service::ServiceError& error) {
    const std::string body = service::error_to_json(error);
    const auto parsed = nlohmann::json::parse(body, nullptr, /*allow_exceptions=*/false);
    require(parsed.is_object() && parsed.contains("code") && parsed.contains("details"));
    const int status = service::http_status_of(error);
    require(status >= 400 && status <= 599);
}

}  // namespace

void run_rest_request_case(const std::uint8_t* data, std::size_t size) {
    http::request_parser<http::string_body> parser;
    parser.header_limit(kHeaderLimit);
    parser.body_limit(kBodyLimit);
    parser.eager(true);
    boost::beast::error_code ec;
    parser.put(boost::asio::buffer(data, size), ec);
    if (!ec && !parser.is_done()) parser.put_eof(ec);
    if (ec || !parser.is_done()) return;  // the server answers 4xx and closes
    http::request<http::string_body> request = parser.release();
    if (auto refused = service::check_request_header(request, request.version())) {
        check_error(*refused);
        return;
    }
    const auto [path, query] = service::split_target(request.target());
    auto match = routes().match(request.method_string(), path);
    if (!match.ok()) {
        check_error(match.error());
        return;
    }
    const service::RestRoute& route = *match.value().route;
    if (route.has_body && !request.body().empty()) {
        if (auto refused = service::check_json_content_type(request)) {
            check_error(*refused);
            return;
        }
    }
    auto built = routes().build_request(match.value(), query, route.has_body ? request.body() : "");
    if (!built.ok()) {
        check_error(built.error());
        return;
    }
    require(built.value()->GetDescriptor() == route.method->input_type());
    // What the server acts on prints back as JSON, which parses again.
    const std::string json = service::message_to_json(*built.value());
    require(nlohmann::json::parse(json, nullptr, false).is_object());
}

}  // namespace foxgeese::fuzz
