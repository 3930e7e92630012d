#pragma once
// An e-mail waiting in the durable mail queue (`mail_queue`): the message,
// how often the relay refused it and when to try next. `stored_json.hpp`
// gives its stored form.

#include <string>

#include "core/clock.hpp"
#include "core/described.hpp"
#include "core/mail.hpp"
#include "schema/stored_field.hpp"

namespace svc::schema {

struct queued_mail {
  std::string id;              ///< `mail_<ULID>`: key order is queue order
  core::mail_message message;
  int attempts = 0;            ///< attempts through the primary sender so far, all failed
  core::time_point due_at;     ///< the next attempt, not before
  core::time_point created_at;
};
SVC_DESCRIBE(queued_mail, (id, message, attempts, due_at, created_at))
SVC_STORED_INLINE(queued_mail, message)

/// Attempts beyond this mean a damaged record.
inline constexpr int max_mail_attempts = 1000;

/// False for attempts outside 0..`max_mail_attempts`.
inline bool valid(const queued_mail& m) { return m.attempts >= 0 && m.attempts <= max_mail_attempts; }

} // namespace svc::schema
