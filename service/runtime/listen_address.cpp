#include "service/runtime/listen_address.h"

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

}  // namespace foxgeese::service
