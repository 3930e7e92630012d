#include "http/recent_errors.hpp"

#include <algorithm>

namespace svc::http {

recent_errors::recent_errors(std::size_t capacity) : capacity_{std::max<std::size_t>(capacity, 1)} {
  ring_.reserve(capacity_);
}

void recent_errors::add(error_answer a) {
  std::lock_guard lock{mutex_};
  if (ring_.size() < capacity_)
    ring_.push_back(std::move(a));
  else
    ring_[next_] = std::move(a);
  next_ = (next_ + 1) % capacity_;
}

std::vector<error_answer> recent_errors::newest_first() const {
  std::lock_guard lock{mutex_};
  std::vector<error_answer> out;
  out.reserve(ring_.size());
  // `next_` is one past the newest; walk backwards from there.
  for (std::size_t i = 1; i <= ring_.size(); ++i)
    out.push_back(ring_[(next_ + capacity_ - i) % capacity_]);
  return out;
}

} // namespace svc::http
