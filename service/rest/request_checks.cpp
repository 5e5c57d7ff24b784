#include "service/rest/request_checks.h"

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "service/rest/rest_json.h"

namespace foxgeese::service {
namespace {

namespace http = boost::beast::http;

std::string lower_trimmed(std::string_view text) {
    const auto first = text.find_first_not_of(" \t");
    if (first == std::string_view::npos) return {};
    const auto last = text.find_last_not_of(" \t");
    std::string out(text.substr(first, last - first + 1));
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

ServiceError http_error(StatusCode code, const char* reason, std::string message) {
    return make_error(code, reason, std::move(message));
}

ServiceError repeated(std::string_view name) {
    return make_error(
        StatusCode::kInvalidArgument, "DUPLICATE_HEADER",
        "the request has more than one " + std::string(name) + " header; send exactly one",
        {{"header", lower_trimmed(name)}});
}

}  // namespace

std::optional<ServiceError> check_request_header(const http::fields& header, unsigned version) {
    const std::size_t hosts = header.count(http::field::host);
    if (hosts > 1) return repeated("Host");
    if (version == 11 && hosts == 0) {
        return http_error(StatusCode::kInvalidArgument, kReasonMalformedRequest,
                          "an HTTP/1.1 request needs a Host header");
    }
    for (const http::field name : {http::field::content_length, http::field::content_type,
                                   http::field::transfer_encoding, http::field::authorization}) {
        if (header.count(name) > 1) return repeated(http::to_string(name));
    }
    if (const auto te = header.find(http::field::transfer_encoding); te != header.end()) {
        if (lower_trimmed(te->value()) != "chunked") {
            return http_error(StatusCode::kUnimplemented, kReasonUnsupportedTransferCoding,
                              "Transfer-Encoding '" + coerce_utf8(te->value()) +
                                  "' is not accepted; send the body as is, chunked or with "
                                  "Content-Length");
        }
    }
    if (const auto ce = header.find(http::field::content_encoding); ce != header.end()) {
        if (lower_trimmed(ce->value()) != "identity") {
            return http_error(StatusCode::kInvalidArgument, kReasonUnsupportedMediaType,
                              "Content-Encoding '" + coerce_utf8(ce->value()) +
                                  "' is not accepted; send the JSON body uncompressed");
        }
    }
    return std::nullopt;
}

std::optional<ServiceError> check_json_content_type(const http::fields& header) {
    const std::string_view value = header[http::field::content_type];
    auto bad = [&] {
        return http_error(StatusCode::kInvalidArgument, kReasonUnsupportedMediaType,
                          "the request body must be 'Content-Type: application/json' (UTF-8), "
                          "not '" +
                              coerce_utf8(value.substr(0, 100)) + "'");
    };
    std::vector<std::string> parts;
    for (std::size_t from = 0;;) {
        const auto semicolon = value.find(';', from);
        parts.push_back(lower_trimmed(value.substr(from, semicolon - from)));
        if (semicolon == std::string_view::npos) break;
        from = semicolon + 1;
    }
    if (parts.front() != "application/json") return bad();
    for (std::size_t i = 1; i < parts.size(); ++i) {
        if (parts[i].empty()) continue;
        const auto eq = parts[i].find('=');
        if (eq == std::string::npos) return bad();
        const std::string name = lower_trimmed(parts[i].substr(0, eq));
        std::string argument = lower_trimmed(parts[i].substr(eq + 1));
        if (argument.size() >= 2 && argument.front() == '"' && argument.back() == '"')
            argument = argument.substr(1, argument.size() - 2);
        // JSON is UTF-8 (RFC 8259); a body in any other charset would be misread.
        if (name == "charset" && argument != "utf-8") return bad();
    }
    return std::nullopt;
}

}  // namespace foxgeese::service
