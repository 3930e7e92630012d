#include "actors/job_queue.hpp"

namespace svc::actors {

bool job_queue::push(const std::string& id) {
  if (!waiting_.insert(id).second)
    return false;
  order_.push_back(id);
  return true;
}

bool job_queue::push_front(const std::string& id) {
  if (!waiting_.insert(id).second)
    return false;
  order_.push_front(id);
  return true;
}

bool job_queue::erase(const std::string& id) {
  if (waiting_.erase(id) == 0)
    return false;
  if (waiting_.empty()) // nothing left to skip lazily
    order_.clear();
  return true;
}

std::optional<std::string> job_queue::pop() {
  while (!order_.empty()) {
    auto id = std::move(order_.front());
    order_.pop_front();
    if (waiting_.erase(id) != 0)
      return id;
  }
  return std::nullopt;
}

} // namespace svc::actors
