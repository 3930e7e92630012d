#include "core/uri.hpp"

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

} // namespace svc::core
