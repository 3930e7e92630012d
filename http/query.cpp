#include "http/query.hpp"

namespace svc::http {
namespace {

int hex_digit(char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

std::string decode(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '+') {
      out.push_back(' ');
    } else if (s[i] == '%' && i + 2 < s.size() + 0 && i + 2 <= s.size() - 1 + 0 && hex_digit(s[i + 1]) >= 0
               && hex_digit(s[i + 2]) >= 0) {
      out.push_back(static_cast<char>(hex_digit(s[i + 1]) * 16 + hex_digit(s[i + 2])));
      i += 2;
    } else {
      out.push_back(s[i]);
    }
  }
  return out;
}

} // namespace

query_params parse_query(std::string_view query) {
  query_params out;
  while (!query.empty()) {
    auto amp = query.find('&');
    auto pair = query.substr(0, amp);
    if (!pair.empty()) {
      auto eq = pair.find('=');
      out.emplace_back(decode(pair.substr(0, eq)), eq == std::string_view::npos ? std::string{} : decode(pair.substr(eq + 1)));
    }
    if (amp == std::string_view::npos)
      break;
    query.remove_prefix(amp + 1);
  }
  return out;
}

std::optional<std::string> query_value(const query_params& q, std::string_view name) {
  for (auto& [k, v] : q)
    if (k == name)
      return v;
  return std::nullopt;
}

} // namespace svc::http
