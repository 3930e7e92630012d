#include "schema/webhook_signature.hpp"

#include <charconv>
#include <cstdlib>

#include "core/crypto.hpp"

namespace svc::schema {
namespace {

constexpr std::string_view secret_prefix = "whsec_";

std::string signed_payload(int64_t t, std::string_view body) {
  std::string payload = std::to_string(t);
  payload.push_back('.');
  payload.append(body);
  return payload;
}

} // namespace

std::string make_webhook_secret() { return std::string{secret_prefix} + core::base64_encode(core::random_bytes(32)); }

std::string secret_preview(std::string_view secret) {
  auto tail = secret.size() > secret_prefix.size() + 8 ? secret.substr(secret.size() - 4) : std::string_view{};
  return std::string{secret_prefix} + "****" + std::string{tail};
}

std::string signature_header(std::string_view secret, int64_t t, std::string_view body) {
  return "t=" + std::to_string(t) + ",v1=" + core::to_hex(core::hmac_sha256(secret, signed_payload(t, body)));
}

std::string standard_signature(std::string_view secret, std::string_view event_id, int64_t t, std::string_view body) {
  auto encoded = secret.substr(0, secret_prefix.size()) == secret_prefix ? secret.substr(secret_prefix.size()) : secret;
  auto key = core::base64_decode(encoded).value_or(std::string{encoded});
  std::string payload{event_id};
  payload.push_back('.');
  payload.append(signed_payload(t, body));
  auto mac = core::hmac_sha256(key, payload);
  return "v1," + core::base64_encode(std::string_view{reinterpret_cast<const char*>(mac.data()), mac.size()});
}

signature_check verify_signature_header(std::string_view header, std::string_view body,
                                        const std::vector<std::string>& secrets, int64_t now_s, int64_t tolerance_s) {
  int64_t t = -1;
  std::vector<std::string_view> candidates;
  while (!header.empty()) {
    auto comma = header.find(',');
    auto part = header.substr(0, comma);
    header = comma == std::string_view::npos ? std::string_view{} : header.substr(comma + 1);
    if (part.substr(0, 2) == "t=") {
      auto digits = part.substr(2);
      auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), t);
      if (ec != std::errc{} || end != digits.data() + digits.size())
        return signature_check::malformed;
    } else if (part.substr(0, 3) == "v1=") {
      candidates.push_back(part.substr(3));
    }
  }
  if (t < 0 || candidates.empty())
    return signature_check::malformed;
  if (std::llabs(now_s - t) > tolerance_s)
    return signature_check::stale;
  auto payload = signed_payload(t, body);
  for (auto& secret : secrets) {
    auto expected = core::to_hex(core::hmac_sha256(secret, payload));
    for (auto c : candidates)
      if (core::constant_time_equal(expected, c))
        return signature_check::ok;
  }
  return signature_check::mismatch;
}

} // namespace svc::schema
