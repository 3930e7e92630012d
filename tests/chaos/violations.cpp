#include "violations.hpp"

#include <iostream>

namespace svc::chaos {

void violations::add(int cycle, std::string check, std::string subject, std::string detail) {
  std::lock_guard lock(mutex_);
  ++count_;
  if (++per_check_[check] > shown_per_check)
    return;
  std::cerr << "VIOLATION (cycle " << cycle << ") " << check << " " << subject << ": " << detail << std::endl;
  shown_.push_back({cycle, std::move(check), std::move(subject), std::move(detail)});
}

std::size_t violations::count() const {
  std::lock_guard lock(mutex_);
  return count_;
}

std::map<std::string, std::size_t> violations::per_check() const {
  std::lock_guard lock(mutex_);
  return per_check_;
}

std::vector<violation> violations::shown() const {
  std::lock_guard lock(mutex_);
  return shown_;
}

} // namespace svc::chaos
