#include "service/rest/static_content.h"

#include <cstdint>
#include <cstdio>
#include <stdexcept>

#include "service/rest/openapi_document.h"

namespace foxgeese::service {
namespace {

// FNV-1a, 64 bits: the same body gives the same ETag on every replica.
std::string etag_of(std::string_view body) {
    std::uint64_t hash = 14695981039346656037ull;
    for (const char c : body) {
        hash ^= static_cast<unsigned char>(c);
        hash *= 1099511628211ull;
    }
    char text[24];
    std::snprintf(text, sizeof text, "\"%016llx\"", static_cast<unsigned long long>(hash));
    return text;
}

bool ends_with(std::string_view text, std::string_view suffix) {
    return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

}  // namespace

std::string content_type_of(std::string_view name) {
    if (ends_with(name, ".html")) return "text/html; charset=utf-8";
    if (ends_with(name, ".js")) return "text/javascript; charset=utf-8";
    if (ends_with(name, ".css")) return "text/css; charset=utf-8";
    if (ends_with(name, ".json")) return "application/json";
    if (ends_with(name, ".svg")) return "image/svg+xml";
    if (ends_with(name, ".png")) return "image/png";
    if (ends_with(name, ".txt")) return "text/plain; charset=utf-8";
    throw std::invalid_argument("no content type known for " + std::string(name));
}

void StaticContent::add(std::string path, std::string_view name, std::string_view body,
                        std::string content_security_policy) {
    StaticFile file;
    file.content_type = content_type_of(name);
    file.body = body;
    file.etag = etag_of(body);
    file.content_security_policy = std::move(content_security_policy);
    files_[std::move(path)] = std::move(file);
}

void StaticContent::redirect(std::string path, std::string location) {
    StaticFile file;
    file.location = std::move(location);
    files_[std::move(path)] = std::move(file);
}

const StaticFile* StaticContent::find(std::string_view path) const {
    const auto it = files_.find(path);
    return it == files_.end() ? nullptr : &it->second;
}

StaticContent server_static_content(const StaticContent* pages) {
    StaticContent content = pages != nullptr ? *pages : StaticContent{};
    content.add("/openapi.json", "openapi.json", openapi_json());
    return content;
}

}  // namespace foxgeese::service
