#pragma once
// Answering a request only once the change it made is durable: the handler
// commits through the store and hands the caller a promise that is delivered
// after the fsync (or with the store's error).

#include <functional>
#include <utility>

#include "actors/messages.hpp"
#include "core/log.hpp"

namespace svc::actors {

/// Commits `batch`, then runs `after` and delivers `answer`; a failed commit
/// delivers the error instead. No timeout of its own: the local store always
/// answers (or is gone, which CAF reports), and the caller's request carries the deadline.
template <class T, class Self>
caf::result<T> reply_after_commit(Self* self, const store_actor& store, persistence::write_batch batch, T answer,
                                  std::function<void()> after = {}) {
  auto promise = self->template make_response_promise<T>();
  self->request(store, caf::infinite, commit_atom::value, std::move(batch))
    .then(
      [=](bool) mutable {
        if (after)
          after();
        promise.deliver(std::move(answer));
      },
      [=](caf::error& err) mutable { promise.deliver(std::move(err)); });
  return promise;
}

/// Commits `batch` without an answer to wait for; `after` runs once it is durable,
/// a failure is logged under `component`.
template <class Self>
void commit_quietly(Self* self, const store_actor& store, persistence::write_batch batch, std::string component,
                    std::function<void()> after = {}) {
  self->request(store, caf::infinite, commit_atom::value, std::move(batch))
    .then(
      [after](bool) {
        if (after)
          after();
      },
      [component](caf::error& err) { core::log_warn(component, "write failed: " + caf::to_string(err)); });
}

} // namespace svc::actors
