#include "persistence/value_codec.hpp"

#include <boost/json.hpp>

namespace svc::persistence {

std::string encode_value(const boost::json::value& v) {
  std::string out(1, format_version);
  out += boost::json::serialize(v);
  return out;
}

std::optional<boost::json::value> decode_value(std::string_view bytes, boost::json::storage_ptr sp) {
  if (bytes.empty() || bytes[0] != format_version)
    return std::nullopt;
  boost::json::error_code ec;
  auto v = boost::json::parse(bytes.substr(1), ec, std::move(sp));
  if (ec)
    return std::nullopt;
  return v;
}

} // namespace svc::persistence
