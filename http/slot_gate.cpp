#include "http/slot_gate.hpp"

namespace svc::http {

slot_gate::slot slot_gate::try_enter(const std::string& holder, std::size_t limit, refusal& why) {
  auto& c = *counts_;
  std::lock_guard<std::mutex> guard{c.mutex};
  why = refusal::none;
  if (c.in_flight >= limit)
    why = refusal::server_full;
  else if (auto it = c.per_holder.find(holder); it != c.per_holder.end() && it->second >= share(limit))
    why = refusal::share_used;
  if (why != refusal::none)
    return nullptr;
  ++c.in_flight;
  ++c.per_holder[holder];
  // No object to own: the deleter is the point (it runs once, with the last copy).
  return slot{static_cast<void*>(counts_.get()), [counts = counts_, holder](void*) { counts->leave(holder); }};
}

std::size_t slot_gate::in_flight() const {
  std::lock_guard<std::mutex> guard{counts_->mutex};
  return counts_->in_flight;
}

void slot_gate::counts::leave(const std::string& holder) {
  std::lock_guard<std::mutex> guard{mutex};
  --in_flight;
  if (auto it = per_holder.find(holder); it != per_holder.end() && --it->second == 0)
    per_holder.erase(it);
}

} // namespace svc::http
