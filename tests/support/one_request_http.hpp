#pragma once
// The HTTP plumbing of the engine stand-ins (ComfyUI, Cog): each connection
// carries one request and one answer, then closes, so a stand-in's handler
// sees whole requests and writes whole answers on its listener's io thread.

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>

#include "loopback_listener.hpp"

namespace svc::test {

using one_request = boost::beast::http::request<boost::beast::http::string_body>;
using one_request_handler = std::function<void(const std::shared_ptr<boost::asio::ip::tcp::socket>&, one_request)>;

/// Accepts on `l` until its acceptor closes; each connection's request (of at
/// most `body_limit` bytes) goes to `handle`.
inline void serve_one_request_each(loopback_listener& l, std::size_t body_limit, one_request_handler handle) {
  auto socket = std::make_shared<boost::asio::ip::tcp::socket>(l.ioc);
  l.acceptor.async_accept(*socket, [&l, socket, body_limit, handle](boost::system::error_code ec) {
    if (ec)
      return;
    auto buffer = std::make_shared<boost::beast::flat_buffer>();
    auto parser = std::make_shared<boost::beast::http::request_parser<boost::beast::http::string_body>>();
    parser->body_limit(body_limit);
    boost::beast::http::async_read(*socket, *buffer, *parser,
                                   [socket, buffer, parser, handle](boost::system::error_code ec, std::size_t) {
                                     if (!ec)
                                       handle(socket, parser->release());
                                   });
    serve_one_request_each(l, body_limit, handle);
  });
}

/// Writes one answer on `socket`, then shuts it down.
inline void respond_and_close(const std::shared_ptr<boost::asio::ip::tcp::socket>& socket, int status,
                              std::string body, std::string_view type = "application/json") {
  namespace bhttp = boost::beast::http;
  auto res = std::make_shared<bhttp::response<bhttp::string_body>>(static_cast<bhttp::status>(status), 11);
  res->set(bhttp::field::content_type, type);
  res->keep_alive(false);
  res->body() = std::move(body);
  res->prepare_payload();
  bhttp::async_write(*socket, *res, [socket, res](boost::system::error_code, std::size_t) {
    boost::system::error_code ignored;
    socket->shutdown(boost::asio::ip::tcp::socket::shutdown_both, ignored);
  });
}

} // namespace svc::test
