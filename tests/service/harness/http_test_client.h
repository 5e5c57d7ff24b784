// A small HTTP/1.1 client for the REST tests (Boost.Beast): whole requests
// and responses, raw bytes for malformed input, and NDJSON line reading for
// watch streams. Every operation has a deadline so a hang fails the test
// instead of blocking it.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/string_body.hpp>
#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace foxgeese::test {

// A response as the tests look at it.
struct HttpReply {
    int status = 0;
    std::map<std::string, std::string> headers;  // names lowercased
    std::string body;

    // The header's value, or "" when absent.
    std::string header(const std::string& name) const;
    bool has_header(const std::string& name) const;
};

// One connection; requests on it reuse it (keep-alive) until either side
// closes it.
class HttpClient {
  public:
    // A receive_buffer_bytes above 0 sets the socket's receive buffer before
    // it connects (a small one makes the server's sends to it fill up).
    // `host` is the server's address; a `source` address (127.0.0.2, ...)
    // makes the connection come from another client address.
    explicit HttpClient(int port, std::chrono::milliseconds timeout = std::chrono::seconds(20),
                        int receive_buffer_bytes = 0, const std::string& host = "127.0.0.1",
                        const std::string& source = "");
    ~HttpClient();

    // The client side's port (what the server sees as the peer's).
    int local_port() const;

    // Sends a request; adds Host, and Content-Length for a body.
    void send(const std::string& method, const std::string& target, const std::string& body = "",
              const std::map<std::string, std::string>& headers = {});
    void send_raw(const std::string& bytes);
    // The next whole response; throws std::runtime_error on a timeout or
    // when the connection ends first.
    HttpReply read();
    // send() then read().
    HttpReply request(const std::string& method, const std::string& target,
                      const std::string& body = "",
                      const std::map<std::string, std::string>& headers = {});

    // Reads a response's header only, leaving its body to read_line().
    HttpReply read_header();
    // The next line of a streamed body, without the '\n'; nullopt when the
    // body ended (terminating chunk). Throws on a timeout.
    std::optional<std::string> read_line();
    // True when the server closed the connection within the timeout and
    // sent nothing more.
    bool closed_by_server();
    // Everything the server sends until it closes (or the timeout).
    std::string read_all_raw();

    void close();
    // Half-closes: the server reads end-of-stream, the client can still read.
    void shutdown_send();
    // Closes without a FIN: the kernel resets the connection.
    void reset();

  private:
    template <class Start>
    void run(Start start);

    boost::asio::io_context ioc_;
    boost::beast::tcp_stream stream_;
    boost::beast::flat_buffer buffer_;
    std::chrono::milliseconds timeout_;
    int port_;
    std::optional<boost::beast::http::response_parser<boost::beast::http::string_body>>
        stream_parser_;
    std::size_t consumed_ = 0;  // bytes of the streamed body returned as lines
};

// One request on a fresh connection.
HttpReply http_call(int port, const std::string& method, const std::string& target,
                    const std::string& body = "",
                    const std::map<std::string, std::string>& headers = {});

}  // namespace foxgeese::test
