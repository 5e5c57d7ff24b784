// Replays the parser fuzz corpus and seeded random mutations of it through
// the fuzz body, so every test run checks the parsers' invariants without
// needing clang or libFuzzer.
#include "tests/support/fuzz_corpus.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "engine/record/game_record.h"
#include "engine/rules/notation.h"
#include "engine/rules/position_code.h"
#include "engine/rules/variant.h"
#include "fuzz/parse_fuzz_body.h"

namespace foxgeese {
namespace {

std::vector<std::string> read_corpus() {
    return test::read_fuzz_corpus(FOXGEESE_FUZZ_CORPUS_DIR);
}

void run(const std::string& input) {
    fuzz::run_parse_fuzz_case(reinterpret_cast<const std::uint8_t*>(input.data()), input.size());
}

// Bytes that matter to the parsers, so mutations often stay near valid input.
constexpr char kInterestingBytes[] = "FGfg0123456789/ -xX\n\t\r\0abcdeghi[]\"{}*.";
constexpr std::string_view kInteresting(kInterestingBytes, sizeof kInterestingBytes - 1);

std::string mutate(const std::vector<std::string>& corpus, std::mt19937_64& rng) {
    std::string s = corpus[rng() % corpus.size()];
    const int edits = 1 + static_cast<int>(rng() % 4);
    for (int e = 0; e < edits; ++e) {
        const std::size_t at = s.empty() ? 0 : rng() % (s.size() + 1);
        const char byte = rng() % 4 == 0 ? static_cast<char>(rng() % 256)
                                         : kInteresting[rng() % kInteresting.size()];
        switch (rng() % 7) {
            case 0:  // overwrite a byte
                if (at < s.size()) s[at] = byte;
                break;
            case 1:  // insert a byte
                s.insert(s.begin() + static_cast<std::ptrdiff_t>(at), byte);
                break;
            case 2:  // delete a run
                if (at < s.size()) s.erase(at, 1 + rng() % 4);
                break;
            case 3:  // duplicate a chunk
                if (at < s.size()) s.insert(at, s.substr(at, 1 + rng() % 16));
                break;
            case 4:  // truncate
                s.resize(at);
                break;
            case 5: {  // splice in part of another input
                const std::string& other = corpus[rng() % corpus.size()];
                const std::size_t from = other.empty() ? 0 : rng() % other.size();
                s.insert(std::min(at, s.size()), other.substr(from, 1 + rng() % 40));
                break;
            }
            default:  // flip a bit
                if (at < s.size()) s[at] = static_cast<char>(s[at] ^ (1 << (rng() % 8)));
                break;
        }
    }
    return s;
}

// How many inputs each parser accepted, to show the run reached past the parsers.
struct Accepted {
    int codes = 0;
    int moves = 0;
    int code_and_move = 0;
    int records = 0;

    void count(std::string_view input) {
        if (parse_record(input).ok()) ++records;
        for (const Variant* v : Variant::all()) {
            if (parse_position_code(*v, input).ok()) ++codes;
        }
        if (parse_move(Board::cross33(), input).ok() || parse_move(Board::cross45(), input).ok())
            ++moves;
        const std::size_t newline = input.find('\n');
        if (newline == std::string_view::npos) return;
        for (const Variant* v : Variant::all()) {
            if (parse_position_code(*v, input.substr(0, newline)).ok() &&
                parse_move(v->board(), input.substr(newline + 1)).ok()) {
                ++code_and_move;
            }
        }
    }
};

TEST(ParseFuzzCorpus, EveryCorpusFileKeepsTheParserInvariants) {
    const std::vector<std::string> corpus = read_corpus();
    ASSERT_GE(corpus.size(), 30u) << FOXGEESE_FUZZ_CORPUS_DIR;
    Accepted accepted;
    for (const std::string& input : corpus) {
        run(input);
        accepted.count(input);
    }
    // The corpus holds valid codes, moves and code+move pairs, not only junk.
    EXPECT_GE(accepted.codes, 10);
    EXPECT_GE(accepted.moves, 5);
    EXPECT_GE(accepted.code_and_move, 5);
    EXPECT_GE(accepted.records, 4);
}

TEST(ParseFuzzCorpus, SeededMutationsOfTheCorpusKeepTheParserInvariants) {
    const std::vector<std::string> corpus = read_corpus();
    ASSERT_FALSE(corpus.empty());
    std::mt19937_64 rng(0xF0C5);
    Accepted accepted;
    constexpr int kMutations = 100'000;
    for (int i = 0; i < kMutations; ++i) {
        const std::string input = mutate(corpus, rng);
        run(input);
        accepted.count(input);
    }
    // Enough mutants stay parseable to exercise the checks behind the parsers.
    EXPECT_GT(accepted.codes, kMutations / 100);
    EXPECT_GT(accepted.moves, kMutations / 200);
    EXPECT_GT(accepted.code_and_move, kMutations / 1000);
    EXPECT_GT(accepted.records, kMutations / 2000);
}

}  // namespace
}  // namespace foxgeese
