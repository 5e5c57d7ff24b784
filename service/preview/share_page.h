// The page a chat or a social network fetches for a shared link, /g/{id}:
// HTML whose Open Graph and Twitter card tags name the game (the variant
// and its state), say who is to move or how it ended, and show the board
// as a PNG; a browser is sent on to the web client's page of the game.
#pragma once

#include <string>

#include "foxgeese/v1/game.pb.h"

namespace foxgeese::preview {

// The card's title: "Fox and Geese: in progress".
std::string share_title(const v1::Game& game);
// Who is to move, or the result and why: "The geese to move (ply 12).".
std::string share_description(const v1::Game& game);

// The page. `base_url` ("https://foxgeese.example", or empty for links
// relative to the host) prefixes the image's and the page's own address;
// `image_path` is the image's path and query. With `web_client`, a browser
// goes on to the client's game page (a script; the card readers run none).
std::string share_page(const v1::Game& game, const std::string& base_url,
                       const std::string& image_path, bool web_client);

// The page's Content-Security-Policy: its one script, by hash, and images
// from this origin.
const std::string& share_page_policy();

}  // namespace foxgeese::preview
