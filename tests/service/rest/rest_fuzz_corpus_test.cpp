// Replays the REST request fuzz corpus, and seeded random mutations of it,
// through the fuzz body, so every test run checks the request path's
// invariants without needing clang or libFuzzer.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "tests/service/rest/fuzz/rest_request_fuzz_body.h"
#include "tests/support/fuzz_corpus.h"

namespace foxgeese {
namespace {

std::vector<std::string> read_corpus() {
    return test::read_fuzz_corpus(FOXGEESE_REST_FUZZ_CORPUS_DIR);
}

void run(const std::string& input) {
    fuzz::run_rest_request_case(reinterpret_cast<const std::uint8_t*>(input.data()), input.size());
}

TEST(RestFuzzCorpus, EveryCorpusInputKeepsTheInvariants) {
    const std::vector<std::string> corpus = read_corpus();
    ASSERT_GE(corpus.size(), 30u);
    for (const std::string& input : corpus)
        run(input);
}

TEST(RestFuzzCorpus, MutationsOfTheCorpusKeepTheInvariants) {
    const std::vector<std::string> corpus = read_corpus();
    std::mt19937 random(20261201);
    constexpr int kMutationsPerInput = 200;
    for (const std::string& seed : corpus) {
        for (int i = 0; i < kMutationsPerInput; ++i) {
            std::string input = seed;
            const int edits = 1 + static_cast<int>(random() % 4);
            for (int e = 0; e < edits && !input.empty(); ++e) {
                const std::size_t at = random() % input.size();
                switch (random() % 4) {
                    case 0:  // flip a byte
                        input[at] = static_cast<char>(random() & 0xff);
                        break;
                    case 1:  // drop a run
                        input.erase(at, 1 + random() % 8);
                        break;
                    case 2:  // repeat a run
                        input.insert(at, input.substr(at, 1 + random() % 16));
                        break;
                    default:  // splice in a piece of another input
                        const std::string& other = corpus[random() % corpus.size()];
                        input.insert(at, other.substr(random() % other.size(), 1 + random() % 24));
                        break;
                }
            }
            run(input);
        }
    }
}

}  // namespace
}  // namespace foxgeese
