#include "service/preview/share_page.h"

#include <openssl/evp.h>
#include <openssl/sha.h>

#include "service/core/variant_texts.h"

namespace foxgeese::preview {
namespace {

// Goes on to the client's page of the game, whose id is the page's own
// path's last segment (/g/{id}); a fixed text, so the policy names its hash.
constexpr std::string_view kScript =
    "location.replace(\"/#game=\" + encodeURIComponent(location.pathname.split(\"/\").pop()));";

std::string escape(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (const char c : text) {
        switch (c) {
            case '&':
                out += "&amp;";
                break;
            case '<':
                out += "&lt;";
                break;
            case '>':
                out += "&gt;";
                break;
            case '"':
                out += "&quot;";
                break;
            case '\'':
                out += "&#39;";
                break;
            default:
                out += c;
        }
    }
    return out;
}

bool two_foxes(const v1::Game& game) {
    return game.fox_count() > 1;
}

std::string side_name(const v1::Game& game, v1::Side side) {
    if (side == v1::SIDE_FOX) return two_foxes(game) ? "The foxes" : "The fox";
    return "The geese";
}

std::string result_text(const v1::Game& game) {
    switch (game.result()) {
        case v1::GAME_RESULT_FOX_SIDE_WINS:
            return two_foxes(game) ? "The foxes win" : "The fox wins";
        case v1::GAME_RESULT_GEESE_WIN:
            return "The geese win";
        case v1::GAME_RESULT_DRAW:
            return "A draw";
        default:
            return "No result";
    }
}

std::string reason_text(v1::EndReason reason) {
    switch (reason) {
        case v1::END_REASON_GEESE_BELOW_THRESHOLD:
            return "too few geese are left";
        case v1::END_REASON_PEN_FILLED:
            return "the geese filled the pen";
        case v1::END_REASON_NO_LEGAL_MOVE:
            return "the side to move could not move";
        case v1::END_REASON_THREEFOLD_REPETITION:
            return "the same position came a third time";
        case v1::END_REASON_FIFTY_MOVE_RULE:
            return "fifty moves each without progress";
        case v1::END_REASON_RESIGNATION:
            return "resignation";
        case v1::END_REASON_DRAW_AGREED:
            return "agreed";
        case v1::END_REASON_TIMEOUT:
            return "time ran out";
        case v1::END_REASON_ABORTED:
            return "aborted";
        case v1::END_REASON_OPPONENT_LEFT:
            return "the opponent left";
        case v1::END_REASON_CANCELLED:
            return "cancelled";
        case v1::END_REASON_EXPIRED:
            return "nobody joined";
        case v1::END_REASON_UNFINISHED:
            return "the record stops here";
        default:
            return "";
    }
}

std::string base64(const unsigned char* data, int length) {
    std::string out(static_cast<std::size_t>(4 * ((length + 2) / 3)) + 1, '\0');
    const int written = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()), data, length);
    out.resize(static_cast<std::size_t>(written));
    return out;
}

}  // namespace

std::string share_title(const v1::Game& game) {
    const service::VariantTexts* texts = service::variant_texts(game.variant(), "en");
    const std::string variant = texts ? std::string(texts->display_name) : game.variant();
    switch (game.state()) {
        case v1::GAME_STATE_WAITING:
            return variant + ": waiting for an opponent";
        case v1::GAME_STATE_ACTIVE:
            return variant + ": in progress";
        default:
            return variant + ": finished";
    }
}

std::string share_description(const v1::Game& game) {
    std::string text;
    if (game.state() == v1::GAME_STATE_FINISHED) {
        text = result_text(game);
        const std::string why = reason_text(game.end_reason());
        if (!why.empty()) text += " (" + why + ")";
        text += " after " + std::to_string(game.ply()) + " plies.";
    } else {
        text = side_name(game, game.side_to_move()) + " to move (ply " +
               std::to_string(game.ply()) + ").";
    }
    text += " " + std::to_string(game.geese_count()) + " geese on the board, " +
            std::to_string(game.geese_captured()) + " captured.";
    return text;
}

std::string share_page(const v1::Game& game, const std::string& base_url,
                       const std::string& image_path, bool web_client) {
    const std::string title = escape(share_title(game));
    const std::string description = escape(share_description(game));
    const std::string image = escape(base_url + image_path);
    const std::string page = escape(base_url + "/g/" + game.game_id());
    const std::string alt = escape("The board of the game: " + share_description(game));
    std::string html =
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        "<title>" +
        title +
        "</title>\n"
        "<meta name=\"description\" content=\"" +
        description +
        "\">\n"
        "<meta property=\"og:type\" content=\"website\">\n"
        "<meta property=\"og:site_name\" content=\"foxgeese\">\n"
        "<meta property=\"og:title\" content=\"" +
        title +
        "\">\n"
        "<meta property=\"og:description\" content=\"" +
        description +
        "\">\n"
        "<meta property=\"og:url\" content=\"" +
        page +
        "\">\n"
        "<meta property=\"og:image\" content=\"" +
        image +
        "\">\n"
        "<meta property=\"og:image:type\" content=\"image/png\">\n"
        "<meta property=\"og:image:alt\" content=\"" +
        alt +
        "\">\n"
        "<meta name=\"twitter:card\" content=\"summary\">\n"
        "<meta name=\"twitter:title\" content=\"" +
        title +
        "\">\n"
        "<meta name=\"twitter:description\" content=\"" +
        description +
        "\">\n"
        "<meta name=\"twitter:image\" content=\"" +
        image +
        "\">\n"
        "<meta name=\"twitter:image:alt\" content=\"" +
        alt + "\">\n";
    if (web_client) html += "<script>" + std::string(kScript) + "</script>\n";
    html += "</head>\n<body>\n<h1>" + title + "</h1>\n<p>" + description + "</p>\n";
    if (web_client) {
        html += "<p><a href=\"/#game=" + escape(game.game_id()) + "\">Open the game</a></p>\n";
    }
    html += "<img src=\"" + image + "\" alt=\"" + alt + "\" width=\"480\" height=\"480\">\n";
    html += "</body>\n</html>\n";
    return html;
}

const std::string& share_page_policy() {
    static const std::string policy = [] {
        unsigned char digest[SHA256_DIGEST_LENGTH];
        SHA256(reinterpret_cast<const unsigned char*>(kScript.data()), kScript.size(), digest);
        return "default-src 'none'; script-src 'sha256-" + base64(digest, sizeof digest) +
               "'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
    }();
    return policy;
}

}  // namespace foxgeese::preview
