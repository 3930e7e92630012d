#include "providers/engine_router.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>

#include "providers/remote/remote_url.hpp"

namespace svc::providers {
namespace {

// A render waiting for a slot looks at its cancel token this often.
constexpr std::chrono::milliseconds slot_wait_period{50};

bool serves(const engine_capacity& e, const std::string& model) {
  return std::find(e.models.begin(), e.models.end(), model) != e.models.end();
}

} // namespace

engine_router::engine_router(std::vector<routed_engine> engines, engine_builder builder)
    : builder_(std::move(builder)) {
  for (auto& e : engines)
    engines_.push_back(std::make_shared<engine>(engine{std::move(e), 0}));
}

int engine_router::slots() const {
  std::lock_guard lock{mutex_};
  int n = 0;
  for (auto& e : engines_)
    n += e->routed.spec.slots;
  return n;
}

std::vector<engine_capacity> engine_router::engines() const {
  std::lock_guard lock{mutex_};
  std::vector<engine_capacity> out;
  for (auto& e : engines_)
    out.push_back(e->routed.spec);
  return out;
}

std::shared_ptr<engine_router::engine> engine_router::find(const std::string& name) const {
  for (auto& e : engines_)
    if (e->routed.spec.name == name)
      return e;
  return nullptr;
}

std::string engine_router::add(const engine_spec& spec, const std::vector<std::string>& models) {
  {
    std::lock_guard lock{mutex_};
    if (find(spec.name))
      return "an engine named " + spec.name + " exists already";
  }
  // Built and checked outside the lock: the checks ask the engine.
  std::string error;
  auto backend = builder_ ? builder_(spec, models, error) : nullptr;
  if (!backend)
    return error.empty() ? "engines cannot be added to this back end" : error;
  std::string why;
  auto url = parse_remote_url(spec.url, why);
  engine_capacity cap{spec.name, spec.slots, models, std::string{to_string(spec.kind)}, url ? url->text() : ""};
  std::lock_guard lock{mutex_};
  if (find(spec.name)) // added meanwhile by another call
    return "an engine named " + spec.name + " exists already";
  engines_.push_back(std::make_shared<engine>(engine{routed_engine{std::move(cap), std::move(backend)}, 0}));
  return {};
}

bool engine_router::remove(const std::string& name) {
  std::lock_guard lock{mutex_};
  auto it = std::find_if(engines_.begin(), engines_.end(), [&](auto& e) { return e->routed.spec.name == name; });
  if (it == engines_.end())
    return false;
  engines_.erase(it);
  return true;
}

std::string engine_router::probe(const std::string& name, std::chrono::milliseconds timeout) {
  std::shared_ptr<engine> e;
  {
    std::lock_guard lock{mutex_};
    e = find(name);
  }
  return e ? e->routed.backend->probe(timeout) : "no engine named " + name;
}

std::shared_ptr<engine_router::engine> engine_router::claim(const std::string& model, const std::string& name,
                                                            const cancel_token& cancel) {
  std::unique_lock lock{mutex_};
  for (;;) {
    std::shared_ptr<engine> best;
    bool served = false;
    for (auto& e : engines_) {
      auto& spec = e->routed.spec;
      if ((!name.empty() && spec.name != name) || !serves(spec, model))
        continue;
      served = true;
      // Least busy by share of its slots, so a 4-slot engine takes more.
      if (e->busy < spec.slots && (!best || e->busy * best->routed.spec.slots < best->busy * spec.slots))
        best = e;
    }
    if (!served || cancel.cancelled())
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
  auto e = claim(req.model, req.engine, cancel);
  if (!e) {
    if (cancel.cancelled())
      return provider_error::cancelled();
    if (req.engine.empty())
      return provider_error::failed("no engine serves the model " + req.model);
    bool gone = [&] {
      std::lock_guard lock{mutex_};
      return !find(req.engine);
    }();
    // Removed after it was chosen: the render goes to another engine.
    if (gone)
      return provider_error::unavailable("the engine " + req.engine + " was removed");
    return provider_error::failed("the engine " + req.engine + " does not serve the model " + req.model);
  }
  // The slot frees once: when the engine is done (its outputs are fetched
  // after), or when the render returns.
  auto released = std::make_shared<std::atomic<bool>>(false);
  auto release = [this, e, released] {
    if (released->exchange(true))
      return;
    {
      std::lock_guard lock{mutex_};
      --e->busy;
    }
    freed_.notify_all();
  };
  if (req.engine_done)
    req.engine_done->listen(release);
  auto outcome = e->routed.backend->render(req, progress, cancel);
  release();
  return outcome;
}

} // namespace svc::providers
