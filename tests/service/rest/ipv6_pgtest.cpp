// Both ports on an IPv6 address, in every form --listen-address takes (::1,
// [::1], and [::] serving IPv4 clients too), and IPv6 clients' addresses in
// rate-limit keys and access-log lines as they are for IPv4.
#include <arpa/inet.h>
#include <google/protobuf/struct.pb.h>
#include <google/protobuf/util/json_util.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include "service/grpc/grpc_game_service.h"
#include "service/runtime/access_log.h"
#include "service/runtime/logging.h"
#include "tests/service/harness/rest_harness.h"
#include "tests/service/runtime/capture_sink.h"

namespace foxgeese::test {
namespace {

// Whether this machine can bind ::1: the tests need it, and say so.
bool has_ipv6_loopback() {
    const int fd = socket(AF_INET6, SOCK_STREAM, 0);
    if (fd < 0) return false;
    sockaddr_in6 address{};
    address.sin6_family = AF_INET6;
    address.sin6_addr = in6addr_loopback;
    const bool bound = bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0;
    close(fd);
    return bound;
}

constexpr const char* kNoIpv6 =
    "this machine has no IPv6 loopback address (::1): the IPv6 tests need one "
    "(`ip -6 addr show lo` should list ::1; in a container, enable IPv6)";

class Ipv6 : public RestTest {
  protected:
    void SetUp() override {
        ASSERT_TRUE(has_ipv6_loopback()) << kNoIpv6;
        RestTest::SetUp();
        http_options().listen_address = "[::1]";
        restart_http();
    }
    void configure(service::ReplicaOptions& options) override {
        options.listen_address = "::1";
        sink_->set_formatter(service::make_json_formatter(service::JsonPayload::kMembers));
        auto logger = std::make_shared<spdlog::logger>("access", sink_);
        logger->set_level(spdlog::level::info);
        options.access_log = std::make_shared<service::AccessLog>(true, std::move(logger),
                                                                  service::LogFormat::kJson);
        options.game.limits.create_per_address = service::Rate{2, std::chrono::seconds(60), 2};
    }

    // The peer of the first access line of `rpc` on `transport`.
    std::string logged_peer(const std::string& transport, const std::string& rpc) {
        std::string peer;
        const auto line = sink_->wait_for([&](const std::string& text) {
            google::protobuf::Struct object;
            if (!google::protobuf::util::JsonStringToMessage(text, &object).ok()) return false;
            const auto& fields = object.fields();
            const auto field = [&](const char* name) {
                const auto it = fields.find(name);
                return it == fields.end() ? std::string() : it->second.string_value();
            };
            if (field("transport") != transport || (field("method") != rpc && field("rpc") != rpc))
                return false;
            peer = field("peer");
            return true;
        });
        EXPECT_TRUE(line.has_value()) << "no " << transport << " access line for " << rpc;
        return peer;
    }

    std::shared_ptr<CaptureSink> sink_ = std::make_shared<CaptureSink>();
};

TEST_F(Ipv6, BothPortsServeOnTheIpv6Loopback) {
    // gRPC on "::1".
    ServiceClient client("[::1]:" + std::to_string(server().grpc_port()));
    ASSERT_TRUE(IsOk(client.list_variants()));
    // HTTP on "::1" (the replica's own) and on "[::1]".
    for (const int http_port : {server().http_port(), port()}) {
        HttpClient http(http_port, std::chrono::seconds(10), 0, "::1");
        const HttpReply variants = http.request("GET", "/v1/variants");
        EXPECT_EQ(variants.status, 200) << "port " << http_port << ": " << variants.body;
    }
}

TEST_F(Ipv6, Ipv6ClientsAreKeyedAndLoggedLikeIpv4Ones) {
    // One key for both transports: the client's /64, as the rate limits
    // count IPv6 clients (one host usually has a whole /64).
    ServiceClient client("[::1]:" + std::to_string(server().grpc_port()));
    const v1::CreateGameRequest create = create_request("standard", v1::SEAT_CHOICE_FOX);
    ASSERT_TRUE(IsOk(client.create(create)));
    HttpClient http(port(), std::chrono::seconds(10), 0, "::1");
    const HttpReply created =
        http.request("POST", "/v1/games", to_json(create), {{"Content-Type", "application/json"}});
    ASSERT_EQ(created.status, 200) << created.body;
    // The third create from the same address is over the limit of two,
    // whichever transport it comes by.
    EXPECT_TRUE(
        IsError(client.create(create), grpc::StatusCode::RESOURCE_EXHAUSTED, "RATE_LIMITED"));
    EXPECT_EQ(logged_peer("grpc", "CreateGame"), "::/64");
    EXPECT_EQ(logged_peer("http", "CreateGame"), "::/64");
}

TEST_F(Ipv6, TheUnspecifiedAddressServesIpv4AndIpv6Clients) {
    http_options().listen_address = "[::]";
    restart_http();
    for (const char* host : {"::1", "127.0.0.1"}) {
        HttpClient http(port(), std::chrono::seconds(10), 0, host);
        EXPECT_EQ(http.request("GET", "/healthz").status, 200) << host;
    }
}

TEST(GrpcPeer, AddressesOfBothFamiliesAsGrpcWritesThem) {
    EXPECT_EQ(service::peer_address("ipv4:10.0.0.7:51234"), "10.0.0.7");
    EXPECT_EQ(service::peer_address("ipv6:%5B::1%5D:51234"), "::1");
    EXPECT_EQ(service::peer_address("ipv6:[2001:db8::7]:51234"), "2001:db8::7");
}

}  // namespace
}  // namespace foxgeese::test
