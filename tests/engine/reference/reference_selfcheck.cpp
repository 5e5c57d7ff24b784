// Sanity check of the reference rules: board facts, start codes, hand-checked positions, and a
// perft table with timings. Build and run:
//   g++ -std=c++20 -O2 -Wall -Wextra -o /tmp/refcheck tests/engine/reference/*.cpp && /tmp/refcheck
// An optional argument sets the deepest perft depth (default 5).
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "reference_rules.h"

namespace ref = foxgeese::reference;

namespace {

int failures = 0;

void check(bool ok, const std::string& what) {
    if (!ok) {
        ++failures;
        std::printf("FAIL: %s\n", what.c_str());
    }
}

std::string join(const std::vector<std::string>& items) {
    std::string out;
    for (const std::string& item : items)
        out += (out.empty() ? "" : " ") + item;
    return out;
}

void check_moves(const ref::Config& config, const std::string& code,
                 const std::vector<std::string>& expected) {
    std::vector<std::string> got = ref::legal_moves(config, code);
    check(got == expected,
          "moves of " + code + "\n  got:      " + join(got) + "\n  expected: " + join(expected));
}

void check_equal(const std::string& got, const std::string& expected, const std::string& what) {
    check(got == expected, what + "\n  got:      " + got + "\n  expected: " + expected);
}

template <typename Fn>
void check_throws(Fn fn, const std::string& what) {
    try {
        fn();
    } catch (const std::invalid_argument&) {
        return;
    }
    check(false, what + " did not throw");
}

void check_boards() {
    ref::BoardFacts small = ref::board_facts("cross33");
    ref::BoardFacts big = ref::board_facts("cross45");
    std::printf("cross33: %d points, %d orthogonal + %d diagonal = %d links\n", small.points,
                small.orthogonal_links, small.diagonal_links,
                small.orthogonal_links + small.diagonal_links);
    std::printf("cross45: %d points, %d orthogonal + %d diagonal = %d links\n", big.points,
                big.orthogonal_links, big.diagonal_links,
                big.orthogonal_links + big.diagonal_links);
    check(small.points == 33 && small.orthogonal_links == 52 && small.diagonal_links == 40,
          "cross33 facts");
    check(big.points == 45 && big.orthogonal_links == 72 && big.diagonal_links == 28,
          "cross45 facts");
}

void check_start_codes() {
    // Literally the start table of RULES.md.
    check_equal(ref::start_code({"standard", 13, false}), "3/3/7/3F3/GGGGGGG/GGG/GGG f 0 0",
                "standard 13");
    check_equal(ref::start_code({"standard", 15, false}), "3/3/7/G2F2G/GGGGGGG/GGG/GGG f 0 0",
                "standard 15");
    check_equal(ref::start_code({"standard", 17, true}), "3/3/G5G/G2F2G/GGGGGGG/GGG/GGG f 0 0",
                "standard 17");
    check_equal(ref::start_code({"big_cross"}), "3/3/1F1/9/9/GGGGGGGGG/GGG/GGG/GGG f 0 0",
                "big_cross");
    check_equal(ref::start_code({"two_foxes"}), "F1F/3/7/GGGGGGG/GGGGGGG/GGG/GGG f 0 0",
                "two_foxes");
    check_throws([] { ref::start_code({"standard", 14, false}); }, "standard 14 geese");
    check_throws([] { ref::start_code({"chess"}); }, "unknown variant");
}

void check_standard() {
    ref::Config standard{"standard", 13, false};
    ref::Config sideways{"standard", 13, true};
    std::string start = ref::start_code(standard);
    // Fox on d4: c4 e4 d5 and the diagonals c5 e5; d3 blocked (d2 is a goose), c3/e3 have no
    // point beyond (b2, f2 do not exist).
    check_moves(standard, start, {"d4-c4", "d4-c5", "d4-d5", "d4-e4", "d4-e5"});

    // Double jump a3xc3xe3 with optional capture: both prefixes are moves. a3-b2 is no link.
    std::string doubled = "3/3/7/7/FG1G3/3/GGG f 0 10";
    check_moves(standard, doubled, {"a3-a4", "a3-b4", "a3xc3", "a3xc3xe3"});
    check_equal(ref::play(standard, doubled, "a3xc3"), "3/3/7/7/2FG3/3/GGG g 0 11",
                "single capture");
    check_equal(ref::status(standard, ref::play(standard, doubled, "a3xc3")), "ongoing",
                "4 geese is enough");
    std::string after = ref::play(standard, doubled, "a3xc3xe3");
    check_equal(after, "3/3/7/7/4F2/3/GGG g 0 11", "double capture");
    check_equal(ref::status(standard, after), "fox_side_wins:geese_below_threshold",
                "3 geese lose");
    check_moves(standard, after, {});

    // A jump sequence may revisit points: round the four geese c4 d5 e4 d3 and back onto the
    // origin c3, either way round; every prefix is a move too (optional capture).
    check_moves(standard, "3/3/3G3/2G1G2/2FG3/3/GGG f 0 0",
                {"c3-b3", "c3-b4", "c3-c2", "c3-d2", "c3-d4", "c3xc5", "c3xc5xe5", "c3xc5xe5xe3",
                 "c3xc5xe5xe3xc3", "c3xe3", "c3xe3xe5", "c3xe3xe5xc5", "c3xe3xe5xc5xc3"});

    // Counters: a fox step is quiet, a forward goose step resets, a sideways step is quiet.
    std::string s1 = ref::play(standard, start, "d4-d5");
    check_equal(s1, "3/3/3F3/7/GGGGGGG/GGG/GGG g 1 1", "fox step");
    check_equal(ref::play(standard, s1, "c3-c4"), "3/3/3F3/2G4/GG1GGGG/GGG/GGG f 0 2",
                "goose forward");
    check_equal(ref::play(standard, s1, "c3-d4"), "3/3/3F3/3G3/GG1GGGG/GGG/GGG f 0 2",
                "goose diagonal");
    check_throws([&] { ref::play(standard, s1, "d3-d2"); }, "goose backward");
    check_throws([&] { ref::play(standard, start, "d4-d3"); }, "fox onto goose");
    std::vector<std::string> no_side = ref::legal_moves(standard, s1);
    std::vector<std::string> side = ref::legal_moves(sideways, s1);
    // Rank 3: a3 and g3 have 2 moves each, b3-f3 3 each (both diagonals on cross33); the rest
    // are blocked, and nothing can step sideways while rank 3 is full.
    check(no_side.size() == 19, "geese moves without sideways: " + join(no_side));
    check(side == no_side, "sideways changes nothing when rank 3 is full: " + join(side));
    // Once c3 has moved up, b3 and d3 may step sideways into it, with the option only.
    std::string s2 = ref::play(standard, s1, "c3-c4");
    std::string s3 = ref::play(sideways, s2, "d5-d6");
    check_equal(s3, "3/1F1/7/2G4/GG1GGGG/GGG/GGG g 1 3", "fox step back");
    std::string s4 = ref::play(sideways, s3, "b3-c3");
    check_equal(s4, "3/1F1/7/2G4/G1GGGGG/GGG/GGG f 2 4", "sideways is quiet");
    check_throws([&] { ref::play(standard, s3, "b3-c3"); }, "sideways without the option");

    // Geese blocked: fox trapped loses on its turn.
    std::string trapped = "3/3/7/7/GGGGGGG/GGG/GFG f 0 0";
    check_equal(ref::status(standard, trapped), "geese_win:no_legal_move", "trapped fox");
    // Geese that cannot move lose: c7 d7 e7 have no forward point, nor has a5 (a6, b6 do not
    // exist); only the sideways option frees a5-b5.
    std::string stuck = "GGG/3/G6/3F3/7/3/3 g 0 0";
    check_equal(ref::status(standard, stuck), "fox_side_wins:no_legal_move", "stuck geese");
    check_equal(ref::status(sideways, stuck), "ongoing", "a5-b5 sideways");
    check_equal(ref::status(standard, "3/3/7/3F3/GGGGGGG/GGG/GGG f 100 300"),
                "draw:fifty_move_rule", "fifty");
    check_equal(ref::status(standard, "3/3/7/3F3/GGGGGGG/GGG/GGG f 99 300"), "ongoing",
                "not yet fifty");
    check_equal(ref::status(standard, "3/3/7/3f3/ggggggg/ggg/ggg F 0 0"), "ongoing",
                "lowercase pieces");
    check_throws([&] { ref::legal_moves(standard, "3/3/7/3F3/GGGGGGG/GGG f 0 0"); },
                 "missing rank");
    check_throws([&] { ref::legal_moves(standard, "3/3/7/3F4/GGGGGGG/GGG/GGG f 0 0"); },
                 "long rank");
    check_throws([&] { ref::legal_moves(standard, "3/3/7/3F3/GGGGGGG/GGG/GGG x 0 0"); },
                 "bad side");
}

void check_big_cross() {
    ref::Config big{"big_cross"};
    std::string start = ref::start_code(big);
    // e7: 5+7 even, so no diagonals there.
    check_moves(big, start, {"e7-d7", "e7-e6", "e7-e8", "e7-f7"});
    // Geese a4 b4 e4 e1, fox e9, geese to move. a4 (odd) has the diagonal to b5, b4 (even)
    // does not; e4 (odd) has d5 and f5; e1 (even) has none. Sideways always allowed.
    std::string geese = "1F1/3/3/9/9/GG2G4/3/3/1G1 g 0 0";
    check_moves(big, geese,
                {"a4-a5", "a4-b5", "b4-b5", "b4-c4", "e1-d1", "e1-e2", "e1-f1", "e4-d4", "e4-d5",
                 "e4-e5", "e4-f4", "e4-f5"});
    // Fox on e5 (even): orthogonal only; jumps along lines only.
    std::string fox = "3/3/3/9/4F4/3GGG3/3/3/GGG f 0 0";
    // Geese d4 e4 f4 and d1 e1 f1. e5 over e4 to e3; d4/f4 are diagonal from e5 but e5 has no
    // diagonal links.
    check_moves(big, fox, {"e5-d5", "e5-e6", "e5-f5", "e5xe3"});
    // Fox on d5 (odd): diagonal jump d5 over e4 to f3.
    std::string diag = "3/3/3/9/3F5/4G4/3/3/GGG f 0 0";
    check_moves(big, diag,
                {"d5-c4", "d5-c5", "d5-c6", "d5-d4", "d5-d6", "d5-e5", "d5-e6", "d5xf3"});
}

void check_two_foxes() {
    ref::Config two{"two_foxes"};
    std::string start = ref::start_code(two);
    check_moves(two, start, {"c7-c6", "c7-d6", "c7-d7", "e7-d6", "e7-d7", "e7-e6"});
    // Compulsory capture, maximal sequences only: c7 over d6 to e5, then over e4 to e3 (c7xe5
    // alone is not legal); e7 over d6 to c5. d7 is a goose but the other fox blocks beyond it.
    // Geese: d7 d6 e4 a3 b3 g3 c2 d2 e2 c1 d1 e1 = 12.
    std::string code = "FGF/1G1/7/4G2/GG4G/GGG/GGG f 0 0";
    check_moves(two, code, {"c7xe5xe3", "e7xc5"});
    check_equal(ref::play(two, code, "c7xe5xe3"), "1GF/3/7/7/GG2F1G/GGG/GGG g 0 1",
                "two-goose capture");
    check_throws([&] { ref::play(two, code, "c7xe5"); }, "non-maximal sequence");
    check_throws([&] { ref::play(two, code, "c7-c6"); }, "step when a capture exists");
    // Fox side wins below 9 geese; geese win when the pen is full.
    check_equal(ref::status(two, "F1F/3/7/7/GGGGGGG/1G1/3 g 0 0"),
                "fox_side_wins:geese_below_threshold", "8 geese");
    check_equal(ref::status(two, "GGG/GGG/1FGGGF1/7/7/3/3 f 0 0"), "geese_win:pen_filled", "pen");
    check_moves(two, "GGG/GGG/1FGGGF1/7/7/3/3 f 0 0", {});
}

// perft through the public string API: checks that play() and the code writer/reader agree with
// the internal perft, and that no move is listed twice.
std::uint64_t string_perft(const ref::Config& config, const std::string& code, int depth) {
    if (depth == 0) return 1;
    std::vector<std::string> moves = ref::legal_moves(config, code);
    check(std::adjacent_find(moves.begin(), moves.end()) == moves.end(), "duplicate in " + code);
    std::uint64_t nodes = 0;
    for (const std::string& move : moves) {
        nodes += string_perft(config, ref::play(config, code, move), depth - 1);
    }
    return nodes;
}

void perft_table(int max_depth) {
    struct Named {
        const char* name;
        ref::Config config;
    };
    std::vector<Named> configs = {
        {"standard 13", {"standard", 13, false}}, {"standard 13 sideways", {"standard", 13, true}},
        {"standard 15", {"standard", 15, false}}, {"standard 15 sideways", {"standard", 15, true}},
        {"standard 17", {"standard", 17, false}}, {"standard 17 sideways", {"standard", 17, true}},
        {"big_cross", {"big_cross", 13, false}},  {"two_foxes", {"two_foxes", 13, false}},
    };
    for (const Named& named : configs) {
        std::string start = ref::start_code(named.config);
        check(string_perft(named.config, start, 4) == ref::perft(named.config, start, 4),
              std::string("string perft 4 of ") + named.name);
        std::printf("%-22s", named.name);
        double last_seconds = 0;
        std::uint64_t last_nodes = 0;
        for (int depth = 1; depth <= max_depth; ++depth) {
            auto begin = std::chrono::steady_clock::now();
            last_nodes = ref::perft(named.config, start, depth);
            last_seconds =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
            std::printf(" %12llu", static_cast<unsigned long long>(last_nodes));
        }
        std::printf("   d%d: %.3f s (%.2f Mnodes/s)\n", max_depth, last_seconds,
                    static_cast<double>(last_nodes) / last_seconds / 1e6);
        std::fflush(stdout);
    }
}

}  // namespace

int main(int argc, char** argv) {
    int max_depth = argc > 1 ? std::atoi(argv[1]) : 5;
    check_boards();
    check_start_codes();
    check_standard();
    check_big_cross();
    check_two_foxes();
    perft_table(max_depth);
    std::printf(failures == 0 ? "all checks passed\n" : "%d checks FAILED\n", failures);
    return failures == 0 ? 0 : 1;
}
