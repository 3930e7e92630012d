#pragma once
// `Idempotency-Key` on creates (decisions.md): a key of up to 255 printable
// ASCII characters, scoped to the team and the route. The first create under
// a key stores its answer with the job (see actors::admission); a repeat with
// the same body replays it with `Idempotent-Replayed: true`, another body is
// 422, and a repeat while the first is still committing is 409 (the ledger).

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include <boost/json/object.hpp>

#include "http/request_context.hpp"
#include "http/respond.hpp"

namespace svc::http {

/// A create's key and the fingerprint of its body.
struct idempotency_claim {
  std::string key;            ///< the header value
  std::string request_sha256; ///< of the body as parsed and re-serialised
};

/// The claim of a request, nullopt without the header; answers 400 and sets
/// `ok` false for a malformed key.
std::optional<idempotency_claim> read_idempotency_claim(const context_ptr& ctx, const boost::json::object& body,
                                                        bool& ok);

/// How a route answers a repeat of an earlier create under the same key
/// and body, given that create's record.
using replay_answer = std::function<void(const schema::idempotency_record& earlier)>;

/// Answers with an earlier create's stored response (with `Idempotent-Replayed:
/// true`), or `answer`'s when given, if its fingerprint matches; else 422
/// `idempotency_key_reused`.
void reply_replay(const context_ptr& ctx, const schema::idempotency_record& earlier, const idempotency_claim& claim,
                  const replay_answer& answer = {});

/// The unexpired record under `team/route/key`: found, absent, or the store's error.
persistence::read_result<schema::idempotency_record> find_idempotency_record(const context_ptr& ctx,
                                                                             std::string_view route,
                                                                             const idempotency_claim& claim);

/// The claim of a create on `route` with `body`, a repeat of an earlier create
/// answered: false once the request is answered (400 for a malformed key, the
/// earlier create's replay, by `answer` when given, or 422, 503 when the
/// store failed); else true, with `claim` nullopt without the header.
bool claim_create(const context_ptr& ctx, std::string_view route, const boost::json::object& body,
                  std::optional<idempotency_claim>& claim, const replay_answer& answer = {});

/// The record that replays a create's 201 `answer` (with `location`) under
/// `claim` until --idempotency-ttl from now; nullopt without a claim.
std::optional<schema::idempotency_record> replay_record(const context_ptr& ctx, std::string_view route,
                                                        const std::optional<idempotency_claim>& claim,
                                                        const std::string& answer, const std::string& location);

/// The handler of an actor's answer to a create (`Created` has `replayed` and
/// `earlier`): 201 with `answer` at `location`, or, when a create under the
/// same key committed first, that create's replay.
template <class Created>
std::function<void(Created&)> on_created(const context_ptr& ctx, std::optional<idempotency_claim> claim,
                                         std::string answer, std::string location) {
  return [ctx, claim = std::move(claim), answer = std::move(answer), location = std::move(location)](Created& r) {
    if (r.replayed)
      return reply_replay(ctx, r.earlier, *claim);
    reply_body(ctx, 201, answer, "application/json", {{"Location", location}});
  };
}

} // namespace svc::http
