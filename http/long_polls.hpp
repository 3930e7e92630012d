#pragma once
// Requests waiting on a job (`Prefer: wait`), so a drain can answer them at
// once with the job as it is instead of holding the shutdown for their wait.

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>

namespace svc::http {

class long_polls {
public:
  /// Registers a waiting request with what answers it now; the ticket ends it.
  uint64_t add(std::function<void()> answer_now);
  /// The request was answered (its wait ended): forget it.
  void remove(uint64_t ticket);
  /// Answers every waiting request (each at most once) and forgets them.
  void answer_all();

private:
  std::mutex mutex_;
  uint64_t next_ = 0;
  std::map<uint64_t, std::function<void()>> waiting_;
};

} // namespace svc::http
