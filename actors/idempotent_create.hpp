#pragma once
// What a create under an Idempotency-Key checks before it starts, alike for
// every actor that creates under one (a job's hold in the ledger, a webhook
// endpoint in its directory).

#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "actors/context.hpp"

namespace svc::actors {

/// The answer of an earlier create under `key` while it is retained: then the
/// caller replays it and creates nothing. Nothing when the create may go
/// ahead; `idempotency_key_in_use` while a create under `key` is committing
/// (`committing`: committed creates are in LMDB by the time they leave it); a
/// storage failure (logged as `component`'s) when the table cannot be read.
caf::expected<std::optional<schema::idempotency_record>>
earlier_create(const context& ctx, const std::set<std::string>& committing, const std::string& key,
               std::string_view component);

} // namespace svc::actors
