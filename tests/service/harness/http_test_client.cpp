#include "tests/service/harness/http_test_client.h"

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/write.hpp>
#include <stdexcept>

namespace foxgeese::test {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;

namespace {

std::string lowercase(std::string text) {
    for (char& c : text)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return text;
}

template <class Fields>
void copy_headers(const Fields& fields, HttpReply& reply) {
    for (const auto& field : fields) {
        const std::string name = lowercase(std::string(field.name_string()));
        std::string& value = reply.headers[name];
        // Repeated fields fold into one, as HTTP allows.
        value =
            value.empty() ? std::string(field.value()) : value + ", " + std::string(field.value());
    }
}

}  // namespace

std::string HttpReply::header(const std::string& name) const {
    const auto it = headers.find(lowercase(name));
    return it == headers.end() ? "" : it->second;
}

bool HttpReply::has_header(const std::string& name) const {
    return headers.count(lowercase(name)) > 0;
}

HttpClient::HttpClient(int port, std::chrono::milliseconds timeout, int receive_buffer_bytes,
                       const std::string& host, const std::string& source)
    : stream_(ioc_), timeout_(timeout), port_(port) {
    const tcp::endpoint server(net::ip::make_address(host), static_cast<unsigned short>(port));
    stream_.socket().open(server.protocol());
    if (receive_buffer_bytes > 0)
        stream_.socket().set_option(net::socket_base::receive_buffer_size(receive_buffer_bytes));
    if (!source.empty()) stream_.socket().bind(tcp::endpoint(net::ip::make_address(source), 0));
    stream_.connect(server);
    stream_.socket().set_option(tcp::no_delay(true));
}

int HttpClient::local_port() const {
    return stream_.socket().local_endpoint().port();
}

HttpClient::~HttpClient() {
    close();
}

// Runs one asynchronous operation to completion under the deadline.
template <class Start>
void HttpClient::run(Start start) {
    beast::error_code result;
    bool finished = false;
    stream_.expires_after(timeout_);
    start([&](beast::error_code ec, std::size_t) {
        result = ec;
        finished = true;
    });
    ioc_.restart();
    ioc_.run();
    if (!finished) throw std::runtime_error("operation did not complete");
    if (result) throw beast::system_error(result);
}

void HttpClient::send(const std::string& method, const std::string& target, const std::string& body,
                      const std::map<std::string, std::string>& headers) {
    http::request<http::string_body> request;
    request.method_string(method);
    request.target(target);
    request.version(11);
    request.set(http::field::host, "127.0.0.1:" + std::to_string(port_));
    for (const auto& [name, value] : headers)
        request.set(name, value);
    request.body() = body;
    if (!body.empty() || method == "POST") request.prepare_payload();
    run([&](auto handler) { http::async_write(stream_, request, handler); });
}

void HttpClient::send_raw(const std::string& bytes) {
    run([&](auto handler) { net::async_write(stream_, net::buffer(bytes), handler); });
}

HttpReply HttpClient::read() {
    http::response_parser<http::string_body> parser;
    parser.body_limit(64 * 1024 * 1024);
    run([&](auto handler) { http::async_read(stream_, buffer_, parser, handler); });
    HttpReply reply;
    reply.status = static_cast<int>(parser.get().result_int());
    copy_headers(parser.get(), reply);
    reply.body = parser.get().body();
    return reply;
}

HttpReply HttpClient::request(const std::string& method, const std::string& target,
                              const std::string& body,
                              const std::map<std::string, std::string>& headers) {
    send(method, target, body, headers);
    return read();
}

HttpReply HttpClient::read_header() {
    stream_parser_.emplace();
    stream_parser_->body_limit(64 * 1024 * 1024);
    consumed_ = 0;
    run([&](auto handler) { http::async_read_header(stream_, buffer_, *stream_parser_, handler); });
    HttpReply reply;
    reply.status = static_cast<int>(stream_parser_->get().result_int());
    copy_headers(stream_parser_->get(), reply);
    return reply;
}

std::optional<std::string> HttpClient::read_line() {
    if (!stream_parser_) throw std::logic_error("read_header() first");
    while (true) {
        const std::string& body = stream_parser_->get().body();
        const auto newline = body.find('\n', consumed_);
        if (newline != std::string::npos) {
            std::string line = body.substr(consumed_, newline - consumed_);
            consumed_ = newline + 1;
            return line;
        }
        if (stream_parser_->is_done()) return std::nullopt;
        run([&](auto handler) {
            http::async_read_some(stream_, buffer_, *stream_parser_, handler);
        });
    }
}

bool HttpClient::closed_by_server() {
    std::array<char, 256> scratch{};
    beast::error_code result;
    std::size_t got = 0;
    bool finished = false;
    stream_.expires_after(timeout_);
    stream_.async_read_some(net::buffer(scratch), [&](beast::error_code ec, std::size_t n) {
        result = ec;
        got = n;
        finished = true;
    });
    ioc_.restart();
    ioc_.run();
    return finished && got == 0 &&
           (result == net::error::eof || result == net::error::connection_reset);
}

std::string HttpClient::read_all_raw() {
    std::string out(static_cast<const char*>(buffer_.data().data()), buffer_.size());
    buffer_.consume(buffer_.size());
    std::array<char, 4096> scratch{};
    while (true) {
        beast::error_code result;
        std::size_t got = 0;
        stream_.expires_after(timeout_);
        stream_.async_read_some(net::buffer(scratch), [&](beast::error_code ec, std::size_t n) {
            result = ec;
            got = n;
        });
        ioc_.restart();
        ioc_.run();
        out.append(scratch.data(), got);
        if (result) return out;
    }
}

void HttpClient::close() {
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_both, ignored);
    stream_.socket().close(ignored);
}

void HttpClient::shutdown_send() {
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
}

void HttpClient::reset() {
    beast::error_code ignored;
    stream_.socket().set_option(net::socket_base::linger(true, 0), ignored);
    stream_.socket().close(ignored);
}

HttpReply http_call(int port, const std::string& method, const std::string& target,
                    const std::string& body, const std::map<std::string, std::string>& headers) {
    HttpClient connection(port);
    return connection.request(method, target, body, headers);
}

}  // namespace foxgeese::test
