// The forms --listen-address takes: an IPv4 address, a host name, or an
// IPv6 address bare (::1, ::) or in brackets ([::1], [::]). Both ports
// listen on it; "::" is dual-stack (IPv4 clients arrive as ::ffff:a.b.c.d).
#pragma once

#include <string>

namespace foxgeese::service {

// The address without IPv6 brackets, as a resolver takes it.
std::string listen_host(const std::string& address);

// host:port as gRPC and the logs write it, an IPv6 address in brackets.
std::string host_port(const std::string& address, int port);

// The URL a person on this machine opens for the HTTP port:
// http://localhost:8080/ when the server listens on every address or on
// loopback, else http://<address>:<port>/.
std::string browser_url(const std::string& address, int port);

}  // namespace foxgeese::service
