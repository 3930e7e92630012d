#include "bench/load/json_member.hpp"

#include <boost/json.hpp>

namespace svc::bench {

std::optional<std::string> json_string_member(const std::string& body, const char* name) {
  boost::system::error_code ec;
  auto v = boost::json::parse(body, ec);
  if (ec || !v.is_object())
    return std::nullopt;
  auto* member = v.as_object().if_contains(name);
  if (!member || !member->is_string())
    return std::nullopt;
  return std::string{member->as_string()};
}

} // namespace svc::bench
