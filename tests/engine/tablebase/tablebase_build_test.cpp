#include "engine/tablebase/tablebase_build.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>

#include "engine/tablebase/layer_file.h"
#include "engine/tablebase/retrograde_builder.h"
#include "engine/tablebase/tablebase_stats.h"

namespace foxgeese::tablebase {
namespace {

namespace fs = std::filesystem;

class TablebaseBuildTest : public ::testing::Test {
  protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() /
               ("foxgeese-tablebase-" + std::to_string(getpid()) + "-" +
                ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(dir_);
    }
    void TearDown() override { fs::remove_all(dir_); }

    static std::vector<bool> kept(const std::vector<LayerBuilt>& report) {
        std::vector<bool> k;
        for (const LayerBuilt& layer : report)
            k.push_back(layer.kept);
        return k;
    }

    // The files hold exactly what the in-memory build gives.
    void expect_files_match_memory(int max_geese) {
        const RetrogradeTables memory = RetrogradeTables::build(max_geese);
        for (int geese = kFewestGeese; geese <= max_geese; ++geese) {
            const LoadedLayer file = read_layer_file(layer_file_path(dir_, geese), geese, true);
            const LayerView want = memory.layer(geese);
            EXPECT_EQ(file.index->bitmap_words(), want.index->bitmap_words());
            EXPECT_TRUE(std::equal(file.fox_to_move.begin(), file.fox_to_move.end(),
                                   want.fox_to_move.begin(), want.fox_to_move.end()))
                << geese << " geese, fox to move";
            EXPECT_TRUE(std::equal(file.geese_to_move.begin(), file.geese_to_move.end(),
                                   want.geese_to_move.begin(), want.geese_to_move.end()))
                << geese << " geese, geese to move";
        }
    }

    fs::path dir_;
};

TEST_F(TablebaseBuildTest, BuildsEveryLayerIntoItsFileAndResumesByLayer) {
    std::vector<std::string> steps;
    const auto first = build_tablebase(
        dir_, 5, [&](int geese, std::string_view step, std::uint64_t done, std::uint64_t total) {
            if (done == total) steps.push_back(std::to_string(geese) + " " + std::string(step));
        });
    ASSERT_EQ(first.size(), 2u);
    EXPECT_EQ(kept(first), (std::vector<bool>{false, false}));
    const GooseSetIndex sets(33);
    EXPECT_EQ(first[0].positions, 2 * layer_positions(MirrorIndex(sets, 4)));
    EXPECT_EQ(steps.front(), "4 index");
    EXPECT_EQ(steps.back(), "5 write");
    for (int geese = 4; geese <= 5; ++geese) {
        std::string problem;
        std::uint64_t positions = 0;
        EXPECT_TRUE(check_layer_file(layer_file_path(dir_, geese), geese, problem, positions))
            << problem;
        EXPECT_EQ(positions, first[geese - 4].positions);
        EXPECT_EQ(fs::file_size(layer_file_path(dir_, geese)), first[geese - 4].file_bytes);
    }
    expect_files_match_memory(5);

    // Again: every layer is kept, nothing written.
    const auto written = fs::last_write_time(layer_file_path(dir_, 4));
    EXPECT_EQ(kept(build_tablebase(dir_, 5)), (std::vector<bool>{true, true}));
    EXPECT_EQ(fs::last_write_time(layer_file_path(dir_, 4)), written);

    // A missing layer is built again from the kept ones below it, and the
    // next one on top of them.
    fs::remove(layer_file_path(dir_, 5));
    EXPECT_EQ(kept(build_tablebase(dir_, 6)), (std::vector<bool>{true, false, false}));
    expect_files_match_memory(6);
}

TEST_F(TablebaseBuildTest, ADamagedLayerIsFoundAndBuiltAgain) {
    build_tablebase(dir_, 5);
    const fs::path five = layer_file_path(dir_, 5);
    {
        std::fstream file(five, std::ios::in | std::ios::out | std::ios::binary);
        file.seekp(static_cast<std::streamoff>(fs::file_size(five) / 2));
        file.put('\x7f');
    }
    std::string problem;
    std::uint64_t positions = 0;
    EXPECT_FALSE(check_layer_file(five, 5, problem, positions));
    EXPECT_NE(problem.find("checksum"), std::string::npos) << problem;
    EXPECT_EQ(kept(build_tablebase(dir_, 5)), (std::vector<bool>{true, false}));
    expect_files_match_memory(5);
}

TEST_F(TablebaseBuildTest, FilesThatAreNotTheLayerAskedForAreRefused) {
    build_tablebase(dir_, 5);
    std::string problem;
    std::uint64_t positions = 0;
    EXPECT_FALSE(check_layer_file(layer_file_path(dir_, 4), 5, problem, positions));
    EXPECT_EQ(problem, "a layer of 4 geese");
    EXPECT_FALSE(check_layer_file(dir_ / "none.fgtb", 5, problem, positions));
    EXPECT_EQ(problem, "missing");
    EXPECT_THROW(read_layer_file(layer_file_path(dir_, 4), 5, false), std::runtime_error);

    const fs::path cut = dir_ / "cut.fgtb";
    fs::copy_file(layer_file_path(dir_, 5), cut);
    fs::resize_file(cut, fs::file_size(cut) - 100);
    EXPECT_FALSE(check_layer_file(cut, 5, problem, positions));
    EXPECT_EQ(problem, "not the length its header gives");

    const fs::path other = dir_ / "other.fgtb";
    std::ofstream(other) << "not a table at all, but long enough to hold a header of 104 bytes; "
                            "......................................................";
    EXPECT_FALSE(check_layer_file(other, 5, problem, positions));
    EXPECT_EQ(problem, "not a foxgeese tablebase layer");
}

// The statistics and single probes read from the files agree with counting
// every position of the in-memory build.
TEST_F(TablebaseBuildTest, StatisticsAndProbesFromTheFilesAgreeWithEveryPositionInMemory) {
    build_tablebase(dir_, 5);
    const RetrogradeTables memory = RetrogradeTables::build(5);
    const GooseSetIndex& sets = memory.sets();
    for (int geese = 4; geese <= 5; ++geese) {
        LayerFileReader reader(layer_file_path(dir_, geese), geese);
        const LayerStats stats = layer_stats(reader);
        EXPECT_EQ(stats.geese, geese);
        for (const Side side : {Side::kFox, Side::kGeese}) {
            const SideToMoveStats& got =
                side == Side::kFox ? stats.fox_to_move : stats.geese_to_move;
            SideToMoveStats want;
            for_each_set_ascending(33, geese, [&](std::uint64_t, Bitboard set) {
                for (Bitboard free = 0x1ffffffffULL & ~set; free;) {
                    const int fox = pop_lowest(free);
                    const ExactValue v = memory.value(set, fox, side).value();
                    ++want.positions;
                    ++((v.mover_wins == (side == Side::kFox)) ? want.fox_wins : want.geese_wins);
                    want.longest = std::max(want.longest, v.plies);
                    if (set % 97 == 0) {
                        EXPECT_EQ(reader.at(sets, side, set, fox), v.plies);
                    }
                }
            });
            EXPECT_EQ(got.positions, sets.count(geese) * static_cast<std::uint64_t>(33 - geese));
            EXPECT_EQ(got.positions, want.positions);
            EXPECT_EQ(got.fox_wins, want.fox_wins);
            EXPECT_EQ(got.geese_wins, want.geese_wins);
            EXPECT_EQ(got.longest, want.longest);
            EXPECT_EQ(memory.value(got.longest_geese, got.longest_fox, side)->plies, got.longest);
        }
    }
}

}  // namespace
}  // namespace foxgeese::tablebase
