#pragma once
// The operations of the load. Each sends one request for one team as a
// client would, and writes what came of it into the ledger: acknowledged
// writes with their answers, unanswered ones to be resolved after restart.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <random>
#include <string>

#include "delivery_recorder.hpp"
#include "ledger.hpp"
#include "support/http_client.hpp"
#include "violations.hpp"

namespace svc::chaos {

/// One client thread of the load, talking to the svcd of this cycle.
struct client {
  e2e::http_client api;     ///< the public listener
  e2e::http_client admin;   ///< the admin listener (credit grants)
  std::string admin_token;
  std::mt19937_64 rng;
  ledger& book;
  delivery_recorder& hooks;
  violations& found;
  int cycle = 0;
  std::string name; ///< `<seed>-c<cycle>t<thread>`: makes keys and tags unique in the run
  std::uint64_t sequence = 0;

  /// A run-unique tag for the next request (idempotency keys, metadata).
  std::string next_tag() { return name + "-" + std::to_string(++sequence); }
  /// A uniform integer in [low, high].
  std::int64_t uniform(std::int64_t low, std::int64_t high) {
    return std::uniform_int_distribution<std::int64_t>{low, high}(rng);
  }
  /// True with probability `p`.
  bool chance(double p) { return std::uniform_real_distribution<double>{}(rng) < p; }
};

/// Sends one request; nothing when no answer came (svcd was killed).
std::optional<e2e::response> send(e2e::http_client& c, const std::string& method, const std::string& target,
                                  const e2e::header_map& headers, const std::string& body = {});
/// The status of `r`, 0 when no answer came.
inline int status_of(const std::optional<e2e::response>& r) { return r ? r->status : 0; }
/// Milliseconds since the Unix epoch, now.
std::int64_t now_ms();

// ---- keyed creates (keyed_requests.cpp) ----
/// Sends `create` (its target, Idempotency-Key and body) with `api_key`.
std::optional<e2e::response> send_keyed(e2e::http_client& c, const std::string& api_key, const keyed_create& create);
/// How an answer to a repeated keyed create differs from the first answer
/// (status, body, `Idempotent-Replayed: true`); empty when it does not.
std::string replay_difference(const keyed_create& first, const e2e::response& again);

// ---- jobs (job_operations.cpp) ----
/// POST /v1/images or /v1/videos, with an Idempotency-Key or without; some
/// images start from an uploaded file, a few prompts are refused by moderation.
void create_job(client& c, std::size_t team, bool video);
/// POST /v1/images/{id}/cancel of one of the team's recent jobs.
void cancel_job(client& c, std::size_t team);
/// Sends an acknowledged keyed create again: it must answer as the first time.
void replay_create(client& c, std::size_t team);

// ---- webhooks (webhook_operations.cpp) ----
/// POST /v1/webhook_endpoints (always keyed) while the team has few, else
/// DELETE one.
void create_or_delete_endpoint(client& c, std::size_t team);
/// Writes an acknowledged endpoint create (`create` with its answer) into the
/// ledger and tells the receiver its secret; false when the answer is no
/// endpoint with a secret. Events minted after `answered_at_ms` are owed to it.
bool remember_endpoint(ledger& book, delivery_recorder& hooks, std::size_t team, keyed_create& create,
                       std::int64_t answered_at_ms);
/// POST /v1/webhook_endpoints/{id}/rotate_secret.
void rotate_secret(client& c, std::size_t team);

// ---- the team (team_operations.cpp) ----
/// POST /v1/files with a tiny image.
void upload_file(client& c, std::size_t team);
/// POST /v1/api_keys/{id}/rotate of the team's write key.
void rotate_write_key(client& c, std::size_t team);
/// POST /admin/teams/{id}/credits.
void grant_credits(client& c, std::size_t team);

} // namespace svc::chaos
