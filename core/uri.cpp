#include "core/uri.hpp"

#include <algorithm>
#include <string>

#include <boost/url/parse.hpp>

namespace svc::core {

std::optional<boost::urls::url_view> parse_uri(std::string_view text) {
  auto parsed = boost::urls::parse_uri(text);
  if (!parsed)
    return std::nullopt;
  auto path = parsed->encoded_path();
  if (parsed->has_authority() && !path.empty() && path.front() != '/')
    return std::nullopt;
  return *parsed;
}

std::optional<std::string> host_text(const boost::urls::authority_view& a) {
  switch (a.host_type()) {
  case boost::urls::host_type::ipv4: return a.host_ipv4_address().to_string();
  case boost::urls::host_type::ipv6: return a.host_ipv6_address().to_string();
  case boost::urls::host_type::name: return std::string{a.encoded_host()};
  default: return std::nullopt;
  }
}

std::optional<uint16_t> parse_port(std::string_view digits) {
  if (digits.empty() || digits.size() > 5
      || !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return std::nullopt;
  auto n = std::stoul(std::string{digits});
  if (n < 1 || n > 65535)
    return std::nullopt;
  return static_cast<uint16_t>(n);
}

} // namespace svc::core
