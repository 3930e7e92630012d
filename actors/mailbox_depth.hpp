#pragma once
// How many messages wait for an actor, for its `describe_atom` answer.

#include <cstddef>

namespace svc::actors {

/// The messages already moved into `self`'s mailbox queue and not yet
/// handled; those that arrived during its current round are counted from its
/// next. Not `mailbox().size()`: that first moves new arrivals in, which on
/// an empty queue downcasts CAF 0.17's sentinel node (task_queue::back) in
/// code inlined into ours, and UBSan reports it.
template <class Self>
std::size_t mailbox_depth(Self* self) {
  return static_cast<std::size_t>(self->mailbox().queue().total_task_size());
}

} // namespace svc::actors
