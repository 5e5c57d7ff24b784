// How much work AnalyzePosition and AnalyzeGame may do: the bounds the proto
// documents for a request, the budgets of a game's analysis, and how many
// analyses a replica runs at once. Searches are CPU-heavy and run on the
// worker threads, so every one of them is bounded.
#pragma once

#include <chrono>
#include <cstdint>

#include "engine/search/search.h"

namespace foxgeese::service {

// AnalyzePositionRequest's ranges.
constexpr int kMaxAnalysisDepth = SearchLimits::kMaxDepth;
constexpr int kMaxAnalysisTimeMs = 5'000;
// The time of a request that gives neither depth nor time_ms.
constexpr int kDefaultAnalysisTimeMs = 1'000;
constexpr int kMaxAnalysisLines = 5;

// AnalyzeGame searches every position of a game with the same number of
// nodes, so that a stored analysis does not depend on the load of the
// replica that made it: kGameAnalysisNodes shared among the positions, but
// never more than kMaxNodesPerPly (a small fraction of a second at the
// search's speed, bench/README.md "Search") nor fewer than kMinNodesPerPly
// each.
constexpr std::uint64_t kGameAnalysisNodes = 5'000'000;
constexpr std::uint64_t kMaxNodesPerPly = 100'000;
constexpr std::uint64_t kMinNodesPerPly = 2'000;
// A loaded replica may still take long over the nodes: the whole analysis
// gives up after this (ANALYSIS_TIMEOUT), storing nothing.
constexpr std::chrono::seconds kGameAnalysisTimeCap{20};

// A search ends this much before the caller's deadline, so that its answer
// still arrives in time.
constexpr std::chrono::milliseconds kAnalysisDeadlineMargin{50};

// How long a refused caller is told to wait (ANALYSIS_BUSY): the analyses
// that hold the places end within seconds, at unknown times.
constexpr std::chrono::milliseconds kAnalysisBusyRetry{1'000};

// Analyses running at once, per replica and per client address, and how a
// call waits for a place when they are taken (analysis_slots.h).
struct AnalysisOptions {
    int concurrency = 2;
    int per_address = 1;  // 0: no limit per address
    // How long a call waits in line for a place (0: refused at once): a
    // second longer than the longest AnalyzePosition, so that a place held
    // by one comes free within it.
    std::chrono::milliseconds max_wait{6'000};
    // Calls that may wait per place: each holds a worker thread.
    int waiting_per_place = 2;
};

}  // namespace foxgeese::service
