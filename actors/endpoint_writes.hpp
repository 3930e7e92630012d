#pragma once
// The endpoint's writes, committed in the order it makes them: one commit in
// flight at a time, and whatever queues meanwhile goes together in the next,
// so a later write never lands before an earlier one. Each commit puts the
// record as it is then (with the client changes of that commit applied to a
// copy), so no write carries a stale record over a newer one. A background
// write whose commit fails is tried again, with what queued after it, after a
// pause that doubles up to 30 s, until it lands; a client's write whose commit
// fails is answered with the error, and memory never saw its change.

#include "actors/endpoint.hpp"

namespace svc::actors {

/// Queues `write` and commits it as soon as no commit is in flight.
void write_in_order(endpoint_self self, const context& ctx, endpoint_write write);

/// Queues the record as memory holds it now (a background change of it).
void write_record(endpoint_self self, const context& ctx);

/// Commits what is queued, unless a commit is in flight or a retry is armed.
void flush_writes(endpoint_self self, const context& ctx);

/// Makes the endpoint exit once every write it queued has landed (at once if none waits).
void quit_when_written(endpoint_self self, const context& ctx);

} // namespace svc::actors
