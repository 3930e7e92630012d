#include "core/host_port.hpp"

#include <stdexcept>

namespace svc::core {

boost::asio::ip::tcp::endpoint parse_endpoint(const std::string& host_port) {
  auto colon = host_port.rfind(':');
  if (colon == std::string::npos)
    throw std::runtime_error("address '" + host_port + "' is not HOST:PORT");
  auto host = host_port.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']')
    host = host.substr(1, host.size() - 2);
  auto port_text = host_port.substr(colon + 1);
  if (port_text.empty() || port_text.size() > 5 || port_text.find_first_not_of("0123456789") != std::string::npos
      || std::stoi(port_text) > 65535)
    throw std::runtime_error("bad port in '" + host_port + "'");
  boost::system::error_code ec;
  auto addr = boost::asio::ip::make_address(host == "localhost" ? "127.0.0.1" : host, ec);
  if (ec)
    throw std::runtime_error("bad host in '" + host_port + "': " + ec.message());
  return {addr, static_cast<unsigned short>(std::stoi(port_text))};
}

} // namespace svc::core
