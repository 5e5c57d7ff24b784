// Fixed responses the HTTP server serves by exact path, from memory: the
// OpenAPI document (/openapi.json, always), and what the application adds:
// the docs page, and the reference web client when it is enabled.
#pragma once

#include <map>
#include <string>
#include <string_view>

namespace foxgeese::service {

struct StaticFile {
    std::string content_type;
    // Embedded or otherwise alive for the whole process.
    std::string_view body;
    std::string etag;                     // a strong validator, quoted, from the body
    std::string location;                 // non-empty: a permanent redirect there instead
    std::string content_security_policy;  // sent when non-empty
};

class StaticContent {
  public:
    // Serves `body` at `path`, typed by the extension of `name` (.html,
    // .js, .css, .json, .svg, .png, .txt).
    void add(std::string path, std::string_view name, std::string_view body,
             std::string content_security_policy = "");
    // Answers `path` with 308 to `location` ("/play" to "/play/").
    void redirect(std::string path, std::string location);

    // The file at an exact path (no query), or nullptr.
    const StaticFile* find(std::string_view path) const;
    const std::map<std::string, StaticFile, std::less<>>& files() const { return files_; }

  private:
    std::map<std::string, StaticFile, std::less<>> files_;
};

// The Content-Type for a file name, by its extension; throws
// std::invalid_argument for one it does not know.
std::string content_type_of(std::string_view name);

// What an HttpServer serves besides the API: `pages` (may be null) and the
// OpenAPI document at /openapi.json.
StaticContent server_static_content(const StaticContent* pages);

}  // namespace foxgeese::service
