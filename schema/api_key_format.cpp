#include "schema/api_key_format.hpp"

namespace svc::schema {
namespace {

constexpr std::string_view live_marker = "_live_";
constexpr std::size_t secret_length = 64;

bool is_lower_alpha(char c) { return c >= 'a' && c <= 'z'; }
bool is_lower_hex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); }

} // namespace

std::optional<std::string_view> api_key_secret(std::string_view key) {
  auto marker = key.find(live_marker);
  if (marker == std::string_view::npos)
    return std::nullopt;
  auto prefix = key.substr(0, marker);
  bool prefix_ok = prefix == "svc" || (prefix.size() == 2 && is_lower_alpha(prefix[0]) && is_lower_alpha(prefix[1]));
  auto secret = key.substr(marker + live_marker.size());
  if (!prefix_ok || secret.size() != secret_length)
    return std::nullopt;
  for (char c : secret)
    if (!is_lower_hex(c))
      return std::nullopt;
  return secret;
}

std::string api_key_plaintext(std::string_view secret) {
  std::string out = "svc";
  out.append(live_marker).append(secret);
  return out;
}

} // namespace svc::schema
