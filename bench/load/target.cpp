#include "bench/load/target.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/system/error_code.hpp>

#include <fstream>

namespace svc::bench {
namespace {

namespace ip = boost::asio::ip;

std::string trim(const std::string& s) {
  const auto first = s.find_first_not_of(" \t\r\n");
  if (first == std::string::npos)
    return {};
  return s.substr(first, s.find_last_not_of(" \t\r\n") - first + 1);
}

// The address `host` names: a literal (IPv6 in brackets), `localhost`, or
// with `resolve` any name the resolver knows.
std::optional<ip::address> address_of(const std::string& host, bool resolve) {
  if (host == "localhost")
    return ip::make_address_v4("127.0.0.1");
  boost::system::error_code ec;
  const auto bare = host.size() > 2 && host.front() == '[' && host.back() == ']' ? host.substr(1, host.size() - 2) : host;
  auto addr = ip::make_address(bare, ec);
  if (!ec)
    return addr;
  if (!resolve)
    return std::nullopt;
  boost::asio::io_context io;
  ip::tcp::resolver resolver(io);
  auto found = resolver.resolve(bare, "", ec);
  if (ec || found.empty())
    return std::nullopt;
  return found.begin()->endpoint().address();
}

} // namespace

std::optional<target> parse_target_url(const std::string& url, bool allow_remote, std::string& error) {
  const std::string scheme = "http://";
  if (url.compare(0, scheme.size(), scheme) != 0) {
    error = "--url must start with http:// (got '" + url + "')";
    return std::nullopt;
  }
  auto authority = url.substr(scheme.size());
  if (!authority.empty() && authority.back() == '/')
    authority.pop_back();
  const auto colon = authority.rfind(':');
  if (colon == std::string::npos || authority.find('/') != std::string::npos) {
    error = "--url must be http://HOST:PORT (got '" + url + "')";
    return std::nullopt;
  }
  const auto port_text = authority.substr(colon + 1);
  const auto port = port_text.empty() || port_text.size() > 5 ? 0 : std::stoul("0" + port_text);
  if (port == 0 || port > 65535 || port_text.find_first_not_of("0123456789") != std::string::npos) {
    error = "bad port in --url '" + url + "'";
    return std::nullopt;
  }
  const auto host = authority.substr(0, colon);
  const auto addr = address_of(host, allow_remote);
  if (!addr && allow_remote) {
    error = "cannot resolve the host of --url '" + url + "'";
    return std::nullopt;
  }
  if (!addr || (!allow_remote && !addr->is_loopback())) {
    error = "--url must name a loopback address (127.x.x.x, localhost, [::1]) unless --allow-remote is given; got '"
            + url + "'";
    return std::nullopt;
  }
  return target{{*addr, static_cast<unsigned short>(port)}, authority};
}

std::vector<std::string> read_keys(const std::string& path, std::string& error) {
  std::ifstream in(path);
  if (!in) {
    error = "cannot read keys file '" + path + "'";
    return {};
  }
  std::vector<std::string> keys;
  for (std::string line; std::getline(in, line);)
    if (auto key = trim(line); !key.empty())
      keys.push_back(std::move(key));
  if (keys.empty())
    error = "keys file '" + path + "' holds no key";
  return keys;
}

} // namespace svc::bench
