#include "http/long_polls.hpp"

#include <utility>

namespace svc::http {

uint64_t long_polls::add(std::function<void()> answer_now) {
  std::lock_guard lock{mutex_};
  waiting_.emplace(++next_, std::move(answer_now));
  return next_;
}

void long_polls::remove(uint64_t ticket) {
  std::lock_guard lock{mutex_};
  waiting_.erase(ticket);
}

void long_polls::answer_all() {
  std::map<uint64_t, std::function<void()>> now;
  {
    std::lock_guard lock{mutex_};
    now.swap(waiting_);
  }
  for (auto& [ticket, answer] : now)
    answer();
}

} // namespace svc::http
