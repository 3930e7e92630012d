#pragma once
// `Idempotency-Key` on creates (decisions.md): a key of up to 255 printable
// ASCII characters, scoped to the team and the route. The first create under
// a key stores its answer with the job (see actors::admission); a repeat with
// the same body replays it with `Idempotent-Replayed: true`, another body is
// 422, and a repeat while the first is still committing is 409 (the ledger).

#include <optional>
#include <string>

#include <boost/json/object.hpp>

#include "http/request_context.hpp"

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

/// Answers with an earlier create's stored response if its fingerprint
/// matches, else 422 `idempotency_key_reused`.
void reply_replay(const context_ptr& ctx, const schema::idempotency_record& earlier, const idempotency_claim& claim);

/// The unexpired record under `team/route/key`: found, absent, or the store's error.
persistence::read_result<schema::idempotency_record> find_idempotency_record(const context_ptr& ctx,
                                                                             std::string_view route,
                                                                             const idempotency_claim& claim);

} // namespace svc::http
