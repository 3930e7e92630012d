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

inline actors::store_actor::behavior_type faulty_store(actors::store_actor::pointer self, actors::store_actor real,
                                                       store_switch failing) {
  return {
    [=](actors::commit_atom, persistence::write_batch& batch) -> caf::result<bool> {
      if (*failing)
        return caf::make_error(caf::sec::runtime_error, "commit failed (test switch)");
      return self->delegate(real, actors::commit_atom::value, std::move(batch));
    },
    [](actors::flush_atom) {},
    actors::crash_on_fault(),
    [](actors::describe_atom) -> actors::actor_status { return {"faulty store", 0}; },
  };
}

} // namespace svc::test
