#pragma once
// `HOST:PORT` as the operator writes a listen address or an admin URL's
// authority, shared by svcd's listeners and svcctl's client.

#include <string>

#include <boost/asio/ip/tcp.hpp>

namespace svc::core {

/// Splits `HOST:PORT` (IPv6 as `[::1]:80`); throws std::runtime_error if malformed.
boost::asio::ip::tcp::endpoint parse_endpoint(const std::string& host_port);

} // namespace svc::core
