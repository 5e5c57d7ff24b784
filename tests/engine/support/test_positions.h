// Variants by name and positions by code, for the search, evaluation and
// level tests.
#pragma once

#include <gtest/gtest.h>

#include <string_view>

#include "engine/rules/position.h"
#include "engine/rules/position_code.h"
#include "engine/rules/variant.h"

namespace foxgeese::testing {

inline const Variant& variant_named(std::string_view name, VariantOptions options = {}) {
    return *Variant::find(name, options).value();
}

inline Position position_from_code(const Variant& variant, std::string_view code) {
    Result<Position> pos = parse_position_code(variant, code);
    EXPECT_TRUE(pos.ok()) << code << ": " << (pos.ok() ? "" : pos.error().message);
    return pos.ok() ? *pos : Position(variant);
}

}  // namespace foxgeese::testing
