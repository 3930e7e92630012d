#pragma once
// How many answers of each HTTP status a run got, and how many requests got
// no answer at all (refused, reset, timed out).

#include <cstdint>
#include <map>
#include <string>

namespace svc::bench {

struct status_counts {
  std::map<unsigned, uint64_t> by_status; ///< HTTP status -> answers
  uint64_t errors = 0;                    ///< requests without an answer

  /// Counts one answer with `status`, or one error when `status` is 0.
  void add(unsigned status);
  /// Adds every count of `other`.
  void merge(const status_counts& other);
  /// Answers with `status`.
  uint64_t of(unsigned status) const;
  /// Answers of any status, plus errors.
  uint64_t total() const { return other_than(0); }
  /// Answers with any status but `status`, plus errors.
  uint64_t other_than(unsigned status) const;
  /// `201=1234 429=5, socket errors 0`.
  std::string to_text() const;
  /// `{"201":1234,"429":5}` (errors are reported beside it).
  std::string to_json() const;
};

} // namespace svc::bench
