#include "http/rate_allowance.hpp"

#include "actors/bucket.hpp"

namespace svc::http {

rate_allowances::state& rate_allowances::at(const std::string& team_id, schema::bucket_class cls) {
  return states_[{team_id, cls}];
}

std::optional<actors::rate_decision> rate_allowances::take(const schema::team_record& team, schema::bucket_class cls,
                                                            uint64_t team_writes, int64_t now_ms) {
  std::lock_guard<std::mutex> guard{mutex_};
  auto it = states_.find({team.id, cls});
  if (it == states_.end())
    return std::nullopt;
  auto& s = it->second;
  if (s.asked > 0 && now_ms - s.asked_ms >= lost_after.count()) { // never to be answered: ask afresh
    s.asked = 0;
    s.copy.reset();
  }
  if (!s.copy || s.asked > 0 || s.team_writes != team_writes || now_ms - s.seeded_ms >= resync_after.count())
    return std::nullopt;
  auto before = *s.copy;
  auto r = s.copy->take(now_ms);
  if (!r.allowed) { // a refusal is the bucket's to give, with its Retry-After
    *s.copy = before;
    return std::nullopt;
  }
  ++s.uncharged;
  return actors::decision_of(cls, *s.copy, r);
}

int64_t rate_allowances::ask(const std::string& team_id, schema::bucket_class cls, int64_t now_ms) {
  std::lock_guard<std::mutex> guard{mutex_};
  auto& s = at(team_id, cls);
  ++s.asked;
  s.asked_ms = now_ms;
  auto n = s.uncharged;
  s.uncharged = 0;
  return n;
}

void rate_allowances::answered(const schema::team_record& team, schema::bucket_class cls, uint64_t team_writes,
                               const actors::rate_decision& d, int64_t now_ms) {
  std::lock_guard<std::mutex> guard{mutex_};
  auto& s = at(team.id, cls);
  if (s.asked > 0)
    --s.asked;
  // Only the last awaited verdict counts every take before it: nothing was
  // decided here while it was on its way.
  if (s.asked > 0)
    return;
  s.copy.emplace(actors::effective_limits(cls, team.rate_limit_overrides), static_cast<double>(d.remaining), now_ms);
  s.team_writes = team_writes;
  s.seeded_ms = now_ms;
}

std::vector<rate_allowances::charge> rate_allowances::uncharged() {
  std::vector<charge> out;
  std::lock_guard<std::mutex> guard{mutex_};
  for (auto& [key, s] : states_) {
    if (s.uncharged > 0)
      out.push_back({key.first, key.second, s.uncharged});
    s.uncharged = 0;
  }
  return out;
}

} // namespace svc::http
