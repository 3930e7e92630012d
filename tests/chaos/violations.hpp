#pragma once
// The broken promises the campaign found: each printed the moment it is
// found (which check, which id, what was expected and what svcd showed), the
// first few of each check in full, and counted per check for the summary.
// Thread-safe: client threads report too.

#include <cstddef>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace svc::chaos {

/// One broken promise.
struct violation {
  int cycle = 0;        ///< the cycle whose checks (or load) found it
  std::string check;    ///< short name of the check, e.g. `acknowledged-job-exists`
  std::string subject;  ///< the id it concerns (job, file, endpoint, team, event)
  std::string detail;   ///< what was expected and what was found
};

class violations {
public:
  /// Violations of one check printed in full; the rest are only counted.
  static constexpr std::size_t shown_per_check = 20;

  /// Records one violation, and prints it unless its check has shown enough.
  void add(int cycle, std::string check, std::string subject, std::string detail);
  /// How many were found.
  std::size_t count() const;
  /// How many each check found.
  std::map<std::string, std::size_t> per_check() const;
  /// The violations printed in full.
  std::vector<violation> shown() const;

private:
  mutable std::mutex mutex_;
  std::vector<violation> shown_;
  std::map<std::string, std::size_t> per_check_;
  std::size_t count_ = 0;
};

} // namespace svc::chaos
