#pragma once
// An e-mail waiting in the durable mail queue (`mail_queue`): the message,
// how often the relay refused it and when to try next. `mail_codec.hpp` is
// its stored form.

#include <string>

#include "core/clock.hpp"
#include "core/described.hpp"
#include "core/mail.hpp"

namespace svc::schema {

struct queued_mail {
  std::string id;              ///< `mail_<ULID>`: key order is queue order
  core::mail_message message;
  int attempts = 0;            ///< attempts through the primary sender so far, all failed
  core::time_point due_at;     ///< the next attempt, not before
  core::time_point created_at;
};
SVC_DESCRIBE(queued_mail, (id, message, attempts, due_at, created_at))

} // namespace svc::schema
