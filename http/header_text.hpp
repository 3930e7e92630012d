#pragma once
// Small helpers for reading header values (RFC 9110 field syntax), shared by
// the parsers of Range, Forwarded and X-Forwarded-For.

#include <string_view>

namespace svc::http {

/// `s` without the optional whitespace (spaces and tabs) around it.
inline std::string_view trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
    s.remove_suffix(1);
  return s;
}

} // namespace svc::http
