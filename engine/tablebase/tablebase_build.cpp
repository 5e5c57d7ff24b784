#include "engine/tablebase/tablebase_build.h"

#include <chrono>
#include <stdexcept>

#include "engine/rules/board.h"
#include "engine/tablebase/layer_file.h"
#include "engine/tablebase/retrograde_builder.h"

namespace foxgeese::tablebase {

std::vector<LayerBuilt> build_tablebase(const std::filesystem::path& dir, int max_geese,
                                        const BuildProgress& progress) {
    if (max_geese < kFewestGeese || max_geese > kMostGeese)
        throw std::invalid_argument("the tablebase holds 4 to 17 geese");
    std::filesystem::create_directories(dir);
    const GooseSetIndex sets(Board::cross33().point_count());
    // The smaller layers' geese-to-move values, as the builder reads them.
    std::vector<LoadedLayer> smaller(max_geese + 1);
    std::vector<LayerView> views(max_geese + 1);
    std::vector<LayerBuilt> report;
    auto report_to = [&](int geese, std::string_view step) {
        return [&progress, geese, step](std::uint64_t done, std::uint64_t total) {
            if (progress) progress(geese, step, done, total);
        };
    };
    for (int geese = kFewestGeese; geese <= max_geese; ++geese) {
        const auto start = std::chrono::steady_clock::now();
        const std::filesystem::path path = layer_file_path(dir, geese);
        std::string problem;
        LayerBuilt built{geese, false, 0, 0, 0};
        built.kept = check_layer_file(path, geese, problem, built.positions);
        if (built.kept) {
            if (geese < max_geese) smaller[geese] = read_layer_file(path, geese, false);
        } else {
            if (progress) progress(geese, "index", 0, 1);
            auto index = std::make_unique<MirrorIndex>(sets, geese);
            if (progress) progress(geese, "index", 1, 1);
            LayerBuilder builder(sets, *index, views);
            built.positions = 2 * layer_positions(*index);
            std::vector<std::uint8_t> fox =
                builder.solve_fox_to_move(report_to(geese, "fox to move"));
            // The biggest layer's geese-to-move values take the room of the
            // smaller layers, which nothing reads any more.
            if (geese == max_geese) {
                smaller.clear();
                views.clear();
            }
            std::vector<std::uint8_t> geese_values =
                builder.solve_geese_to_move(fox, report_to(geese, "geese to move"));
            if (progress) progress(geese, "write", 0, 1);
            write_layer_file(path, *index, fox, geese_values);
            if (progress) progress(geese, "write", 1, 1);
            if (geese < max_geese) {
                smaller[geese].index = std::move(index);
                smaller[geese].geese_to_move = std::move(geese_values);
            }
        }
        if (geese < max_geese) views[geese] = smaller[geese].view();
        built.file_bytes = std::filesystem::file_size(path);
        built.seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        report.push_back(built);
    }
    return report;
}

}  // namespace foxgeese::tablebase
