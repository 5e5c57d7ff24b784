// The limits and settings of the preview routes (docs/previews.md).
#pragma once

#include <chrono>
#include <cstddef>
#include <string>

#include "service/core/rate_limits.h"

namespace foxgeese::preview {

struct PreviewOptions {
    // Requests per client address (an IPv6 /64), on this replica: images
    // and share pages, and animations, which cost more.
    service::Rate images_per_address{300, std::chrono::seconds(60), 100};
    service::Rate animations_per_address{30, std::chrono::seconds(60), 10};
    // Animations drawn at once on this replica; one more is SERVER_BUSY.
    int animations_at_once = 2;
    // The longest an animation may take to draw; then SERVER_BUSY.
    std::chrono::milliseconds animation_time_limit{10'000};
    // Rendered files kept in memory, in bytes.
    std::size_t cache_bytes = 64 * 1024 * 1024;
    // The site's address as a shared card links it ("https://foxgeese.example");
    // empty: the request's Host.
    std::string public_url;
    // The share page sends a browser on to the web client's game page.
    bool web_client = true;
    // Proxies in front whose X-Forwarded-Proto is believed (as RateLimitOptions).
    int trusted_proxy_hops = 0;
    // Client addresses the limiters remember.
    std::size_t max_keys = 100'000;
};

// The most plies an animation shows: a longer game is shown from 2,000
// plies before its end.
constexpr int kMaxAnimationPlies = 2000;

}  // namespace foxgeese::preview
