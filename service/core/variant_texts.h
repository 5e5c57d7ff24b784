// Display names, rules summaries and option descriptions of the variants, per
// language. Written for this project; the rules they summarise are in
// engine/RULES.md.
#pragma once

#include <string_view>

namespace foxgeese::service {

struct VariantTexts {
    std::string_view display_name;
    std::string_view summary;
};

struct OptionTexts {
    std::string_view geese;           // the `geese` option of standard
    std::string_view geese_sideways;  // the `geese_sideways` option of standard
};

// nullptr when the language has no texts.
const VariantTexts* variant_texts(std::string_view variant, std::string_view language);
const OptionTexts* option_texts(std::string_view language);

}  // namespace foxgeese::service
