// The tablebase as a server holds it: every layer file of a directory mapped
// read-only into memory (the kernel's page cache holds what is read, shared
// by every process that maps the same files), probed a position at a time
// without a read call. Layers are used from four geese up to the first one
// missing: a position's moves reach the smaller layers through captures.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/rules/position.h"
#include "engine/tablebase/goose_set_index.h"
#include "engine/tablebase/layer_file.h"
#include "engine/tablebase/retrograde_builder.h"
#include "engine/tablebase/table_layer.h"

namespace foxgeese::tablebase {

class MappedTablebase {
  public:
    // Maps the layers of `dir` from four geese up. Throws std::runtime_error
    // when the directory has no layer of four geese or a layer's header or
    // length is wrong (a checksum reads the whole file: the build checks it,
    // a server at start does not).
    static std::unique_ptr<const MappedTablebase> open(const std::filesystem::path& dir);
    ~MappedTablebase();
    MappedTablebase(const MappedTablebase&) = delete;
    MappedTablebase& operator=(const MappedTablebase&) = delete;

    const std::filesystem::path& dir() const { return dir_; }
    // The most geese of a position it answers for.
    int max_geese() const { return static_cast<int>(views_.size()) - 1; }
    // The bytes mapped, every layer together.
    std::uint64_t mapped_bytes() const;

    // Whether the tablebase answers for the position: standard with
    // forward-only geese (covers()), kFewestGeese to max_geese() geese, and
    // a fifty-move count that cannot end the game (see the .cpp).
    bool answers(const Position& pos) const;
    // The position's value for its side to move; nullopt when it does not
    // answer for it.
    std::optional<ExactValue> value(const Position& pos) const;

  private:
    explicit MappedTablebase(std::filesystem::path dir);

    std::filesystem::path dir_;
    GooseSetIndex sets_;
    std::vector<std::unique_ptr<MappedLayerFile>> files_;
    std::vector<LayerView> views_;  // indexed by goose count; empty below kFewestGeese
};

}  // namespace foxgeese::tablebase
