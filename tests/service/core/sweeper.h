// The fixture of the sweeper tests, on either harness: the memory store
// (sweeper_test.cpp) or PostgreSQL with two replicas racing
// (sweeper_pgtest.cpp). Each test's store is its own: a sweeper would
// otherwise end other tests' games, whose clocks run differently.
#pragma once

#include <chrono>

#include "tests/service/harness/service_harness.h"

namespace foxgeese::test {

template <class Base>
class SweeperOn : public Base {
  protected:
    void configure(service::ReplicaOptions& options) override {
        options.sweep_interval = sweep_interval_;
    }
    std::chrono::milliseconds sweep_interval_{100};

    v1::CreateGameRequest blitz() {
        v1::CreateGameRequest request = create_request("standard");
        request.mutable_time_control()->mutable_real_time()->mutable_initial()->set_seconds(20);
        return request;
    }
};

}  // namespace foxgeese::test
