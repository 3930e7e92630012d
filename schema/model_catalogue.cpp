#include "schema/model_catalogue.hpp"

#include <algorithm>

namespace svc::schema {
namespace {

api_error invalid(std::string param, std::string detail) {
  return make_api_error(error_code::invalid_parameter, {{"detail", std::move(detail)}}, std::move(param));
}

std::string size_text(frame_size s) { return std::to_string(s.width) + "x" + std::to_string(s.height); }

// The model and the request's size, with the model's default size where the
// body gave none (a side the body gave keeps its value).
checked<const model_entry*> resolve_common(const model_catalogue& catalogue, model_kind kind,
                                           generation_request& r) {
  const model_entry* m = nullptr;
  if (r.model) {
    m = catalogue.find(*r.model);
    if (!m)
      return invalid("model", "no model has this id (GET /v1/models lists them)");
    if (m->kind != kind)
      return invalid("model", "the model makes " + std::string{to_string(m->kind)} + "s, not "
                                + std::string{to_string(kind)} + "s");
  } else {
    m = catalogue.default_for(kind);
    if (!m)
      return invalid("model", "this server offers no " + std::string{to_string(kind)} + " model");
  }
  if (!r.width_given)
    r.width = m->default_size.width;
  if (!r.height_given)
    r.height = m->default_size.height;
  if (r.width > m->max_size.width)
    return invalid("width", "the model " + m->id + " renders at most " + size_text(m->max_size));
  if (r.height > m->max_size.height)
    return invalid("height", "the model " + m->id + " renders at most " + size_text(m->max_size));
  return m;
}

} // namespace

std::string_view to_string(model_kind k) { return k == model_kind::image ? "image" : "video"; }

model_catalogue::model_catalogue(std::vector<model_entry> models, std::vector<model_lora> loras,
                                 std::vector<std::string> slug_models)
    : models_(std::move(models)), loras_(std::move(loras)), slug_models_(std::move(slug_models)) {
  for (std::size_t i = 0; i < models_.size(); ++i)
    if (models_[i].is_default)
      defaults_.emplace(models_[i].kind, i);
  for (std::size_t i = 0; i < models_.size(); ++i)
    defaults_.emplace(models_[i].kind, i); // no effect where a marked one is in
}

const model_entry* model_catalogue::find(std::string_view id) const {
  for (auto& m : models_)
    if (m.id == id)
      return &m;
  return nullptr;
}

const model_entry* model_catalogue::default_for(model_kind kind) const {
  auto it = defaults_.find(kind);
  return it == defaults_.end() ? nullptr : &models_[it->second];
}

const model_lora* model_catalogue::lora(std::string_view slug) const {
  for (auto& l : loras_)
    if (l.slug == slug)
      return &l;
  return nullptr;
}

bool model_catalogue::takes_any_slug(const model_entry& model) const {
  return std::find(slug_models_.begin(), slug_models_.end(), model.id) != slug_models_.end();
}

bool model_catalogue::lora_fits(std::string_view slug, const model_entry& model) const {
  if (auto* placed = lora(slug))
    return std::find(placed->models.begin(), placed->models.end(), model.id) != placed->models.end() ||
           takes_any_slug(model);
  return takes_any_slug(model);
}

model_catalogue builtin_catalogue(std::string_view builtin_id) {
  model_entry image;
  image.id = std::string{builtin_id} + "-image";
  image.kind = model_kind::image;
  image.description = "the built-in back end's images";
  image.default_size = {1024, 1024};
  image.max_size = {2048, 2048};
  model_entry video;
  video.id = std::string{builtin_id} + "-video";
  video.kind = model_kind::video;
  video.description = "the built-in back end's videos";
  video.default_size = {768, 432};
  video.max_size = {2048, 2048};
  std::vector<std::string> slug_models{image.id, video.id};
  return model_catalogue{{std::move(image), std::move(video)}, {}, std::move(slug_models)};
}

checked<const model_entry*> resolve_model(const model_catalogue& catalogue, image_request& r) {
  auto m = resolve_common(catalogue, model_kind::image, r);
  if (m && r.steps > m.value()->max_steps)
    return invalid("steps", "the model " + m.value()->id + " takes at most " + std::to_string(m.value()->max_steps)
                              + " steps");
  return m;
}

checked<const model_entry*> resolve_model(const model_catalogue& catalogue, video_request& r) {
  auto m = resolve_common(catalogue, model_kind::video, r);
  if (!m)
    return m;
  auto& model = *m.value();
  if (!r.duration_given)
    r.duration_seconds = model.default_duration;
  if (!r.fps_given)
    r.fps = model.default_fps;
  if (r.duration_seconds > model.max_duration)
    return invalid("duration_seconds", "the model " + model.id + " makes at most " +
                                         std::to_string(model.max_duration) + " seconds");
  if (r.fps < model.min_fps || r.fps > model.max_fps)
    return invalid("fps", "the model " + model.id + " takes " + std::to_string(model.min_fps) + " to " +
                            std::to_string(model.max_fps) + " fps");
  return m;
}

price_table model_price_table(const model_entry& model, std::string_view api_version) {
  const auto& base = pricing_for(api_version);
  if (model.prices.empty())
    return base;
  // Versions are ISO dates, so text order is time order.
  const model_price* chosen = &model.prices.front();
  for (auto& p : model.prices)
    if (p.api_version <= api_version)
      chosen = &p;
  price_table t;
  t.api_version = base.api_version;
  for (auto& [item, credits] : chosen->items) {
    std::string_view unit;
    for (auto& i : base.items)
      if (i.item == item)
        unit = i.unit;
    t.items.push_back({item, unit, credits});
  }
  return t;
}

} // namespace svc::schema
