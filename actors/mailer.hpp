#pragma once
// The mailer: sends e-mail to team owners through a blocking sender (the SMTP
// relay), so it runs detached. A failed send is retried after each configured
// delay, then handed to the fallback (the outbox); what still waits for a
// retry when the mailer is told to stop goes to the fallback at once (or,
// without a fallback, gets one last attempt through the primary).

#include <chrono>
#include <vector>

#include "actors/context.hpp"
#include "core/mail.hpp"

namespace svc::actors {

struct mailer_state {
  /// A message whose primary send failed, waiting for its next attempt.
  struct pending {
    core::mail_message message;
    std::size_t failures = 0;               ///< attempts so far, all failed
    caf::actor_clock::time_point due;       ///< next attempt
  };
  std::vector<pending> retrying;
  uint64_t sent = 0;      ///< accepted by the primary sender
  uint64_t fallback = 0;  ///< handed to the fallback after the last retry
  uint64_t failed = 0;    ///< lost: the fallback failed too, or there is none
  static inline const char* name = "mailer";
};

/// Delays before the 2nd, 3rd and 4th attempt: 1 s, 5 s, 30 s.
std::vector<std::chrono::milliseconds> default_mail_retry_delays();

/// The mailer with the default retry delays. `primary` and `fallback`
/// (nullptr: none) outlive the actor; spawn it `caf::detached`.
mailer_actor::behavior_type mailer(mailer_actor::stateful_pointer<mailer_state> self, context ctx,
                                   core::mail_sender* primary, core::mail_sender* fallback);

/// The mailer retrying after each of `retry_delays` (tests use milliseconds).
mailer_actor::behavior_type mailer_with_retries(mailer_actor::stateful_pointer<mailer_state> self, context ctx,
                                                core::mail_sender* primary, core::mail_sender* fallback,
                                                std::vector<std::chrono::milliseconds> retry_delays);

} // namespace svc::actors
