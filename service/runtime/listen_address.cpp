#include "service/runtime/listen_address.h"

#include <arpa/inet.h>

#include <cstdint>

namespace foxgeese::service {

std::string listen_host(const std::string& address) {
    if (address.size() >= 2 && address.front() == '[' && address.back() == ']')
        return address.substr(1, address.size() - 2);
    return address;
}

std::string host_port(const std::string& address, int port) {
    const std::string host = listen_host(address);
    const bool ipv6 = host.find(':') != std::string::npos;
    return (ipv6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

namespace {

// Every address (0.0.0.0, ::) or loopback (127.0.0.0/8, ::1): the machine's
// own browser reaches it as localhost.
bool reachable_as_localhost(const std::string& host) {
    if (host == "localhost") return true;
    in_addr v4{};
    if (inet_pton(AF_INET, host.c_str(), &v4) == 1) {
        const std::uint32_t address = ntohl(v4.s_addr);
        return address == 0 || (address >> 24) == 127;
    }
    in6_addr v6{};
    if (inet_pton(AF_INET6, host.c_str(), &v6) == 1)
        return IN6_IS_ADDR_UNSPECIFIED(&v6) || IN6_IS_ADDR_LOOPBACK(&v6);
    return false;
}

}  // namespace

std::string browser_url(const std::string& address, int port) {
    const std::string host = listen_host(address);
    return "http://" + host_port(reachable_as_localhost(host) ? "localhost" : host, port) + "/";
}

}  // namespace foxgeese::service
