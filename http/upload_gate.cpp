#include "http/upload_gate.hpp"

namespace svc::http {

upload_gate::slot upload_gate::try_enter(const std::string& team_id, std::size_t limit, refusal& why) {
  std::lock_guard<std::mutex> guard{mutex_};
  why = refusal::none;
  if (in_flight_ >= limit)
    why = refusal::server_full;
  else if (auto it = per_team_.find(team_id); it != per_team_.end() && it->second >= team_share(limit))
    why = refusal::team_share_used;
  if (why != refusal::none)
    return nullptr;
  ++in_flight_;
  ++per_team_[team_id];
  // No object to own: the deleter is the point (it runs once, with the last copy).
  return slot{static_cast<void*>(this), [this, team_id](void*) { leave(team_id); }};
}

std::size_t upload_gate::in_flight() const {
  std::lock_guard<std::mutex> guard{mutex_};
  return in_flight_;
}

void upload_gate::leave(const std::string& team_id) {
  std::lock_guard<std::mutex> guard{mutex_};
  --in_flight_;
  if (auto it = per_team_.find(team_id); it != per_team_.end() && --it->second == 0)
    per_team_.erase(it);
}

} // namespace svc::http
