// A replica's ports are its own: a second server on a port one already
// holds fails to start instead of sharing it. gRPC sets SO_REUSEPORT unless
// told not to, and then the kernel splits the connections to that port
// between both servers. In a parallel test run that made clients reach the
// wrong server: a process test starts foxgeese-server on ports it found free
// (free_ports), and another test's in-process replica, asking for any free
// port, may have been given one of them in the meantime.
#include <stdexcept>

#include "tests/service/harness/service_harness.h"
#include "tests/service/harness/test_replica_options.h"

namespace foxgeese::test {
namespace {

using ListenPort = ServiceTest;

TEST_F(ListenPort, ASecondServerOnAPortAlreadyHeldFailsToStart) {
    service::ReplicaOptions options = test_replica_options(database_url());
    options.grpc_port = server().grpc_port();
    EXPECT_THROW(service::Replica{options}, std::runtime_error)
        << "a second server shares gRPC port " << server().grpc_port();
    // The first one still answers.
    EXPECT_TRUE(IsOk(client().list_variants()));
}

}  // namespace
}  // namespace foxgeese::test
