// Building the tablebase into a directory, layer by layer from four geese
// up: a layer whose file is there and intact is kept (a build resumes where
// it stopped), the others are solved and written. Only the geese-to-move
// values of the smaller layers are held while a layer is solved.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string_view>
#include <vector>

namespace foxgeese::tablebase {

struct LayerBuilt {
    int geese;
    bool kept;  // its file was there and intact
    double seconds;
    std::uint64_t positions;  // stored, both sides to move
    std::uint64_t file_bytes;
};

// `step`: "index", "fox to move", "geese to move", "write".
using BuildProgress =
    std::function<void(int geese, std::string_view step, std::uint64_t done, std::uint64_t total)>;

std::vector<LayerBuilt> build_tablebase(const std::filesystem::path& dir, int max_geese,
                                        const BuildProgress& progress = {});

}  // namespace foxgeese::tablebase
