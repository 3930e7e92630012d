#include "actors/store.hpp"

#include <algorithm>
#include <cstdio>

#include "actors/mailbox_depth.hpp"
#include "actors/supervision.hpp"
#include "core/byte_size.hpp"
#include "core/log.hpp"
#include "core/metric_catalogue.hpp"

namespace svc::actors {
namespace {

using store_self = store_actor::stateful_pointer<store_state>;
using waiting_list = std::vector<store_state::waiting>;

// A full store says so once a minute (with how many writes it refused), not once per write.
constexpr auto refusal_log_interval = std::chrono::minutes{1};

std::string percent(double ratio) {
  char text[16];
  std::snprintf(text, sizeof text, "%.1f%%", ratio * 100);
  return text;
}

// Warns when use crosses the warning level, once per crossing.
void watch_use(store_self self, persistence::environment* env) {
  auto& st = self->state;
  auto use = env->usage();
  auto ratio = use.ratio();
  if (!st.above_warning_level && ratio >= store_warning_ratio) {
    st.above_warning_level = true;
    ++st.use_warnings;
    core::log_warn("store", "the store uses " + percent(ratio) + " of its map (" + core::human_bytes(use.used_bytes)
                              + " of " + core::human_bytes(use.map_bytes)
                              + "); writes that grow it are refused (507) past "
                              + core::human_bytes(use.map_bytes - use.reserve_bytes)
                              + ": raise --map-size and restart, or free room (see docs/failure-and-recovery.md)");
  } else if (st.above_warning_level && ratio < store_rearm_ratio) {
    st.above_warning_level = false;
    core::log_info("store", "the store uses " + percent(ratio) + " of its map again");
  }
}

// One LMDB transaction holding `batches` writers' batches, timed (fsync included) for /metrics.
persistence::status timed_commit(persistence::environment* env, const persistence::write_batch& batch,
                                 std::size_t batches) {
  auto began = std::chrono::steady_clock::now();
  auto result = env->commit(batch);
  auto& m = core::metrics::svc();
  m.store_commit_seconds.get().observe(std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count());
  m.store_commit_batches.get().observe(static_cast<double>(batches));
  return result;
}

// The error a writer gets for a failed commit: 507 when room is what is
// missing (the same write may work later), else 500. Lack of room is logged
// at most once a minute; every other failure at once.
caf::error commit_error(store_self self, const persistence::status& result, std::size_t batches) {
  auto& st = self->state;
  if (!result.out_of_room) {
    core::log_error("store", "commit of " + std::to_string(batches) + " batches failed: " + result.message);
    return make_domain_error(schema::error_code::internal_error);
  }
  st.refused += batches;
  st.unlogged_refusals += batches;
  auto now = self->clock().now();
  if (!st.refusal_logged_at || now - *st.refusal_logged_at >= refusal_log_interval) {
    core::log_warn("store", "out of room, " + std::to_string(st.unlogged_refusals)
                              + " writes refused with insufficient_storage: " + result.message);
    st.refusal_logged_at = now;
    st.unlogged_refusals = 0;
  }
  return make_domain_error(schema::error_code::insufficient_storage);
}

// Remembers that `writer`'s chained batch failed with `err`, so that its
// later chained batches, which build on it, fail the same way.
void break_chain(store_self self, const caf::actor_addr& writer, const caf::error& err) {
  if (self->state.broken_chains.emplace(writer, err).second)
    self->monitor(writer);
}

// The error a chained batch of `writer` gets because an earlier one failed; none if its chain holds.
const caf::error* broken_chain_of(store_self self, const caf::actor_addr& writer) {
  auto it = self->state.broken_chains.find(writer);
  return it == self->state.broken_chains.end() ? nullptr : &it->second;
}

// Commits each batch in its own transaction, in order, after their group
// failed: one writer's bad or too large batch must not fail the others. A
// writer's later batch may build on its earlier one (a ledger writes whole
// balance rows), so once one of its batches failed, its later ones fail too;
// for a chained writer also those of later flushes, until it resumes.
void commit_each(store_self self, persistence::environment* env, waiting_list waiting) {
  auto& st = self->state;
  std::vector<std::pair<caf::actor_addr, caf::error>> failed;
  for (auto& w : waiting) {
    auto earlier = std::find_if(failed.begin(), failed.end(), [&](auto& f) { return f.first == w.writer; });
    if (earlier != failed.end()) {
      w.promise.deliver(earlier->second);
      continue;
    }
    if (auto broken = w.chained ? broken_chain_of(self, w.writer) : nullptr) {
      w.promise.deliver(*broken);
      continue;
    }
    auto result = timed_commit(env, w.batch, 1);
    ++st.commits;
    if (result.ok()) {
      ++st.batches;
      w.promise.deliver(true);
      continue;
    }
    auto err = commit_error(self, result, 1);
    failed.emplace_back(w.writer, err);
    if (w.chained)
      break_chain(self, w.writer, err);
    w.promise.deliver(std::move(err));
  }
  watch_use(self, env);
}

// Commits `waiting` in one transaction and answers each writer.
void commit_together(store_self self, persistence::environment* env, waiting_list waiting) {
  auto& st = self->state;
  if (waiting.size() > 1) {
    persistence::write_batch all;
    for (auto& w : waiting)
      all.append(w.batch);
    auto result = timed_commit(env, all, waiting.size());
    ++st.commits;
    if (!result.ok()) {
      core::log_info("store", "a group of " + std::to_string(waiting.size())
                                + " batches failed, committing them one by one: " + result.message);
      return commit_each(self, env, std::move(waiting));
    }
    st.batches += waiting.size();
    for (auto& w : waiting)
      w.promise.deliver(true);
    watch_use(self, env);
    return;
  }
  commit_each(self, env, std::move(waiting));
}

void flush(store_self self, persistence::environment* env, bool group_commit) {
  auto& st = self->state;
  st.flush_scheduled = false;
  if (st.pending.empty())
    return;
  auto waiting = std::move(st.pending);
  st.pending.clear();
  if (group_commit) {
    commit_together(self, env, std::move(waiting));
    return;
  }
  for (auto& w : waiting) {
    waiting_list one;
    one.push_back(std::move(w));
    commit_together(self, env, std::move(one));
  }
}

// Queues `batch` for the next flush and answers once it committed or failed.
caf::result<bool> enqueue(store_self self, persistence::write_batch batch, bool chained) {
  // Read before the promise takes the sender over.
  auto writer = caf::actor_cast<caf::actor_addr>(self->current_sender());
  auto promise = self->make_response_promise<bool>();
  self->state.pending.push_back({std::move(batch), promise, std::move(writer), chained});
  // Every commit already in the mailbox is handled before this flush, so
  // they all join one transaction.
  if (!self->state.flush_scheduled) {
    self->state.flush_scheduled = true;
    self->send(self, flush_atom::value);
  }
  return promise;
}

} // namespace

store_actor::behavior_type store(store_self self, persistence::environment* env, bool group_commit) {
  log_exceptions(self, "store");
  // Whatever is still queued when the actor is told to stop is committed (and
  // answered) first, so a clean shutdown never drops a write in flight. This
  // runs while the state still exists, unlike an attached functor.
  self->set_exit_handler([self, env, group_commit](caf::exit_msg& msg) {
    flush(self, env, group_commit);
    self->quit(msg.reason);
  });
  // A writer that ended with its chain broken sends no resume.
  self->set_down_handler([self](caf::down_msg& msg) { self->state.broken_chains.erase(msg.source); });
  watch_use(self, env); // a store already nearly full says so at start
  return {
    [=](commit_atom, persistence::write_batch& batch) -> caf::result<bool> {
      return enqueue(self, std::move(batch), false);
    },
    [=](chained_commit_atom, persistence::write_batch& batch) -> caf::result<bool> {
      if (auto broken = broken_chain_of(self, caf::actor_cast<caf::actor_addr>(self->current_sender())))
        return *broken;
      return enqueue(self, std::move(batch), true);
    },
    [=](chain_resume_atom) {
      auto writer = caf::actor_cast<caf::actor_addr>(self->current_sender());
      if (self->state.broken_chains.erase(writer) != 0)
        self->demonitor(writer);
    },
    [=](flush_atom) { flush(self, env, group_commit); },
    crash_on_fault(),
    [=](describe_atom) -> actor_status {
      auto& st = self->state;
      return {"commits=" + std::to_string(st.commits) + " batches=" + std::to_string(st.batches)
                + " pending=" + std::to_string(st.pending.size())
                + (st.refused ? " refused=" + std::to_string(st.refused) : "")
                + (st.broken_chains.empty() ? "" : " broken_chains=" + std::to_string(st.broken_chains.size())),
              mailbox_depth(self)};
    },
  };
}

} // namespace svc::actors
