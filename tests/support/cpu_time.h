// CPU time as a measure of the work a call does: unlike the time on the wall
// it does not grow when other processes load the machine, so a test can bound
// what a call costs without sleeping or racing. Header-only, for the engine's
// tests too.
#pragma once

#include <chrono>
#include <ctime>

namespace foxgeese::testing {

// The sanitizers slow everything down about tenfold; bounds scale with them.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr int kSanitizerSlowdown = 10;
#else
inline constexpr int kSanitizerSlowdown = 1;
#endif

inline std::chrono::nanoseconds cpu_time(clockid_t clock) {
    timespec t{};
    clock_gettime(clock, &t);
    return std::chrono::seconds(t.tv_sec) + std::chrono::nanoseconds(t.tv_nsec);
}

// The CPU time `work` takes: on this thread (CLOCK_THREAD_CPUTIME_ID), or in
// the whole process (CLOCK_PROCESS_CPUTIME_ID: a server running in it too).
template <class Work>
std::chrono::nanoseconds cpu_time_of(clockid_t clock, Work&& work) {
    const auto before = cpu_time(clock);
    work();
    return cpu_time(clock) - before;
}

// A bound on such a time: `budget` as measured without the sanitizers.
inline std::chrono::nanoseconds cpu_bound(std::chrono::nanoseconds budget) {
    return budget * kSanitizerSlowdown;
}

}  // namespace foxgeese::testing
