#include "providers/engine_router.hpp"

#include <algorithm>
#include <chrono>

namespace svc::providers {
namespace {

// A render waiting for a slot looks at its cancel token this often.
constexpr std::chrono::milliseconds slot_wait_period{50};

} // namespace

engine_router::engine_router(std::vector<routed_engine> engines) {
  for (auto& e : engines)
    engines_.push_back({std::move(e), 0});
}

int engine_router::slots() const {
  int n = 0;
  for (auto& e : engines_)
    n += e.spec.slots;
  return n;
}

std::vector<engine_capacity> engine_router::engines() const {
  std::vector<engine_capacity> out;
  for (auto& e : engines_)
    out.push_back({e.spec.name, e.spec.slots, e.spec.models});
  return out;
}

engine_router::engine* engine_router::claim(const std::string& model, const std::string& name,
                                            const cancel_token& cancel) {
  std::unique_lock lock{mutex_};
  for (;;) {
    engine* best = nullptr;
    bool serves = false;
    for (auto& e : engines_) {
      if ((!name.empty() && e.spec.name != name) ||
          std::find(e.spec.models.begin(), e.spec.models.end(), model) == e.spec.models.end())
        continue;
      serves = true;
      // Least busy by share of its slots, so a 4-slot engine takes more.
      if (e.busy < e.spec.slots && (!best || e.busy * best->spec.slots < best->busy * e.spec.slots))
        best = &e;
    }
    if (!serves || cancel.cancelled())
      return nullptr;
    if (best) {
      ++best->busy;
      return best;
    }
    freed_.wait_for(lock, slot_wait_period);
  }
}

render_outcome engine_router::render(const render_request& req, const progress_fn& progress,
                                     const cancel_token& cancel) {
  auto* e = claim(req.model, req.engine, cancel);
  if (!e)
    return cancel.cancelled() ? provider_error::cancelled()
                              : provider_error::failed(req.engine.empty()
                                                         ? "no engine serves the model " + req.model
                                                         : "the engine " + req.engine + " does not serve the model " + req.model);
  auto outcome = e->spec.backend->render(req, progress, cancel);
  {
    std::lock_guard lock{mutex_};
    --e->busy;
  }
  freed_.notify_all();
  return outcome;
}

} // namespace svc::providers
