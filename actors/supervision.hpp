#pragma once
// How a directory keeps its children, and how any actor fails loudly.
//
// Children (jobs, endpoints, ledgers, buckets) are monitored by their
// directory, not linked: a child that dies (an exception, say) reaches the
// directory's down handler, which repairs what the child owned, and never
// takes the directory or its other children down. The other way round, a
// child must not outlive its directory: the directory is respawned and
// recovers its children from LMDB, and a survivor of the old incarnation
// would then run twice. `adopt` gives the child that one-way link.

#include <stdexcept>
#include <string>

#include <caf/all.hpp>
#include <caf/default_attachable.hpp>

#include "actors/messages.hpp"
#include "core/log.hpp"

namespace svc::actors {

/// What a `fault_atom` throws: tests prove supervision with it.
struct injected_fault : std::runtime_error {
  injected_fault() : std::runtime_error{"fault injected by the operator (--fault-injection)"} {}
};

/// The `fault_atom` handler every introspectable actor lists. The registry
/// only sends the atom when an operator asks through `POST /admin/faults`,
/// which exists only under `--fault-injection`.
inline auto crash_on_fault() {
  return [](fault_atom) { throw injected_fault{}; };
}

/// Makes `self` log an exception that escapes a handler (with its text)
/// before it exits with `unhandled_exception`, which its supervisor sees.
template <class Self>
void log_exceptions(Self* self, std::string component) {
  self->set_exception_handler([component = std::move(component)](std::exception_ptr& eptr) -> caf::error {
    try {
      std::rethrow_exception(eptr);
    } catch (const std::exception& e) {
      core::log_error(component, std::string{"died of an exception: "} + e.what());
    } catch (...) {
      core::log_error(component, "died of an exception of unknown type");
    }
    return caf::exit_reason::unhandled_exception;
  });
}

/// Monitors `child` and makes it exit (with the same reason) when `self`
/// exits. Call `release` from the down handler when the child is gone.
template <class Self, class Handle>
void adopt(Self* self, const Handle& child) {
  self->monitor(child);
  self->attach(caf::default_attachable::make_link(self->address(), child.address()));
}

/// Drops the exit hook `adopt` left for a child that is gone, so a
/// directory's hooks do not grow with every child it ever had.
template <class Self>
void release(Self* self, const caf::actor_addr& child) {
  caf::default_attachable::observe_token token{child, caf::default_attachable::link};
  self->detach(caf::attachable::token{caf::default_attachable::observe_token::token_type, &token});
}

/// Erases the entry of `children` (key -> handle) whose actor is `addr`;
/// whether there was one.
template <class Map>
bool erase_child(Map& children, const caf::actor_addr& addr) {
  for (auto it = children.begin(); it != children.end(); ++it)
    if (it->second.address() == addr) {
      children.erase(it);
      return true;
    }
  return false;
}

/// Forwards the message `xs...` to `child` (found or spawned for it by a
/// directory), or answers why there is none.
template <class Result, class Self, class Child, class... Ts>
caf::result<Result> delegate_to(Self* self, caf::expected<Child> child, Ts&&... xs) {
  if (!child)
    return std::move(child.error());
  return self->delegate(*child, std::forward<Ts>(xs)...);
}

/// Whether `read`, of the record a dead child's successor starts from, failed.
/// If so, says so in the log (`what`: the successor that waits) and makes
/// `self` try again in a second (`Retry` with the child's `id`: `respawn_atom`
/// where a successor starts, `job_died_atom` where the dead child's job fails).
template <class Retry, class Self, class Read>
bool retry_later_if_failed(Self* self, const Read& read, const std::string& id, const std::string& component,
                           const std::string& what) {
  if (!read.failed())
    return false;
  core::log_error(component, what + ", the store failed: " + read.why());
  self->delayed_send(self, std::chrono::seconds{1}, Retry::value, id);
  return true;
}

/// Whether a child's exit reason means it died rather than ended its work.
inline bool died(const caf::error& reason) {
  return reason && reason != caf::exit_reason::user_shutdown;
}

} // namespace svc::actors
