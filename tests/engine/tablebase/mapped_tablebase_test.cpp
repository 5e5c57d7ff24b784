// The tablebase as a server maps it: the same values as the in-memory build,
// only for the positions it holds, and a directory that is not a tablebase
// refused at open.
#include "engine/tablebase/mapped_tablebase.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <random>

#include "engine/rules/board.h"
#include "engine/rules/variant.h"
#include "engine/tablebase/layer_file.h"
#include "engine/tablebase/tablebase_build.h"

namespace foxgeese::tablebase {
namespace {

namespace fs = std::filesystem;

constexpr int kGeese = 6;

class MappedTablebaseTest : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        dir_ = new fs::path(fs::temp_directory_path() /
                            ("foxgeese-mapped-tablebase-" + std::to_string(getpid())));
        fs::remove_all(*dir_);
        build_tablebase(*dir_, kGeese);
        memory_ = new RetrogradeTables(RetrogradeTables::build(kGeese));
    }
    static void TearDownTestSuite() {
        fs::remove_all(*dir_);
        delete dir_;
        delete memory_;
    }

    // A copy of the built directory that a test may damage.
    fs::path copy_of_tables(const std::string& name) {
        const fs::path copy = dir_->string() + "-" + name;
        fs::remove_all(copy);
        fs::copy(*dir_, copy);
        copies_.push_back(copy);
        return copy;
    }
    void TearDown() override {
        for (const fs::path& copy : copies_)
            fs::remove_all(copy);
    }

    static const Variant& standard() { return **Variant::find("standard", {}); }

    static fs::path* dir_;
    static RetrogradeTables* memory_;
    std::vector<fs::path> copies_;
};

fs::path* MappedTablebaseTest::dir_ = nullptr;
RetrogradeTables* MappedTablebaseTest::memory_ = nullptr;

TEST_F(MappedTablebaseTest, GivesTheValuesOfTheBuildInMemory) {
    const auto table = MappedTablebase::open(*dir_);
    EXPECT_EQ(table->max_geese(), kGeese);
    std::uint64_t expected_bytes = 0;
    for (int geese = kFewestGeese; geese <= kGeese; ++geese)
        expected_bytes += fs::file_size(layer_file_path(*dir_, geese));
    EXPECT_EQ(table->mapped_bytes(), expected_bytes);

    std::mt19937_64 random(11);
    const GooseSetIndex& sets = memory_->sets();
    int compared = 0;
    for (int trial = 0; trial < 30'000; ++trial) {
        const int k = kFewestGeese + trial % (kGeese - kFewestGeese + 1);
        const Bitboard geese = sets.unrank(random() % sets.count(k), k);
        Bitboard free = Board::cross33().all_points() & ~geese;
        for (int skip = static_cast<int>(random() % count(free)); skip > 0; --skip)
            pop_lowest(free);
        const int fox = lowest(free);
        const Side side = random() % 2 ? Side::kFox : Side::kGeese;
        const Position pos(standard(), bit(fox), geese, side, 0, 0);
        ASSERT_TRUE(table->answers(pos));
        EXPECT_EQ(table->value(pos), memory_->value(geese, fox, side));
        ++compared;
    }
    EXPECT_EQ(compared, 30'000);
}

TEST_F(MappedTablebaseTest, AnswersOnlyForThePositionsItHolds) {
    const auto table = MappedTablebase::open(*dir_);
    // Five geese and the fox: in it, fox or geese to move.
    const Position five(standard(), bit(16), bit(0) | bit(1) | bit(2) | bit(3) | bit(4), Side::kFox,
                        0, 0);
    EXPECT_TRUE(table->answers(five));
    EXPECT_TRUE(table->value(five).has_value());
    // The standard start has 13 geese: more than this table's 6.
    EXPECT_FALSE(table->answers(Position(standard())));
    EXPECT_FALSE(table->value(Position(standard())).has_value());
    // Sideways geese and the other variants are not in it.
    VariantOptions sideways;
    sideways.geese_sideways = true;
    const Variant& with_sideways = **Variant::find("standard", sideways);
    EXPECT_FALSE(
        table->answers(Position(with_sideways, five.foxes(), five.geese(), Side::kFox, 0, 0)));
    EXPECT_FALSE(table->answers(Position(**Variant::find("two_foxes", {}))));
    EXPECT_FALSE(table->answers(Position(**Variant::find("big_cross", {}))));
    // A fifty-move count the next fox step would complete: a draw the table
    // does not know. One ply less is still certain to be reset in time.
    EXPECT_FALSE(table->answers(
        Position(standard(), five.foxes(), five.geese(), Side::kFox, kFiftyMoveQuietPlies - 1, 0)));
    EXPECT_TRUE(table->answers(
        Position(standard(), five.foxes(), five.geese(), Side::kFox, kFiftyMoveQuietPlies - 2, 0)));
    EXPECT_TRUE(table->answers(Position(standard(), five.foxes(), five.geese(), Side::kGeese,
                                        kFiftyMoveQuietPlies - 1, 0)));
}

TEST_F(MappedTablebaseTest, UsesTheLayersFromFourGeeseUpToTheFirstMissing) {
    const fs::path copy = copy_of_tables("gap");
    fs::remove(layer_file_path(copy, 5));
    EXPECT_EQ(MappedTablebase::open(copy)->max_geese(), 4);
}

TEST_F(MappedTablebaseTest, RefusesADirectoryThatIsNotATablebase) {
    const fs::path empty = copy_of_tables("empty");
    for (int geese = kFewestGeese; geese <= kGeese; ++geese)
        fs::remove(layer_file_path(empty, geese));
    EXPECT_THROW(MappedTablebase::open(empty), std::runtime_error);
    EXPECT_THROW(MappedTablebase::open(empty / "nowhere"), std::runtime_error);

    // A layer cut short, or one that claims another goose count.
    const fs::path cut = copy_of_tables("cut");
    fs::resize_file(layer_file_path(cut, 5), fs::file_size(layer_file_path(cut, 5)) - 1);
    EXPECT_THROW(MappedTablebase::open(cut), std::runtime_error);
    const fs::path swapped = copy_of_tables("swapped");
    fs::copy_file(layer_file_path(swapped, 4), layer_file_path(swapped, 5),
                  fs::copy_options::overwrite_existing);
    EXPECT_THROW(MappedTablebase::open(swapped), std::runtime_error);
}

}  // namespace
}  // namespace foxgeese::tablebase
