// The eight start configurations, as engine variants and as the reference
// implementation's configs, for tests that walk all of them.
#pragma once

#include <string>

#include "engine/rules/variant.h"
#include "reference_rules.h"

namespace foxgeese::testing {

inline reference::Config reference_config(const Variant& v) {
    return reference::Config{std::string(v.name()), v.geese_option(),
                             v.has_options() && v.geese_sideways()};
}

// A readable test-parameter name such as "standard_15_sideways".
inline std::string config_name(const Variant& v) {
    std::string name(v.name());
    if (v.has_options()) {
        name += "_" + std::to_string(v.geese_option());
        if (v.geese_sideways()) name += "_sideways";
    }
    return name;
}

}  // namespace foxgeese::testing
