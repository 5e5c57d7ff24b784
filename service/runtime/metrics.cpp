#include "service/runtime/metrics.h"

#include <cmath>
#include <cstdio>

namespace foxgeese::service {
namespace {

std::string number(double v) {
    if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.17g", v);
    return buffer;
}

std::string label_set(const std::vector<std::string>& names, const LabelValues& values,
                      const std::string& extra = "") {
    std::string out;
    for (std::size_t i = 0; i < names.size() && i < values.size(); ++i) {
        if (!out.empty()) out += ',';
        out += names[i] + "=\"" + escape_label_value(values[i]) + "\"";
    }
    if (!extra.empty()) out += (out.empty() ? "" : ",") + extra;
    return out.empty() ? "" : "{" + out + "}";
}

void header(std::string& out, const std::string& name, const std::string& help, const char* type) {
    out += "# HELP " + name + " " + help + "\n# TYPE " + name + " " + type + "\n";
}

}  // namespace

std::string escape_label_value(const std::string& value) {
    std::string out;
    for (char c : value) {
        if (c == '\\')
            out += "\\\\";
        else if (c == '"')
            out += "\\\"";
        else if (c == '\n')
            out += "\\n";
        else
            out += c;
    }
    return out;
}

CounterFamily::CounterFamily(std::string name, std::string help, std::vector<std::string> labels)
    : name_(std::move(name)), help_(std::move(help)), labels_(std::move(labels)) {}

void CounterFamily::add(const LabelValues& labels, double amount) {
    std::lock_guard lock(mutex_);
    values_[labels] += amount;
}

double CounterFamily::value(const LabelValues& labels) const {
    std::lock_guard lock(mutex_);
    const auto it = values_.find(labels);
    return it == values_.end() ? 0 : it->second;
}

void CounterFamily::render(std::string& out) const {
    header(out, name_, help_, "counter");
    std::lock_guard lock(mutex_);
    for (const auto& [labels, value] : values_) {
        out += name_ + label_set(labels_, labels) + " " + number(value) + "\n";
    }
}

HistogramFamily::HistogramFamily(std::string name, std::string help,
                                 std::vector<std::string> labels, std::vector<double> bounds)
    : name_(std::move(name)),
      help_(std::move(help)),
      labels_(std::move(labels)),
      bounds_(std::move(bounds)) {}

void HistogramFamily::observe(const LabelValues& labels, double value) {
    std::lock_guard lock(mutex_);
    Series& s = series_[labels];
    if (s.buckets.empty()) s.buckets.assign(bounds_.size(), 0);
    for (std::size_t i = 0; i < bounds_.size(); ++i) {
        if (value <= bounds_[i]) {
            ++s.buckets[i];
            break;
        }
    }
    s.sum += value;
    ++s.count;
}

void HistogramFamily::render(std::string& out) const {
    header(out, name_, help_, "histogram");
    std::lock_guard lock(mutex_);
    for (const auto& [labels, s] : series_) {
        std::uint64_t cumulative = 0;
        for (std::size_t i = 0; i < bounds_.size(); ++i) {
            cumulative += s.buckets[i];
            out += name_ + "_bucket" +
                   label_set(labels_, labels, "le=\"" + number(bounds_[i]) + "\"") + " " +
                   std::to_string(cumulative) + "\n";
        }
        out += name_ + "_bucket" + label_set(labels_, labels, "le=\"+Inf\"") + " " +
               std::to_string(s.count) + "\n";
        out += name_ + "_sum" + label_set(labels_, labels) + " " + number(s.sum) + "\n";
        out += name_ + "_count" + label_set(labels_, labels) + " " + std::to_string(s.count) + "\n";
    }
}

Metrics::Metrics()
    : requests("foxgeese_requests_total", "RPCs handled, by method, transport and status code.",
               {"method", "transport", "code"}),
      request_seconds("foxgeese_request_duration_seconds",
                      "Time to handle an RPC (streams: until the first event), in seconds.",
                      {"method", "transport"},
                      {0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5}),
      moves_applied("foxgeese_moves_applied_total", "Moves validated and stored, by variant.",
                    {"variant"}),
      move_reads("foxgeese_move_reads_total",
                 "How MakeMove found the game: copy (this server's own, no read), stale_copy (the"
                 " copy's write failed and it read), read.",
                 {"source"}),
      watch_events_sent("foxgeese_watch_events_sent_total",
                        "Events written to watch streams, by transport.", {"transport"}),
      bot_moves("foxgeese_bot_moves_total", "Bot moves this server computed and made, by variant.",
                {"variant"}),
      bot_takeovers("foxgeese_bot_takeovers_total",
                    "Bot moves this server took over from a server whose claim had lapsed.", {}),
      analyses("foxgeese_analyses_total",
               "Analyses computed, by RPC (an AnalyzeGame answered from storage is not one).",
               {"rpc"}),
      move_commit_moves("foxgeese_move_commit_moves",
                        "Moves carried by each commit of moves (moves waiting for the database"
                        " together are committed together).",
                        {}, {1, 2, 4, 8, 16, 32, 64}) {}

void Metrics::add_gauge(GaugeFamily gauge) {
    std::lock_guard lock(gauges_mutex_);
    gauges_.push_back(std::move(gauge));
}

std::string Metrics::render() const {
    std::string out;
    requests.render(out);
    request_seconds.render(out);
    moves_applied.render(out);
    move_reads.render(out);
    watch_events_sent.render(out);
    bot_moves.render(out);
    bot_takeovers.render(out);
    analyses.render(out);
    move_commit_moves.render(out);
    std::lock_guard lock(gauges_mutex_);
    for (const GaugeFamily& g : gauges_) {
        header(out, g.name, g.help, "gauge");
        for (const auto& [labels, value] : g.sample()) {
            out += g.name + label_set(g.labels, labels) + " " + number(value) + "\n";
        }
    }
    return out;
}

}  // namespace foxgeese::service
