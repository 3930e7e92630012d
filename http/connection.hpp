#pragma once
// What a listener's tracker asks of a live connection, whatever carries its
// bytes: the sweep checks deadlines and expires, a drain finishes it.

#include <chrono>

namespace svc::http {

/// A live client connection as the tracker sees it; calls from any thread.
class connection {
public:
  virtual ~connection() = default;
  /// Stops reading; answers what is queued with `Connection: close`, then closes.
  virtual void drain() = 0;
  /// True if a read or write has outlived its deadline at `now`, or (when the
  /// server is `busy`) the wait for a request head its shorter one.
  virtual bool overdue(std::chrono::steady_clock::time_point now, bool busy) const = 0;
  /// Closes the connection because it was overdue.
  virtual void expire() = 0;
};

} // namespace svc::http
