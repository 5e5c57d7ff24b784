// The pages a replica serves besides the API, from the files embedded at
// build time (web/): the API docs at /docs, always, and the reference web
// client as the site's home page, /, when asked for (--web-client).
#pragma once

#include <memory>

#include "service/rest/static_content.h"

namespace foxgeese::service {

std::shared_ptr<const StaticContent> web_pages(bool web_client);

}  // namespace foxgeese::service
