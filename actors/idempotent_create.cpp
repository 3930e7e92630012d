#include "actors/idempotent_create.hpp"

namespace svc::actors {

caf::expected<std::optional<schema::idempotency_record>>
earlier_create(const context& ctx, const std::set<std::string>& committing, const std::string& key,
               std::string_view component) {
  if (committing.count(key) != 0)
    return make_domain_error(schema::error_code::idempotency_key_in_use, "Idempotency-Key");
  auto earlier = ctx.tables->idempotency.get(key);
  if (earlier.failed())
    return storage_failure(component, earlier.why());
  if (earlier.has_value() && earlier->expires_at > ctx.clock->now())
    return std::optional<schema::idempotency_record>{std::move(*earlier)};
  return std::optional<schema::idempotency_record>{};
}

} // namespace svc::actors
