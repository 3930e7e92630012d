#include "http/idempotency.hpp"

#include <boost/json.hpp>

#include "core/crypto.hpp"
#include "http/respond.hpp"
#include "persistence/job_rows.hpp"

namespace svc::http {

std::optional<idempotency_claim> read_idempotency_claim(const context_ptr& ctx, const boost::json::object& body,
                                                        bool& ok) {
  ok = true;
  auto it = ctx->req.find("Idempotency-Key");
  if (it == ctx->req.end())
    return std::nullopt;
  std::string_view key = it->value();
  bool printable = !key.empty() && key.size() <= 255;
  for (unsigned char c : key)
    printable = printable && c >= 0x20 && c <= 0x7e;
  if (!printable) {
    ok = false;
    reply_error(ctx, schema::make_api_error(schema::error_code::invalid_parameter,
                                            {{"detail", "must be 1 to 255 printable ASCII characters"}},
                                            "Idempotency-Key"));
    return std::nullopt;
  }
  // Parsed and re-serialised, so whitespace does not make a retry a different request.
  return idempotency_claim{std::string{key}, core::to_hex(core::sha256(boost::json::serialize(body)))};
}

void reply_replay(const context_ptr& ctx, const schema::idempotency_record& earlier, const idempotency_claim& claim,
                  const replay_answer& answer) {
  if (earlier.request_sha256 != claim.request_sha256)
    return reply_error(ctx, schema::make_api_error(schema::error_code::idempotency_key_reused, {},
                                                   "Idempotency-Key"));
  if (answer)
    return answer(earlier);
  header_list headers{{"Idempotent-Replayed", "true"}};
  if (!earlier.location.empty())
    headers.emplace_back("Location", earlier.location);
  reply_body(ctx, static_cast<unsigned>(earlier.status), earlier.body, "application/json", std::move(headers));
}

persistence::read_result<schema::idempotency_record> find_idempotency_record(const context_ptr& ctx,
                                                                             std::string_view route,
                                                                             const idempotency_claim& claim) {
  auto now = ctx->svc.clock->now();
  return ctx->svc.tables()
    .idempotency.get(persistence::idempotency_key(ctx->team->id, route, claim.key))
    .keep_if([&](const schema::idempotency_record& r) { return r.expires_at > now; });
}

bool claim_create(const context_ptr& ctx, std::string_view route, const boost::json::object& body,
                  std::optional<idempotency_claim>& claim, const replay_answer& answer) {
  bool ok = true;
  claim = read_idempotency_claim(ctx, body, ok);
  if (!ok || !claim)
    return ok;
  auto earlier = find_idempotency_record(ctx, route, *claim);
  if (earlier.failed()) {
    reply_storage_failure(ctx, earlier.why());
    return false;
  }
  if (earlier.has_value()) {
    reply_replay(ctx, *earlier, *claim, answer);
    return false;
  }
  return true;
}

std::optional<schema::idempotency_record> replay_record(const context_ptr& ctx, std::string_view route,
                                                        const std::optional<idempotency_claim>& claim,
                                                        const std::string& answer, const std::string& location) {
  if (!claim)
    return std::nullopt;
  auto now = ctx->svc.clock->now();
  return schema::idempotency_record{ctx->team->id, std::string{route}, claim->key, claim->request_sha256, 201,
                                    answer,        location,           now,        now + ctx->svc.cfg.idempotency_ttl};
}

} // namespace svc::http
