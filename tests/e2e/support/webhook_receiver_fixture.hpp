#pragma once
// Webhook e2e support: an svcd that trusts a test CA made on the spot, HTTPS
// receivers (bench/receiver) with a certificate of that CA or an untrusted
// self-signed one, signature checks written here with OpenSSL (independent of
// the product's signing code), receipts parsed as event envelopes, waits with
// deadlines, and the webhook routes of the public API.

#include "bench/receiver/https_receiver.hpp"
#include "support/http_client.hpp"
#include "support/server_fixture.hpp"

#include <boost/json/array.hpp>
#include <boost/json/value.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace svc::e2e {

/// A request as the receiver saw it, and an answer it is told to give.
using receiver::received_request;
using receiver::reply;

/// The process-wide test PKI (made at first use); its `ca.pem` lives in a
/// temporary directory removed at exit.
const receiver::test_pki& webhook_test_pki();
/// Path of the test CA's PEM file, for `--webhook-ca-file`.
const std::string& webhook_ca_file();

/// `--webhook-ca-file <test CA>`, `--webhook-allow-private` unless
/// `allow_private` is false, then `extra`.
std::vector<std::string> webhook_svcd_args(std::vector<std::string> extra, bool allow_private = true);

/// A receiver on 127.0.0.1 whose certificate the test CA signed.
std::unique_ptr<receiver::https_receiver> make_trusted_receiver();
/// A receiver with a self-signed certificate nobody trusts.
std::unique_ptr<receiver::https_receiver> make_untrusted_receiver();

/// An svcd started with `webhook_svcd_args(extra_args, allow_private)` and
/// one trusted receiver, `hooks`. Derive to pass options.
class webhook_fixture : public server_fixture {
public:
  explicit webhook_fixture(std::vector<std::string> extra_args = {}, bool allow_private = true);
  std::unique_ptr<receiver::https_receiver> hooks; ///< answers 200 until told otherwise
};

// ---- signatures (OpenSSL HMAC-SHA256 and base64, no product code) ----

/// Raw HMAC-SHA256 of `data` under `key`.
std::string hmac_sha256_raw(std::string_view key, std::string_view data);
/// Lowercase hex of `bytes`.
std::string to_hex_lower(std::string_view bytes);
/// Standard base64 with padding.
std::string base64_encode(std::string_view bytes);
/// Decodes standard base64 (padding required); nothing when malformed.
std::optional<std::string> base64_decode(std::string_view text);

/// `Svc-Webhook-Signature`: exactly `t=<10 digits>,v1=<64 lowercase hex>`.
struct svc_signature {
  std::string t;  ///< the 10 digits
  std::string v1; ///< the 64 hex digits
};
/// Parses the header by the strict shape above; nothing otherwise.
std::optional<svc_signature> parse_svc_signature(std::string_view header);
/// Whether `r` carries an `Svc-Webhook-Signature` of the strict shape whose v1
/// is HMAC-SHA256(key = whole `secret`, `t + "." + raw body`).
bool svc_signature_valid(const receiver::received_request& r, const std::string& secret);
/// Whether `r` carries Standard Webhooks headers `webhook-id`,
/// `webhook-timestamp` and `webhook-signature: v1,<base64>` that verify with
/// the base64-decoded part of `secret` after `whsec_` over `id.timestamp.body`.
bool standard_signature_valid(const receiver::received_request& r, const std::string& secret);

// ---- receipts ----

/// One request the receiver got, with its body parsed as an event envelope.
struct receipt {
  receiver::received_request request;
  boost::json::value envelope; ///< null when the body is not JSON
  std::string event_id;        ///< envelope `id`
  std::string type;            ///< envelope `type`
};

/// Every request `r` got so far, parsed, in arrival order.
std::vector<receipt> receipts_of(const receiver::https_receiver& r);
/// Receipts whose envelope `type` is `type`.
std::vector<receipt> receipts_of_type(const receiver::https_receiver& r, std::string_view type);
/// Waits until at least `n` receipts satisfy `match`; false on timeout.
bool wait_for_receipts(const receiver::https_receiver& r, std::size_t n,
                       const std::function<bool(const receipt&)>& match, std::chrono::milliseconds timeout);
/// Waits for the first receipt that satisfies `match`.
std::optional<receipt> wait_for_receipt(const receiver::https_receiver& r,
                                        const std::function<bool(const receipt&)>& match,
                                        std::chrono::milliseconds timeout);
/// Matches receipts of event `id`.
std::function<bool(const receipt&)> event_is(std::string id);
/// Matches receipts of type `type`.
std::function<bool(const receipt&)> type_is(std::string type);
/// Matches receipts of type `type` whose envelope's `data.id` is `job_id`.
std::function<bool(const receipt&)> job_event(std::string type, std::string job_id);

// ---- the webhook routes ----

/// POST /v1/webhook_endpoints `{url, events}`.
response create_endpoint(http_client& c, const std::string& key, const std::string& url,
                         boost::json::array events = {"*"});
/// Creates and returns the record; throws std::runtime_error unless 201.
boost::json::value create_endpoint_ok(http_client& c, const std::string& key, const std::string& url,
                                      boost::json::array events = {"*"});
/// GET /v1/webhook_endpoints/{id}; the body.
boost::json::value get_endpoint(http_client& c, const std::string& key, const std::string& id);
/// PATCH /v1/webhook_endpoints/{id} with `body`.
response patch_endpoint(http_client& c, const std::string& key, const std::string& id, const boost::json::value& body);
/// POST /v1/webhook_endpoints/{id}/test `{event_type}`, plus `more` headers.
response test_fire(http_client& c, const std::string& key, const std::string& endpoint_id,
                   const std::string& event_type = "image.completed", header_map more = {});
/// A test fire's event id; throws std::runtime_error unless 202.
std::string test_fire_ok(http_client& c, const std::string& key, const std::string& endpoint_id,
                         const std::string& event_type = "image.completed", header_map more = {});
/// GET /v1/webhook_endpoints/{id}/deliveries with `query` (e.g. `limit=1`).
response get_deliveries(http_client& c, const std::string& key, const std::string& endpoint_id,
                        const std::string& query = "");
/// Every delivery row of the endpoint, newest first (pages of 100); throws
/// std::runtime_error when a page does not answer 200.
std::vector<boost::json::value> all_deliveries(http_client& c, const std::string& key,
                                               const std::string& endpoint_id);
/// Polls the deliveries until `done(rows)` holds or `timeout` passes; returns
/// the last rows read.
std::vector<boost::json::value> wait_deliveries(http_client& c, const std::string& key, const std::string& endpoint_id,
                                                const std::function<bool(const std::vector<boost::json::value>&)>& done,
                                                std::chrono::milliseconds timeout);

// ---- misc ----

/// ISO 8601 UTC with milliseconds and `Z`.
std::string iso8601_ms(std::chrono::system_clock::time_point t);
/// A TCP port on 127.0.0.1 that nothing listens on (bound, then closed).
std::uint16_t closed_local_port();
/// Raises one rate bucket of a team to a size no test reaches (capacity
/// 1000, 6000 per minute).
void raise_bucket(server_fixture& f, const std::string& team_id, const std::string& bucket);
/// A team with keys of each scope whose `reads`, `webhooks_test` and
/// `webhook_endpoints_post` buckets are raised, so polling and many test
/// fires or creates are not throttled.
team_keys create_webhook_team(server_fixture& f, std::int64_t credits = 1000);

} // namespace svc::e2e
