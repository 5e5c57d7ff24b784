// What ListVariants tells a frontend: every variant with its board geometry,
// options, start position and localised name and rules summary.
#pragma once

#include <string>
#include <string_view>

#include "foxgeese/v1/game_service.pb.h"

namespace foxgeese::service {

// The languages with texts; anything else falls back to English.
inline constexpr std::string_view kLanguages[] = {"en", "el", "pl", "tr", "nb"};

// Picks a supported language from a request field or an Accept-Language
// header value ("pl-PL", "nb;q=0.9, en;q=0.8", ...); "en" when none fits.
std::string choose_language(std::string_view requested);

v1::ListVariantsResponse list_variants(std::string_view language);

}  // namespace foxgeese::service
