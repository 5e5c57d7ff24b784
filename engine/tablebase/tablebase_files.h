// The tablebase read from its directory of layer files a position at a
// time, each layer opened when first needed: for commands and checks that
// probe a few positions (a server maps the files instead).
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <optional>

#include "engine/rules/position.h"
#include "engine/tablebase/goose_set_index.h"
#include "engine/tablebase/layer_file.h"
#include "engine/tablebase/retrograde_builder.h"

namespace foxgeese::tablebase {

// Whether the tablebase covers a variant's positions: standard whose geese
// only step forward, any of its configurations.
bool covers(const Variant& variant);

class TablebaseFiles {
  public:
    explicit TablebaseFiles(std::filesystem::path dir);

    // The position's value, or nullopt when its variant is not covered, its
    // goose count is outside 4..17 or its layer is not built.
    std::optional<ExactValue> value(const Position& pos);

  private:
    std::filesystem::path dir_;
    GooseSetIndex sets_;
    std::map<int, std::unique_ptr<LayerFileReader>> readers_;
};

}  // namespace foxgeese::tablebase
