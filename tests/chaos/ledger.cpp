#include "ledger.hpp"

#include "support/json_util.hpp"

namespace svc::chaos {

outcome outcome_of(int status) {
  if (status >= 200 && status < 300)
    return outcome::acknowledged;
  // 507 `insufficient_storage` promises that nothing was changed; the
  // checks hold svcd to it (credits, acknowledged writes).
  if ((status >= 400 && status < 500) || status == 507)
    return outcome::refused;
  if (status >= 500)
    return outcome::server_error;
  return outcome::unanswered;
}

std::string_view name_of(operation op) {
  switch (op) {
  case operation::image: return "image create";
  case operation::video: return "video create";
  case operation::cancel: return "cancel";
  case operation::upload: return "upload";
  case operation::endpoint: return "endpoint create";
  case operation::endpoint_delete: return "endpoint delete";
  case operation::rotate_secret: return "secret rotation";
  case operation::rotate_key: return "key rotation";
  case operation::grant: return "credit grant";
  case operation::replay: return "idempotent replay";
  }
  return "?";
}

outcome ledger::count(operation op, const std::optional<e2e::response>& answer) {
  auto o = outcome_of(answer ? answer->status : 0);
  std::string refusal;
  if (o == outcome::refused || o == outcome::server_error)
    refusal = std::string{name_of(op)} + ": " + std::to_string(answer->status) + " "
              + e2e::json_str(answer->json(), "error.code");
  std::lock_guard lock(mutex_);
  ++state_.counts[static_cast<std::size_t>(op)][static_cast<std::size_t>(o)];
  if (!refusal.empty())
    ++state_.refusals[refusal];
  return o;
}

} // namespace svc::chaos
