#include "providers/backends.hpp"

#include "providers/keyframe_video_backend.hpp"
#include "providers/procedural_renderer.hpp"
#include "providers/remote/remote_backend.hpp"

namespace svc::providers {
namespace {

std::unique_ptr<generation_backend> make_remote(const core::config& cfg, std::string& error) {
  std::string why;
  auto url = parse_remote_url(cfg.remote_url, why);
  if (!url) {
    error = "--provider remote needs --remote-url http://host:port of an AUTOMATIC1111-compatible server: " + why;
    return nullptr;
  }
  // Zero would poll without pause or fail every job at once.
  for (auto [name, d] : {std::pair{"--remote-timeout", cfg.remote_timeout},
                         std::pair{"--remote-connect-timeout", cfg.remote_connect_timeout},
                         std::pair{"--remote-poll", cfg.remote_poll}})
    if (d.count() <= 0) {
      error = std::string(name) + " must be longer than 0ms";
      return nullptr;
    }
  remote_options opts;
  opts.url = std::move(*url);
  opts.timeout = cfg.remote_timeout;
  opts.connect_timeout = cfg.remote_connect_timeout;
  opts.retries = cfg.remote_retries;
  opts.backoff = cfg.remote_backoff;
  opts.poll = cfg.remote_poll;
  // The GPU server makes stills; videos animate a keyframe it rendered.
  return std::make_unique<keyframe_video_backend>(std::make_unique<remote_backend>(std::move(opts)));
}

} // namespace

std::unique_ptr<generation_backend> make_backend(const core::config& cfg, std::string& error) {
  if (cfg.provider == "procedural") {
    procedural_options opts;
    opts.render_delay = cfg.render_delay;
    opts.init_image_limits.max_pixels = cfg.max_upload_pixels;
    return std::make_unique<procedural_renderer>(opts);
  }
  if (cfg.provider == "remote")
    return make_remote(cfg, error);
  error = "provider '" + cfg.provider + "' is not available in this build (available: procedural, remote)";
  return nullptr;
}

std::unique_ptr<worker_pool> make_worker_pool(const core::config& cfg) {
  return std::make_unique<worker_pool>(cfg.workers);
}

} // namespace svc::providers
