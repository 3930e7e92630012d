#include "schema/trace_context.hpp"

#include "core/crypto.hpp"
#include "schema/api_key_format.hpp"

namespace svc::schema {
namespace {

bool lower_hex(std::string_view s) {
  for (char c : s)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
      return false;
  return true;
}

bool all_zero(std::string_view s) { return s.find_first_not_of('0') == std::string_view::npos; }

} // namespace

bool valid_client_request_id(std::string_view id) {
  if (id.empty() || id.size() > max_client_request_id)
    return false;
  for (char c : id) {
    bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_'
              || c == '.' || c == ':';
    if (!ok)
      return false;
  }
  bool only_hex = id.find_first_not_of("0123456789abcdefABCDEF") == std::string_view::npos;
  return !(only_hex && id.size() >= 32) && !api_key_secret(id).has_value();
}

std::optional<trace_parent> parse_traceparent(std::string_view h) {
  // version(2) - trace-id(32) - parent-id(16) - flags(2) = 55 characters.
  constexpr std::size_t length = 55;
  if (h.size() < length || h[2] != '-' || h[35] != '-' || h[52] != '-')
    return std::nullopt;
  auto version = h.substr(0, 2), trace = h.substr(3, 32), parent = h.substr(36, 16), flags = h.substr(53, 2);
  if (!lower_hex(version) || version == "ff" || !lower_hex(trace) || !lower_hex(parent) || !lower_hex(flags))
    return std::nullopt;
  if (all_zero(trace) || all_zero(parent))
    return std::nullopt;
  // Version 00 is exactly 55 characters; a later one may go on after a dash.
  if (h.size() > length && (version == "00" || h[length] != '-'))
    return std::nullopt;
  return trace_parent{std::string{trace}, std::string{flags}};
}

bool valid_trace(const trace_parent& t) {
  return t.trace_id.size() == 32 && lower_hex(t.trace_id) && !all_zero(t.trace_id) && t.flags.size() == 2
         && lower_hex(t.flags);
}

std::string child_traceparent(const trace_parent& parent, std::string_view span_id) {
  // A later version's extra fields are not ours to repeat: the child speaks version 00.
  std::string out = "00-";
  out.append(parent.trace_id).append("-").append(span_id).append("-").append(parent.flags);
  return out;
}

std::string new_span_id() {
  for (;;) {
    auto id = core::random_hex(8);
    if (!all_zero(id))
      return id;
  }
}

} // namespace svc::schema
