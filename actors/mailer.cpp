#include "actors/mailer.hpp"

#include <algorithm>

#include "actors/supervision.hpp"
#include "core/log.hpp"

namespace svc::actors {
namespace {

using self_ptr = mailer_actor::stateful_pointer<mailer_state>;

// Log lines name the recipient and the sender's reason, never the message.
std::string recipient(const core::mail_message& m) { return "'" + m.to + "' (" + m.subject.substr(0, 80) + ")"; }

void hand_to_fallback(self_ptr self, core::mail_sender* fallback, const core::mail_message& m,
                      const std::string& reason) {
  if (fallback == nullptr) {
    ++self->state.failed;
    core::log_error("mailer", "mail to " + recipient(m) + " dropped: " + reason);
    return;
  }
  auto error = fallback->send(m);
  if (!error.empty()) {
    ++self->state.failed;
    core::log_error("mailer", "mail to " + recipient(m) + " dropped: " + reason + "; fallback: " + error);
    return;
  }
  ++self->state.fallback;
  core::log_warn("mailer", "mail to " + recipient(m) + " written to the fallback after: " + reason);
}

// One attempt through the primary sender; a failure schedules the next one
// or, after the last delay, goes to the fallback.
void attempt(self_ptr self, core::mail_sender* primary, core::mail_sender* fallback,
             const std::vector<std::chrono::milliseconds>& delays, mailer_state::pending p) {
  auto error = primary != nullptr ? primary->send(p.message) : std::string{"no mail sender"};
  if (error.empty()) {
    ++self->state.sent;
    core::log(core::log_level::debug, "mailer", "mail to " + recipient(p.message) + " sent");
    return;
  }
  ++p.failures;
  if (p.failures > delays.size()) {
    hand_to_fallback(self, fallback, p.message,
                     std::to_string(p.failures) + " attempts failed, the last: " + error);
    return;
  }
  auto delay = delays[p.failures - 1];
  core::log_warn("mailer", "mail to " + recipient(p.message) + " failed (attempt " + std::to_string(p.failures)
                             + "), retrying in " + std::to_string(delay.count()) + "ms: " + error);
  p.due = self->clock().now() + delay;
  // The timer carries the message only for traces: a send from the mailer
  // itself means "attempt whatever is due".
  self->delayed_send(self, delay, send_atom::value, p.message);
  self->state.retrying.push_back(std::move(p));
}

void attempt_due(self_ptr self, core::mail_sender* primary, core::mail_sender* fallback,
                 const std::vector<std::chrono::milliseconds>& delays) {
  auto now = self->clock().now();
  auto& list = self->state.retrying;
  auto first_later = std::stable_partition(list.begin(), list.end(), [&](auto& p) { return p.due <= now; });
  std::vector<mailer_state::pending> due(std::make_move_iterator(list.begin()), std::make_move_iterator(first_later));
  list.erase(list.begin(), first_later);
  for (auto& p : due)
    attempt(self, primary, fallback, delays, std::move(p));
}

} // namespace

std::vector<std::chrono::milliseconds> default_mail_retry_delays() {
  return {std::chrono::seconds{1}, std::chrono::seconds{5}, std::chrono::seconds{30}};
}

mailer_actor::behavior_type mailer(self_ptr self, context ctx, core::mail_sender* primary,
                                   core::mail_sender* fallback) {
  return mailer_with_retries(self, std::move(ctx), primary, fallback, default_mail_retry_delays());
}

mailer_actor::behavior_type mailer_with_retries(self_ptr self, context ctx, core::mail_sender* primary,
                                                core::mail_sender* fallback,
                                                std::vector<std::chrono::milliseconds> retry_delays) {
  register_actor(self, ctx, "mailer", "mailer", "");
  log_exceptions(self, "mailer");
  // Nothing waiting for a retry is lost on a clean stop: it goes to the
  // fallback now or, without one (the primary is the outbox), gets one last
  // attempt. This runs while the state still exists.
  self->set_exit_handler([self, primary, fallback](caf::exit_msg& msg) {
    for (auto& p : self->state.retrying) {
      std::string reason = "the mailer stopped before its next attempt";
      if (fallback == nullptr && primary != nullptr) {
        auto error = primary->send(p.message);
        if (error.empty()) {
          ++self->state.sent;
          continue;
        }
        reason += "; a last attempt failed: " + error;
      }
      hand_to_fallback(self, fallback, p.message, reason);
    }
    self->state.retrying.clear();
    self->quit(msg.reason);
  });
  return {
    [=](send_atom, const core::mail_message& m) {
      if (self->current_sender() == self->ctrl())
        attempt_due(self, primary, fallback, retry_delays);
      else
        attempt(self, primary, fallback, retry_delays, {m, 0, {}});
    },
    crash_on_fault(),
    [=](describe_atom) -> actor_status {
      auto& st = self->state;
      return {"sent=" + std::to_string(st.sent) + " fallback=" + std::to_string(st.fallback)
                + " failed=" + std::to_string(st.failed) + " retrying=" + std::to_string(st.retrying.size()),
              self->mailbox().size()};
    },
  };
}

} // namespace svc::actors
