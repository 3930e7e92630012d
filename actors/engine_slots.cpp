#include "actors/engine_slots.hpp"

#include <algorithm>

#include "core/metric_catalogue.hpp"

namespace svc::actors {

namespace {

std::string label_of(const std::string& engine) { return engine.empty() ? "local" : engine; }

} // namespace

engine_slots::engine_slots(std::vector<providers::engine_capacity> engines, int local_slots) {
  if (engines.empty())
    engines_.push_back({{"", std::max(local_slots, 1), {}}, 0});
  for (auto& e : engines)
    engines_.push_back({std::move(e), 0});
  for (auto& e : engines_) {
    core::metrics::svc().engine_slots.with({label_of(e.spec.name)}).set(e.spec.slots);
    publish(e);
  }
}

void engine_slots::publish(const engine& e) {
  core::metrics::svc().engine_slots_busy.with({label_of(e.spec.name)}).set(e.busy);
}

bool engine_slots::engine::serves(const std::string& model) const {
  // The local engine renders every model; a catalogue engine those it names.
  return spec.name.empty() || std::find(spec.models.begin(), spec.models.end(), model) != spec.models.end();
}

bool engine_slots::serves(const std::string& model) const {
  return std::any_of(engines_.begin(), engines_.end(), [&](const engine& e) { return e.serves(model); });
}

std::optional<std::size_t> engine_slots::least_loaded(const std::string& model,
                                                      const std::vector<std::string>* skipped) const {
  std::optional<std::size_t> best;
  for (std::size_t i = 0; i < engines_.size(); ++i) {
    auto& e = engines_[i];
    if (skipped && std::find(skipped->begin(), skipped->end(), e.spec.name) != skipped->end())
      continue;
    if (e.serves(model) && e.busy < e.spec.slots &&
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
  for (auto& e : engines_)
    if (e.spec.name == name && e.busy > 0) {
      --e.busy;
      publish(e);
      return;
    }
}

std::vector<providers::engine_capacity> engine_slots::capacities() const {
  std::vector<providers::engine_capacity> out;
  for (auto& e : engines_)
    out.push_back(e.spec);
  return out;
}

int engine_slots::total() const {
  int n = 0;
  for (auto& e : engines_)
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
