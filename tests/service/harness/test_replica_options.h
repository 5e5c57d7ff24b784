// Replica options for tests: no rate limits (a test creates hundreds of
// games from 127.0.0.1, bot games among them), streams that end with
// GameEnded (no rematch linger), no sweeper (a test whose clock runs ahead must not end the
// games of tests sharing its database), no access log (thousands of
// lines in every test's output) and no bot worker (nor claim their bots'
// moves). Tests of those features turn them back on.
#pragma once

#include <string>

#include "service/app/replica.h"

namespace foxgeese::test {

inline service::WatchHubOptions test_watch_options() {
    service::WatchHubOptions watch;
    watch.streams_per_address = 0;
    watch.streams_per_token = 0;
    watch.opens_per_address = watch.opens_per_token = service::Rate{};
    watch.rematch_linger = std::chrono::milliseconds(0);
    return watch;
}

inline service::ReplicaOptions test_replica_options(const std::string& database_url,
                                                    service::Clock* clock = nullptr) {
    service::ReplicaOptions options;
    options.database_url = database_url;
    options.clock = clock;
    options.game.limits = service::RateLimitOptions::unlimited();
    options.game.bot_games_per_address = 0;
    options.watch = test_watch_options();
    options.sweep_interval = std::chrono::milliseconds(0);
    options.access_log = std::make_shared<service::AccessLog>(false);
    options.bot.threads = 0;
    return options;
}

}  // namespace foxgeese::test
