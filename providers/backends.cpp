#include "providers/backends.hpp"

#include "providers/cog/cog_backend.hpp"
#include "providers/comfyui/comfyui_backend.hpp"
#include "providers/engine_router.hpp"
#include "providers/engines_file.hpp"
#include "providers/keyframe_video_backend.hpp"
#include "providers/procedural_renderer.hpp"
#include "providers/remote/remote_backend.hpp"

namespace svc::providers {
namespace {

// Zero would poll without pause or fail every job at once.
bool remote_durations_valid(const core::config& cfg, std::string& error) {
  for (auto [name, d] : {std::pair{"--remote-timeout", cfg.remote_timeout},
                         std::pair{"--remote-connect-timeout", cfg.remote_connect_timeout},
                         std::pair{"--remote-poll", cfg.remote_poll}, std::pair{"--engine-silence", cfg.engine_silence}})
    if (d.count() <= 0) {
      error = std::string(name) + " must be longer than 0ms";
      return false;
    }
  return true;
}

std::unique_ptr<generation_backend> make_a1111(const core::config& cfg, remote_url url,
                                               std::vector<std::pair<std::string, std::string>> headers) {
  remote_options opts;
  opts.url = std::move(url);
  opts.headers = std::move(headers);
  opts.timeout = cfg.remote_timeout;
  opts.connect_timeout = cfg.remote_connect_timeout;
  opts.retries = cfg.remote_retries;
  opts.backoff = cfg.remote_backoff;
  opts.poll = cfg.remote_poll;
  // The GPU server makes stills; videos animate a keyframe it rendered.
  return std::make_unique<keyframe_video_backend>(std::make_unique<remote_backend>(std::move(opts)));
}

std::unique_ptr<generation_backend> make_remote(const core::config& cfg, std::string& error) {
  std::string why;
  auto url = parse_remote_url(cfg.remote_url, why);
  if (!url) {
    error = "--provider remote needs --remote-url http://host:port of an AUTOMATIC1111-compatible server: " + why;
    return nullptr;
  }
  if (!remote_durations_valid(cfg, error))
    return nullptr;
  return make_a1111(cfg, std::move(*url), {});
}

std::unique_ptr<generation_backend> make_procedural(const core::config& cfg) {
  procedural_options opts;
  opts.render_delay = cfg.render_delay;
  opts.init_image_limits.max_pixels = cfg.max_upload_pixels;
  return std::make_unique<procedural_renderer>(opts);
}

bool serves(const schema::model_entry& m, const engine_spec& e) {
  return std::find(m.engines.begin(), m.engines.end(), e.name) != m.engines.end();
}

// The setups of the models `e` serves, and the files of the LoRAs they take.
void served_by(const engine_spec& e, const engines_file& file, std::map<std::string, model_setup>& setups,
               std::map<std::string, std::string>& lora_files) {
  for (auto& m : file.models)
    if (serves(m, e)) {
      setups.emplace(m.id, file.setups.at(m.id));
      for (auto& l : file.loras)
        if (std::find(l.models.begin(), l.models.end(), m.id) != l.models.end())
          lora_files.emplace(l.slug, l.file);
    }
}

// The deadlines and retries of a ComfyUI or Cog engine: the --remote-* options.
template <class Options>
Options engine_options(const core::config& cfg) {
  Options opts;
  opts.timeout = cfg.remote_timeout;
  opts.connect_timeout = cfg.remote_connect_timeout;
  opts.silence = cfg.engine_silence;
  opts.retries = cfg.remote_retries;
  opts.backoff = cfg.remote_backoff;
  return opts;
}

// A ComfyUI engine, its workflows checked against the server when it answers.
std::unique_ptr<generation_backend> make_comfyui(const core::config& cfg, const engine_spec& e,
                                                 const engines_file& file, std::string& error) {
  std::map<std::string, model_setup> setups;
  std::map<std::string, std::string> lora_files;
  served_by(e, file, setups, lora_files);
  std::string why;
  auto backend = std::make_unique<comfyui_backend>(e, *parse_remote_url(e.url, why), std::move(setups),
                                                   std::move(lora_files), engine_options<comfyui_options>(cfg));
  if (error = backend->check_workflows(); !error.empty())
    return nullptr;
  return backend;
}

// A Cog container, its input maps checked against its schema when it answers.
std::unique_ptr<generation_backend> make_cog(const core::config& cfg, const engine_spec& e, const engines_file& file,
                                             const engine_callbacks& callbacks, std::string& error) {
  std::map<std::string, model_setup> setups;
  std::map<std::string, std::string> lora_files;
  served_by(e, file, setups, lora_files);
  std::string why;
  auto backend = std::make_unique<cog_backend>(e, *parse_remote_url(e.url, why), std::move(setups),
                                               std::move(lora_files), engine_options<cog_options>(cfg), callbacks);
  if (error = backend->check_inputs(); !error.empty())
    return nullptr;
  return backend;
}

// The back end of one engine of the file.
std::unique_ptr<generation_backend> make_engine(const core::config& cfg, const engine_spec& e,
                                                const engines_file& file, const engine_callbacks& callbacks,
                                                std::string& error) {
  std::string why;
  switch (e.kind) {
  case engine_kind::procedural: return make_procedural(cfg);
  case engine_kind::a1111: return make_a1111(cfg, *parse_remote_url(e.url, why), e.headers);
  case engine_kind::comfyui: return make_comfyui(cfg, e, file, error);
  case engine_kind::cog: return make_cog(cfg, e, file, callbacks, error);
  }
  error = "engine " + e.name + ": unknown kind";
  return nullptr;
}

std::optional<generation_setup> from_engines_file(const core::config& cfg, const engine_callbacks& callbacks,
                                                  std::string& error) {
  auto file = read_engines_file(cfg.engines, error);
  if (!file || !remote_durations_valid(cfg, error))
    return std::nullopt;
  std::vector<routed_engine> engines;
  for (auto& e : file->engines) {
    routed_engine r{e.name, e.slots, make_engine(cfg, e, *file, callbacks, error), {}};
    if (!r.backend)
      return std::nullopt;
    for (auto& m : file->models)
      if (serves(m, e))
        r.models.push_back(m.id);
    engines.push_back(std::move(r));
  }
  auto router = std::make_unique<engine_router>(std::move(engines));
  generation_setup setup;
  setup.workers = cfg.workers > 0 ? cfg.workers : router->slots();
  setup.backend = std::move(router);
  setup.models = std::make_shared<const schema::model_catalogue>(std::move(file->models), std::move(file->loras),
                                                                 std::move(file->slug_models));
  return setup;
}

} // namespace

std::unique_ptr<generation_backend> make_backend(const core::config& cfg, std::string& error) {
  if (cfg.provider == "procedural")
    return make_procedural(cfg);
  if (cfg.provider == "remote")
    return make_remote(cfg, error);
  error = "provider '" + cfg.provider + "' is not available in this build (available: procedural, remote)";
  return nullptr;
}

bool engines_call_back(const core::config& cfg) {
  if (cfg.engines.empty())
    return false;
  std::string ignored;
  auto file = read_engines_file(cfg.engines, ignored);
  if (!file)
    return false;
  for (auto& e : file->engines)
    if (e.kind == engine_kind::cog)
      return true;
  return false;
}

std::optional<generation_setup> make_generation(const core::config& cfg, const engine_callbacks& callbacks,
                                                std::string& error) {
  if (!cfg.engines.empty())
    return from_engines_file(cfg, callbacks, error);
  generation_setup setup;
  setup.backend = make_backend(cfg, error);
  if (!setup.backend)
    return std::nullopt;
  // Without a file each kind has one model, named after the back end.
  setup.models = std::make_shared<const schema::model_catalogue>(
    schema::builtin_catalogue(cfg.provider == "remote" ? "a1111" : "procedural"));
  setup.workers = cfg.workers;
  return setup;
}

std::unique_ptr<worker_pool> make_worker_pool(int workers) { return std::make_unique<worker_pool>(workers); }

} // namespace svc::providers
