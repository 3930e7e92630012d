#include "actors/mailer.hpp"

#include <algorithm>

#include "actors/mailbox_depth.hpp"
#include "actors/supervision.hpp"
#include "core/ids.hpp"
#include "core/log.hpp"
#include "core/metric_catalogue.hpp"

namespace svc::actors {
namespace {

using mailer_self = mailer_actor::stateful_pointer<mailer_state>;
using delays_t = std::vector<std::chrono::milliseconds>;

constexpr std::chrono::milliseconds first_save_backoff{1000};
constexpr std::chrono::milliseconds max_save_backoff{30000};

// Log lines name the recipient and the sender's reason, never the message.
std::string recipient(const core::mail_message& m) { return "'" + m.to + "' (" + m.subject.substr(0, 80) + ")"; }

void save(mailer_self self, const context& ctx, std::set<std::string> ids);

// Writes the rows again whose last write failed (a full or failing store):
// background writes are retried, with a pause that doubles, until they land.
void save_unsaved(mailer_self self, const context& ctx) {
  auto ids = std::move(self->state.unsaved);
  self->state.unsaved.clear();
  if (!ids.empty())
    save(self, ctx, std::move(ids));
}

// Commits the current state of rows `ids`: the row while it waits, its
// erasure once it is done. Every write puts a row as it is when written, and
// the store applies one writer's commits in order, so a row ends as the last
// write left it, even after a failed write is made again.
void save(mailer_self self, const context& ctx, std::set<std::string> ids) {
  persistence::write_batch batch;
  for (auto& id : ids)
    if (auto it = self->state.queue.find(id); it != self->state.queue.end())
      ctx.tables->mail_queue.put(batch, id, it->second);
    else
      ctx.tables->mail_queue.erase(batch, id);
  self->request(ctx.store, caf::infinite, commit_atom::value, std::move(batch))
    .then(
      [self, ids](bool) {
        auto& st = self->state;
        st.save_backoff = std::chrono::milliseconds{0};
        for (auto& id : ids)
          if (!st.queue.count(id) && !st.unsaved.count(id))
            st.done.erase(id); // its erasure is durable: a scan no longer finds it
      },
      [self, ctx, ids](caf::error& err) {
        auto& st = self->state;
        bool first = st.unsaved.empty();
        st.unsaved.insert(ids.begin(), ids.end());
        if (!first)
          return; // a retry is armed already
        st.save_backoff = std::clamp(st.save_backoff * 2, first_save_backoff, max_save_backoff);
        core::log_warn("mailer", "writing the mail queue failed: " + caf::to_string(err) + "; retrying in "
                                   + std::to_string(st.save_backoff.count()) + "ms");
        self->delayed_send(self, st.save_backoff, flush_atom::value);
      });
}

// Arms the retry timer for the earliest row, unless one that fires no later is pending.
void arm(mailer_self self, const context& ctx) {
  auto& st = self->state;
  if (st.queue.empty())
    return;
  auto earliest = std::min_element(st.queue.begin(), st.queue.end(), [](auto& a, auto& b) {
                    return a.second.due_at < b.second.due_at;
                  })->second.due_at;
  if (st.armed && *st.armed <= earliest)
    return;
  st.armed = earliest;
  auto left = std::chrono::ceil<std::chrono::milliseconds>(earliest - ctx.clock->now());
  self->delayed_send(self, std::max(left, std::chrono::milliseconds{0}), retry_atom::value, ++st.timer);
}

void hand_to_fallback(mailer_self self, core::mail_sender* fallback, const core::mail_message& m,
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

// One attempt through the primary sender. Success, or a failure after the
// last delay (the fallback's turn), ends the row; another failure stores the
// next attempt's deadline in it.
void attempt(mailer_self self, const context& ctx, core::mail_sender* primary, core::mail_sender* fallback,
             const delays_t& delays, const std::string& id) {
  auto& st = self->state;
  auto& row = st.queue.at(id);
  auto error = primary != nullptr ? primary->send(row.message) : std::string{"no mail sender"};
  (error.empty() ? core::metrics::svc().mail_sent : core::metrics::svc().mail_failed).get().inc();
  if (error.empty()) {
    ++st.sent;
    core::log(core::log_level::debug, "mailer", "mail to " + recipient(row.message) + " sent");
  } else if (static_cast<std::size_t>(++row.attempts) > delays.size()) {
    hand_to_fallback(self, fallback, row.message,
                     std::to_string(row.attempts) + " attempts failed, the last: " + error);
  } else {
    auto delay = delays[static_cast<std::size_t>(row.attempts) - 1];
    core::log_warn("mailer", "mail to " + recipient(row.message) + " failed (attempt " + std::to_string(row.attempts)
                               + "), retrying in " + std::to_string(delay.count()) + "ms: " + error);
    // Whole milliseconds, rounded up, as it is stored: a restart never tries earlier.
    row.due_at = std::chrono::ceil<std::chrono::milliseconds>(ctx.clock->now() + delay);
    save(self, ctx, {id});
    return;
  }
  st.queue.erase(id);
  st.done.insert(id);
  save(self, ctx, {id});
}

// Attempts every row that is due, oldest first, then re-arms for the rest.
void attempt_due(mailer_self self, const context& ctx, core::mail_sender* primary, core::mail_sender* fallback,
                 const delays_t& delays) {
  auto now = ctx.clock->now();
  std::vector<std::string> due;
  for (auto& [id, row] : self->state.queue)
    if (row.due_at <= now)
      due.push_back(id);
  for (auto& id : due)
    attempt(self, ctx, primary, fallback, delays, id);
  arm(self, ctx);
}

// Takes the rows of `mail_queue` it does not know yet: at start (what a
// crash or a stop left) and when another writer queued mail. A store that
// fails the scan is tried again a second later.
void load(mailer_self self, const context& ctx, bool at_start) {
  auto& st = self->state;
  std::size_t found = 0;
  auto scanned = ctx.tables->mail_queue.for_each([&](const schema::queued_mail& row) {
    if (!st.queue.count(row.id) && !st.done.count(row.id) && !st.committing.count(row.id)) {
      st.queue.emplace(row.id, row);
      ++found;
    }
    return true;
  });
  if (!scanned.ok()) {
    core::log_error("mailer", "reading the mail queue failed: " + scanned.message + "; retrying");
    self->delayed_send(self, std::chrono::seconds{1}, queued_atom::value);
    return; // a failed first scan leaves `loaded` false: the next is the start's
  }
  self->state.loaded = true;
  if (found > 0 && at_start)
    core::log_info("mailer", std::to_string(found) + " queued mail to send (left by an earlier run)");
}

} // namespace

std::vector<std::chrono::milliseconds> default_mail_retry_delays() {
  return {std::chrono::seconds{1}, std::chrono::seconds{5}, std::chrono::seconds{30}};
}

schema::queued_mail queue_mail(const context& ctx, persistence::write_batch& batch, core::mail_message m) {
  schema::queued_mail row;
  row.created_at = row.due_at = std::chrono::floor<std::chrono::milliseconds>(ctx.clock->now());
  row.id = "mail_" + core::make_ulid(row.created_at);
  row.message = std::move(m);
  ctx.tables->mail_queue.put(batch, row.id, row);
  return row;
}

mailer_actor::behavior_type mailer(mailer_self self, context ctx, core::mail_sender* primary,
                                   core::mail_sender* fallback) {
  return mailer_with_retries(self, std::move(ctx), primary, fallback, default_mail_retry_delays());
}

mailer_actor::behavior_type mailer_with_retries(mailer_self self, context ctx, core::mail_sender* primary,
                                                core::mail_sender* fallback, delays_t retry_delays) {
  register_actor(self, ctx, "mailer", "mailer", "");
  log_exceptions(self, "mailer");
  // What a crash or a stop left in the queue is sent first, from a message,
  // so a slow relay never holds up the spawn.
  self->send(self, queued_atom::value);
  return {
    [=](send_atom, core::mail_message& m) -> caf::result<bool> {
      persistence::write_batch batch;
      auto row = queue_mail(ctx, batch, std::move(m));
      auto promise = self->make_response_promise<bool>();
      // Committed, the row is in the table a scan reads before this commit
      // is answered: the scan must leave it, or it would be sent twice.
      self->state.committing.insert(row.id);
      self->request(ctx.store, caf::infinite, commit_atom::value, std::move(batch))
        .then(
          [=](bool) mutable {
            self->state.committing.erase(row.id);
            self->state.queue.emplace(row.id, row);
            promise.deliver(true);
            attempt_due(self, ctx, primary, fallback, retry_delays);
          },
          [=](caf::error& err) mutable {
            self->state.committing.erase(row.id);
            core::log_error("mailer", "mail to " + recipient(row.message)
                                        + " not queued, the store refused it: " + caf::to_string(err));
            promise.deliver(std::move(err));
          });
      return promise;
    },
    [=](queued_atom) {
      load(self, ctx, !self->state.loaded);
      attempt_due(self, ctx, primary, fallback, retry_delays);
    },
    [=](retry_atom, uint64_t timer) {
      auto& st = self->state;
      if (timer == st.timer) // the pending timer: a later row needs a new one
        st.armed.reset();
      attempt_due(self, ctx, primary, fallback, retry_delays);
    },
    [=](flush_atom) { save_unsaved(self, ctx); },
    crash_on_fault(),
    [=](describe_atom) -> actor_status {
      auto& st = self->state;
      return {"sent=" + std::to_string(st.sent) + " fallback=" + std::to_string(st.fallback)
                + " failed=" + std::to_string(st.failed) + " retrying=" + std::to_string(st.queue.size()),
              mailbox_depth(self)};
    },
  };
}

} // namespace svc::actors
