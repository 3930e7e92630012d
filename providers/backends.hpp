#pragma once
// Builds the generation back end and worker pool that a configuration asks
// for (`--engines`, or `--provider` with `--remote-*`, `--render-delay`,
// `--workers`), so svcd wires them alike.

#include <memory>
#include <string>

#include "core/config.hpp"
#include "providers/engine_callbacks.hpp"
#include "providers/engine_fleet.hpp"
#include "providers/generation_backend.hpp"
#include "providers/worker_pool.hpp"
#include "schema/model_catalogue.hpp"

namespace svc::providers {

/// What renders, and what it offers.
struct generation_setup {
  std::unique_ptr<generation_backend> backend;
  engine_fleet* fleet = nullptr; ///< `backend`'s engines, with an engines file; else none
  std::shared_ptr<const schema::model_catalogue> models;
  int workers = 0; ///< renders at once (pool threads); 0: one per core
};

/// The back end named by `cfg.provider`; nullptr with a reason in `error`
/// when this build has no such back end.
std::unique_ptr<generation_backend> make_backend(const core::config& cfg, std::string& error);

/// The engines and models of `cfg.engines`, or without it the back end of
/// `cfg.provider` and its built-in models; nothing with `error` set when the
/// file or an engine's own description refuses them. Cog engines post their
/// webhooks to `callbacks`.
std::optional<generation_setup> make_generation(const core::config& cfg, const engine_callbacks& callbacks,
                                                std::string& error);

/// True when `cfg.engines` names an engine that calls svcd back (Cog); false
/// also when the file cannot be read (make_generation then says why).
bool engines_call_back(const core::config& cfg);

/// A pool of `workers` threads (0: one per core).
std::unique_ptr<worker_pool> make_worker_pool(int workers);

} // namespace svc::providers
