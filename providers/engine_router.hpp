#pragma once
// The back end of a catalogue (`--engines`): each render goes to an engine
// that serves its model and has a slot free, and waits for one otherwise, so
// no engine runs more renders than its slots. Engines join and leave while
// it runs (engine_fleet.hpp).

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "providers/engine_fleet.hpp"
#include "providers/generation_backend.hpp"

namespace svc::providers {

/// One engine as the router sees it.
struct routed_engine {
  engine_capacity spec; ///< its name, slots, models, kind and URL
  std::unique_ptr<generation_backend> backend;
};

/// Builds the back end of an engine that joins at run time, serving
/// `models`: nullptr with `error` set when it cannot.
using engine_builder =
  std::function<std::unique_ptr<generation_backend>(const engine_spec& spec, const std::vector<std::string>& models,
                                                    std::string& error)>;

/// Thread-safe, as every back end.
class engine_router final : public generation_backend, public engine_fleet {
public:
  /// Routes over `engines`; engines added later are built by `builder`.
  engine_router(std::vector<routed_engine> engines, engine_builder builder);

  /// Renders on `req.engine`, or without one on the least busy engine
  /// serving `req.model` (waiting for a slot, or for `cancel`);
  /// `provider_error` for a model no engine serves (or the named one does not).
  render_outcome render(const render_request& req, const progress_fn& progress, const cancel_token& cancel) override;

  /// `engines`.
  std::string_view name() const override { return "engines"; }

  /// The sum of the engines' slots: renders that can run at once.
  int slots() const;

  std::vector<engine_capacity> engines() const override;
  std::string add(const engine_spec& spec, const std::vector<std::string>& models) override;
  bool remove(const std::string& name) override;
  std::string probe(const std::string& name, std::chrono::milliseconds timeout) override;
  using generation_backend::probe;

private:
  struct engine {
    routed_engine routed;
    int busy = 0; // under mutex_
  };
  std::shared_ptr<engine> claim(const std::string& model, const std::string& name, const cancel_token& cancel);
  std::shared_ptr<engine> find(const std::string& name) const; // under mutex_

  // Shared: a render keeps its engine while it runs, also once it is removed.
  std::vector<std::shared_ptr<engine>> engines_;
  engine_builder builder_;
  mutable std::mutex mutex_;
  std::condition_variable freed_;
};

} // namespace svc::providers
