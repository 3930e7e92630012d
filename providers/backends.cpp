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
                         std::pair{"--remote-poll", cfg.remote_poll}, std::pair{"--engine-silence", cfg.engine_silence},
                         std::pair{"--engine-probe-interval", cfg.engine_probe_interval}})
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

// The setups of `models`, and the files of the LoRAs they take.
void setups_of(const std::vector<std::string>& models, const engines_file& file,
               std::map<std::string, model_setup>& setups, std::map<std::string, std::string>& lora_files) {
  for (auto& id : models) {
    setups.emplace(id, file.setups.at(id));
    for (auto& l : file.loras)
      if (std::find(l.models.begin(), l.models.end(), id) != l.models.end())
        lora_files.emplace(l.slug, l.file);
  }
}

// The ids of the models the file gives `e`.
std::vector<std::string> models_of(const engine_spec& e, const engines_file& file) {
  std::vector<std::string> ids;
  for (auto& m : file.models)
    if (serves(m, e))
      ids.push_back(m.id);
  return ids;
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
                                                 const std::vector<std::string>& models, const engines_file& file,
                                                 std::string& error) {
  std::map<std::string, model_setup> setups;
  std::map<std::string, std::string> lora_files;
  setups_of(models, file, setups, lora_files);
  std::string why;
  auto backend = std::make_unique<comfyui_backend>(e, *parse_remote_url(e.url, why), std::move(setups),
                                                   std::move(lora_files), engine_options<comfyui_options>(cfg));
  if (error = backend->check_workflows(); !error.empty())
    return nullptr;
  return backend;
}

// A Cog container, its input maps checked against its schema when it answers.
std::unique_ptr<generation_backend> make_cog(const core::config& cfg, const engine_spec& e,
                                             const std::vector<std::string>& models, const engines_file& file,
                                             const engine_callbacks& callbacks, std::string& error) {
  std::map<std::string, model_setup> setups;
  std::map<std::string, std::string> lora_files;
  setups_of(models, file, setups, lora_files);
  std::string why;
  auto backend = std::make_unique<cog_backend>(e, *parse_remote_url(e.url, why), std::move(setups),
                                               std::move(lora_files), engine_options<cog_options>(cfg), callbacks);
  if (error = backend->check_inputs(); !error.empty())
    return nullptr;
  return backend;
}

// The back end of engine `e`, serving `models`.
std::unique_ptr<generation_backend> make_engine(const core::config& cfg, const engine_spec& e,
                                                const std::vector<std::string>& models, const engines_file& file,
                                                const engine_callbacks& callbacks, std::string& error) {
  std::string why;
  switch (e.kind) {
  case engine_kind::procedural: return make_procedural(cfg);
  case engine_kind::a1111: return make_a1111(cfg, *parse_remote_url(e.url, why), e.headers);
  case engine_kind::comfyui: return make_comfyui(cfg, e, models, file, error);
  case engine_kind::cog: return make_cog(cfg, e, models, file, callbacks, error);
  }
  error = "engine " + e.name + ": unknown kind";
  return nullptr;
}

// Why engine `e` cannot serve `models`: a model the file does not have, or
// one driven by engines of another kind (each model is driven one way).
std::string unservable(const engine_spec& e, const std::vector<std::string>& models, const engines_file& file) {
  if (models.empty())
    return "an engine serves at least one model";
  for (auto& id : models) {
    auto m = std::find_if(file.models.begin(), file.models.end(), [&](auto& entry) { return entry.id == id; });
    if (m == file.models.end())
      return "no model has the id " + id;
    for (auto& other : file.engines)
      if (serves(*m, other) && other.kind != e.kind)
        return "the model " + id + " runs on " + std::string{to_string(other.kind)} + " engines, not " +
               std::string{to_string(e.kind)};
  }
  return {};
}

// What `e` is, for the scheduler and the admin API.
engine_capacity capacity_of(const engine_spec& e, std::vector<std::string> models) {
  std::string why;
  auto url = e.url.empty() ? std::nullopt : parse_remote_url(e.url, why);
  return {e.name, e.slots, std::move(models), std::string{to_string(e.kind)}, url ? url->text() : ""};
}

std::optional<generation_setup> from_engines_file(const core::config& cfg, const engine_callbacks& callbacks,
                                                  std::string& error) {
  auto read = read_engines_file(cfg.engines, error);
  if (!read || !remote_durations_valid(cfg, error))
    return std::nullopt;
  auto file = std::make_shared<const engines_file>(std::move(*read));
  std::vector<routed_engine> engines;
  for (auto& e : file->engines) {
    auto models = models_of(e, *file);
    auto backend = make_engine(cfg, e, models, *file, callbacks, error);
    if (!backend)
      return std::nullopt;
    engines.push_back({capacity_of(e, std::move(models)), std::move(backend)});
  }
  // An engine added at run time runs the file's models, as the file's engines of its kind do.
  auto builder = [&cfg, file, callbacks](const engine_spec& e, const std::vector<std::string>& models,
                                         std::string& why) -> std::unique_ptr<generation_backend> {
    if (why = engine_spec_problem(e); !why.empty())
      return nullptr;
    if (why = unservable(e, models, *file); !why.empty())
      return nullptr;
    return make_engine(cfg, e, models, *file, callbacks, why);
  };
  auto router = std::make_unique<engine_router>(std::move(engines), std::move(builder));
  generation_setup setup;
  setup.workers = cfg.workers > 0 ? cfg.workers : workers_per_engine_slot * router->slots();
  setup.fleet = router.get();
  setup.backend = std::move(router);
  setup.models = std::make_shared<const schema::model_catalogue>(file->models, file->loras, file->slug_models);
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
