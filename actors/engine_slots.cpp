#include "actors/engine_slots.hpp"

#include <algorithm>
#include <utility>

#include "core/metric_catalogue.hpp"

namespace svc::actors {

namespace {

std::string label_of(const std::string& engine) { return engine.empty() ? "local" : engine; }

} // namespace

engine_slots::engine_slots(std::vector<providers::engine_capacity> engines, int local_slots) {
  if (engines.empty())
    engines_.push_back({{"", std::max(local_slots, 1), {}, "local", ""}});
  for (auto& e : engines)
    engines_.push_back({std::move(e)});
  for (auto& e : engines_)
    publish(e);
}

void engine_slots::publish(const engine& e) {
  auto& m = core::metrics::svc();
  m.engine_slots.with({label_of(e.spec.name)}).set(e.leaving ? 0 : e.spec.slots);
  m.engine_slots_busy.with({label_of(e.spec.name)}).set(e.busy);
}

bool engine_slots::engine::serves(const std::string& model) const {
  // The local engine renders every model; a catalogue engine those it names.
  return spec.name.empty() || std::find(spec.models.begin(), spec.models.end(), model) != spec.models.end();
}

engine_slots::engine* engine_slots::find(const std::string& name) {
  for (auto& e : engines_)
    if (e.spec.name == name)
      return &e;
  return nullptr;
}

bool engine_slots::serves(const std::string& model) const {
  return std::any_of(engines_.begin(), engines_.end(), [&](const engine& e) { return !e.leaving && e.serves(model); });
}

std::optional<std::size_t> engine_slots::least_loaded(const std::string& model,
                                                      const std::vector<std::string>* skipped) const {
  std::optional<std::size_t> best;
  for (std::size_t i = 0; i < engines_.size(); ++i) {
    auto& e = engines_[i];
    if (skipped && std::find(skipped->begin(), skipped->end(), e.spec.name) != skipped->end())
      continue;
    if (e.takes_work() && e.serves(model) && e.busy < e.spec.slots &&
        (!best || e.busy * engines_[*best].spec.slots < engines_[*best].busy * e.spec.slots))
      best = i;
  }
  return best;
}

bool engine_slots::can_place(const std::string& model) const { return least_loaded(model).has_value(); }

std::optional<std::string> engine_slots::take(const std::string& model, const std::vector<std::string>& failed_on) {
  // An engine a render failed on only when no other is free (it may be back).
  auto best = failed_on.empty() ? std::nullopt : least_loaded(model, &failed_on);
  if (!best)
    best = least_loaded(model);
  if (!best)
    return std::nullopt;
  auto& e = engines_[*best];
  ++e.busy;
  publish(e);
  return e.spec.name;
}

void engine_slots::give_back(const std::string& name) {
  auto* e = find(name);
  if (!e || e->busy == 0)
    return;
  --e->busy;
  publish(*e);
  erase_if_gone(name);
}

void engine_slots::count_render(const std::string& name, bool succeeded) {
  auto* e = find(name);
  if (!e)
    return;
  ++(succeeded ? e->done : e->failed);
  if (succeeded) // it works: failures before this one are not in a row with the next
    e->failed_probes = 0;
}

bool engine_slots::join(providers::engine_capacity spec) {
  if (auto* e = find(spec.name)) {
    if (!e->leaving)
      return false;
    // Added again before its last render ended: the new one takes over its slots' count.
    int busy = e->busy;
    *e = engine{std::move(spec)};
    e->busy = busy;
    publish(*e);
    return true;
  }
  engines_.push_back({std::move(spec)});
  publish(engines_.back());
  return true;
}

bool engine_slots::leave(const std::string& name) {
  auto* e = find(name);
  if (!e || e->leaving)
    return false;
  e->leaving = true;
  publish(*e);
  erase_if_gone(name);
  return true;
}

void engine_slots::erase_if_gone(const std::string& name) {
  auto it = std::find_if(engines_.begin(), engines_.end(), [&](auto& e) { return e.spec.name == name; });
  if (it != engines_.end() && it->leaving && it->busy == 0)
    engines_.erase(it);
}

bool engine_slots::drain(const std::string& name, bool draining) {
  auto* e = find(name);
  if (!e || e->leaving)
    return false;
  e->draining = draining;
  return true;
}

engine_slots::health_change engine_slots::probed(const std::string& name, const std::string& error) {
  auto* e = find(name);
  if (!e)
    return health_change::none;
  if (error.empty()) {
    e->failed_probes = 0;
    return std::exchange(e->down, false) ? health_change::came_up : health_change::none;
  }
  e->last_error = error;
  if (++e->failed_probes < probe_failures_for_down || e->down)
    return health_change::none;
  e->down = true;
  return health_change::went_down;
}

engine_slots::health_change engine_slots::render_failed(const std::string& name) {
  auto* e = find(name);
  if (!e || e->down)
    return health_change::none;
  return probed(name, "its renders failed (provider_unavailable)");
}

std::vector<engine_view> engine_slots::view() const {
  std::vector<engine_view> out;
  for (auto& e : engines_)
    if (!e.leaving)
      out.push_back({e.spec, e.busy, e.draining ? "draining" : e.down ? "down" : "up", e.last_error, e.done, e.failed});
  return out;
}

int engine_slots::slots_for(const std::string& model) const {
  int n = 0;
  for (auto& e : engines_)
    if (e.takes_work() && e.serves(model))
      n += e.spec.slots;
  return n;
}

int engine_slots::total() const {
  int n = 0;
  for (auto& e : engines_)
    if (!e.leaving)
      n += e.spec.slots;
  return n;
}

int engine_slots::busy() const {
  int n = 0;
  for (auto& e : engines_)
    n += e.busy;
  return n;
}

} // namespace svc::actors
