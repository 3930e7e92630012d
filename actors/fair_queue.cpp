#include "actors/fair_queue.hpp"

#include <algorithm>

namespace svc::actors {

bool fair_queue::push(queued_job j) { return add(std::move(j), false); }

bool fair_queue::push_front(queued_job j) { return add(std::move(j), true); }

bool fair_queue::add(queued_job j, bool front) {
  ++version_;
  if (waiting_.count(j.id) != 0)
    return false;
  auto seq = front ? next_front_-- : next_back_++;
  auto& t = teams_[j.team];
  auto& q = t.models[j.model];
  entry e{j.id, std::max(j.cost, 0.0), seq, j.since};
  if (front)
    q.push_front(std::move(e));
  else
    q.push_back(std::move(e));
  waiting_.emplace(std::move(j.id), where{std::move(j.team), std::move(j.model), seq});
  return true;
}

bool fair_queue::erase(const std::string& id) {
  ++version_;
  auto it = waiting_.find(id);
  if (it == waiting_.end())
    return false;
  auto team = it->second.team;
  waiting_.erase(it); // its entry is dropped when it reaches its queue's head
  if (auto t = teams_.find(team); t != teams_.end()) {
    for (auto m = t->second.models.begin(); m != t->second.models.end();) {
      head(t->second, m->first);
      m = m->second.empty() ? t->second.models.erase(m) : std::next(m);
    }
  }
  forget_if_idle(team);
  return true;
}

std::vector<std::string> fair_queue::ids() const {
  std::vector<std::string> out;
  out.reserve(waiting_.size());
  for (auto& [id, w] : waiting_)
    out.push_back(id);
  return out;
}

bool fair_queue::set_share(const std::string& team, team_share share) {
  ++version_;
  if (!(share.weight > 0) || share.max_concurrent < 0)
    return false;
  shares_[team] = share;
  return true;
}

team_share fair_queue::share_of(const std::string& team) const {
  auto it = shares_.find(team);
  return it == shares_.end() ? team_share{} : it->second;
}

const fair_queue::entry* fair_queue::head(team_state& t, const std::string& model) {
  auto m = t.models.find(model);
  if (m == t.models.end())
    return nullptr;
  auto& q = m->second;
  while (!q.empty()) {
    auto w = waiting_.find(q.front().id);
    if (w != waiting_.end() && w->second.seq == q.front().seq)
      return &q.front();
    q.pop_front(); // erased, or pushed again since with a new place
  }
  return nullptr;
}

std::optional<queued_job> fair_queue::pop(const std::function<bool(const std::string& model)>& runnable) {
  ++version_;
  struct choice {
    const std::string* team = nullptr;
    const std::string* model = nullptr;
    double start = 0;
    std::uint64_t seq = 0;
  } best;
  for (auto& [name, t] : teams_) {
    auto share = share_of(name);
    if (share.max_concurrent > 0 && t.running >= share.max_concurrent)
      continue;
    double start = std::max(virtual_time_, t.finish);
    for (auto& [model, q] : t.models) {
      auto* e = head(t, model);
      if (!e || !runnable(model))
        continue;
      if (!best.team || start < best.start || (start == best.start && e->seq < best.seq))
        best = {&name, &model, start, e->seq};
    }
  }
  if (!best.team)
    return std::nullopt;
  auto team = *best.team;
  auto model = *best.model;
  auto& t = teams_[team];
  auto& q = t.models[model];
  auto e = std::move(q.front());
  q.pop_front();
  if (q.empty())
    t.models.erase(model);
  waiting_.erase(e.id);
  ++t.running;
  t.finish = best.start + e.cost / share_of(team).weight;
  virtual_time_ = best.start;
  return queued_job{std::move(e.id), std::move(team), std::move(model), e.cost, e.since};
}

void fair_queue::finished(const std::string& team, double estimated, double actual) {
  ++version_;
  auto it = teams_.find(team);
  if (it == teams_.end())
    return;
  auto& t = it->second;
  if (t.running > 0)
    --t.running;
  t.finish += (std::max(actual, 0.0) - std::max(estimated, 0.0)) / share_of(team).weight;
  forget_if_idle(team);
}

int fair_queue::running(const std::string& team) const {
  auto it = teams_.find(team);
  return it == teams_.end() ? 0 : it->second.running;
}

void fair_queue::forget_if_idle(const std::string& team) {
  auto it = teams_.find(team);
  // A tag ahead of V is kept: a team that leaves and comes back must not skip its debt.
  if (it != teams_.end() && it->second.models.empty() && it->second.running == 0 && it->second.finish <= virtual_time_)
    teams_.erase(it);
}

std::unordered_map<std::string, fair_queue::place> fair_queue::places() const {
  // Each waiting job's start tag if its team's jobs ran in their order from
  // now on: the team's tag plus the costs ahead of it, over its weight.
  struct tagged {
    double start;
    std::uint64_t seq;
    const entry* job;
  };
  std::vector<tagged> all;
  all.reserve(waiting_.size());
  for (auto& [name, t] : teams_) {
    std::vector<const entry*> live;
    for (auto& [model, q] : t.models)
      for (auto& e : q)
        if (auto w = waiting_.find(e.id); w != waiting_.end() && w->second.seq == e.seq)
          live.push_back(&e);
    std::sort(live.begin(), live.end(), [](const entry* a, const entry* b) { return a->seq < b->seq; });
    double start = std::max(virtual_time_, t.finish);
    double weight = share_of(name).weight;
    for (auto* e : live) {
      all.push_back({start, e->seq, e});
      start += e->cost / weight;
    }
  }
  std::sort(all.begin(), all.end(),
            [](const tagged& a, const tagged& b) { return a.start < b.start || (a.start == b.start && a.seq < b.seq); });
  std::unordered_map<std::string, place> out;
  out.reserve(all.size());
  place next;
  for (auto& x : all) {
    out.emplace(x.job->id, next);
    ++next.ahead;
    next.seconds_ahead += x.job->cost;
  }
  return out;
}

} // namespace svc::actors
