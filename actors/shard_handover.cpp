#include "actors/shard_handover.hpp"

#include <functional>
#include <memory>
#include <vector>

#include "actors/supervision.hpp"
#include "core/log.hpp"

namespace svc::actors {
namespace {

using shard_handover_self = shard_handover_actor::stateful_pointer<shard_handover_state>;

// One release or adoption under way: the parts' counts as they answer.
struct handover_round {
  caf::typed_response_promise<bool> promise;
  std::string what; ///< "released" or "adopted"
  core::shard_id shard = 0;
  std::chrono::steady_clock::time_point began = std::chrono::steady_clock::now();
  bool ok = true;
  std::string counts;
};
using round_ptr = std::shared_ptr<handover_round>;

// One part: asks an actor, notes its answer in the round, then runs `next`
// (after a failure too: the other parts still let go or resume).
using step = std::function<void(const round_ptr&, std::function<void()> next)>;

template <class Atom, class Handle>
step ask(shard_handover_self self, Handle handle, std::string part) {
  return [self, handle, part](const round_ptr& r, std::function<void()> next) {
    if (!handle)
      return next();
    self->request(handle, handover_step_timeout, Atom::value, r->shard)
      .then(
        [=](int64_t n) {
          r->counts += " " + part + "=" + std::to_string(n);
          next();
        },
        [=](caf::error& err) {
          core::log_error("shard_handover", "shard " + std::to_string(r->shard) + ": " + part + " failed: "
                                              + caf::to_string(err));
          r->ok = false;
          r->counts += " " + part + "=failed";
          next();
        });
  };
}

// A commit behind every write the released actors sent before they exited:
// the store answers it after theirs, so its answer means they are durable.
step store_round_trip(shard_handover_self self, store_actor store) {
  return [self, store](const round_ptr& r, std::function<void()> next) {
    self->request(store, handover_step_timeout, commit_atom::value, persistence::write_batch{})
      .then([=](bool) { next(); },
            [=](caf::error& err) {
              core::log_error("shard_handover", "shard " + std::to_string(r->shard)
                                                  + ": the store round trip failed: " + caf::to_string(err));
              r->ok = false;
              next();
            });
  };
}

void run(round_ptr r, std::shared_ptr<const std::vector<step>> steps, std::size_t i) {
  if (i < steps->size())
    return (*steps)[i](r, [r, steps, i] { run(r, steps, i + 1); });
  auto took = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - r->began);
  auto line = "shard " + std::to_string(r->shard) + " " + r->what + " in " + std::to_string(took.count()) + " ms:"
              + r->counts;
  if (r->ok)
    core::log_info("shard_handover", line);
  else
    core::log_error("shard_handover", line + " (a part failed)");
  r->promise.deliver(r->ok);
}

caf::result<bool> start(shard_handover_self self, std::string what, core::shard_id shard, std::vector<step> steps) {
  auto r = std::make_shared<handover_round>();
  r->promise = self->make_response_promise<bool>();
  r->what = std::move(what);
  r->shard = shard;
  run(r, std::make_shared<const std::vector<step>>(std::move(steps)), 0);
  return r->promise;
}

} // namespace

shard_handover_actor::behavior_type shard_handover(shard_handover_self self, context, handover_targets t) {
  log_exceptions(self, "shard_handover");
  return {
    // Jobs first: a job that was settling sent its ledger the settlement,
    // which the ledger commits before it takes its own release. Buckets save
    // their levels on the way out; the store round trip comes last.
    [=](release_atom, core::shard_id shard) {
      return start(self, "released", shard,
                   {ask<release_atom>(self, t.jobs, "job_actors"), ask<release_atom>(self, t.webhooks, "endpoints"),
                    ask<release_atom>(self, t.buckets, "buckets"), ask<release_atom>(self, t.ledgers, "ledgers"),
                    store_round_trip(self, t.store)});
    },
    [=](adopt_atom, core::shard_id shard) {
      return start(self, "adopted", shard,
                   {ask<adopt_atom>(self, t.jobs, "jobs"), ask<adopt_atom>(self, t.webhooks, "endpoints_and_events"),
                    ask<adopt_atom>(self, t.keyring, "key_grace_timers")});
    },
  };
}

} // namespace svc::actors
