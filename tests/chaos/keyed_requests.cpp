// Keyed creates, sent and sent again; and the little plumbing every
// operation shares.
#include <chrono>

#include "operations.hpp"

namespace svc::chaos {

std::optional<e2e::response> send(e2e::http_client& c, const std::string& method, const std::string& target,
                                  const e2e::header_map& headers, const std::string& body) {
  try {
    auto r = c.request(method, target, headers, body);
    // A cluster node redirects uploads (and downloads) to the team's owner,
    // as curl -L follows: once, with the same request.
    if (r.status == 307) {
      auto location = r.header_or_empty("Location");
      auto path = location.find('/', location.find("://") == std::string::npos ? 0 : location.find("://") + 3);
      if (path == std::string::npos)
        return r;
      e2e::http_client owner{location.substr(0, path)};
      owner.set_timeout(std::chrono::seconds{15});
      r = owner.request(method, location.substr(path), headers, body);
    }
    // The node that took the request lost its owner (killed, or the shard
    // moving): whether the owner acted on it is as unknown as for no answer.
    if (r.status == 503 && r.body.find("\"owner_unavailable\"") != std::string::npos)
      return std::nullopt;
    return r;
  } catch (const std::exception&) {
    // The connection broke or was refused: svcd is gone. The caller decides
    // what an unanswered request means.
    c.close();
    return std::nullopt;
  }
}

std::int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
    .count();
}

std::optional<e2e::response> send_keyed(e2e::http_client& c, const std::string& api_key, const keyed_create& create) {
  e2e::header_map headers{{"Content-Type", "application/json"}, {"Idempotency-Key", create.idempotency_key}};
  return send(c, "POST", create.target, e2e::with_key(api_key, std::move(headers)), create.body);
}

std::string replay_difference(const keyed_create& first, const e2e::response& again) {
  if (again.status != first.status)
    return "status " + std::to_string(again.status) + " where the first answer was " + std::to_string(first.status)
           + ": " + again.summary();
  if (again.body != first.answer)
    return "body differs from the first answer: first " + first.answer.substr(0, 300) + " now "
           + again.body.substr(0, 300);
  if (again.header_or_empty("Idempotent-Replayed") != "true")
    return "no Idempotent-Replayed: true header";
  return {};
}

} // namespace svc::chaos
