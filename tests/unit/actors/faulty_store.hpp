#pragma once
// A store in front of the real one that fails every commit while its switch
// is on (a full disk, an I/O error): the writers' tests prove with it what a
// failed commit leaves behind. Commits pass through to the real store otherwise.

#include <atomic>
#include <memory>

#include "actors/messages.hpp"
#include "actors/supervision.hpp"

namespace svc::test {

/// The switch: while true, every commit fails.
using store_switch = std::shared_ptr<std::atomic<bool>>;

/// The faulty store whose failed commits answer `refusal`.
inline actors::store_actor::behavior_type refusing_store(actors::store_actor::pointer self, actors::store_actor real,
                                                         store_switch failing, caf::error refusal) {
  return {
    [=](actors::commit_atom, persistence::write_batch& batch) -> caf::result<bool> {
      if (*failing)
        return refusal;
      return self->delegate(real, actors::commit_atom::value, std::move(batch));
    },
    [=](actors::chained_commit_atom, persistence::write_batch& batch) -> caf::result<bool> {
      if (*failing)
        return refusal;
      return self->delegate(real, actors::chained_commit_atom::value, std::move(batch));
    },
    // Delegated, so the real store sees the writer whose chain resumes.
    [=](actors::chain_resume_atom) { self->delegate(real, actors::chain_resume_atom::value); },
    [](actors::flush_atom) {},
    actors::crash_on_fault(),
    [](actors::describe_atom) -> actors::actor_status { return {"faulty store", 0}; },
  };
}

/// The faulty store whose failed commits answer an I/O-like error.
inline actors::store_actor::behavior_type faulty_store(actors::store_actor::pointer self, actors::store_actor real,
                                                       store_switch failing) {
  return refusing_store(self, std::move(real), std::move(failing),
                        caf::make_error(caf::sec::runtime_error, "commit failed (test switch)"));
}

} // namespace svc::test
