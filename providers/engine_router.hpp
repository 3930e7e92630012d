#pragma once
// The back end of a catalogue (`--engines`): each render goes to an engine
// that serves its model and has a slot free, and waits for one otherwise, so
// no engine runs more renders than its slots.

#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "providers/generation_backend.hpp"

namespace svc::providers {

/// One engine as the router sees it.
struct routed_engine {
  std::string name;
  int slots = 1;
  std::unique_ptr<generation_backend> backend;
  std::vector<std::string> models; ///< ids of the models it serves
};

/// Thread-safe, as every back end.
class engine_router final : public generation_backend {
public:
  /// Routes over `engines`.
  explicit engine_router(std::vector<routed_engine> engines);

  /// Renders on `req.engine`, or without one on the least busy engine
  /// serving `req.model` (waiting for a slot, or for `cancel`);
  /// `provider_error` for a model no engine serves (or the named one does not).
  render_outcome render(const render_request& req, const progress_fn& progress, const cancel_token& cancel) override;

  /// `engines`.
  std::string_view name() const override { return "engines"; }

  /// The sum of the engines' slots: renders that can run at once.
  int slots() const;

  std::vector<engine_capacity> engines() const override;

private:
  struct engine {
    routed_engine spec;
    int busy = 0;
  };
  engine* claim(const std::string& model, const std::string& name, const cancel_token& cancel);

  std::vector<engine> engines_;
  std::mutex mutex_;
  std::condition_variable freed_;
};

} // namespace svc::providers
