#pragma once
// Signed output URLs: `{base_url}/v1/outputs/{job id}/{index}?exp=<unix>&sig=<hex>`,
// where sig is HMAC-SHA256, keyed with the server's URL secret, over
// "<job id>.<index>.<exp>". They need no API key; any change to the id, the
// index, the expiry or the signature invalidates them.

#include <cstdint>
#include <string>
#include <string_view>

namespace svc::schema {

/// The path and query of an output URL (append it to the base URL).
std::string output_url_path(std::string_view secret, std::string_view job_id, uint32_t index, int64_t expires_unix);

/// The signature of one output: lowercase hex HMAC-SHA256.
std::string output_signature(std::string_view secret, std::string_view job_id, uint32_t index, int64_t expires_unix);

/// What a presented output URL is worth.
enum class output_url_verdict { valid, invalid_signature, expired };

/// Checks a presented URL's parts (constant-time on the signature). A bad
/// signature wins over expiry, so expired URLs cannot be probed for validity.
output_url_verdict verify_output_url(std::string_view secret, std::string_view job_id, uint32_t index,
                                     std::string_view exp_text, std::string_view sig_hex, int64_t now_unix);

} // namespace svc::schema
