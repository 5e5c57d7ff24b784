// Share-link previews (service/preview): a position as PNG and SVG at each
// size, and a game as a GIF animation, on one core. The animation is a
// seeded random big_cross game of 93 plies (94 frames), the length of the
// chess game a well-known GIF service is measured on.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "engine/rules/movegen.h"
#include "engine/rules/variant.h"
#include "service/preview/board_images.h"

namespace {

using namespace foxgeese;

std::vector<preview::Frame> random_game(int plies) {
    const Variant& v = **Variant::find("big_cross", {});
    std::mt19937_64 rng(1);
    Position position(v);
    std::vector<preview::Frame> frames{{position, std::nullopt}};
    for (int i = 0; i < plies; ++i) {
        MoveList moves;
        generate_legal_moves(position, moves);
        if (moves.empty()) break;
        const Move move = moves[rng() % moves.size()];
        UndoInfo undo;
        position.make(move, undo);
        frames.push_back({position, preview::LastMove{move.from, move.to, move.captured}});
    }
    return frames;
}

const std::vector<preview::Frame>& game() {
    static const auto frames = random_game(93);
    return frames;
}

void BM_Image(benchmark::State& state, preview::ImageFormat format) {
    const preview::Frame& frame = game()[40];
    const int width = static_cast<int>(state.range(0));
    std::size_t bytes = 0;
    for (auto _ : state) {
        const std::string image =
            preview::position_image(frame.position, frame.last, format, width);
        bytes = image.size();
        benchmark::DoNotOptimize(image.data());
    }
    state.counters["bytes"] = static_cast<double>(bytes);
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK_CAPTURE(BM_Image, png, preview::ImageFormat::kPng)
    ->Arg(240)
    ->Arg(480)
    ->Arg(960)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Image, svg, preview::ImageFormat::kSvg)
    ->Arg(480)
    ->Unit(benchmark::kMillisecond);

void BM_Animation(benchmark::State& state) {
    const int width = static_cast<int>(state.range(0));
    std::size_t bytes = 0;
    for (auto _ : state) {
        const auto gif = preview::game_animation(game(), width);
        bytes = gif->size();
        benchmark::DoNotOptimize(gif->data());
    }
    state.counters["frames"] = static_cast<double>(game().size());
    state.counters["bytes"] = static_cast<double>(bytes);
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Animation)->Arg(240)->Arg(480)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
