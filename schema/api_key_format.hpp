#pragma once
// The wire format of API keys: `<prefix>_live_<64 lowercase hex>`, where the
// prefix is `svc` today or any two-letter legacy prefix. Only the hex secret
// identifies a key, so legacy prefixes validate the same.

#include <optional>
#include <string>
#include <string_view>

namespace svc::schema {

/// The 64-hex secret of a well-formed key; nullopt if malformed.
std::optional<std::string_view> api_key_secret(std::string_view key);

/// The plaintext key for a secret: `svc_live_<secret>`.
std::string api_key_plaintext(std::string_view secret);

} // namespace svc::schema
