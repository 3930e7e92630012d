#include "http/slot_gate.hpp"

namespace svc::http {

slot_gate::slot slot_gate::try_enter(const std::string& holder, std::size_t limit, refusal& why) {
  std::lock_guard<std::mutex> guard{mutex_};
  why = refusal::none;
  if (in_flight_ >= limit)
    why = refusal::server_full;
  else if (auto it = per_holder_.find(holder); it != per_holder_.end() && it->second >= share(limit))
    why = refusal::share_used;
  if (why != refusal::none)
    return nullptr;
  ++in_flight_;
  ++per_holder_[holder];
  // No object to own: the deleter is the point (it runs once, with the last copy).
  return slot{static_cast<void*>(this), [this, holder](void*) { leave(holder); }};
}

std::size_t slot_gate::in_flight() const {
  std::lock_guard<std::mutex> guard{mutex_};
  return in_flight_;
}

void slot_gate::leave(const std::string& holder) {
  std::lock_guard<std::mutex> guard{mutex_};
  --in_flight_;
  if (auto it = per_holder_.find(holder); it != per_holder_.end() && --it->second == 0)
    per_holder_.erase(it);
}

} // namespace svc::http
