#include "actors/ledger.hpp"

#include <limits>

#include "actors/credit_history.hpp"
#include "actors/idempotent_create.hpp"
#include "actors/mailbox_depth.hpp"
#include "actors/release_round.hpp"
#include "actors/supervision.hpp"
#include "core/log.hpp"
#include "core/time_format.hpp"
#include "persistence/webhook_rows.hpp"
#include "schema/event_types.hpp"
#include "schema/views.hpp"
#include "schema/webhook_views.hpp"

namespace svc::actors {
namespace {

using ledger_self = ledger_actor::stateful_pointer<ledger_state>;
using schema::balance_record;
using schema::credit_entry_kind;
using schema::credit_entry_record;
using schema::error_code;
using schema::hold_record;
using schema::hold_status;
using schema::job_status;

persistence::status load(ledger_self self, const context& ctx, const std::string& team_id);

// After a failed commit memory is ahead of LMDB, and the batches sent after
// the failed one (computed from it) are refused by the store: the books are
// read again from LMDB, which now holds exactly what was answered as done.
// Whatever was committing is answered as failed, so its keys and refunds are
// free again. A ledger that cannot read its books ends (the directory
// respawns it on next use).
void reload_after_failed_commit(ledger_self self, const context& ctx) {
  auto& st = self->state;
  ++st.generation;
  st.holds.clear();
  st.admitting.clear();
  st.refunding.clear();
  st.usage.clear();
  self->send(ctx.store, chain_resume_atom::value);
  auto team_id = st.balance.team_id;
  if (auto loaded = load(self, ctx, team_id); !loaded.ok())
    self->quit(storage_failure("ledger", "team " + team_id + ": " + loaded.message));
}

// Commits `batch` and answers `answer` once it is durable. The change is
// already applied in memory, so creates arriving meanwhile see it and several
// share one group commit. If the commit fails, the ledger reloads its books
// (above) and answers the error; the batches sent after it fail with it.
template <class T>
caf::result<T> commit_then(ledger_self self, const context& ctx, persistence::write_batch batch, T answer,
                           std::function<void()> after = {}) {
  auto promise = self->make_response_promise<T>();
  auto generation = self->state.generation;
  // No timeout of its own: the local store always answers (or is gone, which
  // CAF reports as an error); the caller's request carries the deadline.
  self->request(ctx.store, caf::infinite, chained_commit_atom::value, std::move(batch))
    .then(
      [=](bool) mutable {
        ++self->state.changes;
        if (after)
          after();
        promise.deliver(std::move(answer));
      },
      [=](caf::error& err) mutable {
        promise.deliver(err);
        if (generation != self->state.generation)
          return; // a batch computed from a failed one: reloaded already
        // A full store says so itself, once a minute.
        if (to_api_error(err).code != error_code::insufficient_storage)
          core::log_warn("ledger", "commit for team " + self->state.balance.team_id
                                   + " failed: " + caf::to_string(err) + "; reloading the books from LMDB");
        reload_after_failed_commit(self, ctx);
      });
  return promise;
}

// `usage.balance_low` when the available credits cross down to or below the
// team's threshold, at most once per debounce: its rows join `batch` (call it
// before the balance row is written, which carries the debounce time), and
// the returned step publishes it once the batch is durable. `cause` is the
// request that spent the credits, if one did.
std::function<void()> balance_low_event(ledger_self self, const context& ctx, int64_t before,
                                        const schema::correlation& cause, persistence::write_batch& batch) {
  auto& b = self->state.balance;
  if (b.available >= before)
    return {};
  auto team = ctx.tables->teams.get(b.team_id);
  if (team.failed())
    core::log_error("ledger", "team " + b.team_id + ": no balance_low check, the store failed: " + team.why());
  if (!team.has_value() || before <= team->balance_low_threshold || b.available > team->balance_low_threshold)
    return {};
  auto now = ctx.clock->now();
  if (b.low_event_at && now - *b.low_event_at < ctx.cfg->balance_low_debounce)
    return {};
  b.low_event_at = now;
  auto event = schema::mint_event(b.team_id, schema::usage_balance_low, team->default_api_version, false, now,
                                  schema::balance_view(b, team->balance_low_threshold), cause);
  persistence::put_event(*ctx.tables, batch, event, ctx.cfg->event_retention, persistence::fan_out::pending);
  return [self, webhooks = ctx.webhooks, event] {
    if (webhooks)
      self->send(webhooks, publish_atom::value, event);
  };
}

// Runs both steps (either may be empty).
std::function<void()> both(std::function<void()> a, std::function<void()> b) {
  if (!a)
    return b;
  if (!b)
    return a;
  return [a = std::move(a), b = std::move(b)] {
    a();
    b();
  };
}

// The balance and open holds; an error when the store cannot give them (a
// ledger never runs on a balance it did not read).
persistence::status load(ledger_self self, const context& ctx, const std::string& team_id) {
  auto& st = self->state;
  auto balance = ctx.tables->balances.get(team_id);
  if (balance.failed())
    return {balance.why()};
  st.balance = balance.has_value() ? *balance : balance_record{team_id, 0, 0, {}};
  bool more = false;
  persistence::scan_range range;
  range.prefix = team_id + "/";
  auto holds = ctx.tables->holds.page(range, std::numeric_limits<std::size_t>::max(), more);
  if (holds.failed())
    return {holds.why()};
  int64_t held = 0;
  for (auto& h : *holds) {
    if (h.status != hold_status::held)
      continue;
    held += h.credits;
    st.holds.emplace(h.job_id, std::move(h));
  }
  if (held != st.balance.held)
    core::log_warn("ledger", "team " + team_id + ": balance says held=" + std::to_string(st.balance.held)
                               + " but open holds sum to " + std::to_string(held));
  return {};
}

// The usage row of `date`, from memory or LMDB; nullptr (logged) when the
// store cannot give it, so no count restarts from zero.
schema::usage_record* usage_of(ledger_self self, const context& ctx, const std::string& date) {
  auto& usage = self->state.usage;
  if (auto it = usage.find(date); it != usage.end())
    return &it->second;
  auto& team = self->state.balance.team_id;
  auto stored = ctx.tables->usage.get(usage_key(team, date));
  if (stored.failed()) {
    core::log_error("ledger", "team " + team + ": usage of " + date + " unreadable: " + stored.why());
    return nullptr;
  }
  if (usage.size() > 8) // only today's and yesterday's rows are ever touched again
    usage.erase(usage.begin());
  return &(usage[date] = stored.has_value() ? *stored : schema::usage_record{team, date, 0, 0, 0});
}

caf::result<admission_result> admit(ledger_self self, const context& ctx, admission& a) {
  auto& st = self->state;
  if (a.job_id.empty() || a.job_id.size() > 255 || a.job_id.find('/') != std::string::npos)
    return invalid_parameter("job_id", "must be 1 to 255 characters without '/'");
  if (a.credits < 0 || a.credits > max_credits)
    return invalid_parameter("credits", "must be between 0 and " + std::to_string(max_credits));
  if (!a.idempotency_key.empty()) {
    auto earlier = earlier_create(ctx, st.admitting, a.idempotency_key, "ledger");
    if (!earlier)
      return std::move(earlier.error());
    if (*earlier)
      return admission_result{true, std::move(**earlier), st.balance}; // replayed
  }
  if (st.holds.count(a.job_id) != 0)
    return invalid_parameter("job_id", "already holds credits");
  if (a.credits > st.balance.available)
    return make_domain_error(error_code::insufficient_credits, "",
                             {{"required", std::to_string(a.credits)},
                              {"available", std::to_string(st.balance.available)}});
  hold_record hold{st.balance.team_id, a.job_id, a.credits, hold_status::held, ctx.clock->now()};
  auto before = st.balance.available;
  st.balance.available -= a.credits;
  st.balance.held += a.credits;
  st.holds[a.job_id] = hold;
  persistence::write_batch batch = std::move(a.writes);
  auto publish_low = balance_low_event(self, ctx, before, a.cause, batch);
  ctx.tables->balances.put(batch, st.balance.team_id, st.balance);
  ctx.tables->holds.put(batch, hold_key(st.balance.team_id, a.job_id), hold);
  put_credit_entry(ctx, batch, st.balance, credit_entry_kind::hold, -a.credits, a.job_id);
  admission_result r;
  r.balance = st.balance;
  std::function<void()> after;
  if (!a.idempotency_key.empty()) {
    st.admitting.insert(a.idempotency_key);
    after = [self, key = a.idempotency_key] { self->state.admitting.erase(key); };
  }
  return commit_then<admission_result>(self, ctx, std::move(batch), std::move(r),
                                       both(std::move(after), std::move(publish_low)));
}

caf::result<balance_record> settle(ledger_self self, const context& ctx, settlement& s) {
  auto& st = self->state;
  if (s.to != hold_status::charged && s.to != hold_status::refunded)
    return invalid_parameter("to", "must be charged or refunded");
  persistence::write_batch batch = std::move(s.writes);
  batch.finishes_accepted_work = true; // the job was admitted: a full store must still let it end
  auto it = st.holds.find(s.job_id);
  if (it == st.holds.end()) {
    // Settled already: by a job actor that died after asking, whose
    // successor (see job_directory) asks again. The first settlement stands.
    core::log_warn("ledger", "team " + st.balance.team_id + ": job " + s.job_id + " was settled already");
    return make_domain_error(error_code::invalid_state, "job_id",
                             {{"kind", "job"}, {"id", s.job_id}, {"state", "settled"}, {"action", "settle"}});
  }
  auto date = core::format_iso8601(s.at).substr(0, 10);
  schema::usage_record* day = nullptr;
  if (s.to == hold_status::charged && !(day = usage_of(self, ctx, date)))
    return make_domain_error(error_code::storage_unavailable);
  auto credits = it->second.credits;
  st.holds.erase(it);
  st.balance.held -= credits;
  if (s.to == hold_status::refunded) {
    st.balance.available += credits;
  } else {
    day->credits_charged += credits;
    (s.kind == schema::job_kind::image ? day->images : day->videos) += s.outputs;
    ctx.tables->usage.put(batch, usage_key(st.balance.team_id, date), *day);
  }
  ctx.tables->balances.put(batch, st.balance.team_id, st.balance);
  ctx.tables->holds.erase(batch, hold_key(st.balance.team_id, s.job_id));
  if (s.to == hold_status::refunded)
    put_credit_entry(ctx, batch, st.balance, credit_entry_kind::release, credits, s.job_id);
  else
    put_credit_entry(ctx, batch, st.balance, credit_entry_kind::charge, -credits, s.job_id);
  return commit_then<balance_record>(self, ctx, std::move(batch), st.balance);
}

caf::result<balance_record> credit(ledger_self self, const context& ctx, int64_t amount, std::string& reason) {
  auto& b = self->state.balance;
  if (amount < -max_credits || amount > max_credits || b.available + amount < 0 || b.available + amount > max_credits)
    return invalid_parameter("amount", "would take the available balance out of 0.." + std::to_string(max_credits));
  auto before = b.available;
  b.available += amount;
  persistence::write_batch batch;
  auto publish_low = balance_low_event(self, ctx, before, {}, batch); // an operator's adjustment
  ctx.tables->balances.put(batch, b.team_id, b);
  put_credit_entry(ctx, batch, b, credit_entry_kind::grant, amount, {}, std::move(reason));
  return commit_then<balance_record>(self, ctx, std::move(batch), b, std::move(publish_low));
}

caf::error not_refundable(const std::string& job_id, std::string_view state) {
  return make_domain_error(error_code::invalid_state, "id",
                           {{"kind", "job"}, {"id", job_id}, {"state", std::string{state}}, {"action", "refund"}});
}

// An operator gives back what a succeeded job was charged. The job's row
// (cost status `refunded`) commits with the balance and the entry, so a job is
// refunded at most once, also across a crash; `refunding` covers the commit.
caf::result<credit_entry_record> refund(ledger_self self, const context& ctx, const std::string& job_id,
                                        std::string& reason) {
  auto& st = self->state;
  if (st.refunding.count(job_id) != 0)
    return not_refundable(job_id, "refunded");
  auto job = ctx.tables->jobs.get(job_id);
  if (job.failed())
    return storage_failure("ledger", job.why());
  if (job.absent() || job->team_id != st.balance.team_id)
    return make_domain_error(error_code::resource_not_found, "id", {{"kind", "job"}, {"id", job_id}});
  if (job->status != job_status::succeeded)
    return not_refundable(job_id, schema::to_string(job->status));
  if (job->cost_status != hold_status::charged)
    return not_refundable(job_id, schema::to_string(job->cost_status));
  if (st.balance.available + job->credits > max_credits)
    return invalid_parameter("id", "the refund would take the available balance past " + std::to_string(max_credits));
  st.balance.available += job->credits;
  job->cost_status = hold_status::refunded;
  persistence::write_batch batch;
  // Only the job's row changes: its indexes and output expiry stay as they are.
  ctx.tables->jobs.put(batch, job->id, *job);
  ctx.tables->balances.put(batch, st.balance.team_id, st.balance);
  auto entry = put_credit_entry(ctx, batch, st.balance, credit_entry_kind::refund, job->credits, job_id,
                                std::move(reason));
  st.refunding.insert(job_id);
  return commit_then<credit_entry_record>(self, ctx, std::move(batch), std::move(entry),
                                          [self, job_id] { self->state.refunding.erase(job_id); });
}

} // namespace

std::string hold_key(const std::string& team_id, const std::string& job_id) { return team_id + "/" + job_id; }

std::string usage_key(const std::string& team_id, const std::string& date) { return team_id + "/" + date; }

ledger_actor::behavior_type ledger(ledger_self self, context ctx, std::string team_id) {
  log_exceptions(self, "ledger");
  // A ledger whose books cannot be read ends before its first message (which
  // fails, 503); the directory respawns it on next use. The behaviour below
  // is then never run.
  if (auto loaded = load(self, ctx, team_id); !loaded.ok())
    self->quit(storage_failure("ledger", "team " + team_id + ": " + loaded.message));
  else
    register_actor(self, ctx, "ledger", team_id, team_id);
  return {
    [=](admit_atom, admission& a) -> caf::result<admission_result> { return admit(self, ctx, a); },
    [=](settle_atom, settlement& s) -> caf::result<balance_record> { return settle(self, ctx, s); },
    [=](credit_atom, int64_t amount, std::string& reason) -> caf::result<balance_record> {
      return credit(self, ctx, amount, reason);
    },
    [=](refund_atom, const std::string& job_id, std::string& reason) -> caf::result<credit_entry_record> {
      return refund(self, ctx, job_id, reason);
    },
    [=](caf::get_atom) -> balance_record { return self->state.balance; },
    // Every change is committed as it is made: nothing to save but what is on its way.
    [=](release_atom) { quit_after_commit(self, ctx.store, {}, "ledger"); },
    crash_on_fault(),
    [=](describe_atom) -> actor_status {
      auto& st = self->state;
      return {"available=" + std::to_string(st.balance.available) + " held=" + std::to_string(st.balance.held)
                + " holds=" + std::to_string(st.holds.size()),
              mailbox_depth(self)};
    },
  };
}

} // namespace svc::actors
