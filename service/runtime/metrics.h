// A small Prometheus registry: labelled counters, gauges read at scrape time,
// and latency histograms, rendered in the Prometheus text format. Updates
// take one mutex per metric family; a scrape takes them one at a time.
// Not prometheus-cpp (Debian's 1.0): it keys series by a std::map of labels,
// so it writes them sorted by name ({code=..,method=..}) where dashboards and
// tests match {method=..,transport=..,code=..}, and builds a map per update.
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace foxgeese::service {

// Label values in the order of the family's label names.
using LabelValues = std::vector<std::string>;

class CounterFamily {
  public:
    CounterFamily(std::string name, std::string help, std::vector<std::string> labels);
    void add(const LabelValues& labels, double amount = 1);
    void render(std::string& out) const;
    double value(const LabelValues& labels) const;

  private:
    std::string name_, help_;
    std::vector<std::string> labels_;
    mutable std::mutex mutex_;
    std::map<LabelValues, double> values_;
};

class HistogramFamily {
  public:
    HistogramFamily(std::string name, std::string help, std::vector<std::string> labels,
                    std::vector<double> bounds);
    void observe(const LabelValues& labels, double value);
    void render(std::string& out) const;

  private:
    struct Series {
        std::vector<std::uint64_t> buckets;  // cumulative counts are computed when rendering
        double sum = 0;
        std::uint64_t count = 0;
    };
    std::string name_, help_;
    std::vector<std::string> labels_;
    std::vector<double> bounds_;
    mutable std::mutex mutex_;
    std::map<LabelValues, Series> series_;
};

// A gauge whose samples are computed when scraped (pool use, watchers, games).
struct GaugeFamily {
    std::string name, help;
    std::vector<std::string> labels;
    std::function<std::vector<std::pair<LabelValues, double>>()> sample;
};

class Metrics {
  public:
    Metrics();

    // RPCs over both transports: method is the RPC name, transport "grpc" or
    // "http", status the gRPC code name ("OK", "NOT_FOUND", ...).
    CounterFamily requests;
    HistogramFamily request_seconds;
    CounterFamily moves_applied;  // by variant
    // How MakeMove found the game: "copy" (this replica's own, no read),
    // "stale_copy" (the copy's write failed, so it read), "read".
    CounterFamily move_reads;
    CounterFamily watch_events_sent;    // by transport
    CounterFamily bot_moves;            // by variant
    CounterFamily bot_takeovers;        // claims on bot moves taken over from a lapsed lease
    CounterFamily analyses;             // searches run, by rpc (not stored answers)
    HistogramFamily move_commit_moves;  // moves per commit (storage/move_batcher.h)

    void add_gauge(GaugeFamily gauge);
    // The whole registry in the Prometheus text exposition format 0.0.4.
    std::string render() const;

  private:
    mutable std::mutex gauges_mutex_;
    std::vector<GaugeFamily> gauges_;
};

// Text exposition escaping of a label value.
std::string escape_label_value(const std::string& value);

}  // namespace foxgeese::service
