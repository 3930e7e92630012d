#include "actors/store.hpp"

#include "actors/supervision.hpp"
#include "core/log.hpp"

namespace svc::actors {
namespace {

using waiting_list = std::vector<store_state::waiting>;

// Commits `waiting` in one transaction and answers each writer.
void commit_together(store_actor::stateful_pointer<store_state> self, persistence::environment* env,
                     waiting_list waiting) {
  persistence::write_batch all;
  for (auto& w : waiting)
    all.append(std::move(w.batch));
  auto result = env->commit(all);
  ++self->state.commits;
  self->state.batches += waiting.size();
  if (!result.ok()) {
    core::log_error("store", "commit of " + std::to_string(waiting.size()) + " batches failed: " + result.message);
    for (auto& w : waiting)
      w.promise.deliver(make_domain_error(schema::error_code::internal_error));
    return;
  }
  for (auto& w : waiting)
    w.promise.deliver(true);
}

void flush(store_actor::stateful_pointer<store_state> self, persistence::environment* env, bool group_commit) {
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

} // namespace

store_actor::behavior_type store(store_actor::stateful_pointer<store_state> self, persistence::environment* env,
                                 bool group_commit) {
  log_exceptions(self, "store");
  // Whatever is still queued when the actor is told to stop is committed (and
  // answered) first, so a clean shutdown never drops a write in flight. This
  // runs while the state still exists, unlike an attached functor.
  self->set_exit_handler([self, env, group_commit](caf::exit_msg& msg) {
    flush(self, env, group_commit);
    self->quit(msg.reason);
  });
  return {
    [=](commit_atom, persistence::write_batch& batch) -> caf::result<bool> {
      auto promise = self->make_response_promise<bool>();
      self->state.pending.push_back({std::move(batch), promise});
      // Every commit already in the mailbox is handled before this flush, so
      // they all join one transaction.
      if (!self->state.flush_scheduled) {
        self->state.flush_scheduled = true;
        self->send(self, flush_atom::value);
      }
      return promise;
    },
    [=](flush_atom) { flush(self, env, group_commit); },
    crash_on_fault(),
    [=](describe_atom) -> actor_status {
      auto& st = self->state;
      return {"commits=" + std::to_string(st.commits) + " batches=" + std::to_string(st.batches)
                + " pending=" + std::to_string(st.pending.size()),
              self->mailbox().size()};
    },
  };
}

} // namespace svc::actors
