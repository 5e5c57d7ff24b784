#include "service/app/web_pages.h"

#include <stdexcept>
#include <string>

#include "service/rest/embedded_files.h"

namespace foxgeese::service {
namespace {

// Redoc styles itself with inline <style> elements and runs its search in a
// worker made from a blob; it loads nothing from elsewhere.
constexpr const char* kDocsPolicy =
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; font-src 'self' data:; connect-src 'self'; worker-src blob:; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
// The client calls the API on this origin, or on the one ?api= names.
constexpr const char* kClientPolicy =
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self' http: https:; base-uri 'none'; form-action 'none'; "
    "frame-ancestors 'none'";

}  // namespace

std::shared_ptr<const StaticContent> web_pages(bool web_client) {
    auto pages = std::make_shared<StaticContent>();
    for (const EmbeddedFile& file : embedded_web_files()) {
        const std::string name(file.name);
        if (name == "docs/index.html") {
            pages->add("/docs", name, file.bytes, kDocsPolicy);
        } else if (name.rfind("docs/", 0) == 0) {
            pages->add("/" + name, name, file.bytes, kDocsPolicy);
        } else if (name.rfind("site/", 0) == 0) {
            // The client is the site's home page; its scripts and style
            // are under /assets/.
            if (!web_client) continue;
            const bool index = name == "site/index.html";
            pages->add(index ? "/" : name.substr(4), name, file.bytes, kClientPolicy);
        } else {
            throw std::logic_error("embedded web file " + name + " has no place on the server");
        }
    }
    pages->redirect("/docs/", "/docs");
    // The client was served at /play/ before: its links (share links keep
    // their #fragment across the redirect) lead to the home page now.
    if (web_client) {
        pages->redirect("/play", "/");
        pages->redirect("/play/", "/");
    }
    return pages;
}

}  // namespace foxgeese::service
