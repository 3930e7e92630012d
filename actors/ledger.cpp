#include "actors/ledger.hpp"

#include <functional>
#include <limits>

#include "core/log.hpp"

namespace svc::actors {
namespace {

using self_ptr = ledger_actor::stateful_pointer<ledger_state>;
using schema::balance_record;
using schema::error_code;
using schema::hold_record;
using schema::hold_status;

caf::error invalid(std::string param, std::string detail) {
  return make_domain_error(error_code::invalid_parameter, std::move(param), {{"detail", std::move(detail)}});
}

caf::error no_hold(const std::string& job_id) {
  return make_domain_error(error_code::resource_not_found, "job_id", {{"kind", "hold"}, {"id", job_id}});
}

// Commits `batch`, then applies the change to the state and answers with what
// `apply` returns. Awaiting the store serialises this actor's changes, so the
// in-memory state is always what LMDB holds and concurrent holds never overdraw.
template <class T>
caf::result<T> commit_then(self_ptr self, const context& ctx, persistence::write_batch batch,
                           std::function<T()> apply) {
  auto promise = self->make_response_promise<T>();
  self->request(ctx.store, ctx.cfg->request_deadline, commit_atom::value, std::move(batch))
    .await(
      [=](bool) mutable {
        ++self->state.changes;
        promise.deliver(apply());
      },
      [=](caf::error& err) mutable {
        // The commit may still land (a slow store) or not at all: memory can no
        // longer be trusted. Quit normally; the directory respawns this ledger
        // from LMDB on its next use.
        core::log_error("ledger", "commit for team " + self->state.balance.team_id
                                    + " failed: " + caf::to_string(err) + "; reloading");
        promise.deliver(std::move(err));
        self->quit();
      });
  return promise;
}

void load(self_ptr self, const context& ctx, const std::string& team_id) {
  auto& st = self->state;
  st.balance = ctx.tables->balances.get(team_id).value_or(balance_record{team_id, 0, 0});
  bool more = false;
  persistence::scan_range range;
  range.prefix = team_id + "/";
  int64_t held = 0;
  for (auto& h : ctx.tables->holds.page(range, std::numeric_limits<std::size_t>::max(), more)) {
    if (h.status != hold_status::held)
      continue;
    held += h.credits;
    st.holds.emplace(h.job_id, std::move(h));
  }
  if (held != st.balance.held)
    core::log_warn("ledger", "team " + team_id + ": balance says held=" + std::to_string(st.balance.held)
                               + " but open holds sum to " + std::to_string(held));
}

// Charges or refunds a job's hold exactly once; anything else answers the hold as it is.
caf::result<hold_record> settle(self_ptr self, const context& ctx, const std::string& job_id, hold_status to) {
  auto& st = self->state;
  auto it = st.holds.find(job_id);
  if (it == st.holds.end()) {
    auto stored = ctx.tables->holds.get(hold_key(st.balance.team_id, job_id));
    if (!stored)
      return no_hold(job_id);
    if (stored->status != to)
      core::log_warn("ledger", "team " + st.balance.team_id + ": " + (to == hold_status::charged ? "charge" : "refund")
                                 + " of job " + job_id + " ignored, its hold is already "
                                 + std::string{schema::to_string(stored->status)});
    return *stored;
  }
  auto hold = it->second;
  hold.status = to;
  hold.updated_at = ctx.clock->now();
  auto next = st.balance;
  next.held -= hold.credits;
  if (to == hold_status::refunded)
    next.available += hold.credits;
  persistence::write_batch batch;
  ctx.tables->balances.put(batch, next.team_id, next);
  ctx.tables->holds.put(batch, hold_key(next.team_id, job_id), hold);
  return commit_then<hold_record>(self, ctx, std::move(batch), [self, next, hold] {
    self->state.balance = next;
    self->state.holds.erase(hold.job_id);
    return hold;
  });
}

} // namespace

std::string hold_key(const std::string& team_id, const std::string& job_id) { return team_id + "/" + job_id; }

ledger_actor::behavior_type ledger(self_ptr self, context ctx, std::string team_id) {
  load(self, ctx, team_id);
  register_actor(self, ctx, "ledger", team_id, team_id);
  return {
    [=](hold_atom, const std::string& job_id, int64_t credits) -> caf::result<balance_record> {
      auto& st = self->state;
      if (job_id.empty() || job_id.size() > 255 || job_id.find('/') != std::string::npos)
        return invalid("job_id", "must be 1 to 255 characters without '/'");
      if (credits < 0 || credits > max_credits)
        return invalid("credits", "must be between 0 and " + std::to_string(max_credits));
      // A job holds once: a repeat (a retried create, a replay after restart) changes nothing.
      if (st.holds.count(job_id) != 0 || ctx.tables->holds.get(hold_key(st.balance.team_id, job_id)))
        return st.balance;
      if (credits > st.balance.available)
        return make_domain_error(error_code::insufficient_credits, "",
                                 {{"required", std::to_string(credits)},
                                  {"available", std::to_string(st.balance.available)}});
      hold_record hold{st.balance.team_id, job_id, credits, hold_status::held, ctx.clock->now()};
      auto next = st.balance;
      next.available -= credits;
      next.held += credits;
      persistence::write_batch batch;
      ctx.tables->balances.put(batch, next.team_id, next);
      ctx.tables->holds.put(batch, hold_key(next.team_id, job_id), hold);
      return commit_then<balance_record>(self, ctx, std::move(batch), [self, next, hold] {
        self->state.balance = next;
        self->state.holds[hold.job_id] = hold;
        return next;
      });
    },
    [=](charge_atom, const std::string& job_id) -> caf::result<hold_record> {
      return settle(self, ctx, job_id, hold_status::charged);
    },
    [=](refund_atom, const std::string& job_id) -> caf::result<hold_record> {
      return settle(self, ctx, job_id, hold_status::refunded);
    },
    [=](credit_atom, int64_t amount) -> caf::result<balance_record> {
      auto next = self->state.balance;
      if (amount < -max_credits || amount > max_credits || next.available + amount < 0
          || next.available + amount > max_credits)
        return invalid("amount", "would take the available balance out of 0.." + std::to_string(max_credits));
      next.available += amount;
      persistence::write_batch batch;
      ctx.tables->balances.put(batch, next.team_id, next);
      return commit_then<balance_record>(self, ctx, std::move(batch), [self, next] {
        self->state.balance = next;
        return next;
      });
    },
    [=](caf::get_atom) -> balance_record { return self->state.balance; },
    [=](describe_atom) -> actor_status {
      auto& st = self->state;
      return {"available=" + std::to_string(st.balance.available) + " held=" + std::to_string(st.balance.held)
                + " holds=" + std::to_string(st.holds.size()),
              self->mailbox().size()};
    },
  };
}

} // namespace svc::actors
