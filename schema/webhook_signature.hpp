#pragma once
// Webhook secrets and signatures. A delivery carries two signatures of the
// same body: `Svc-Webhook-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "t.body">`
// keyed with the whole `whsec_...` string (Stripe style), and the Standard
// Webhooks `webhook-signature: v1,<base64 HMAC-SHA256 of "id.t.body">` keyed
// with the base64-decoded part after `whsec_`.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace svc::schema {

/// A new signing secret: `whsec_` + base64 of 32 random bytes.
std::string make_webhook_secret();

/// The masked form shown on every read: `whsec_****` + the last four characters.
std::string secret_preview(std::string_view secret);

/// The `Svc-Webhook-Signature` value for `body` signed at Unix second `t`.
std::string signature_header(std::string_view secret, int64_t t, std::string_view body);

/// The Standard Webhooks `webhook-signature` value (`v1,<base64>`).
std::string standard_signature(std::string_view secret, std::string_view event_id, int64_t t, std::string_view body);

/// Why a receiver refused a signature (`ok` when it verified).
enum class signature_check { ok, malformed, stale, mismatch };

/// A receiver's check of `Svc-Webhook-Signature`: parses `t` and every `v1`,
/// refuses `t` further than `tolerance_s` from `now_s`, and accepts if any
/// `v1` matches any of `secrets` (constant-time compare).
signature_check verify_signature_header(std::string_view header, std::string_view body,
                                        const std::vector<std::string>& secrets, int64_t now_s,
                                        int64_t tolerance_s = 300);

} // namespace svc::schema
