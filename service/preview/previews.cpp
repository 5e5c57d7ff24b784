#include "service/preview/previews.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <map>
#include <stdexcept>
#include <vector>

#include "engine/rules/notation.h"
#include "engine/rules/position_code.h"
#include "engine/rules/variant.h"
#include "service/preview/board_images.h"
#include "service/preview/share_page.h"
#include "service/runtime/text_encoding.h"

namespace foxgeese::preview {

using service::ServiceError;
using service::ServiceResult;
using service::StatusCode;

namespace {

// Changes whenever a picture would come out differently, so that no cache
// (a browser's, a card reader's, ours) keeps the old one under a new name.
constexpr std::string_view kDrawingVersion = "1";

// The sizes a picture comes in, by name or by width in pixels.
struct Size {
    std::string_view name;
    int pixels;
};
constexpr std::array kSizes{Size{"small", 240}, Size{"medium", 480}, Size{"large", 960}};
constexpr int kDefaultImageWidth = 480;
constexpr int kDefaultAnimationWidth = 240;
constexpr int kLargestAnimationWidth = 480;

// A file that never changes (a position at a ply), and one that may (the
// latest position of a game in progress: briefly, so a card shows the game
// much as it is).
constexpr std::string_view kForever = "public, max-age=31536000, immutable";
constexpr std::string_view kBriefly = "public, max-age=10";
constexpr std::string_view kFinishedPage = "public, max-age=3600";

enum class Kind { kGameImage, kAnimation, kPositionImage, kSharePage };

std::uint64_t fnv1a(std::string_view text) {
    std::uint64_t hash = 0xcbf29ce484222325ull;
    for (const char c : text) {
        hash ^= static_cast<unsigned char>(c);
        hash *= 0x100000001b3ull;
    }
    return hash;
}

std::string etag_of(std::string_view key) {
    char buffer[24];
    std::snprintf(buffer, sizeof buffer, "\"%016llx\"",
                  static_cast<unsigned long long>(
                      fnv1a(std::string(kDrawingVersion) + "|" + std::string(key))));
    return buffer;
}

const char* content_type_of(ImageFormat format) {
    return format == ImageFormat::kSvg ? "image/svg+xml" : "image/png";
}

std::vector<std::string_view> split(std::string_view text, char by) {
    std::vector<std::string_view> parts;
    while (true) {
        const auto at = text.find(by);
        parts.push_back(text.substr(0, at));
        if (at == std::string_view::npos) return parts;
        text.remove_prefix(at + 1);
    }
}

// The query's parameters, each at most once, each one of `known`.
ServiceResult<std::map<std::string, std::string>> parse_query(
    std::string_view query, std::initializer_list<std::string_view> known) {
    std::map<std::string, std::string> out;
    for (const std::string_view part : split(query, '&')) {
        if (part.empty()) continue;
        const auto equals = part.find('=');
        const auto name = service::percent_decode(part.substr(0, equals), true);
        const auto value = service::percent_decode(
            equals == std::string_view::npos ? "" : part.substr(equals + 1), true);
        if (!name || !value)
            return service::invalid_argument("", "the query has a bad percent-encoding");
        if (std::find(known.begin(), known.end(), *name) == known.end()) {
            std::string names;
            for (const auto k : known)
                names += (names.empty() ? "" : ", ") + std::string(k);
            return service::invalid_argument(name->substr(0, 40),
                                             "unknown query parameter '" +
                                                 service::coerce_utf8(name->substr(0, 40)) +
                                                 "'; this route takes " + names);
        }
        if (!out.emplace(*name, *value).second)
            return service::invalid_argument(*name, *name + " is given twice");
    }
    return out;
}

std::string size_names(int largest) {
    std::string names;
    for (const Size& s : kSizes) {
        if (s.pixels > largest) break;
        names += (names.empty() ? "" : ", ") + std::string(s.name) + " (" +
                 std::to_string(s.pixels) + ")";
    }
    return names;
}

// The width a `size` parameter asks for: a name or a width in pixels.
ServiceResult<int> parse_size(const std::map<std::string, std::string>& query, int fallback,
                              int largest) {
    const auto it = query.find("size");
    if (it == query.end()) return fallback;
    for (const Size& s : kSizes) {
        if (s.pixels <= largest && (it->second == s.name || it->second == std::to_string(s.pixels)))
            return s.pixels;
    }
    return service::invalid_argument("size", "size '" +
                                                 service::coerce_utf8(it->second.substr(0, 20)) +
                                                 "' is not one of " + size_names(largest));
}

std::optional<int> parse_count(std::string_view text) {
    if (text.empty() || text.size() > 7) return std::nullopt;
    int value = 0;
    for (const char c : text) {
        if (c < '0' || c > '9') return std::nullopt;
        value = value * 10 + (c - '0');
    }
    return value;
}

// Stored games are valid: a part of one that does not read is the server's
// fault (an exception, answered INTERNAL), never the client's.
const Variant& variant_of(const v1::Game& game) {
    VariantOptions options;
    if (game.options().has_geese()) options.geese = game.options().geese();
    if (game.options().has_geese_sideways())
        options.geese_sideways = game.options().geese_sideways();
    auto variant = Variant::find(game.variant(), options);
    if (!variant) throw std::runtime_error("stored game has variant " + game.variant());
    return **variant;
}

Position position_of(const Variant& variant, const std::string& code) {
    auto position = parse_position_code(variant, code);
    if (!position) throw std::runtime_error("stored position code does not read: " + code);
    return *std::move(position);
}

int point_of(const Board& board, const std::string& name) {
    auto point = parse_point(board, name);
    if (!point) throw std::runtime_error("stored move names no point: " + name);
    return *point;
}

LastMove last_move_of(const Board& board, const v1::Move& move) {
    LastMove last;
    last.from = point_of(board, move.from());
    last.to = point_of(board, move.to());
    for (const std::string& captured : move.captured())
        last.captured |= bit(point_of(board, captured));
    return last;
}

bool valid_host(std::string_view host) {
    if (host.empty() || host.size() > 255) return false;
    return std::all_of(host.begin(), host.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               c == '.' || c == '-' || c == ':' || c == '[' || c == ']';
    });
}

std::string trim(std::string_view s) {
    const auto first = s.find_first_not_of(" \t");
    if (first == std::string_view::npos) return "";
    return std::string(s.substr(first, s.find_last_not_of(" \t") - first + 1));
}

ServiceError server_busy(std::string message) {
    ServiceError error =
        service::make_error(StatusCode::kUnavailable, "SERVER_BUSY", std::move(message));
    error.retry_after = std::chrono::seconds(1);
    return error;
}

PreviewReply file_reply(std::string content_type, std::shared_ptr<const std::string> body,
                        std::string etag, std::string_view cache_control) {
    PreviewReply reply;
    // An SVG opened by itself is a document: it may run nothing.
    if (content_type == "image/svg+xml") reply.content_security_policy = "default-src 'none'";
    reply.content_type = std::move(content_type);
    reply.body = std::move(body);
    reply.etag = std::move(etag);
    reply.cache_control = std::string(cache_control);
    return reply;
}

}  // namespace

struct PreviewRoute {
    Kind kind;
    ImageFormat format = ImageFormat::kPng;
    std::string raw_id;  // still percent-encoded
    std::string name;    // for logs and metrics
};

namespace {

std::optional<PreviewRoute> parse_route(std::string_view path);

}  // namespace

bool etag_matches(std::string_view if_none_match, std::string_view etag) {
    for (const std::string_view part : split(if_none_match, ',')) {
        std::string tag = trim(part);
        if (tag == "*") return true;
        if (tag.rfind("W/", 0) == 0) tag.erase(0, 2);
        if (!tag.empty() && tag == etag) return true;
    }
    return false;
}

std::vector<Frame> animation_frames(const v1::ListMovesResponse& moves, int max_plies) {
    const Variant& variant = variant_of(moves.game());
    const int count = moves.moves_size();
    const int skipped = std::max(0, count - max_plies);
    std::vector<Frame> frames;
    frames.reserve(static_cast<std::size_t>(count - skipped + 1));
    if (skipped == 0) {
        frames.push_back(Frame{position_of(variant, moves.start_position()), std::nullopt});
    } else {
        const v1::Move& before = moves.moves(skipped - 1);
        frames.push_back(
            Frame{position_of(variant, before.position()), last_move_of(variant.board(), before)});
    }
    for (int i = skipped; i < count; ++i) {
        const v1::Move& move = moves.moves(i);
        frames.push_back(
            Frame{position_of(variant, move.position()), last_move_of(variant.board(), move)});
    }
    return frames;
}

Previews::Previews(service::GameService& logic, PreviewOptions options)
    : logic_(logic),
      options_(std::move(options)),
      image_limit_(logic.clock(), options_.images_per_address, options_.max_keys),
      animation_limit_(logic.clock(), options_.animations_per_address, options_.max_keys),
      animations_running_(options_.animations_at_once, 1),
      cache_(options_.cache_bytes) {}

std::optional<std::string> Previews::route_of(std::string_view path) {
    const auto route = parse_route(path);
    if (!route) return std::nullopt;
    return route->name;
}

ServiceResult<PreviewReply> Previews::serve(const PreviewRequest& request) {
    const auto route = parse_route(request.path);
    if (!route) throw std::logic_error("Previews::serve: not a preview route");
    service::RateLimiter& limit = route->kind == Kind::kAnimation ? animation_limit_ : image_limit_;
    if (auto wait = limit.take(request.call.client_address)) {
        return service::rate_limited(route->kind == Kind::kAnimation
                                         ? "animations from this address"
                                         : "images and share pages from this address",
                                     *wait);
    }
    switch (route->kind) {
        case Kind::kGameImage:
            return game_image(request, *route);
        case Kind::kAnimation:
            return animation(request, *route);
        case Kind::kPositionImage:
            return position_image(request, *route);
        case Kind::kSharePage:
            return share(request, *route);
    }
    throw std::logic_error("Previews::serve: unknown route");
}

namespace {

std::optional<PreviewRoute> parse_route(std::string_view path) {
    const std::vector<std::string_view> s = split(path, '/');
    // s[0] is the empty text before the leading slash.
    if (s.size() < 2 || !s[0].empty()) return std::nullopt;
    PreviewRoute route{};
    if (s.size() == 3 && s[1] == "g" && !s[2].empty()) {
        route.kind = Kind::kSharePage;
        route.raw_id = s[2];
        route.name = "GET /g/{game_id}";
        return route;
    }
    if (s.size() == 4 && s[1] == "v1" && s[2] == "positions") {
        route.kind = Kind::kPositionImage;
        if (s[3] == "image.svg") {
            route.format = ImageFormat::kSvg;
        } else if (s[3] != "image.png") {
            return std::nullopt;
        }
        route.name = "GET /v1/positions/" + std::string(s[3]);
        return route;
    }
    if (s.size() == 5 && s[1] == "v1" && s[2] == "games" && !s[3].empty()) {
        route.raw_id = s[3];
        if (s[4] == "image.svg" || s[4] == "image.png") {
            route.kind = Kind::kGameImage;
            route.format = s[4] == "image.svg" ? ImageFormat::kSvg : ImageFormat::kPng;
        } else if (s[4] == "animation.gif") {
            route.kind = Kind::kAnimation;
        } else {
            return std::nullopt;
        }
        route.name = "GET /v1/games/{game_id}/" + std::string(s[4]);
        return route;
    }
    return std::nullopt;
}

// The game id of a route, percent-decoded (GetGame validates it).
ServiceResult<std::string> game_id_of(const PreviewRoute& route) {
    auto id = service::percent_decode(route.raw_id, false);
    if (!id) return service::invalid_argument("game_id", "game_id has a bad percent-encoding");
    return *id;
}

}  // namespace

ServiceResult<PreviewReply> Previews::game_image(const PreviewRequest& request,
                                                 const PreviewRoute& route) {
    auto query = parse_query(request.query, {"ply", "size"});
    if (!query.ok()) return query.error();
    auto width = parse_size(query.value(), kDefaultImageWidth, kSizes.back().pixels);
    if (!width.ok()) return width.error();
    auto id = game_id_of(route);
    if (!id.ok()) return id.error();
    std::optional<int> ply;
    if (const auto it = query.value().find("ply"); it != query.value().end()) {
        ply = parse_count(it->second);
        if (!ply)
            return service::invalid_argument("ply",
                                             "ply must be a whole number of plies, such as 12");
    }
    const auto key_at = [&](int at) {
        return "image|" + id.value() + "|" + std::to_string(at) + "|" +
               content_type_of(route.format) + "|" + std::to_string(width.value());
    };

    // A position at a given ply never changes: the client's copy or ours
    // answers without reading the game.
    if (ply) {
        const std::string key = key_at(*ply);
        PreviewReply reply =
            file_reply(content_type_of(route.format), nullptr, etag_of(key), kForever);
        if (etag_matches(request.if_none_match, reply.etag)) {
            reply.not_modified = true;
            return reply;
        }
        if ((reply.body = cache_.find(key))) return reply;
    }

    std::optional<Position> position;
    std::optional<LastMove> last;
    int at = 0;
    std::string_view cache_control = kForever;
    std::string game_id;
    if (!ply) {
        v1::GetGameRequest get;
        get.set_game_id(id.value());
        auto found = logic_.get_game(get, request.call);
        if (!found.ok()) return found.error();
        const v1::Game& game = found.value().game();
        game_id = game.game_id();
        at = game.ply();
        if (game.state() != v1::GAME_STATE_FINISHED) cache_control = kBriefly;
        const std::string key = key_at(at);
        PreviewReply reply =
            file_reply(content_type_of(route.format), nullptr, etag_of(key), cache_control);
        reply.game_id = game_id;
        if (etag_matches(request.if_none_match, reply.etag)) {
            reply.not_modified = true;
            return reply;
        }
        if ((reply.body = cache_.find(key))) return reply;
        const Variant& variant = variant_of(game);
        position = position_of(variant, game.position());
        if (game.has_last_move()) last = last_move_of(variant.board(), game.last_move());
    } else {
        v1::ListMovesRequest list;
        list.set_game_id(id.value());
        auto found = logic_.list_moves(list, request.call);
        if (!found.ok()) return found.error();
        const v1::ListMovesResponse& moves = found.value();
        const v1::Game& game = moves.game();
        game_id = game.game_id();
        const Variant& variant = variant_of(game);
        Position start = position_of(variant, moves.start_position());
        const int first = start.ply();
        const int latest = first + moves.moves_size();
        if (*ply < first || *ply > latest) {
            return service::invalid_argument(
                "ply", "ply " + std::to_string(*ply) + " is not in this game: it has plies " +
                           std::to_string(first) + " to " + std::to_string(latest));
        }
        at = *ply;
        if (at == first) {
            position = start;
        } else {
            const v1::Move& move = moves.moves(at - first - 1);
            position = position_of(variant, move.position());
            last = last_move_of(variant.board(), move);
        }
    }
    const std::string key = key_at(at);
    auto body = std::make_shared<const std::string>(
        preview::position_image(*position, last, route.format, width.value()));
    cache_.put(key, body);
    PreviewReply reply =
        file_reply(content_type_of(route.format), body, etag_of(key), cache_control);
    reply.game_id = game_id;
    return reply;
}

ServiceResult<PreviewReply> Previews::position_image(const PreviewRequest& request,
                                                     const PreviewRoute& route) {
    auto query = parse_query(request.query, {"position", "variant", "geese", "size"});
    if (!query.ok()) return query.error();
    auto width = parse_size(query.value(), kDefaultImageWidth, kSizes.back().pixels);
    if (!width.ok()) return width.error();
    const auto& q = query.value();
    const std::string name = q.count("variant") ? q.at("variant") : "standard";
    VariantOptions options;
    if (const auto it = q.find("geese"); it != q.end()) {
        options.geese = parse_count(it->second);
        if (!options.geese)
            return service::invalid_argument("geese",
                                             "geese must be a number of geese, such as 15");
    }
    auto variant = Variant::find(name, options);
    if (!variant) {
        if (variant.error().code == ErrorCode::kUnknownVariant) {
            return service::invalid_argument(
                "variant", "unknown variant '" + service::coerce_utf8(name.substr(0, 40)) +
                               "'; expected standard, big_cross or two_foxes");
        }
        return service::make_error(StatusCode::kInvalidArgument, "INVALID_OPTIONS",
                                   variant.error().message, {{"option", "geese"}});
    }
    const std::string code = q.count("position") ? q.at("position") : "";
    Position position(**variant);
    if (!code.empty()) {
        auto parsed = parse_position_code(**variant, code);
        if (!parsed) {
            ServiceError error = service::make_error(StatusCode::kInvalidArgument,
                                                     "INVALID_POSITION", parsed.error().message);
            error.field = "position";
            return error;
        }
        position = *parsed;
    }
    const std::string key = "position|" + std::string((*variant)->name()) + "|" +
                            std::to_string((*variant)->start_geese_count()) + "|" +
                            format_position_code(position) + "|" + content_type_of(route.format) +
                            "|" + std::to_string(width.value());
    PreviewReply reply = file_reply(content_type_of(route.format), nullptr, etag_of(key), kForever);
    if (etag_matches(request.if_none_match, reply.etag)) {
        reply.not_modified = true;
        return reply;
    }
    if ((reply.body = cache_.find(key))) return reply;
    reply.body = std::make_shared<const std::string>(
        preview::position_image(position, std::nullopt, route.format, width.value()));
    cache_.put(key, reply.body);
    return reply;
}

ServiceResult<PreviewReply> Previews::animation(const PreviewRequest& request,
                                                const PreviewRoute& route) {
    auto query = parse_query(request.query, {"size"});
    if (!query.ok()) return query.error();
    auto width = parse_size(query.value(), kDefaultAnimationWidth, kLargestAnimationWidth);
    if (!width.ok()) return width.error();
    auto id = game_id_of(route);
    if (!id.ok()) return id.error();
    const auto key_at = [&](int ply) {
        return "animation|" + id.value() + "|" + std::to_string(ply) + "|" +
               std::to_string(width.value());
    };
    const auto reply_at = [&](const v1::Game& game) {
        const std::string key = key_at(game.ply());
        PreviewReply reply =
            file_reply("image/gif", nullptr, etag_of(key),
                       game.state() == v1::GAME_STATE_FINISHED ? kForever : kBriefly);
        reply.game_id = game.game_id();
        return reply;
    };

    // The game's ply names the animation; the moves are read only to draw it.
    v1::GetGameRequest get;
    get.set_game_id(id.value());
    auto found = logic_.get_game(get, request.call);
    if (!found.ok()) return found.error();
    PreviewReply reply = reply_at(found.value().game());
    if (etag_matches(request.if_none_match, reply.etag)) {
        reply.not_modified = true;
        return reply;
    }
    if ((reply.body = cache_.find(key_at(found.value().game().ply())))) return reply;

    const auto running = animations_running_.try_acquire("");
    if (!running) {
        return server_busy("this replica is drawing as many animations as it may at once (" +
                           std::to_string(options_.animations_at_once) + "); retry in a moment");
    }
    v1::ListMovesRequest list;
    list.set_game_id(id.value());
    auto moves = logic_.list_moves(list, request.call);
    if (!moves.ok()) return moves.error();
    const v1::Game& game = moves.value().game();  // it may have moved on since
    reply = reply_at(game);
    const std::vector<Frame> frames = animation_frames(moves.value());
    const auto deadline = std::chrono::steady_clock::now() + options_.animation_time_limit;
    bool late = false;
    auto gif = game_animation(frames, width.value(), [&] {
        if (request.call.cancelled && request.call.cancelled()) return true;
        late = std::chrono::steady_clock::now() > deadline;
        return late;
    });
    if (!gif) {
        if (!late)
            return service::make_error(StatusCode::kCancelled, "CANCELLED", "the client went away");
        return server_busy("the animation took longer than " +
                           std::to_string(options_.animation_time_limit.count()) +
                           " ms to draw on this busy replica; retry later");
    }
    reply.body = std::make_shared<const std::string>(std::move(*gif));
    cache_.put(key_at(game.ply()), reply.body);
    return reply;
}

ServiceResult<PreviewReply> Previews::share(const PreviewRequest& request,
                                            const PreviewRoute& route) {
    // The query is not read: links pick up tracking parameters on the way.
    auto id = game_id_of(route);
    if (!id.ok()) return id.error();
    v1::GetGameRequest get;
    get.set_game_id(id.value());
    auto found = logic_.get_game(get, request.call);
    if (!found.ok()) return found.error();
    const v1::Game& game = found.value().game();
    // The image of this very ply: it never changes, so a card keeps showing
    // what the page described when it was read.
    const std::string image = "/v1/games/" + game.game_id() +
                              "/image.png?ply=" + std::to_string(game.ply()) + "&size=large";
    auto body = std::make_shared<const std::string>(
        share_page(game, base_url(request), image, options_.web_client));
    PreviewReply reply =
        file_reply("text/html; charset=utf-8", body, etag_of("share|" + *body),
                   game.state() == v1::GAME_STATE_FINISHED ? kFinishedPage : kBriefly);
    reply.content_security_policy = share_page_policy();
    reply.game_id = game.game_id();
    if (etag_matches(request.if_none_match, reply.etag)) {
        reply.not_modified = true;
        reply.body = nullptr;
    }
    return reply;
}

std::string Previews::base_url(const PreviewRequest& request) const {
    if (!options_.public_url.empty()) return options_.public_url;
    if (!valid_host(request.host)) return "";
    const bool https = options_.trusted_proxy_hops > 0 &&
                       trim(split(request.forwarded_proto, ',').front()) == "https";
    return (https ? "https://" : "http://") + std::string(request.host);
}

}  // namespace foxgeese::preview
