// The preview routes, served over plain HTTP beside the API (no RPC):
//   GET /v1/games/{id}/image.svg|png   the position (?ply=N, else the latest)
//   GET /v1/games/{id}/animation.gif   the whole game, a frame per ply
//   GET /v1/positions/image.svg|png    a position code (?position=&variant=)
//   GET /g/{id}                        the share page with its card tags
// Games are read through the game service, as GetGame and ListMoves read
// them; rendered files are cached by game and ply and carry ETags; every
// request counts against its client address's limit. The transport (rest)
// calls serve() on a worker and writes the answer.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "service/core/call_context.h"
#include "service/core/game_service.h"
#include "service/core/rate_limits.h"
#include "service/core/service_error.h"
#include "service/preview/board_images.h"
#include "service/preview/preview_options.h"
#include "service/preview/render_cache.h"

namespace foxgeese::preview {

struct PreviewRequest {
    std::string_view path;  // raw, still percent-encoded
    std::string_view query;
    // The request's headers that matter here.
    std::string_view if_none_match;
    std::string_view host;
    std::string_view forwarded_proto;  // X-Forwarded-Proto
    service::CallContext call;
};

struct PreviewReply {
    bool not_modified = false;  // 304: the client's copy is current; no body
    std::string content_type;
    std::shared_ptr<const std::string> body;
    std::string etag;  // quoted
    std::string cache_control;
    std::string content_security_policy;  // sent when non-empty
    std::string game_id;                  // for the access log, when known
};

struct PreviewRoute;  // previews.cpp

class Previews {
  public:
    Previews(service::GameService& logic, PreviewOptions options);

    // The route's name for logs and metrics ("GET /v1/games/{game_id}/image.png"),
    // or nothing when no preview route has this path.
    static std::optional<std::string> route_of(std::string_view path);

    // The answer to a GET (or HEAD) of a path route_of() knows. Errors are
    // the API's: INVALID_ARGUMENT naming the parameter, GAME_NOT_FOUND,
    // INVALID_POSITION, RATE_LIMITED, SERVER_BUSY, the database's.
    service::ServiceResult<PreviewReply> serve(const PreviewRequest& request);

    const RenderCache& cache() const { return cache_; }

  private:
    service::ServiceResult<PreviewReply> game_image(const PreviewRequest& request,
                                                    const PreviewRoute& route);
    service::ServiceResult<PreviewReply> position_image(const PreviewRequest& request,
                                                        const PreviewRoute& route);
    service::ServiceResult<PreviewReply> animation(const PreviewRequest& request,
                                                   const PreviewRoute& route);
    service::ServiceResult<PreviewReply> share(const PreviewRequest& request,
                                               const PreviewRoute& route);
    std::string base_url(const PreviewRequest& request) const;

    service::GameService& logic_;
    const PreviewOptions options_;
    service::RateLimiter image_limit_;
    service::RateLimiter animation_limit_;
    service::ConcurrencyLimiter animations_running_;
    RenderCache cache_;
};

// The frames of a game's animation: its start and the position after each
// move; of a game longer than `max_plies`, the last `max_plies` moves and
// the position before them.
std::vector<Frame> animation_frames(const v1::ListMovesResponse& moves,
                                    int max_plies = kMaxAnimationPlies);

// Whether an If-None-Match header names `etag` (or is "*"); weak
// validators match by their opaque part.
bool etag_matches(std::string_view if_none_match, std::string_view etag);

}  // namespace foxgeese::preview
