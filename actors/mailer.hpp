#pragma once
// The mailer: sends e-mail to team owners through a blocking sender (the SMTP
// relay), so it runs detached. Mail waits in a durable queue, the
// `mail_queue` table: a message is committed there before its sender hears
// it was taken (or, through `queue_mail`, in the sender's own transaction),
// and its row goes once the message is sent, or handed to the fallback (the
// outbox) after the last retry. A failed attempt stores its retry deadline in
// the row, so a restart, or a new incarnation after a crash, re-arms it and
// resends whatever is left: mail is at least once, like webhooks.

#include <chrono>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "actors/context.hpp"
#include "core/mail.hpp"
#include "schema/queued_mail.hpp"

namespace svc::actors {

struct mailer_state {
  std::map<std::string, schema::queued_mail> queue; ///< committed rows still to send, by id
  std::set<std::string> committing; ///< rows queued here whose commit is not answered yet: a scan leaves them
  std::set<std::string> done;    ///< sent or given up: rows whose erasure is not committed yet
  std::set<std::string> unsaved; ///< rows whose last write failed: written again by the next flush
  std::optional<core::time_point> armed; ///< when the retry timer fires, if one is pending
  uint64_t timer = 0;                    ///< generation of that timer (older ones are stale)
  std::chrono::milliseconds save_backoff{0}; ///< pause before writing `unsaved` again
  bool loaded = false;   ///< the queue left by an earlier run has been read
  uint64_t sent = 0;      ///< accepted by the primary sender
  uint64_t fallback = 0;  ///< handed to the fallback after the last retry
  uint64_t failed = 0;    ///< lost: the fallback failed too, or there is none
  static inline const char* name = "mailer";
};

/// Delays before the 2nd, 3rd and 4th attempt: 1 s, 5 s, 30 s.
std::vector<std::chrono::milliseconds> default_mail_retry_delays();

/// Adds `m` to the mail queue in `batch`, due now: a writer that queues mail
/// with its own change commits both at once, then tells the mailer
/// (`queued_atom`). Returns the row.
schema::queued_mail queue_mail(const context& ctx, persistence::write_batch& batch, core::mail_message m);

/// The mailer with the default retry delays. `primary` and `fallback`
/// (nullptr: none) outlive the actor; spawn it `caf::detached`. `ctx` needs
/// the store, the tables and the clock.
mailer_actor::behavior_type mailer(mailer_actor::stateful_pointer<mailer_state> self, context ctx,
                                   core::mail_sender* primary, core::mail_sender* fallback);

/// The mailer retrying after each of `retry_delays` (tests use milliseconds).
mailer_actor::behavior_type mailer_with_retries(mailer_actor::stateful_pointer<mailer_state> self, context ctx,
                                                core::mail_sender* primary, core::mail_sender* fallback,
                                                std::vector<std::chrono::milliseconds> retry_delays);

} // namespace svc::actors
