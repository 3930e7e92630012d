#pragma once
// The last few 5xx answers, kept in memory for the operator console
// (`GET /admin/overview`): a bounded ring, filled where 5xx answers are
// logged, so an operator sees what just failed without reading logs.

#include <cstddef>
#include <mutex>
#include <string>
#include <vector>

#include "core/clock.hpp"

namespace svc::http {

/// One 5xx answer.
struct error_answer {
  core::time_point at;
  std::string request_id;
  std::string method;
  std::string route;    ///< the route template (`/v1/images/{id}`), never the raw path with its ids
  unsigned status = 0;
  std::string code;     ///< the catalogue code, or empty when the answer was not an error envelope
};

/// Threads: every member may be called from any thread.
class recent_errors {
public:
  /// Keeps the last `capacity` answers (at least one).
  explicit recent_errors(std::size_t capacity);

  /// Adds an answer, dropping the oldest when full.
  void add(error_answer a);

  /// The answers kept, newest first.
  std::vector<error_answer> newest_first() const;

private:
  mutable std::mutex mutex_;
  std::vector<error_answer> ring_; ///< grows to `capacity_`, then `next_` overwrites the oldest
  std::size_t capacity_;
  std::size_t next_ = 0;
};

} // namespace svc::http
