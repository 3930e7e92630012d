#pragma once
// Builds the generation back end and worker pool that a configuration asks
// for (`--provider`, `--remote-*`, `--render-delay`, `--workers`), so svcd wires them alike.

#include <memory>
#include <string>

#include "core/config.hpp"
#include "providers/generation_backend.hpp"
#include "providers/worker_pool.hpp"

namespace svc::providers {

/// The back end named by `cfg.provider`; nullptr with a reason in `error`
/// when this build has no such back end.
std::unique_ptr<generation_backend> make_backend(const core::config& cfg, std::string& error);

/// A pool of `cfg.workers` threads (0: one per core).
std::unique_ptr<worker_pool> make_worker_pool(const core::config& cfg);

} // namespace svc::providers
