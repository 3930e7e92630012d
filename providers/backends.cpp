#include "providers/backends.hpp"

#include "providers/procedural_renderer.hpp"

namespace svc::providers {

std::unique_ptr<generation_backend> make_backend(const core::config& cfg, std::string& error) {
  if (cfg.provider == "procedural") {
    procedural_options opts;
    opts.render_delay = cfg.render_delay;
    return std::make_unique<procedural_renderer>(opts);
  }
  error = "provider '" + cfg.provider + "' is not available in this build (available: procedural)";
  return nullptr;
}

std::unique_ptr<worker_pool> make_worker_pool(const core::config& cfg) {
  return std::make_unique<worker_pool>(cfg.workers);
}

} // namespace svc::providers
